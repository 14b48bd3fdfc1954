import { describe, expect, it } from 'vitest';
import { LOAD_FIXTURE_KINDS, LOAD_NODE_A, LOAD_NODE_B, loadReportFixture } from '../../test/support/loadReportFixture.js';
import { renderLoadHtml } from './renderLoadHtml.js';

/** The text of the element marked data-testid, tags removed and entities decoded (enough for these pages). */
function byTestId(html: string, id: string): string {
  const m = new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</(p|dd|div|pre|ul)>`).exec(html);
  if (!m) throw new Error(`no element ${id}`);
  return (m[1] ?? '').replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}
/** A figure card's label, value and note. */
const card = (html: string, id: string): string => (new RegExp(`data-testid="card-${id}">([\\s\\S]*?)</div></div>`).exec(html)?.[1] ?? '').replace(/<[^>]+>/g, ' ');
const chartIds = (html: string): string[] => [...html.matchAll(/<figure class="chart[^"]*" data-testid="chart-([^"]+)"/g)].map((m) => m[1] ?? '');
/** Points in the path of a series of a chart. */
function seriesPoints(html: string, chart: string, series: string): number {
  const figure = new RegExp(`data-testid="chart-${chart}">([\\s\\S]*?)</figure>`).exec(html)?.[1] ?? '';
  const d = new RegExp(`d="([^"]*)"><title>${series.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</title>`).exec(figure)?.[1] ?? '';
  return (d.match(/[ML]/g) ?? []).length;
}

