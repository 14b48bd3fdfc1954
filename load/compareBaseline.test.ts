import { describe, expect, it } from 'vitest';
import { loadReportFixture } from '../test/support/loadReportFixture.js';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDeltaAllowed, formatDeltaChange } from '../reports/load/formatLoad.js';
import { renderLoadJson } from '../reports/load/renderLoadJson.js';
import { K6_BUCKETS_PER_OCTAVE } from './k6/K6Summary.js';
import { baselineProblems, compareBaseline, compareWithBaseline, deltaOutcome, LoadBaselineError, loadDifferences, readBaselineReport } from './compareBaseline.js';
import type { BaselineDelta, LoadReport, LoadRun, TimelinePoint } from './model.js';

/** A run of 10 s at `rate` a second (every 1 s tick `rate` answers), and after the window `drain` more answers. */
function steady(run: LoadRun, rate: number, drain: number): LoadRun {
  const tick = (tMs: number, completed: number): TimelinePoint => ({ ...(run.timeline[0] as TimelinePoint), tMs, completed, sent: completed });
  const timeline = [...Array.from({ length: 10 }, (_, i) => tick(i * 1_000, rate)), ...(drain > 0 ? [tick(10_000, drain)] : [])];
  return { ...run, durationMs: 10_000, timeline, schedule: { ...run.schedule, achievedRate: rate } };
}

describe('compareBaseline: the noise allowed is the measured window\'s, tick by tick', () => {
  it('catches a 25% loss of throughput whether or not a request of the baseline ended after its window (the drain tick)', () => {
    const report = loadReportFixture('plain');
    const run = report.runs[0] as LoadRun;
    for (const drain of [0, 1]) {
      const baseline = { ...report, runs: [steady(run, 100, drain)] };
      const achieved = compareBaseline('b.json', baseline, [steady(run, 74, 1)]).deltas.find((d) => d.metric.endsWith('achievedRate'));
      expect(achieved, `drain ${drain}`).toMatchObject({ regression: true });
      expect(achieved?.allowed, `drain ${drain}`).toBeLessThan(0.15);
    }
  });

  it('takes no segment\'s drain tick for a second of a merged run (several --url), as reports before the fix placed them', () => {
    const report = loadReportFixture('plain');
    const run = report.runs[0] as LoadRun;
    const tick = (tMs: number, completed: number): TimelinePoint => ({ ...(run.timeline[0] as TimelinePoint), tMs, completed, sent: completed });
    // 3 segments of 3 s at 100/s; each segment's drain (1 or 2 answers) at the next segment's start, tMs repeated.
    const timeline: TimelinePoint[] = [];
    for (let seg = 0; seg < 3; seg++) {
      if (seg > 0) timeline.push(tick(seg * 3_000, 1 + (seg % 2)));
      for (let i = 0; i < 3; i++) timeline.push(tick(seg * 3_000 + i * 1_000, 100));
    }
    timeline.push(tick(9_000, 2));
    const merged = { ...run, durationMs: 9_000, timeline, schedule: { ...run.schedule, achievedRate: 100 } };
    const achieved = compareBaseline('b.json', { ...report, runs: [merged] }, [merged]).deltas.find((d) => d.metric.endsWith('achievedRate'));
    // The window's 9 ticks of 100 alone: the threshold and nothing more (with the drain ticks: about 0.5).
    expect(achieved?.allowed).toBeCloseTo(0.1, 6);
  });
});

