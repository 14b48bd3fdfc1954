import { describe, expect, it } from 'vitest';
import { rebin } from './rebin.js';

describe('rebin', () => {
  it('rebins into equal bins, counting what falls outside', () => {
    const { bins, below, above } = rebin([{ from: 0, to: 1, count: 2 }, { from: 5, to: 6, count: 3 }, { from: 9, to: 10, count: 1 }, { from: 30, to: 31, count: 4 }], 1, 11, 5);
    expect(bins.map((b) => [b.from, b.to, b.count])).toEqual([[1, 3, 0], [3, 5, 0], [5, 7, 3], [7, 9, 0], [9, 11, 1]]);
    expect([below, above]).toEqual([2, 4]);
  });
});
