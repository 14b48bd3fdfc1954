import { describe, expect, it } from 'vitest';
import { CHAOS_NODES, LOAD_FIXTURE_KINDS, LOAD_NODE_A, LOAD_NODE_B, loadReportFixture } from '../../test/support/loadReportFixture.js';
import { renderLoadHtml } from './renderLoadHtml.js';
import type { LoadRun } from '../../load/model.js';

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
const figureOf = (html: string, chart: string): string => new RegExp(`data-testid="chart-${chart}">([\\s\\S]*?)</figure>`).exec(html)?.[1] ?? '';
/** The faults marked on a chart, in document order: each one's action, line's x (px), tooltip, and whether greyed. */
const faultLines = (html: string, chart: string): { action: string; x: number; title: string; muted: boolean }[] =>
  [...figureOf(html, chart).matchAll(/<g class="event( muted)?" data-testid="chaos-marker" data-action="([a-z]+)"><title>([^<]*)<\/title><line class="event-hit" x1="([\d.]+)"/g)].map((m) => ({ action: m[2] ?? '', x: Number(m[4]), title: m[3] ?? '', muted: m[1] !== undefined }));
/** The labels of a chart's faults, in document order (the same as the lines'), with their boxes (px). */
const faultLabels = (html: string, chart: string): { text: string; x: number; y: number; width: number; height: number }[] =>
  [...figureOf(html, chart).matchAll(/<rect class="event-chip" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"[^>]*\/><text class="event-label"[^>]*>([^<]*)<\/text>/g)].map((m) => ({ text: m[5] ?? '', x: Number(m[1]), y: Number(m[2]), width: Number(m[3]), height: Number(m[4]) }));
/** A pixel x on a time chart in seconds, from the positions of two of its axis ticks ("20 s", "30 s"). */
function secondsAt(html: string, chart: string, px: number): number {
  const tick = (s: number): number => Number(new RegExp(`<text x="([\\d.]+)" y="[\\d.]+" text-anchor="middle">${s} s</text>`).exec(figureOf(html, chart))?.[1]);
  return 20 + ((px - tick(20)) / (tick(30) - tick(20))) * 10;
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

  it('says why inclusion tracking ended, and what it could not see plainly, only where that is not 0', () => {
    const report = loadReportFixture('inclusion');
    const inclusion = report.runs[0]?.inclusion;
    if (inclusion === undefined) throw new Error('the fixture tracks no inclusion');
    inclusion.tracking = { endedBy: 'grace', unanswered: 3, hashMismatches: 2, reorgs: 1, deepestReorg: 2, reorgsBeyondHeld: 0, pollErrors: 0, lastPollError: null };
    const table = /<table[^>]*data-testid="inclusion"[\s\S]*?<\/table>/.exec(renderLoadHtml(report))?.[0] ?? '';
    const text = table.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Following ended the grace period ran out');
    expect(text).toContain('Sends with no answer 3');
    expect(text).toContain('Answered with another hash 2');
    expect(text).toContain('Blocks replaced (reorganisations) 1 (deepest 2 blocks)');
    expect(text).not.toContain('Failed polls');
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
    // The thresholds speak of the whole window: an interrupted run's are neither kept nor broken.
    expect(html).toContain('not judged (interrupted)');
    expect(html).not.toMatch(/<span class="(ok|bad)">(kept|broken)<\/span>/);
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

  it('says plainly that a run stopped in its warm-up measured nothing: no chart of warm-up ticks, no 0% of 0 calls', () => {
    const report = loadReportFixture('plain');
    const run = report.runs[0] as LoadRun;
    const none = { ...run.latency, count: 0, min: 0, max: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0 };
    // What runLoad makes of Ctrl-C 1.6 s into a 6 s warm-up: the warm-up's ticks, nothing measured.
    const cut: LoadRun = {
      ...run, durationMs: 0, warmupMs: 6_000, valid: false, invalid: ['nothing was measured: the run was interrupted 1,615 ms into the 6,000 ms warm-up'],
      schedule: { ...run.schedule, targetRate: 50, achievedRate: 0, scheduled: 0, sent: 0, dropped: 0 }, latency: none, service: none, methods: [], batchSizes: [],
      timeline: run.timeline.filter((p) => p.tMs < 0).slice(0, 2), thresholds: [],
      stop: { reason: 'interrupted', atMs: 0, message: 'interrupted 1,615 ms into the 6,000 ms warm-up, before the measured window opened: nothing was measured' },
    };
    const html = renderLoadHtml({ ...report, runs: [cut], verdict: { word: 'INTERRUPTED', exitCode: 130, reasons: ['the report holds what ran before Ctrl-C'], knees: [], summary: '' } });
    expect(byTestId(html, 'no-timeline')).toBe('Nothing was measured (the run ended before its measured window opened): there is nothing to draw over time.');
    expect(chartIds(html)).not.toContain('run-1-latency');
    expect(html).toContain('nothing measured: the run ended before its measured window opened, in its 6.00 s warm-up');
    expect(html).not.toContain('0 ms measured after');
    expect(html).toContain('<span class="badge bad">invalid</span>');
    expect(card(html, 'errors')).toContain('no call measured');
    expect(card(html, 'throughput')).toContain('target 50 req/s');
  });

  describe('a run with faults', () => {
    const report = loadReportFixture('chaos');
    const html = renderLoadHtml(report);
    const labels = ['kill mn2', 'restart mn2', 'pause ln1', 'resume ln1', 'restart any-mn (not done)'];
    const timeCharts = ['compare-latency', 'compare-throughput', 'compare-errors', 'compare-pending', ...[1, 2, 3].flatMap((i) => [`run-${i}-head-lag`, `run-${i}-resources`])];

    it('marks every fault on every time chart, in time order, labelled, the one not done greyed; none on the time to inclusion', () => {
      expect(chartIds(html)).toEqual(['compare-latency', 'compare-throughput', 'compare-errors', 'compare-pending', ...[1, 2, 3].flatMap((i) => [`run-${i}-inclusion`, `run-${i}-head-lag`, `run-${i}-resources`])]);
      for (const chart of timeCharts) {
        const lines = faultLines(html, chart);
        expect(lines.map((l) => l.action), chart).toEqual(['kill', 'restart', 'pause', 'resume', 'restart']);
        expect(lines.map((l) => l.muted), chart).toEqual([false, false, false, false, true]);
        expect(lines.map((l) => l.x), chart).toEqual([...lines.map((l) => l.x)].sort((a, b) => a - b));
        expect(new Set(lines.map((l) => l.x)).size, chart).toBe(5);
        expect(faultLabels(html, chart).map((l) => l.text), chart).toEqual(labels);
        expect(figureOf(html, chart), chart).toContain('Dashed vertical lines mark the faults injected');
      }
      for (const i of [1, 2, 3]) expect(figureOf(html, `run-${i}-inclusion`)).not.toContain('chaos-marker');
      expect(html.match(/data-testid="chaos-marker"/g)).toHaveLength(timeCharts.length * 5);
    });

    it('puts a fault where it happened on each chart\'s own clock: the run\'s start of measurement, or the heads\' first read', () => {
      // mn2's engine began measuring 300 ms after the schedule's t = 0, which the heads' first read preceded by 5.06 s.
      const one = renderLoadHtml({ ...report, runs: report.runs.slice(1, 2) });
      const kill = (chart: string): number => secondsAt(one, chart, faultLines(one, chart)[0]?.x ?? Number.NaN);
      for (const chart of ['run-1-latency', 'run-1-throughput', 'run-1-errors', 'run-1-pending']) expect(kill(chart), chart).toBeCloseTo(20.003 - 0.3, 1);
      for (const chart of ['run-1-head-lag', 'run-1-resources']) expect(kill(chart), chart).toBeCloseTo(20.003 + 5.06, 1);
      expect(faultLabels(one, 'run-1-errors').map((l) => l.text)).toEqual(labels);
      expect(figureOf(one, 'run-1-inclusion')).not.toContain('chaos-marker');
    });

    it('says in each tooltip what was done, when, and why a fault was not done', () => {
      const [kill, , , , notDone] = faultLines(html, 'compare-errors');
      expect(kill?.title).toBe('kill mn2 (20s:kill:mn2:10s), 20,003 ms into the fault schedule; 19.72 s on this chart');
      expect(notDone?.title).toBe('restart any-mn (36s:restart:any-mn), 36,001 ms into the fault schedule; 35.72 s on this chart. Not done: no MN is down');
      expect(faultLines(html, 'run-1-head-lag')[0]?.title).toBe('kill mn2 (20s:kill:mn2:10s), 20,003 ms into the fault schedule; 25.06 s on this chart');
    });

    it('staggers labels of faults a moment apart so that none covers another, or a band\'s label', () => {
      for (const chart of timeCharts) {
        const boxes = faultLabels(html, chart);
        for (const [i, a] of boxes.entries()) {
          for (const b of boxes.slice(i + 1)) {
            const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
            expect(apart, `${chart}: "${a.text}" and "${b.text}"`).toBe(true);
          }
        }
      }
      // Restart mn2 and pause ln1, 0.6 s apart: one below the other.
      const [, restart, pause] = faultLabels(html, 'compare-latency');
      expect(pause?.y).toBeGreaterThan(restart?.y ?? Infinity);
      // mn2 stalled while it was down: the band's label keeps its place in the top row.
      expect(figureOf(html, 'run-2-head-lag')).toMatch(/<text class="band-label"[^>]*>stalled<\/text>/);
    });

    it('leaves out a fault outside a chart\'s time range, and marks nothing where there were no faults', () => {
      const late = structuredClone(report);
      const chaos = late.chaos;
      if (chaos === undefined) throw new Error('the fixture has faults');
      chaos.events = chaos.events.map((e) => ({ ...e, atMs: e.atMs + 60_000 }));
      expect(renderLoadHtml(late)).not.toContain('chaos-marker');
      expect(renderLoadHtml(loadReportFixture('compared'))).not.toContain('chaos-marker');
      expect(CHAOS_NODES.map((n) => n.url)).toEqual(report.runs.map((r) => r.url));
    });
  });

  it('keeps a 10-minute run at 1 s ticks, two nodes, small: every tick drawn, the page well under a megabyte', () => {
    const html = renderLoadHtml(loadReportFixture('long'));
    expect(seriesPoints(html, 'compare-latency', `p50 · ${LOAD_NODE_A}`)).toBe(630);
    expect(html.length).toBeLessThan(400_000);
  });
});
