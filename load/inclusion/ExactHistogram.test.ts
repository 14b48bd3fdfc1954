import { describe, expect, it } from 'vitest';
import { ExactHistogram } from './ExactHistogram.js';

describe('ExactHistogram', () => {
  it('gives HdrHistogram-style percentiles: the smallest value with at least p% of values at or below it', () => {
    const h = new ExactHistogram();
    for (let v = 1; v <= 1000; v++) h.record(v);
    expect(h.toData()).toEqual({ count: 1000, min: 1, max: 1000, mean: 500.5, p50: 500, p90: 900, p99: 990, p999: 999, encoded: '' });
  });
  it('is all zeros when empty, and refuses what a histogram cannot hold', () => {
    const h = new ExactHistogram();
    expect(h.toData()).toEqual({ count: 0, min: 0, max: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, encoded: '' });
    expect(() => h.record(-1)).toThrow(RangeError);
    expect(() => h.record(Number.NaN)).toThrow(RangeError);
    h.record(2.5);
    expect(h.toData()).toMatchObject({ count: 1, min: 2.5, p999: 2.5 });
  });
});