describe('compareBaseline: a k6 merge', () => {
  it('allows its percentiles one bucket more (they are bucket middles, 2^(1/70) - 1 = 1.0% apart), and still catches a 20% slower node', () => {
    const report = loadReportFixture('plain');
    const run = report.runs[0] as LoadRun;
    /** As mergeK6Summaries writes a run: no timeline, no service time, p50 and p99 at given bucket middles (µs). */
    const merged = (p50: number, p99: number): LoadRun => ({ ...run, timeline: [], service: { ...run.service, count: 0 }, latency: { ...run.latency, count: 5_001, p50, p99 } });
    const bucket = 2 ** (1 / K6_BUCKETS_PER_OCTAVE) - 1;
    // Reruns of one server: p99 one bucket up and 7% of noise besides, p50 in the same bucket: within 8% and a bucket.
    const flip = compareBaseline('b.json', { ...report, runs: [merged(11_095, 177_535)] }, [merged(11_095, Math.round(177_535 * (1 + bucket) * 1.07))], 0.08).deltas;
    expect(flip.find((d) => d.metric.endsWith(' p99'))).toMatchObject({ regression: false });
    expect(flip.find((d) => d.metric.endsWith(' p99'))?.allowed).toBeCloseTo(0.08 + bucket, 6);
    // A node really slower (30%): a regression whatever the bucket allowed.
    const slower = compareBaseline('b.json', { ...report, runs: [merged(11_095, 177_535)] }, [merged(11_095, Math.round(177_535 * 1.3))], 0.08).deltas;
    expect(slower.find((d) => d.metric.endsWith(' p99'))).toMatchObject({ regression: true });
    // The Node engine's runs are not bucketed so: nothing added to theirs.
    const engine = compareBaseline('b.json', report, [run], 0.08).deltas.find((d) => d.metric.endsWith(' p99'));
    expect(engine?.allowed).toBeLessThan(0.08 + 0.05);
  });
});

