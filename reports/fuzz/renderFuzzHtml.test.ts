/**
 * report.html of a fuzz run, read as text: one self-contained page, the headline, every finding with its
 * minimal case (text, or hex when not UTF-8), answer, replay command and curl, flaky sightings apart (said,
 * never counted: a run of only those is clean), the charts, nodes, costly cases and tool errors, and a hostile
 * body that stays inert text.
 */
import { describe, expect, it } from 'vitest';
import { fuzzVerdict } from '../../fuzz/fuzzVerdict.js';
import { FUZZ_FIXTURE_KINDS, FUZZ_HOSTILE, FUZZ_NODE_A, FUZZ_NODE_B, fuzzRunFixture } from '../../test/support/fuzzRunFixture.js';
import { renderFuzzHtml } from './renderFuzzHtml.js';

const decode = (html: string): string =>
  html.replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** The decoded text of the first element marked data-testid="<id>" (an element of the given tag). */
function byTestId(html: string, id: string, tag = 'p|pre|dd|section|article'): string {
  const m = new RegExp(`<(${tag})\\b[^>]*data-testid="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  if (!m) throw new Error(`no element ${id}`);
  return decode(m[2] ?? '');
}

describe('renderFuzzHtml', () => {
  const run = fuzzRunFixture('findings');
  const html = renderFuzzHtml(run, { reportPath: '.chainrpc/reports/fuzz-2026-12-01T10-00-00-000Z/report.json', command: 'chainrpc fuzz --url http://127.0.0.1:8545' });

  it.each(FUZZ_FIXTURE_KINDS)('is one self-contained page that loads nothing and runs nothing (%s)', (kind) => {
    const page = renderFuzzHtml(fuzzRunFixture(kind));
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain("default-src 'none'");
    expect(page).not.toMatch(/<(link|img|iframe|object|embed)\b/i);
    expect(page).not.toMatch(/\s(src|href)="(?!#)/i);
    expect([...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1])).toEqual(['']);
  });

  it('says a node that never answered, beside others that did, in the headline and a warning of its own', () => {
    const two = fuzzRunFixture('clean');
    two.targets.push({ url: 'http://10.0.0.9:8545', cases: 0, findings: 0, state: 'unreachable', medianMs: 0, slowBoundMs: 1000, livenessChecks: 1 });
    const page = renderFuzzHtml(two);
    expect(byTestId(page, 'verdict')).toMatch(/; http:\/\/10\.0\.0\.9:8545 did not answer at the start: not fuzzed\)$/);
    expect(byTestId(page, 'unreachable')).toBe('http://10.0.0.9:8545 did not answer a known-good call (chain_blockNumber) at the start: no case was sent to it, so nothing was judged or compared there.');
    expect(html).not.toContain('data-testid="unreachable"');
  });

  it('leads with the headline and the run\'s parameters', () => {
    expect(byTestId(html, 'verdict')).toBe(`FUZZ: 5 findings on ${FUZZ_NODE_A} and ${FUZZ_NODE_B} in 10,793 cases (seed 424242; 1 flaky sighting did not reproduce)`);
    expect(html).toContain('class="verdict verdict-failed"');
    expect(byTestId(html, 'meta-seed')).toBe('424242');
    expect(byTestId(html, 'meta-command')).toBe('chainrpc fuzz --url http://127.0.0.1:8545');
    expect(byTestId(html, 'meta-nodes')).toBe(`${FUZZ_NODE_A}, ${FUZZ_NODE_B}`);
  });

  it('shows every finding, findings first, each with its minimal case, answer, replay command and curl', () => {
    expect(html.indexOf('data-testid="findings"')).toBeLessThan(html.indexOf('data-testid="timeline"'));
    for (const f of run.findings) {
      const article = byTestId(html, `finding-${f.id}`, 'article');
      expect(article).toContain(f.message);
      expect(article).toContain(f.oracle);
      expect(byTestId(html, `replay-finding-${f.id}`)).toBe(`chainrpc fuzz --replay .chainrpc/reports/fuzz-2026-12-01T10-00-00-000Z/report.json ${f.id}`);
      expect(byTestId(html, `curl-finding-${f.id}`)).toBe(f.minimal.curl);
    }
    expect(byTestId(html, 'body-finding-F1')).toBe('{"jsonrpc":"2.0","id":7,"method":"chain_getBlockByHeight","params":["18446744073709551616"]}');
    // The original case, before shrinking, is folded beside the minimal one.
    expect(byTestId(html, 'finding-F1', 'article')).toContain('The original case, before shrinking');
    expect(byTestId(html, 'original-finding-F1')).toMatch(/^\[\{"jsonrpc":"2.0","id":1,"method":"chain_blockNumber"/);
  });

  it('shows a body that is not UTF-8 as hex, and the answers of both nodes of a disagreement', () => {
    expect(html).toContain('<pre class="body hex" data-testid="body-finding-F4">00000000  7b 22 69 64 22 3a ff fe  00 01 7d                 |{&quot;id&quot;:....}|</pre>');
    const f3 = byTestId(html, 'finding-F3', 'article');
    expect(f3).toContain(`${FUZZ_NODE_A}: HTTP 200 in 1.80 ms{"jsonrpc":"2.0","id":2,"result":{"balance":"1000","nonce":0}}`);
    expect(f3).toContain(`${FUZZ_NODE_B}: HTTP 200 in 2.40 ms{"jsonrpc":"2.0","id":2,"result":{"balance":1000,"nonce":0}}`);
  });

  it('puts the flaky sighting in a section of its own after the findings, with the same details, and the liveness finding as not rechecked', () => {
    const flaky = byTestId(html, 'flaky', 'section');
    expect(flaky).toContain('Flaky sightings (seen once, not when sent again; not counted)');
    expect(flaky).toContain('Not findings: the verdict and the exit code do not count them.');
    expect(flaky).toContain('answered in 2,310 ms, beyond the time bound of 1,000 ms');
    expect(flaky).toContain('flaky: not seen again when the minimal case was re-sent, so not counted');
    expect(html).toContain('<article class="finding flaky" id="finding-F6"');
    expect(html.indexOf('data-testid="findings"')).toBeLessThan(html.indexOf('data-testid="flaky"'));
    expect(html.indexOf('data-testid="flaky"')).toBeLessThan(html.indexOf('data-testid="timeline"'));
    expect(html).toContain('<h2>Findings (5)</h2>');
    expect(html).toContain('<a href="#findings">Findings (5)</a><a href="#flaky">Flaky sightings (1)</a>');
    expect(byTestId(html, 'findings', 'section')).not.toContain('answered in 2,310 ms');
    expect(byTestId(html, 'findings', 'section')).toContain('answered a height of the wrong type');
    expect(byTestId(html, 'finding-F2', 'article')).toContain('not rechecked');
  });

  it('keeps a hostile body inert: escaped in the body, the answer, the title, the message and the tool errors', () => {
    expect(html).not.toContain(FUZZ_HOSTILE);
    expect(html).not.toMatch(/<img\b/i);
    expect(html.match(/<script>/g)).toHaveLength(1);
    const escaped = '&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;';
    expect(html.split(escaped).length - 1).toBeGreaterThanOrEqual(6);
    expect(byTestId(html, 'body-finding-F5')).toBe(`{"jsonrpc":"2.0","id":9,"method":"chain_getBlockByHeight","params":["${FUZZ_HOSTILE}"]}`);
  });

  it('draws cases per second with the standing findings marked, and the findings over time without the flaky sighting', () => {
    expect(html).toContain('data-testid="chart-cases"');
    expect(html).toContain('data-testid="chart-findings"');
    for (const f of fuzzVerdict(run).standing) expect(html).toMatch(new RegExp(`<text class="marker-label"[^>]*>${f.id}</text>`));
    expect(html).not.toMatch(/<text class="marker-label"[^>]*>F6<\/text>/);
    const path = /data-testid="chart-cases">[\s\S]*?<path class="s c0" d="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(path.match(/[ML]/g)).toHaveLength(run.timeline.length);
    // The runner's timeline ends at 6 (F6 filed); the chart's last point is the 5 that stand.
    expect(run.timeline.at(-1)?.findings).toBe(6);
    const chart = /data-testid="chart-findings">([\s\S]*?)<\/svg>/.exec(html)?.[1] ?? '';
    // The grid's lines are the y ticks 0, 2, 4, 6 from the bottom: the last point is read against them.
    const grid = [...(/<g class="grid">(.*?)<\/g>/.exec(chart)?.[1] ?? '').matchAll(/y1="([\d.]+)"/g)].map((m) => Number(m[1]));
    const lastY = Number(/<path class="s fail" d="[^"]*L[\d.]+ ([\d.]+)"/.exec(chart)?.[1]);
    const [zero = NaN, two = NaN] = grid;
    expect((zero - lastY) / ((zero - two) / 2)).toBeCloseTo(5, 5);
  });

  it('then the nodes, the cases by family, the most costly cases and the tool errors apart', () => {
    const nodes = byTestId(html, 'nodes', 'section');
    expect(nodes).toContain(`${FUZZ_NODE_A}stopped5,396 of 10,7934`);
    expect(nodes).toContain(`${FUZZ_NODE_B}answering5,397 of 10,7931 (+1 flaky)`);
    expect(nodes).toContain('invalid-params3,238');
    expect(byTestId(html, 'costly', 'section')).toContain('96.4x · a block with 5,000 transactions · 480 ms');
    const tools = byTestId(html, 'tool-errors', 'section');
    expect(tools).toContain('None is counted against a node.');
    expect(tools).toContain(`${FUZZ_NODE_B}: could not fund an account`);
  });

  it('says a clean run found nothing, and draws no costly or tool-error section', () => {
    const clean = renderFuzzHtml(fuzzRunFixture('clean'));
    expect(byTestId(clean, 'verdict')).toBe(`FUZZ: no finding in 10,000 cases (seed 424242, 50.0 s, ${FUZZ_NODE_A})`);
    expect(clean).toContain('class="verdict verdict-passed"');
    expect(byTestId(clean, 'no-finding')).toBe('No finding in 10,000 cases.');
    expect(clean).not.toContain('data-testid="costly"');
    expect(clean).not.toContain('data-testid="tool-errors"');
    const flaky = renderFuzzHtml(fuzzRunFixture('flaky'));
    expect(byTestId(flaky, 'verdict')).toBe(`FUZZ: no finding in 10,000 cases (seed 424242, 50.0 s, ${FUZZ_NODE_A}; 1 flaky sighting did not reproduce)`);
    expect(flaky).toContain('class="verdict verdict-passed"');
    expect(byTestId(flaky, 'no-finding')).toBe('No finding in 10,000 cases (1 flaky sighting did not reproduce: below).');
    expect(byTestId(flaky, 'flaky', 'section')).toContain('F1');
    expect(byTestId(flaky, 'finding-F1', 'article')).toContain('answered in 2,310 ms');
    expect(flaky).not.toMatch(/<text class="marker-label"/);
    const none = renderFuzzHtml(fuzzRunFixture('unreachable'));
    expect(none).toContain('class="verdict verdict-error"');
    expect(byTestId(none, 'stop')).toBe('The run ended early: the node never answered.');
    expect(none).not.toContain('data-testid="timeline"');
  });
});
