/** The slow oracle's bound: max(1 s, 50 x the median call) by default, floor and factor adjustable. */
import { describe, expect, it } from 'vitest';
import { slowBoundMs } from './slowBound.js';

describe('slowBoundMs', () => {
  it('is max(1000, 50 x median) by default', () => {
    expect(slowBoundMs(2)).toBe(1000);
    expect(slowBoundMs(20)).toBe(1000);
    expect(slowBoundMs(30)).toBe(1500);
  });

  it('takes another floor and factor', () => {
    expect(slowBoundMs(2, { floorMs: 100 })).toBe(100);
    expect(slowBoundMs(30, { floorMs: 100, factor: 10 })).toBe(300);
  });

  it('counts a median that is no number of ms as 0', () => {
    expect(slowBoundMs(Number.NaN)).toBe(1000);
    expect(slowBoundMs(-5)).toBe(1000);
    expect(slowBoundMs(Number.POSITIVE_INFINITY)).toBe(1000);
  });
});