describe('compareBaseline: what each row says', () => {
  const report = loadReportFixture('plain');
  const run = report.runs[0] as LoadRun;
  /** The run with `failed` of its 1,000 calls failed. */
  const failing = (r: LoadRun, failed: number): LoadRun => ({ ...r, methods: [{ ...(r.methods[0] as LoadRun['methods'][number]), calls: 1_000, ok: 1_000 - failed }] });

  it('writes the failed-call share\'s change in points, and a 10-point fall as an improvement, not as noise', () => {
    const deltas = compareBaseline('b.json', { ...report, runs: [failing(run, 100)] }, [failing(run, 0)]).deltas;
    const errors = deltas.find((d) => d.metric.endsWith('errors%')) as BaselineDelta;
    expect(formatDeltaChange(errors)).toBe('−10.0 points');
    expect(formatDeltaAllowed(errors)).toBe('±1.0 points');
    expect(deltaOutcome(errors)).toBe('improved');
    // The other way it is a regression; a relative figure still reads in %.
    const worse = compareBaseline('b.json', { ...report, runs: [failing(run, 0)] }, [failing(run, 100)]).deltas.find((d) => d.metric.endsWith('errors%')) as BaselineDelta;
    expect(deltaOutcome(worse)).toBe('regression');
    expect(formatDeltaChange({ unit: 'ms', change: 0.871 })).toBe('+87.1%');
  });

  it('labels improvements the same for every figure: a faster p99 beyond the allowance improved, a higher rate too', () => {
    const slow = { ...run, latency: { ...run.latency, p50: run.latency.p50 * 2, p99: run.latency.p99 * 2 } };
    const deltas = compareBaseline('b.json', { ...report, runs: [slow] }, [run]).deltas;
    expect(deltaOutcome(deltas.find((d) => d.metric.endsWith(' p99')) as BaselineDelta)).toBe('improved');
    expect(deltaOutcome(deltas.find((d) => d.metric.endsWith(' achievedRate')) as BaselineDelta)).toBe('within noise');
    const faster = compareBaseline('b.json', { ...report, runs: [{ ...run, schedule: { ...run.schedule, achievedRate: run.schedule.achievedRate / 2 } }] }, [run]).deltas;
    expect(deltaOutcome(faster.find((d) => d.metric.endsWith(' achievedRate')) as BaselineDelta)).toBe('improved');
  });

  it('names both URLs when the baseline was measured on another, and records the baseline file as resolved', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-baseline-'));
    try {
      mkdirSync(join(dir, 'load-1'));
      writeFileSync(join(dir, 'load-1', 'report.json'), '{}');
      symlinkSync('load-1', join(dir, 'latest'));
      const before = { ...run, url: 'http://127.0.0.1:29001' };
      const now = { ...run, url: 'http://127.0.0.1:29002' };
      const comparison = compareBaseline(join(dir, 'latest', 'report.json'), { ...report, runs: [before] }, [now]);
      expect(comparison.deltas[0]?.metric).toBe(`http://127.0.0.1:29002 (baseline http://127.0.0.1:29001) ${run.scenario} p50`);
      // A later run moves latest/: the report names the file that was read.
      expect(comparison.file).toBe(join(realpathSync(dir), 'load-1', 'report.json'));
      // One URL: named once, as before.
      expect(compareBaseline('b.json', { ...report, runs: [now] }, [now]).deltas[0]?.metric).toBe(`http://127.0.0.1:29002 ${run.scenario} p50`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('compareBaseline: pairs, and what it does not compare', () => {
  const report = loadReportFixture('plain');
  const run = report.runs[0] as LoadRun;
  const at = (url: string, p50 = run.latency.p50): LoadRun => ({ ...run, url, latency: { ...run.latency, p50 } });
  const [A, B, C] = ['http://127.0.0.1:29001', 'http://127.0.0.1:29002', 'http://127.0.0.1:29003'];

  it('pairs by URL first; only the runs left over by position among the baseline\'s left over, and says so', () => {
    // Before: one URL the baseline lacked paired every run by position (B with A's baseline, A with C's).
    const { comparison, notes } = compareWithBaseline('b.json', { ...report, runs: [at(A), at(C, run.latency.p50 * 3)] }, [at(B), at(A)]);
    const p50s = comparison.deltas.filter((d) => d.metric.endsWith(' p50'));
    expect(p50s.map((d) => d.metric)).toEqual([`${B} (baseline ${C}) ${run.scenario} p50`, `${A} ${run.scenario} p50`]);
    expect(p50s[1]?.change).toBe(0);
    expect(notes).toEqual([`${B} is compared with the baseline's run of ${C}: the baseline has no run of ${B}, and the runs of URLs it lacks take its runs left over, in order`]);
    // Nothing left over: the new node is said to have no baseline run, not compared with another node's.
    const alone = compareWithBaseline('b.json', { ...report, runs: [at(A)] }, [at(B), at(A)]);
    expect(alone.comparison.deltas.map((d) => d.metric)).toEqual([`${A} ${run.scenario} p50`, `${A} ${run.scenario} p99`, `${A} ${run.scenario} achievedRate`, `${A} ${run.scenario} errors%`]);
    expect(alone.notes).toEqual([`${B}: the baseline has no run of it (nor one of another URL left over), so it is not compared`]);
  });

  it('says which figure it did not compare because the baseline\'s is 0', () => {
    const { comparison, notes } = compareWithBaseline('b.json', { ...report, runs: [{ ...run, schedule: { ...run.schedule, achievedRate: 0 } }] }, [run]);
    expect(comparison.deltas.some((d) => d.metric.endsWith('achievedRate'))).toBe(false);
    expect(notes).toEqual([`${run.url} ${run.scenario} achievedRate is not compared: the baseline's is 0 (this run's ${run.schedule.achievedRate} /s)`]);
  });

  it('compares a replay looped longer over the same recorded pace, and a steady rate run longer, with the shorter baseline', () => {
    // An outside tester's gate refused a loop of 8 s against its baseline of 5 s of the same capture.
    const report = loadReportFixture('plain');
    const run = report.runs[0] as LoadRun;
    const paced = (seconds: number, rates: readonly number[]): LoadRun => ({
      ...run,
      model: { kind: 'open', distribution: 'recorded', stages: Array.from({ length: seconds }, (_, i) => ({ from: rates[i % rates.length] ?? 0, to: rates[i % rates.length] ?? 0, durationMs: 1_000 })) },
    });
    expect(() => compareBaseline('b.json', { ...report, runs: [paced(5, [200])] }, [paced(8, [200])])).not.toThrow();
    expect(() => compareBaseline('b.json', { ...report, runs: [paced(6, [200, 150, 250])] }, [paced(9, [200, 150, 250])])).not.toThrow();
    // Another pace is another load.
    expect(() => compareBaseline('b.json', { ...report, runs: [paced(6, [200, 150, 250])] }, [paced(9, [200, 250, 150])])).toThrow(/was asked for another load/);
  });

  it('checks, before anything is sent, only the baseline runs of the URLs given when they all have one', () => {
    // An outside tester's trusted run of the one URL given was refused for the other URL's untrusted run.
    const report = loadReportFixture('plain');
    const run = report.runs[0] as LoadRun;
    const twoUrls: LoadReport = { ...report, runs: [{ ...run, url: 'http://a' }, { ...run, url: 'http://b', valid: false, invalid: ['the target became unreachable'] }] };
    const scenario = { name: run.scenario, definition: report.scenario.definition };
    expect(() => baselineProblems('b.json', twoUrls, scenario, ['http://a'])).not.toThrow();
    expect(() => baselineProblems('b.json', twoUrls, scenario, ['http://b'])).toThrow(/its run of http:\/\/b is not one to compare with/);
    expect(() => baselineProblems('b.json', twoUrls, scenario)).toThrow(/NOT TRUSTED/);
  });

  it('never compares runs asked for another rate, even when their scenarios were not checked first', () => {
    const half: LoadRun = { ...run, model: { kind: 'open', distribution: 'poisson', stages: [{ from: 1000, to: 1000, durationMs: 60_000 }] } };
    expect(() => compareBaseline('b.json', report, [half])).toThrow(/was asked for another load .*the baseline's open, poisson, 2000\/s, this run's open, poisson, 1000\/s/);
    // The same rate for longer is the same load.
    const longer: LoadRun = { ...run, model: { kind: 'open', distribution: 'poisson', stages: [{ from: 2000, to: 2000, durationMs: 120_000 }] } };
    expect(compareBaseline('b.json', report, [longer]).deltas).toHaveLength(4);
  });
});

describe('loadDifferences: what sets the load of a scenario', () => {
  const base = { name: 'bn', arrivals: { model: 'open', rate: 200 }, duration: '10s', mix: [{ method: 'chain_blockNumber' }] };

  it('finds none between a definition and the same one with its defaults written out, or run longer with other thresholds', () => {
    const spelled = { ...base, arrivals: { model: 'open', rate: 200, distribution: 'uniform' }, connections: 64, maxInFlight: 256, timeout: '10s', mix: [{ method: 'chain_blockNumber', weight: 1 }], params: { recentBlocks: 64, accounts: 16 } };
    expect(loadDifferences(base, spelled)).toEqual([]);
    expect(loadDifferences(base, { ...base, duration: '60s', warmup: '5s', seed: 9, thresholds: ['p99 < 5ms'], description: 'x' })).toEqual([]);
  });

  it('names each field whose load differs', () => {
    expect(loadDifferences(base, { ...base, arrivals: { model: 'closed', connections: 8 } })).toEqual([`arrivals: the baseline's open, 200/s, uniform arrivals, this run's closed, 8 connections`, `connections: the baseline's 64, this run's n/a`, `maxInFlight: the baseline's 256, this run's n/a`]);
    expect(loadDifferences(base, { ...base, mix: [{ batch: { size: 10, mix: [{ method: 'chain_blockNumber' }] } }] })[0]).toMatch(/^mix: /);
    expect(loadDifferences(base, { ...base, timeout: '2s' })).toEqual([`timeout: the baseline's 10000 ms, this run's 2000 ms`]);
  });
});

describe('readBaselineReport', () => {
  it('takes a load report as chainrpc writes it, and refuses one whose runs lack their figures, naming what is missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-baseline-read-'));
    try {
      for (const kind of ['plain', 'compared', 'inclusion', 'baseline', 'chaos'] as const) {
        const good = join(dir, `${kind}.json`);
        writeFileSync(good, renderLoadJson(loadReportFixture(kind)));
        expect(readBaselineReport(good).runs.length, kind).toBeGreaterThan(0);
      }
      const bare = join(dir, 'bare.json');
      writeFileSync(bare, JSON.stringify({ format: 'chainrpc-load/2', runs: [{ url: 'http://127.0.0.1:8545', scenario: 'bn' }] }));
      expect(() => readBaselineReport(bare)).toThrow(LoadBaselineError);
      expect(() => readBaselineReport(bare)).toThrow(/is not a load report .*\/tool is missing/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
