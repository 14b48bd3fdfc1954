import { describe, expect, it } from 'vitest';
import { Histogram } from './Histogram.js';
import { mergePoints, TimelineBuilder } from './TimelineBuilder.js';

/** One thread's tick `index`: `n` requests ended, each `us` long. */
const tick = (index: number, n: number, us: number, inFlight = 0) => {
  const latency = new Histogram();
  if (n > 0) latency.record(us, n);
  return { index, sent: n, completed: n, served: n, okCalls: n, failedCalls: 0, dropped: 0, inFlight, latency, measured: { okCalls: index >= 0 ? n : 0, failedCalls: 0, dropped: 0 } };
};

describe('TimelineBuilder: bounded however long the run', () => {
  it('past maxPoints, adjacent points merge in pairs: evenly spaced, counts kept, a bad second never hidden', () => {
    const timeline = new TimelineBuilder(1, 1_000, 8);
    const live: number[] = [];
    for (let i = -4; i < 100; i++) live.push(timeline.add(tick(i, 10, i === 37 ? 900_000 : 1_000, i))?.tMs ?? NaN);
    // Progress still sees every tick as it ends.
    expect(live).toEqual(Array.from({ length: 104 }, (_, k) => (k - 4) * 1_000));
    const points = timeline.points();
    expect(points.length).toBeLessThanOrEqual(8);
    expect(timeline.pointMs).toBe(16_000);
    expect(points.map((p) => p.tMs)).toEqual(points.map((_, k) => (points[0]?.tMs ?? 0) + k * 16_000));
    expect(points.reduce((n, p) => n + p.completed, 0)).toBe(1_040);
    // The second of 900 ms shows in its point's p99; warm-up (negative ticks) stays before 0.
    expect(points.find((p) => p.tMs <= 37_000 && 37_000 < p.tMs + 16_000)?.p99Us).toBeGreaterThan(890_000);
    expect(points[0]?.tMs).toBe(-16_000);
    // In flight is a level: the last tick's.
    expect(points.at(-1)?.inFlight).toBe(99);
  });

  it('keeps every point of a run shorter than the bound', () => {
    const timeline = new TimelineBuilder(1, 1_000, 8);
    for (let i = 0; i < 8; i++) timeline.add(tick(i, 1, 500));
    expect(timeline.points().map((p) => p.tMs)).toEqual([0, 1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000]);
    expect(timeline.pointMs).toBe(1_000);
  });

  it('merges two points: counts add, p50 weighted by what ended, p99 the larger', () => {
    const a = { tMs: 0, sent: 10, completed: 30, okCalls: 29, failedCalls: 1, dropped: 2, inFlight: 4, p50Us: 100, p99Us: 500 };
    const b = { tMs: 1_000, sent: 20, completed: 10, okCalls: 10, failedCalls: 0, dropped: 0, inFlight: 1, p50Us: 500, p99Us: 400 };
    expect(mergePoints(a, b)).toEqual({ tMs: 0, sent: 30, completed: 40, okCalls: 39, failedCalls: 1, dropped: 2, inFlight: 1, p50Us: 200, p99Us: 500 });
  });

  it('weighs p50 by the served requests, whose latency it is: failures (fast or slow) do not move it', () => {
    // A second of answers at 10 ms, then a second of 100 refused connections beside 1 answer at 12 ms.
    const a = { tMs: 0, sent: 50, completed: 50, served: 50, okCalls: 50, failedCalls: 0, dropped: 0, inFlight: 0, p50Us: 10_000, p99Us: 11_000 };
    const b = { tMs: 1_000, sent: 0, completed: 101, served: 1, okCalls: 1, failedCalls: 100, dropped: 0, inFlight: 0, p50Us: 12_000, p99Us: 12_000 };
    expect(mergePoints(a, b)).toMatchObject({ completed: 151, served: 51, p50Us: 10_039 });
  });
});
