import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../suites/model.js';
import { fixtureRun, HOSTILE_MESSAGE } from '../../test/support/fixtureRun.js';
import { parseXml, xmlFindAll } from '../../test/support/parseXml.js';
import { ConsoleReporter } from './consoleReporter.js';
import { renderHtml } from './renderHtml.js';
import { renderJson } from './renderJson.js';
import { renderJunit } from './renderJunit.js';
import { renderMarkdown } from './renderMarkdown.js';
import { HINT_CHARS, MESSAGE_CHARS, shortText } from './shortText.js';

// A node that answers every error with 5,000 characters and markup (what the tester's rt6 run met).
const LONG = `answered error -32099 (${'X'.repeat(5000)} ${HOSTILE_MESSAGE}), so there is no height to use`;
const HINT = `3 checks could not fund a fresh key (chain_faucetClaim ${LONG}). Where the network has no faucet, give a funded key with --private-key.`;

function longRun(): RunResult {
  const run = fixtureRun();
  for (const r of run.results) if (r.status === 'fail' || r.status === 'error') r.evidence = { ...r.evidence, message: LONG };
  run.hints = [HINT];
  return run;
}

describe('shortText', () => {
  it('leaves text that fits alone', () => {
    expect(shortText('short', 10)).toBe('short');
    expect(shortText('x'.repeat(400), 400)).toBe('x'.repeat(400));
  });

  it('keeps the start and the end around "…" and the whole length', () => {
    const out = shortText(LONG, MESSAGE_CHARS);
    expect(out.startsWith('answered error -32099 (XXX')).toBe(true);
    expect(out.endsWith('so there is no height to use')).toBe(true);
    expect(out).toContain(`…[cut, ${LONG.length.toLocaleString('en-US')} characters in all]…`);
    expect(out.length).toBeLessThan(MESSAGE_CHARS + 50);
  });

  it('never cuts a surrogate pair', () => {
    const text = '😀'.repeat(500);
    const out = shortText(text, 101);
    expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});

describe("a node's long error message in the reports", () => {
  const run = longRun();

  it('summary.md: no line near the message length; the message and the hint are cut with the whole length', () => {
    const md = renderMarkdown(run);
    const longest = Math.max(...md.split('\n').map((l) => l.length));
    expect(longest).toBeLessThan(HINT_CHARS + 200);
    expect(md).toContain(`characters in all\\]…`);
    expect(md).toContain('give a funded key with --private-key'); // the hint's advice (its end) survives the cut
    expect(md).not.toContain('<script>');
    const grid = renderMarkdown(run, { layout: 'grid' });
    expect(Math.max(...grid.split('\n').map((l) => l.length))).toBeLessThan(HINT_CHARS + 200);
  });

  it('junit.xml: message attributes are cut; the failure text keeps the whole message', () => {
    const withSkip = longRun();
    const skip = withSkip.results.find((r) => r.status === 'skip' && r.baseline === undefined)!;
    skip.evidence = { ...skip.evidence, message: `could not fund a fresh key: ${LONG}` };
    const root = parseXml(renderJunit(withSkip));
    const skipped = xmlFindAll(root, 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const s of skipped) expect(s.attributes.message!.length).toBeLessThan(MESSAGE_CHARS + 50);
    const failures = [...xmlFindAll(root, 'failure'), ...xmlFindAll(root, 'error')];
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures) {
      expect(f.attributes.message!.length).toBeLessThan(MESSAGE_CHARS + 50);
      expect(f.attributes.message).toContain(`[cut, ${LONG.length.toLocaleString('en-US')} characters in all]`);
    }
    expect(renderJunit(withSkip)).toContain('X'.repeat(5000));
  });

  it('report.html: the hint and the message headline are cut; the evidence keeps the whole message', () => {
    for (const layout of ['rows', 'grid'] as const) {
      const html = renderHtml(run, { layout });
      const hint = /<div class="hints"[^>]*>(.*?)<\/div>/s.exec(html)?.[1] ?? '';
      expect(hint.length).toBeLessThan(HINT_CHARS + 400);
      const headlines = [...html.matchAll(/<p class="message" data-testid="message">(.*?)<\/p>/gs)].map((m) => m[1] ?? '');
      expect(headlines.length).toBeGreaterThan(0);
      for (const m of headlines) expect(m.length).toBeLessThan(MESSAGE_CHARS + 200);
      const cells = [...html.matchAll(/<span class="cmsg">(.*?)<\/span>/gs)].map((m) => m[1] ?? '');
      for (const m of cells) expect(m.length).toBeLessThan(MESSAGE_CHARS + 200);
      expect(html).toContain('data-testid="whole-message"');
      expect(html).toContain(`the whole message (${LONG.length.toLocaleString('en-US')} characters)`);
      expect(html).toContain('X'.repeat(5000));
      expect(html).not.toContain('<script>window.__pwned');
    }
  });

  it('report.json keeps every message and hint whole', () => {
    const json = JSON.parse(renderJson(run)) as RunResult;
    expect(json.hints).toEqual([HINT]);
    expect(json.results.filter((r) => r.evidence.message === LONG).length).toBeGreaterThan(0);
  });

  it('the console cuts them too', () => {
    let text = '';
    const reporter = new ConsoleReporter({ write: (t) => void (text += t), live: false, targets: run.targets, now: () => 0 });
    for (const [i, r] of run.results.entries()) reporter.onResult(r, i + 1, run.results.length);
    reporter.summarize(run, { folder: 'r', html: '/r/report.html', replayReport: '' });
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThan(HINT_CHARS + 200);
  });
});
