import { describe, expect, it } from 'vitest';
import { Histogram } from '../metrics/Histogram.js';
import type { HistogramData } from '../model.js';
import { fellBehind, lateBeyond } from './lateBeyond.js';

/** A lag histogram (µs) of `onTime` sends 20 µs late and the given late ones. */
const lags = (onTime: number, late: number[]): HistogramData => {
  const h = new Histogram();
  h.record(20, onTime);
  for (const v of late) h.record(v);
  return h.toData();
};

describe('when a lag says the generator fell behind', () => {
  it('a run of 60 sends with one 5.4 ms late is not (its p99 is that one send); with two it is', () => {
    expect(lags(59, [5_400]).p99).toBeGreaterThan(5_000);
    expect(fellBehind(lags(59, [5_400]), 5_000)).toBe(false);
    expect(fellBehind(lags(58, [5_400, 6_000]), 5_000)).toBe(true);
    expect(lateBeyond(lags(58, [5_400, 6_000]), 5_000)).toBe(2);
  });

  it('a long run is judged by its p99 as before: more than 1% late is behind, 1% or less is not', () => {
    expect(fellBehind(lags(9_850, Array.from({ length: 150 }, () => 7_000)), 5_000)).toBe(true);
    expect(fellBehind(lags(9_950, Array.from({ length: 50 }, () => 7_000)), 5_000)).toBe(false);
  });

  it('nothing late, or nothing sent, is never behind', () => {
    expect(fellBehind(lags(1_000, []), 5_000)).toBe(false);
    expect(fellBehind(new Histogram().toData(), 5_000)).toBe(false);
    expect(lateBeyond(lags(1_000, []), 5_000)).toBe(0);
  });
});
