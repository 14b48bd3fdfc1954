import { describe, expect, it } from 'vitest';
import { loadReportFixture } from '../test/support/loadReportFixture.js';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDeltaAllowed, formatDeltaChange } from '../reports/load/formatLoad.js';
import { compareBaseline, deltaOutcome } from './compareBaseline.js';
import type { BaselineDelta, LoadRun, TimelinePoint } from './model.js';

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
  it('allows its percentiles one bucket more (they are bucket middles, 9.05% apart), and still catches a 20% slower node', () => {
    const report = loadReportFixture('plain');
    const run = report.runs[0] as LoadRun;
    /** As mergeK6Summaries writes a run: no timeline, no service time, p50 and p99 at given bucket middles (µs). */
    const merged = (p50: number, p99: number): LoadRun => ({ ...run, timeline: [], service: { ...run.service, count: 0 }, latency: { ...run.latency, count: 5_001, p50, p99 } });
    // An outside tester's reruns of one server: p99 one bucket up (177,535 to 193,663 µs), p50 in the same bucket.
    const flip = compareBaseline('b.json', { ...report, runs: [merged(11_095, 177_535)] }, [merged(11_095, 193_663)], 0.08).deltas;
    expect(flip.find((d) => d.metric.endsWith(' p99'))).toMatchObject({ regression: false });
    expect(flip.find((d) => d.metric.endsWith(' p99'))?.allowed).toBeCloseTo(0.08 + 2 ** (1 / 8) - 1, 6);
    // Three buckets up (a node really slower): a regression whatever the bucket allowed.
    const slower = compareBaseline('b.json', { ...report, runs: [merged(11_095, 177_535)] }, [merged(11_095, Math.round(177_535 * 2 ** (3 / 8)))], 0.08).deltas;
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
