import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../core/seededRandom.js';
import { downsample, fitLine, lastingTrend, leakVerdict, MIN_LEAK_POINTS, studentTQuantile, sureTrendLow, type SeriesPoint } from './leakFit.js';

const MB = 1_000_000;
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** An epoch time (2026-11-26): the fit must keep its digits with times this large. */
const T0 = 1_795_000_000_000;

/** Standard normal draws from a seeded PRNG (Box–Muller: √(−2 ln u₁)·cos(2πu₂), u₁ in (0, 1]). */
function gaussian(seed: number): () => number {
  const random = seededRandom(seed);
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** A series every `stepMs` for `durationMs` (both ends in): `value(t)` at each t from T0, plus N(0, σ²) noise. */
function series(durationMs: number, stepMs: number, value: (tMs: number) => number, sigma = 0, seed = 1): SeriesPoint[] {
  const noise = gaussian(seed);
  const points: SeriesPoint[] = [];
  for (let t = 0; t <= durationMs; t += stepMs) points.push({ tMs: T0 + t, value: value(t) + sigma * noise() });
  return points;
}

describe('studentTQuantile', () => {
  it.each([
    [0.975, 1, 12.706],
    [0.975, 2, 4.303],
    [0.975, 10, 2.228],
    [0.975, 30, 2.042],
    [0.975, 1000, 1.962],
    [0.995, 5, 4.032],
  ])('t(%s, %s) = %s, as the tables have it', (p, df, table) => {
    expect(studentTQuantile(p, df)).toBeCloseTo(table, 3);
  });

  it.each([
    // A 40-digit evaluation (mpmath: the bisection of ½·I_{df/(df+t²)}(df/2, ½) at 40 digits), rounded to 16.
    [0.975, 1, 12.706204736174694],
    [0.975, 2, 4.302652729749462],
    [0.95, 3, 2.353363434801823],
    [0.999, 4, 7.173182219782307],
    [0.995, 5, 4.032142983555227],
    [0.6, 7, 0.2631668613520228],
    [0.975, 10, 2.2281388519862744],
    [0.975, 30, 2.0422724563012378],
    [0.975, 1000, 1.962339080826408],
    [0.975, 1e7, 1.959964221767205],
  ])('t(%s, %s) = %s to 1e-8 relative', (p, df, exact) => {
    expect(Math.abs(studentTQuantile(p, df) - exact) / exact).toBeLessThan(1e-8);
  });

  it('is exact where the distribution has a closed form (df = 1 and 2), and odd about ½', () => {
    for (const p of [0.55, 0.7, 0.9, 0.99, 0.9999]) {
      // df = 1 is Cauchy: t = tan(π(p − ½)); df = 2: t = (2p − 1) / √(2p(1 − p)).
      const cauchy = Math.tan(Math.PI * (p - 0.5));
      const two = (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
      expect(Math.abs(studentTQuantile(p, 1) - cauchy) / cauchy).toBeLessThan(1e-12);
      expect(Math.abs(studentTQuantile(p, 2) - two) / two).toBeLessThan(1e-12);
      expect(studentTQuantile(1 - p, 7)).toBeCloseTo(-studentTQuantile(p, 7), 12);
    }
    expect(studentTQuantile(0.5, 3)).toBe(0);
  });

  it('refuses a probability outside (0, 1) and degrees of freedom that are not positive', () => {
    for (const p of [0, 1, -0.1, Number.NaN]) expect(() => studentTQuantile(p, 5)).toThrow(RangeError);
    for (const df of [0, -1, Number.NaN, Infinity]) expect(() => studentTQuantile(0.975, df)).toThrow(RangeError);
  });
});

describe('fitLine', () => {
  it('gives the exact slope of a noiseless line (50 MB/h from 1-second points), its intercept and its ends', () => {
    const points = series(HOUR, SECOND, (t) => 300 * MB + (50 * MB * t) / HOUR);
    const fit = fitLine(points);
    expect(fit.n).toBe(3_601);
    expect(Math.abs(fit.slopePerHour - 50 * MB) / (50 * MB)).toBeLessThan(1e-9);
    expect(fit.slopeInterval.high - fit.slopeInterval.low).toBeLessThan(1e-6 * 50 * MB);
    expect(fit.slopeInterval.low).toBeLessThanOrEqual(fit.slopePerHour);
    expect(fit.slopeInterval.high).toBeGreaterThanOrEqual(fit.slopePerHour);
    // The line at tMs = 0, far back on the epoch clock: 300 MB − 50 MB/h · T0.
    const intercept = 300 * MB - (50 * MB * T0) / HOUR;
    expect(Math.abs(fit.intercept - intercept) / Math.abs(intercept)).toBeLessThan(1e-9);
    expect(fit.line[0].tMs).toBe(T0);
    expect(fit.line[0].value).toBeCloseTo(300 * MB, 0);
    expect(fit.line[1].tMs).toBe(T0 + HOUR);
    expect(fit.line[1].value).toBeCloseTo(350 * MB, 0);
  });

  it('does not depend on the points\' order, and fits a falling line as well', () => {
    const points = series(10 * MINUTE, 10 * SECOND, (t) => 1_000 - (120 * t) / HOUR);
    const shuffled = [...points.slice(30), ...points.slice(0, 30).reverse()];
    expect(fitLine(shuffled).slopePerHour).toBeCloseTo(-120, 9);
    expect(fitLine(shuffled).line.map((p) => p.tMs)).toEqual([T0, T0 + 10 * MINUTE]);
  });

  it('has an interval that covers the true slope as often as its confidence says, which the normal quantile would not', () => {
    // 4,000 noisy series of 12 points (df = 10, where t(0.975) = 2.228 and the normal 1.960): a 95% interval must
    // cover the truth 95% of the time (the binomial's standard deviation is 0.34% here), one from 1.960 only ~92%.
    const trials = 4_000;
    let covered = 0;
    let coveredByNormal = 0;
    for (let seed = 1; seed <= trials; seed++) {
      const fit = fitLine(series(11 * MINUTE, MINUTE, (t) => 500 * MB + (80 * MB * t) / HOUR, 5 * MB, seed));
      if (fit.slopeInterval.low <= 80 * MB && 80 * MB <= fit.slopeInterval.high) covered++;
      if (Math.abs(fit.slopePerHour - 80 * MB) <= 1.96 * fit.slopeStdErrorPerHour) coveredByNormal++;
    }
    expect(covered / trials).toBeGreaterThan(0.94);
    expect(covered / trials).toBeLessThan(0.96);
    expect(coveredByNormal / trials).toBeLessThan(0.935);
  });

  it('covers the true slope of one long noisy series, and its 99% interval holds its 95% one', () => {
    const points = series(2 * HOUR, 10 * SECOND, (t) => 400 * MB + (30 * MB * t) / HOUR, 10 * MB, 42);
    const fit95 = fitLine(points);
    const fit99 = fitLine(points, 0.99);
    expect(fit95.slopeInterval.low).toBeLessThan(30 * MB);
    expect(fit95.slopeInterval.high).toBeGreaterThan(30 * MB);
    expect(fit99.slopeInterval.low).toBeLessThan(fit95.slopeInterval.low);
    expect(fit99.slopeInterval.high).toBeGreaterThan(fit95.slopeInterval.high);
    expect(fit99.confidence).toBe(0.99);
  });

  it('refuses what has no slope interval: under 3 points, one time, a value not finite, a confidence outside (0, 1)', () => {
    const line = series(MINUTE, 10 * SECOND, (t) => t);
    expect(() => fitLine(line.slice(0, 2))).toThrow(RangeError);
    expect(() => fitLine(line.map((p) => ({ tMs: T0, value: p.value })))).toThrow(/one time/);
    expect(() => fitLine([...line, { tMs: T0 + HOUR, value: Number.NaN }])).toThrow(RangeError);
    expect(() => fitLine(line, 1)).toThrow(RangeError);
    expect(() => fitLine(line, 0)).toThrow(RangeError);
  });
});

describe('leakVerdict', () => {
  const options = { warmupMs: 0, limitPerHour: 50 * MB };

  it('finds no leak in a flat noisy series', () => {
    const result = leakVerdict(series(2 * HOUR, 10 * SECOND, () => 500 * MB, 20 * MB, 7), options);
    expect(result.verdict).toBe('no-leak');
    if (result.verdict === 'not-enough-data') return;
    expect(result.fit.slopeInterval.low).toBeLessThan(50 * MB);
    expect(result.limitPerHour).toBe(50 * MB);
  });

  it('finds a leak in a series growing 200 MB/h with noise, against a 50 MB/h limit', () => {
    const result = leakVerdict(series(HOUR, 10 * SECOND, (t) => 500 * MB + (200 * MB * t) / HOUR, 20 * MB, 8), options);
    expect(result.verdict).toBe('leak');
    if (result.verdict === 'not-enough-data') return;
    expect(result.fit.n).toBe(361);
    expect(result.fit.slopeInterval.low).toBeGreaterThan(50 * MB);
    expect(result.fit.slopeInterval.low).toBeLessThan(200 * MB);
    expect(result.fit.slopeInterval.high).toBeGreaterThan(200 * MB);
    expect(result.fit.line.map((p) => p.tMs)).toEqual([T0, T0 + HOUR]);
  });

  it('calls no leak for growth within the limit, however sure: 30 MB/h against 50 MB/h', () => {
    const result = leakVerdict(series(6 * HOUR, 10 * SECOND, (t) => 500 * MB + (30 * MB * t) / HOUR, 1 * MB, 9), options);
    expect(result.verdict).toBe('no-leak');
    if (result.verdict !== 'not-enough-data') expect(result.fit.slopeInterval.low).toBeGreaterThan(25 * MB);
  });

  it('calls no leak for caches filling for 20 minutes, then flat: the whole line rises surely, its last half does not', () => {
    // 300 MB to 500 MB over the first 20 minutes (600 MB/h), then flat with noise for 40 minutes.
    const points = series(HOUR, 10 * SECOND, (t) => 300 * MB + 200 * MB * Math.min(1, t / (20 * MINUTE)), 5 * MB, 10);
    const whole = leakVerdict(points, options);
    expect(whole.verdict).toBe('no-leak');
    if (whole.verdict === 'not-enough-data') return;
    // The whole line tilts up, far beyond the limit; its last half does not.
    expect(whole.fit.slopePerHour).toBeGreaterThan(50 * MB);
    expect(whole.lastHalf?.slopeInterval.low).toBeLessThan(50 * MB);
    expect(whole.lastHalf?.line[0].tMs).toBe(T0 + 30 * MINUTE);
    const warmedUp = leakVerdict(points, { ...options, warmupMs: 20 * MINUTE });
    expect(warmedUp.verdict).toBe('no-leak');
    if (warmedUp.verdict !== 'not-enough-data') expect(warmedUp.fit.line[0].tMs).toBe(T0 + 20 * MINUTE);
  });

  it('calls no leak for a heap grown by one step in a short run (40 s, 4 samples a second), and a leak for growth that lasts', () => {
    // What a node that keeps nothing showed in a 40 s run: 57 MiB, a step of 10 MiB at 19 s, then flat.
    const step = series(40 * SECOND, 250, (t) => 57 * MB + (t >= 19 * SECOND ? 10 * MB : 0), 0.3 * MB, 11);
    const stepVerdict = leakVerdict(step, options);
    expect(stepVerdict.verdict).toBe('no-leak');
    if (stepVerdict.verdict !== 'not-enough-data') expect(stepVerdict.fit.slopePerHour).toBeGreaterThan(50 * MB);
    // The same 10 MiB grown steadily over those 40 s (900 MiB/h): a leak, whose last half shows it too.
    const lasting = leakVerdict(series(40 * SECOND, 250, (t) => 57 * MB + (10 * MB * t) / (40 * SECOND), 0.3 * MB, 12), options);
    expect(lasting.verdict).toBe('leak');
    if (lasting.verdict !== 'not-enough-data') expect(lasting.lastHalf?.slopeInterval.low).toBeGreaterThan(50 * MB);
  });

  it(`needs ${MIN_LEAK_POINTS} points after the warm-up, and ${MIN_LEAK_POINTS} in their last half`, () => {
    const points = series(20 * MINUTE, MINUTE, (t) => (1_000 * MB * t) / HOUR);
    // 21 points, one a minute: a warm-up of 2 minutes leaves 19, 10 of them in the last half; of 3 minutes 18, 9.
    expect(leakVerdict(points, { ...options, warmupMs: 2 * MINUTE }).verdict).toBe('leak');
    expect(leakVerdict(points, { ...options, warmupMs: 3 * MINUTE })).toEqual({
      verdict: 'not-enough-data',
      reason: '9 points in the last half after the warm-up, 10 needed (whether the growth lasts is not known)',
      n: 9,
      needed: 10,
    });
    expect(leakVerdict(points, { ...options, warmupMs: 12 * MINUTE })).toEqual({
      verdict: 'not-enough-data',
      reason: '9 points after the warm-up, 10 needed',
      n: 9,
      needed: 10,
    });
    expect(leakVerdict(points.slice(0, 9), options).verdict).toBe('not-enough-data');
    expect(leakVerdict([], options).verdict).toBe('not-enough-data');
    const oneTime = Array.from({ length: 12 }, (_, i) => ({ tMs: T0, value: i }));
    expect(leakVerdict(oneTime, options)).toMatchObject({ verdict: 'not-enough-data', reason: 'the points after the warm-up are all at one time', n: 12 });
  });
});

describe('a trend whose last half is too short to fit', () => {
  it('is not judged on the whole line alone: a step of 40 MiB that then holds, in a 15 s run scraped once a second', () => {
    // The outside tester's run: --metrics-url scraped each second, 15 s measured after a 2 s warm-up, a cache of
    // 40 MiB filled at 5 s and kept. 13 points: the whole line rises surely (its low end far above 50 MiB/h),
    // its last half holds 7 points, too few to fit; before, the whole line's low end alone was judged (exit 99).
    const points = series(12 * SECOND, SECOND, (t) => 60 * MB + (t >= 3 * SECOND ? 40 * MB : 0), 0.2 * MB, 13);
    const trend = lastingTrend(points);
    expect(trend.fit.slopePerHour).toBeGreaterThan(50 * MB);
    expect(trend.lastHalf).toBeNull();
    expect(trend.sureLow).toBeNull();
    expect(sureTrendLow({ low: trend.fit.slopeInterval.low / MB, lastHalf: null })).toBeNull();
    expect(leakVerdict(points, { warmupMs: 0, limitPerHour: 50 * MB })).toMatchObject({ verdict: 'not-enough-data', n: 7 });
    // A report written before the last half was kept (no lastHalf at all) is judged on its whole line, as then.
    expect(sureTrendLow({ low: 80 })).toBe(80);
    expect(sureTrendLow({ low: 80, lastHalf: { low: -20 } })).toBe(-20);
  });
});

describe('a memory that climbs and drops in cycles (a collector\'s sawtooth)', () => {
  /** 100 MiB plus a ramp of `amplitude` that drops back every `periodMs`, started `phaseMs` into a cycle, with a little noise. */
  const saw = (durationMs: number, stepMs: number, periodMs: number, amplitude: number, phaseMs: number, trendPerHour = 0, seed = 21): SeriesPoint[] =>
    series(durationMs, stepMs, (t) => 100 * MB + amplitude * (((t + phaseMs) % periodMs) / periodMs) + (trendPerHour * t) / HOUR, 0.05 * MB, seed);

  it('is no leak at any phase of its cycle: 60 s scraped once a second, 20 MiB every 30 s (an outside tester\'s flat node read +207 MiB/h)', () => {
    for (let phaseMs = 0; phaseMs < 30 * SECOND; phaseMs += 2 * SECOND) {
      const verdict = leakVerdict(saw(60 * SECOND, SECOND, 30 * SECOND, 20 * MB, phaseMs), { warmupMs: 2 * SECOND, limitPerHour: 50 * MB });
      expect({ phaseMs, verdict: verdict.verdict }).toEqual({ phaseMs, verdict: verdict.verdict === 'not-enough-data' ? 'not-enough-data' : 'no-leak' });
    }
  });

  it('counts its samples as the few independent ones they are, and white noise as all of them', () => {
    const cycled = fitLine(saw(60 * SECOND, SECOND, 30 * SECOND, 20 * MB, 24 * SECOND));
    expect(cycled.autocorrelation).toBeGreaterThan(0.7);
    expect(cycled.effectiveN).toBeLessThan(10);
    const white = fitLine(series(60 * SECOND, SECOND, () => 100 * MB, 1 * MB, 5));
    expect(white.effectiveN).toBeGreaterThan(40);
  });

  it('still finds a leak under it when the run is long enough: 10 minutes of a 30 s sawtooth over 600 MiB/h', () => {
    const verdict = leakVerdict(saw(10 * MINUTE, SECOND, 30 * SECOND, 20 * MB, 0, 600 * MB), { warmupMs: 0, limitPerHour: 50 * MB });
    expect(verdict.verdict).toBe('leak');
    // The same sawtooth without the leak: none.
    expect(leakVerdict(saw(10 * MINUTE, SECOND, 30 * SECOND, 20 * MB, 0), { warmupMs: 0, limitPerHour: 50 * MB }).verdict).toBe('no-leak');
  });
});

describe('downsample', () => {
  it('keeps a long series to at most maxPoints, with its first and last points as they are', () => {
    const points = series(24 * HOUR, SECOND, (t) => 500 * MB + (200 * MB * t) / HOUR, 20 * MB, 11);
    const small = downsample(points, 500);
    expect(small.length).toBeLessThanOrEqual(500);
    expect(small.length).toBeGreaterThan(490);
    expect(small[0]).toEqual(points[0]);
    expect(small.at(-1)).toEqual(points.at(-1));
    expect(small.every((p, i) => i === 0 || p.tMs > (small[i - 1]?.tMs ?? Infinity))).toBe(true);
    // The fit of the kept points gives the trend's slope within 1% (the noise is averaged down, not away).
    const full = fitLine(points).slopePerHour;
    expect(Math.abs(fitLine(small).slopePerHour - full) / full).toBeLessThan(0.01);
    expect(Math.abs(fitLine(small).slopePerHour - 200 * MB) / (200 * MB)).toBeLessThan(0.01);
  });

  it('keeps the slope of a noiseless line exactly, whatever the spacing (gaps, bursts) and the bound', () => {
    const random = seededRandom(12);
    const points: SeriesPoint[] = [];
    for (let t = T0; points.length < 5_000; t += random() < 0.01 ? 10 * MINUTE : Math.ceil(random() * 5 * SECOND)) {
      points.push({ tMs: t, value: 100 * MB + (50 * MB * (t - T0)) / HOUR });
    }
    for (const maxPoints of [3, 10, 97, 1_000]) {
      const small = downsample(points, maxPoints);
      expect(small.length).toBeLessThanOrEqual(maxPoints);
      expect(Math.abs(fitLine(small).slopePerHour - 50 * MB) / (50 * MB)).toBeLessThan(1e-9);
    }
    expect(downsample(points, 2)).toEqual([points[0], points.at(-1)]);
  });

  it('gives a short series back as a copy, and refuses a bound under 2 or points out of time order', () => {
    const points = series(MINUTE, 10 * SECOND, (t) => t);
    const copy = downsample(points, 7);
    expect(copy).toEqual(points);
    expect(copy).not.toBe(points);
    expect(() => downsample(points, 1)).toThrow(RangeError);
    expect(() => downsample(points, 2.5)).toThrow(RangeError);
    expect(() => downsample([...points].reverse(), 3)).toThrow(/time order/);
  });
});
