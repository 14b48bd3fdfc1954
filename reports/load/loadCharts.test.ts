import { describe, expect, it } from 'vitest';
import { LOAD_NODE_A, loadReportFixture } from '../../test/support/loadReportFixture.js';
import type { LoadRun, TimelinePoint } from '../../load/model.js';
import { answerLatencySeries, drawnTicks, headLagChart, pendingSeries, resourcesChart, throughputSeries } from './loadCharts.js';

/** A tick that ended `served` answers (p50 `p50Ms`) and `failed` requests with no answer. */
const tick = (tMs: number, served: number, failed = 0, p50Ms = 6): TimelinePoint => ({
  tMs, sent: served + failed, completed: served + failed, served, okCalls: served, failedCalls: failed, dropped: 0, inFlight: 0, p50Us: served === 0 ? 0 : p50Ms * 1000, p99Us: served === 0 ? 0 : p50Ms * 2000,
});

/** The fixture's plain run with this timeline, window and warm-up. */
function runOf(timeline: TimelinePoint[], durationMs: number, warmupMs: number): LoadRun {
  const base = loadReportFixture('plain').runs[0] as LoadRun;
  return { ...base, url: LOAD_NODE_A, timeline, durationMs, warmupMs };
}

describe('throughput and latency over time', () => {
  it('a node that dies draws no throughput and no latency: its refused connections are drawn apart, as failures', () => {
    // 50 req/s answered in 6 ms; killed at 3.7 s: from then on every request is refused in under a millisecond.
    const run = runOf([tick(-1_000, 50), tick(0, 50), tick(1_000, 50), tick(2_000, 50), tick(3_000, 33, 17), tick(4_000, 0, 50, 0.8), tick(5_000, 0, 35, 0.6)], 5_684, 1_000);
    const { answered, failed } = throughputSeries(run);
    // Seconds 4 and 5 (the 684 ms tick: 35 / 0.684 s) are no answers, all failures.
    expect(answered.map(([, y]) => y)).toEqual([50, 50, 50, 50, 33, 0, 0]);
    expect(failed.slice(-2).map(([, y]) => Math.round(y ?? NaN))).toEqual([50, 51]);
    // The latency drawn is the answers': where the node answered nothing there is a gap, not a fast tick.
    expect(answerLatencySeries(run, 'p50Us').map(([, y]) => y)).toEqual([6, 6, 6, 6, 6, null, null]);
  });

  it('divides each tick by its real length: interleaved segments of 3,333 ms keep their 30 req/s', () => {
    // Three segments joined end to end: ticks at 0, 1, 2 s, then 333 ms, then the next segment's at 3,333 ms...
    const timeline: TimelinePoint[] = [];
    for (let seg = 0; seg < 3; seg++) {
      const at = Math.round((seg * 10_000) / 3);
      for (let k = 0; k < 3; k++) timeline.push(tick(at + k * 1_000, 30));
      timeline.push(tick(at + 3_000, 10));
    }
    timeline.push(tick(10_000, 2)); // the drain after the window: the last answers
    const run = runOf(timeline, 10_000, 0);
    const rates = throughputSeries(run).answered;
    expect(rates.every(([, y]) => y === 30)).toBe(true);
    // The segments' 333 ms ends are too short to give a rate; the drain tick is none of the run's seconds.
    expect(rates.map(([x]) => x)).toEqual([1, 2, 3, 4.333, 5.333, 6.333, 7.667, 8.667, 9.667]);
    expect(drawnTicks(run).at(-1)?.toMs).toBe(10_000);
  });

  it('draws a short last tick of an interrupted run as no rate, and the warm-up\'s cut first tick by its length', () => {
    // Warm-up 1.5 s (its first tick holds 0.5 s of it), interrupted 38 ms into the fourth second.
    const run = runOf([tick(-2_000, 25), tick(-1_000, 50), tick(0, 50), tick(1_000, 50), tick(2_000, 50), tick(3_000, 3)], 3_038, 1_500);
    const rates = throughputSeries(run).answered;
    expect(rates).toEqual([[-1, 50], [0, 50], [1, 50], [2, 50], [3, 50]]);
  });

  it('the pending chart runs on to when tracking ended, so its last point is the "pending at the end" figure', () => {
    // 8 s at 20 tx/s: 7 pending when the window closed, the chain followed 1.5 s more, none pending then.
    const timeline = Array.from({ length: 9 }, (_, k) => ({ ...tick(k * 1_000, 20), pending: k === 8 ? 2 : 7, included: k * 20 }));
    const run = runOf(timeline, 8_000, 0);
    const inclusion = { ...(loadReportFixture('inclusion').runs[0]?.inclusion as NonNullable<LoadRun['inclusion']>), accepted: 160, included: 160, pending: 0, ratio: 1, followedAfterMs: 1_500 };
    const points = pendingSeries({ ...run, inclusion });
    // The drain tick (tMs 8,000) is none of the run's; the end of tracking is.
    expect(points.slice(-2)).toEqual([[8, 7], [9.5, 0]]);
  });
});

describe('the health charts\' legends', () => {
  it('write a trend as the tables do: a minus sign and separators ("RSS trend −3,887.1 MiB/h", "head-lag trend −1,632 ms/h")', () => {
    const run = loadReportFixture('chaos').runs.find((r) => r.health?.resources !== undefined && r.health.head !== undefined);
    const health = run?.health;
    if (run === undefined || health?.resources === undefined || health.head === undefined) throw new Error('the fixture has no run with a node\'s process and head read');
    const line: [{ tMs: number; mb: number }, { tMs: number; mb: number }] = [{ tMs: 0, mb: 100 }, { tMs: 1_000, mb: 99 }];
    const resources = { ...health.resources, rssTrend: { mbPerHour: -3887.12, low: -4000, high: -3700, confidence: 0.95, points: 40, fromMs: 0, line } };
    const lagTrend = { ...(health.head.lagTrend ?? { low: -1700, high: -1500, confidence: 0.95, points: 40, fromMs: 0 }), msPerHour: -1631.8, line: [{ tMs: 0, lagMs: 10 }, { tMs: 1_000, lagMs: 9 }] };
    const trended: Pick<LoadRun, 'health'> = { health: { ...health, resources, head: { ...health.head, lagTrend } as NonNullable<typeof health.head> } };
    expect(resourcesChart('r', trended)).toContain('RSS trend −3,887.1 MiB/h');
    expect(headLagChart('h', trended)).toContain('head-lag trend −1,632 ms/h');
  });
});
