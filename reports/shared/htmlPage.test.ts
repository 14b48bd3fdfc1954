import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PAGE_STYLES, htmlPage, metaListHtml } from './htmlPage.js';

const sha = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('htmlPage', () => {
  const styles = `${PAGE_STYLES}.x { color: red; }`;
  const script = 'document.title = "ok";';
  const page = htmlPage({ title: 'a </title><script>x</script>', styles, script, body: ['<main>', '<p>one</p>', '</main>'] });

  it('allows exactly its own stylesheet and script, by hash, before anything they govern', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page)?.[1];
    expect(csp).toBe(`default-src 'none'; style-src ${sha(styles)}; script-src ${sha(script)}; base-uri 'none'; form-action 'none'`);
    expect(page.indexOf('Content-Security-Policy')).toBeLessThan(page.indexOf('<style>'));
    expect(page.split('<script').length - 1).toBe(1);
  });

  it('escapes the title and keeps the body as given, between the stylesheet and the script', () => {
    expect(page).toContain('<title>a &lt;/title&gt;&lt;script&gt;x&lt;/script&gt;</title>');
    expect(page).toContain('</head>\n<body>\n<main>\n<p>one</p>\n</main>\n<script>document.title = "ok";</script>\n</body>\n</html>\n');
    expect(page.startsWith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n')).toBe(true);
  });
});

describe('metaListHtml', () => {
  it('lists facts with a test id per name, every part escaped', () => {
    expect(metaListHtml([['Exit code', '1'], ['Targets', '<b>']])).toBe(
      '<dl class="meta"><dt>Exit code</dt><dd data-testid="meta-exit-code">1</dd><dt>Targets</dt><dd data-testid="meta-targets">&lt;b&gt;</dd></dl>',
    );
  });
});
