import { describe, expect, it } from 'vitest';
import type { HistogramData, LoadRun, MethodStats } from '../model.js';
import { evaluateThresholds, parseThreshold } from './Threshold.js';

const hist = (p99: number, count = 10): HistogramData => ({ count, min: 1, max: p99 * 2, mean: p99 / 2, p50: p99 / 4, p90: p99 / 2, p99, p999: p99 * 1.5, encoded: '' });
const method = (name: string, calls: number, ok: number, p99: number): MethodStats => ({ method: name, calls, ok, errors: {}, unanswered: 0, validated: 4, invalid: 1, latency: hist(p99), service: hist(p99) });

function run(over: Partial<LoadRun> = {}): LoadRun {
  return {
    url: 'http://127.0.0.1:1', scenario: 't', model: { kind: 'open', distribution: 'uniform', stages: [{ from: 100, to: 100, durationMs: 1000 }] },
    startedAt: '', endedAt: '', warmupMs: 0, durationMs: 1000, valid: true, invalid: [],
    schedule: { targetRate: 100, achievedRate: 98, scheduled: 100, sent: 98, dropped: 2, queuedMax: 0, lagUs: hist(300), readLagUs: hist(2_500) },
    failures: { timeouts: 0, transport: 0, httpStatus: {}, malformed: 0, extraElements: 0, missingElements: 0 },
    latency: hist(200_000), service: hist(150_000),
    methods: [method('chain_blockNumber', 100, 99, 100_000), method('acme_account', 50, 40, 400_000)],
    batchSizes: [], timeline: [], thresholds: [], stop: { reason: 'completed', atMs: 1000 },
    ...over,
  };
}

