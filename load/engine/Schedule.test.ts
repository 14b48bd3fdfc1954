import { describe, expect, it } from 'vitest';
import { Schedule } from './Schedule.js';

const all = (s: Schedule): number[] => {
  const out: number[] = [];
  for (let t = s.next(); t !== undefined; t = s.next()) out.push(t);
  return out;
};

describe('Schedule', () => {
  it('sends uniformly at t_i = i / rate', () => {
    const times = all(new Schedule([{ from: 1000, to: 1000, durationMs: 2000 }], 'uniform', 1));
    expect(times.length).toBe(2000);
    times.forEach((t, i) => expect(t).toBeCloseTo(i, 9));
  });

  it('follows stages: a constant warm-up, then a linear ramp (the count is the integral of the rate)', () => {
    const stages = [
      { from: 100, to: 100, durationMs: 1000 },
      { from: 100, to: 300, durationMs: 2000 },
      { from: 0, to: 0, durationMs: 500 },
      { from: 50, to: 50, durationMs: 1000 },
    ];
    const times = all(new Schedule(stages, 'uniform', 1));
    expect(times.filter((t) => t < 1000).length).toBe(100);
    expect(times.filter((t) => t >= 1000 && t < 3000).length).toBe(400); // (100 + 300) / 2 * 2 s
    expect(times.filter((t) => t >= 3000 && t < 3500).length).toBe(0);
    expect(times.filter((t) => t >= 3500).length).toBe(50);
    // The gaps shrink as the rate rises: 1/rate at each moment.
    const i = times.findIndex((t) => t >= 2000);
    expect((times[i + 1] as number) - (times[i] as number)).toBeCloseTo(1000 / Schedule.rateAt(stages, times[i] as number), 1);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('ramps up from a rate of zero', () => {
    const times = all(new Schedule([{ from: 0, to: 200, durationMs: 1000 }], 'uniform', 1));
    expect(times.length).toBe(100);
    expect(times[0]).toBe(0);
    // Λ(t) = 100 t² (t in s): arrival i at sqrt(i / 100) s.
    expect(times[25]).toBeCloseTo(500, 6);
  });

  it('draws Poisson arrivals from a seed: the expected count, exponential gaps, the same for the same seed', () => {
    const stages = [{ from: 2000, to: 2000, durationMs: 5000 }];
    const times = all(new Schedule(stages, 'poisson', 42));
    // 10,000 expected; a Poisson count's standard deviation is 100: 5 of them.
    expect(Math.abs(times.length - 10_000)).toBeLessThan(500);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    expect(mean).toBeCloseTo(0.5, 1);
    // Exponential: P(gap > mean) = 1/e.
    expect(gaps.filter((g) => g > mean).length / gaps.length).toBeCloseTo(Math.exp(-1), 1);
    expect(all(new Schedule(stages, 'poisson', 42))).toEqual(times);
    expect(all(new Schedule(stages, 'poisson', 43))).not.toEqual(times);
  });

  it.each(['uniform', 'poisson'] as const)('splits one %s schedule between threads exactly', (distribution) => {
    const stages = [
      { from: 300, to: 300, durationMs: 500 },
      { from: 300, to: 900, durationMs: 1000 },
    ];
    const whole = all(new Schedule(stages, distribution, 7));
    const parts = [0, 1, 2].map((index) => all(new Schedule(stages, distribution, 7, { index, count: 3 })));
    expect(parts.flat().sort((a, b) => a - b)).toEqual(whole);
    expect(parts[1]).toEqual(whole.filter((_, i) => i % 3 === 1));
  });
});
