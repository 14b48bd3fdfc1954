import { describe, expect, it } from 'vitest';
import { loadReportFixture } from '../test/support/loadReportFixture.js';
import { compareBaseline } from './compareBaseline.js';
import type { LoadRun, TimelinePoint } from './model.js';

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