describe('thresholds', () => {
  it('parse into metric, operator, limit and unit', () => {
    expect(parseThreshold(' p99 < 250ms ')).toEqual({ text: 'p99 < 250ms', metric: 'p99', op: '<', limit: 250, unit: 'ms' });
    expect(parseThreshold('p99<=1.5s').limit).toBe(1500);
    expect(parseThreshold('p50 < 800us').limit).toBe(0.8);
    expect(parseThreshold('chain_getAccount:errors < 1%')).toMatchObject({ method: 'chain_getAccount', metric: 'errors', unit: '%' });
    expect(parseThreshold('dropped == 0').unit).toBe('count');
    expect(parseThreshold('dropped < 1%').unit).toBe('%');
    expect(() => parseThreshold('lag-p99 < 5%')).toThrow(/a time/);
    expect(() => parseThreshold('chain_getAccount:dropped == 0')).toThrow(/whole run/);
    expect(() => parseThreshold('p42 < 1ms')).toThrow(/unknown metric/);
  });

  it('are judged on the run in their units, per method through the profile\'s wire names', () => {
    const results = evaluateThresholds(run(), [
      parseThreshold('p99 < 250ms'),
      parseThreshold('p99 < 150ms'),
      parseThreshold('errors < 10%'),
      parseThreshold('achieved >= 99%'),
      parseThreshold('dropped == 0'),
      parseThreshold('dropped <= 2%'),
      parseThreshold('chain_getAccount:errors < 10%'),
      parseThreshold('chain_getAccount:p99 < 500ms'),
      parseThreshold('invalid < 1%'),
      parseThreshold('lag-p99 < 1ms'),
      parseThreshold('read-lag-p99 < 1ms'),
    ], (m) => (m === 'chain_getAccount' ? 'acme_account' : m));
    expect(results.map((r) => [r.name, r.actual, r.ok])).toEqual([
      ['p99 < 250ms', 200, true],
      ['p99 < 150ms', 200, false],
      ['errors < 10%', 7.333, true],
      // 98 of the 99 requests a 99% bound asks in this 1 s window: one short, kept (achievedWithinOneRequest).
      ['achieved >= 99%', 98, true],
      ['dropped == 0', 2, false],
      ['dropped <= 2%', 2, true],
      ['chain_getAccount:errors < 10%', 20, false],
      ['chain_getAccount:p99 < 500ms', 400, true],
      ['invalid < 1%', 25, false],
      ['lag-p99 < 1ms', 0.3, true],
      ['read-lag-p99 < 1ms', 2.5, false],
    ]);
  });

  it('judge the node\'s health when its head was followed, and break when it was not (nothing measured)', () => {
    const head = {
      startedAt: '', intervalMs: 50, medianIntervalMs: 50, samples: 100, failed: 0, blockTimeMs: 1000, blocks: 5,
      lagMs: { p50: 40, p90: 300, p99: 620, max: 700 }, worst: [], series: [], regressionCount: 3,
      stalls: [{ startMs: 1, endMs: 5000, height: 3, behindBlocks: 4 }],
      regressions: [{ kind: 'height' as const, atMs: 9, height: 3, previous: { atMs: 8, height: 4 } }],
    };
    const texts = ['head-lag-p99 < 500ms', 'head-lag-p99 < 1s', 'stalls == 0', 'regressions <= 3'];
    expect(evaluateThresholds(run({ health: { head } }), texts.map(parseThreshold)).map((r) => [r.name, r.actual, r.ok])).toEqual([
      ['head-lag-p99 < 500ms', 620, false],
      ['head-lag-p99 < 1s', 620, true],
      ['stalls == 0', 1, false],
      ['regressions <= 3', 3, true],
    ]);
    expect(evaluateThresholds(run(), texts.map(parseThreshold)).every((r) => !r.ok && r.actual === null)).toBe(true);
    // A head followed alone has no stalls to count: nothing measured (broken), never a silent 0.
    const alone = { ...head, alone: true as const, lagMs: null, stalls: [] };
    expect(evaluateThresholds(run({ health: { head: alone } }), [parseThreshold('stalls == 0'), parseThreshold('head-lag-p99 < 100ms')]).map((r) => [r.actual, r.ok])).toEqual([[null, false], [null, false]]);
    expect(() => parseThreshold('stalls < 1%')).toThrow(/stalls is a count, written without a unit/);
    expect(parseThreshold('rss-growth < 50MB/h')).toEqual({ text: 'rss-growth < 50MB/h', metric: 'rss-growth', op: '<', limit: 50, unit: 'MB/h' });
    expect(() => parseThreshold('rss-growth < 50')).toThrow(/a growth: write it in MB\/h/);
    expect(() => parseThreshold('p99 < 5MB/h')).toThrow(/only rss-growth/);
    const resources = { source: 'pid 7', intervalMs: 250, samples: 40, missed: 0, cpuSeconds: 1, answeredCalls: 10, cpuPerCallUs: 100_000, peakRssBytes: 1, series: [] };
    const trend = (low: number) => ({ mbPerHour: low + 10, low, high: low + 20, confidence: 0.95, points: 40, fromMs: 0, line: [{ tMs: 0, mb: 1 }, { tMs: 1, mb: 1 }] as [{ tMs: number; mb: number }, { tMs: number; mb: number }] });
    const growth = (low: number | null) => evaluateThresholds(run({ health: { resources: { ...resources, rssTrend: low === null ? null : trend(low) } } }), [parseThreshold('rss-growth < 50MB/h')])[0];
    expect(growth(20)).toMatchObject({ actual: 20, ok: true, unit: 'MB/h' });
    expect(growth(80)).toMatchObject({ actual: 80, ok: false });
    expect(growth(null)).toMatchObject({ actual: null, ok: false });
    // Sure over the run, not in its last half (a step, then flat): the lower low end is judged.
    const stepped = { ...trend(80), lastHalf: { perHour: 30, low: -20, high: 80, points: 20, fromMs: 0 } };
    expect(evaluateThresholds(run({ health: { resources: { ...resources, rssTrend: stepped } } }), [parseThreshold('rss-growth < 50MB/h')])[0]).toMatchObject({ actual: -20, ok: true });
    expect(() => parseThreshold('chain_getAccount:regressions == 0')).toThrow(/whole run/);
  });

  it('judge head-lag drift by the low end of the lag\'s slope, written in ms/h or s/h', () => {
    expect(parseThreshold('head-lag-drift < 1s/h')).toEqual({ text: 'head-lag-drift < 1s/h', metric: 'head-lag-drift', op: '<', limit: 1000, unit: 'ms/h' });
    expect(parseThreshold('head-lag-drift < 250ms/h').limit).toBe(250);
    expect(() => parseThreshold('head-lag-drift < 1s')).toThrow(/a drift: write it in ms\/h or s\/h/);
    expect(() => parseThreshold('p99 < 5ms/h')).toThrow(/only head-lag-drift/);
    const head = { startedAt: '', intervalMs: 50, medianIntervalMs: 50, samples: 100, failed: 0, blockTimeMs: 1000, blocks: 50, lagMs: null, worst: [], series: [], stalls: [], regressions: [], regressionCount: 0 };
    const line: [{ tMs: number; lagMs: number }, { tMs: number; lagMs: number }] = [{ tMs: 0, lagMs: 0 }, { tMs: 1, lagMs: 1 }];
    const drift = (low: number | null) => evaluateThresholds(run({ health: { head: { ...head, lagTrend: low === null ? null : { msPerHour: low + 100, low, high: low + 200, confidence: 0.95, points: 50, fromMs: 0, line } } } }), [parseThreshold('head-lag-drift < 1s/h')])[0];
    expect(drift(400)).toMatchObject({ actual: 400, ok: true, unit: 'ms/h' });
    expect(drift(1_500)).toMatchObject({ actual: 1_500, ok: false });
    expect(drift(null)).toMatchObject({ actual: null, ok: false });
  });

  it('a run that measured nothing breaks every threshold (a dead node never passes an SLO)', () => {
    const empty = run({ methods: [], latency: hist(0, 0), schedule: { targetRate: 100, achievedRate: 0, scheduled: 0, sent: 0, dropped: 0, queuedMax: 0, lagUs: hist(0, 0) } });
    const results = evaluateThresholds(empty, [parseThreshold('p99 < 250ms'), parseThreshold('errors < 1%'), parseThreshold('inclusion >= 99%')]);
    expect(results.every((r) => !r.ok && r.actual === null)).toBe(true);
  });
});

describe('achieved: one request of grace at the window\'s end', () => {
  it('keeps a bound missed by at most one request (one answered just after the window), and breaks one missed by more', () => {
    const at = (targetRate: number, achievedRate: number, durationMs: number, bound = 'achieved >= 99%'): boolean | undefined =>
      evaluateThresholds(run({ durationMs, schedule: { targetRate, achievedRate, scheduled: Math.round(targetRate * durationMs / 1000), sent: 0, dropped: 0, queuedMax: 0, lagUs: hist(300) } }), [parseThreshold(bound)])[0]?.ok;
    // An outside tester's 2 s Poisson window: 53 of 54 requests, 98.1%: the 54th was answered just after the end.
    expect(at(27, 26.5, 2_000)).toBe(true);
    // The same shortfall in a long run is many requests: broken.
    expect(at(100, 97, 10_000)).toBe(false);
    expect(at(100, 98, 1_000)).toBe(true);
    expect(at(100, 97, 1_000)).toBe(false);
    // Only a lower bound on achieved is given the grace.
    expect(at(100, 98, 1_000, 'achieved > 99%')).toBe(true);
    expect(at(100, 100, 1_000, 'achieved < 99%')).toBe(false);
  });
});
