import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../shared/escapeHtml.js';
import { REPORT_CSS } from './htmlAssets.js';
import { HOSTILE_MESSAGE, fixtureRun } from '../../test/support/fixtureRun.js';
import { renderHtml } from './renderHtml.js';

const count = (text: string, part: string): number => text.split(part).length - 1;
const sha = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

// The layout of a row per check and node: a run against one node gets it (gridHtml.test.ts checks that it
// is the default there); fixtureRun's two nodes ask for it, to check it with results from more than one node.
describe('renderHtml', () => {
  const run = fixtureRun();
  const html = renderHtml(run, { layout: 'rows' });

  it('is one self-contained document: no external resource, one script and one stylesheet', () => {
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    // Every "<" in the page starts one of its own tags (all else is escaped): none of them loads anything.
    const tags = html.match(/<[^>]*>/g) ?? [];
    expect(tags.filter((t) => /\s(src|href|srcset|action|formaction|on[a-z]+)\s*=/i.test(t))).toEqual([]);
    expect(new Set(tags.map((t) => /^<\/?([a-z0-9!]+)/i.exec(t)?.[1]?.toLowerCase()))).toEqual(
      new Set(['!doctype', 'html', 'head', 'meta', 'title', 'style', 'body', 'header', 'h1', 'p', 'dl', 'dt', 'dd', 'section', 'table', 'tr', 'th', 'td',
        'span', 'nav', 'label', 'input', 'button', 'main', 'h2', 'details', 'summary', 'code', 'div', 'pre', 'strong', 'script', 'ul', 'li']),
    );
    expect(REPORT_CSS).not.toMatch(/@import|url\(/i);
    expect(count(html, '<script')).toBe(1);
    expect(count(html, '</script')).toBe(1);
    expect(count(html, '<style')).toBe(1);
  });

  it('allows exactly its own style and script by hash in the Content-Security-Policy', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    const style = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? '';
    expect(csp).toBe(`default-src 'none'; style-src ${sha(style)}; script-src ${sha(script)}; base-uri 'none'; form-action 'none'`);
    // The CSP comes before anything it governs.
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<style>'));
  });

  it("shows the run's hints under the verdict, escaped, and none when the run has none", () => {
    const box = /<div class="hints" data-testid="hints">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
    expect(box).toContain('First, fix this:');
    expect(box).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(box.match(/<li>/g)).toHaveLength(2);
    expect(html.indexOf('data-testid="hints"')).toBeGreaterThan(html.indexOf('data-testid="verdict"'));
    expect(renderHtml({ ...run, hints: [] }, { layout: 'rows' })).not.toContain('data-testid="hints"');
  });

  it('escapes what the node sent: the hostile body shows as text', () => {
    expect(html).not.toContain('window.__pwned=1</script>');
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain(escapeHtml(JSON.stringify(HOSTILE_MESSAGE)));
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;img src=x onerror=\\&quot;window.__pwned=2\\&quot;&gt; Blöck nicht gefunden: 日本語 ✓');
  });

  it('shows the verdict, the run and the counts', () => {
    expect(html).toContain('<p class="verdict verdict-failed" data-testid="verdict">FAILED at gate MUST: 4 check result(s) at MUST level failed or could not be verified</p>');
    expect(html).toContain('<title>chainrpc: FAILED at gate MUST: 4 check result(s) at MUST level failed or could not be verified</title>');
    expect(html).toContain('data-testid="meta-targets">http://127.0.0.1:8545, http://127.0.0.1:8546</dd>');
    expect(html).toContain('data-testid="meta-profile">reference (built-in (docs/reference-profile.md))</dd>');
    expect(html).toContain('data-testid="count-MUST-fail">3</td>');
    expect(html).toContain('data-testid="count-PROFILE-skip">2</td>');
    for (const s of ['pass', 'fail', 'error', 'skip']) expect(html).toContain(`data-testid="filter-${s}" autocomplete="off" checked`);
  });

  it('renders every result, grouped by category, failing ones expanded unless a baseline expects them', () => {
    expect(count(html, 'data-testid="check"')).toBe(run.results.length);
    const categories = Array.from(html.matchAll(/<section class="category" data-category="([^"]+)"/g), (m) => m[1]);
    expect(categories).toEqual(['transport', 'methods', 'chain', 'state', 'network', 'discovery']);
    const opened = Array.from(html.matchAll(/<details [^>]*data-id="([^"]+)" data-node="([^"]+)" open>/g), (m) => `${m[1]} ${m[2]}`);
    const failing = run.results.filter((r) => (r.status === 'fail' || r.status === 'error') && r.baseline?.state !== 'expected-fail');
    expect(opened.sort()).toEqual(failing.map((r) => `${r.id} ${r.node}`).sort());
    expect(opened).toHaveLength(7);
    expect(html).toContain('expected failure until 2099-12-31: ticket #42: signature checks land in v2');
    expect(html).toContain('baseline lists it, but it passes now: remove the entry');
  });

  // Its size is judged here; its time is not (a shared machine's timing belongs in a benchmark, not a unit test).
  it('stays small with 500 results: every check, under 3 MB', () => {
    const big = fixtureRun({ extraPasses: 500 });
    const text = renderHtml(big, { layout: 'rows' });
    expect(count(text, 'data-testid="check"')).toBe(big.results.length);
    expect(text.length).toBeLessThan(3_000_000);
  });
});

describe('escapeHtml', () => {
  it('leaves no markup character unescaped, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(escapeHtml(s)).toMatch(/^(?:[^<>"'&]|&(?:amp|lt|gt|quot|#39);)*$/u);
      }),
      { numRuns: 300 },
    );
  });
});