describe('renderLoadHtml', () => {
  it.each(LOAD_FIXTURE_KINDS)('is one self-contained page that loads nothing and runs nothing (%s)', (kind) => {
    const html = renderLoadHtml(loadReportFixture(kind));
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<(link|img|iframe|object|embed)\b/i);
    expect(html).not.toMatch(/\s(src|href)="(?!#)/i);
    // The one script element is empty: the charts are drawn on the server.
    expect([...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1])).toEqual(['']);
  });

  it('leads with the verdict and what stands behind it, then the run\'s parameters', () => {
    const html = renderLoadHtml(loadReportFixture('inclusion'));
    expect(byTestId(html, 'verdict')).toBe('FAILED (exit 99): thresholds broken: inclusion >= 99% (actual 97.6% at http://127.0.0.1:8545), tti-p99 < 5s (actual 5,531 ms at http://127.0.0.1:8545)');
    expect(html).toContain('class="verdict verdict-failed"');
    const facts = byTestId(html, 'verdict-facts');
    expect(facts).toContain('Threshold broken: inclusion >= 99% (actual 97.6%, limit 99.0%).');
    expect(facts).toContain('2 of 4 threshold(s) kept.');
    expect(byTestId(html, 'meta-command')).toContain('chainrpc load --scenario transfers');
    expect(byTestId(html, 'meta-model')).toBe('open (poisson arrivals): 400 req/s for 1 min 00 s');
    expect(byTestId(html, 'meta-warm-up')).toBe('5.00 s, left out of every figure');
    expect(byTestId(html, 'meta-profile')).toBe('reference');
    expect(byTestId(html, 'meta-tool')).toBe('chainrpc 0.1.0');
    expect(byTestId(html, 'definition')).toContain('"corpus": "transfers-24k"');
  });

  it('draws latency, throughput and errors over time for a run, and pending and time to inclusion when transactions were tracked', () => {
    const report = loadReportFixture('inclusion');
    const html = renderLoadHtml(report);
    expect(chartIds(html)).toEqual(['run-1-latency', 'run-1-throughput', 'run-1-errors', 'run-1-pending', 'run-1-inclusion']);
    const ticks = report.runs[0]?.timeline.length ?? 0;
    expect(seriesPoints(html, 'run-1-latency', 'p99')).toBe(ticks);
    expect(html).toMatch(/<rect class="band"[^>]*><title>warm-up \(left out of every figure\)<\/title>/);
    expect(html).toMatch(/data-testid="chart-run-1-inclusion">[\s\S]*?<rect class="bar c3"[\s\S]*?>p50 1,\d{3} ms<\/text>/);
  });

  it('shows the figures of a run in ms, by method with errors by code, by batch size, and its thresholds', () => {
    const report = loadReportFixture('plain');
    const run = report.runs[0];
    const html = renderLoadHtml(report);
    expect(card(html, 'p99')).toContain(`${((run?.latency.p99 ?? 0) / 1000).toFixed(1)} ms`);
    expect(html).toMatch(/<code>chain_getBlockByHeight<\/code><\/th><td class="num">30,778<\/td><td class="num">30,725<\/td><td class="bad">-32603 ×35, -32001 ×18<\/td>/);
    expect(html).toMatch(/<th>batch of 20<\/th><td class="num">11,917<\/td>/);
    expect(html).toMatch(/<code>p99 &lt; 50ms<\/code><\/th><td class="num">[\d.]+ ms<\/td><td class="num">50.0 ms<\/td><td><span class="ok">kept<\/span>/);
  });

  it('compares several nodes side by side and overlays them on the charts', () => {
    const html = renderLoadHtml(loadReportFixture('compared'));
    expect(html).toContain('<h2>2 nodes compared</h2>');
    expect(chartIds(html)).toEqual(['compare-latency', 'compare-throughput', 'compare-errors']);
    expect(seriesPoints(html, 'compare-latency', `p99 · ${LOAD_NODE_A}`)).toBe(70);
    expect(seriesPoints(html, 'compare-latency', `p99 · ${LOAD_NODE_B}`)).toBe(70);
    // The better node's p50 is in bold.
    expect(html).toMatch(/<th>Latency p50<\/th><td class="num best">3\.\d\d ms<\/td><td class="num">7\.\d\d ms<\/td>/);
    expect(html.match(/data-testid="run"/g)).toHaveLength(2);
  });

  it('shows a sweep\'s knee, marked on latency, throughput and errors against rate, and its steps in rate order', () => {
    const html = renderLoadHtml(loadReportFixture('sweep'));
    expect(byTestId(html, 'knee')).toBe('Knee: 2,750 req/s, the highest rate where the SLO held');
    expect(chartIds(html)).toEqual(['sweep-1-latency', 'sweep-1-throughput', 'sweep-1-errors']);
    expect(html.match(/class="marker-label"[^>]*>knee 2,750 req\/s</g)).toHaveLength(3);
    expect([...html.matchAll(/<tr><th class="num">([\d,]+)/g)].map((m) => m[1])).toEqual(['500', '1,000', '2,000', '2,500', '2,750', '3,000', '4,000']);
  });

  it('lists the baseline deltas, regressions marked', () => {
    const html = renderLoadHtml(loadReportFixture('baseline'));
    expect(html.match(/<span class="bad">regression<\/span>/g)).toHaveLength(2);
    expect(html.match(/<span class="ok">within noise<\/span>/g)).toHaveLength(2);
    expect(html).toMatch(/reads-mixed p99<\/code><\/th><td class="num">5.10 ms<\/td><td class="num">[\d.]+ ms<\/td><td class="num bad">\+\d+\.\d%<\/td><td class="num">±15.0%<\/td>/);
  });

  it('says a run is invalid and why, and how it stopped, with the user\'s and the node\'s text as text', () => {
    const html = renderLoadHtml(loadReportFixture('interrupted'));
    expect(byTestId(html, 'invalid')).toContain('the generator fell behind its schedule');
    expect(byTestId(html, 'stop')).toContain('Stopped early: interrupted after 12.4 s of measurement (SIGINT: stopped by the user </script><script>window.__pwned=1</script>');
    expect(html).not.toMatch(/<script>window|<img src=x/);
    expect(html).not.toContain('\u001b');
  });

  it('stays readable for a run that measured nothing', () => {
    const html = renderLoadHtml(loadReportFixture('empty'));
    expect(byTestId(html, 'verdict')).toBe('NOT TRUSTED (exit 1): http://127.0.0.1:9 stopped answering 0.0 s into the run: connect ECONNREFUSED 127.0.0.1:9; figures not to be trusted: http://127.0.0.1:9: no request was answered: the node could not be reached');
    expect(byTestId(html, 'no-timeline')).toBe('No tick was recorded: there is nothing to draw over time.');
    expect(card(html, 'p99')).toContain(' — ');
    expect(byTestId(html, 'stop')).toContain('the node could not be reached before measurement began (connect ECONNREFUSED 127.0.0.1:9)');
  });

  it('keeps a 10-minute run at 1 s ticks, two nodes, small: every tick drawn, the page well under a megabyte', () => {
    const html = renderLoadHtml(loadReportFixture('long'));
    expect(seriesPoints(html, 'compare-latency', `p50 · ${LOAD_NODE_A}`)).toBe(630);
    expect(html.length).toBeLessThan(400_000);
  });
});
