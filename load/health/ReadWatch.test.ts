import { describe, expect, it } from 'vitest';
import { mergeReadRegressions, ReadWatch, RisingValue } from './ReadWatch.js';

describe('ReadWatch: reads that go backwards, in the load\'s own answers', () => {
  it('a lower height after a higher one had arrived is a regression; two requests that overlapped are not', () => {
    const w = new ReadWatch();
    w.height(10n, 0, 5);
    // Written at 3, before the first answer arrived (at 5): served at any time in [3, 8], possibly before it.
    w.height(9n, 3, 8);
    expect(w.figures().counts.height).toBe(0);
    // Written at 9, after 10 had arrived: served later, and lower.
    w.height(9n, 9, 12);
    w.height(11n, 13, 14);
    const f = w.figures();
    expect(f.counts.height).toBe(1);
    expect(f.observed.height).toBe(4);
    expect(f.examples[0]).toEqual({ kind: 'height', key: '', atMs: 12, value: '9', previous: { atMs: 5, value: '10' } });
  });

  it('a nonce lower than one the node returned for the same account before; another account is apart', () => {
    const w = new ReadWatch();
    w.nonce('aa', 5n, 0, 1);
    w.nonce('bb', 1n, 2, 3);
    w.nonce('aa', 4n, 2, 3);
    w.nonce('aa', 6n, 4, 5);
    expect(w.figures().counts.nonce).toBe(1);
    expect(w.figures().examples[0]).toMatchObject({ kind: 'nonce', key: 'aa', value: '4', previous: { value: '5' } });
  });

  it('a second, different block for one height is a regression whatever the order; the same hash in another case is not', () => {
    const w = new ReadWatch();
    w.block('7', 'ABCD', 1);
    w.block('7', 'abcd', 2);
    w.block('8', 'ef01', 3);
    w.block('7', 'ffff', 4);
    expect(w.figures().counts).toEqual({ height: 0, block: 1, nonce: 0 });
  });

  it('stays bounded and exact over a long run: old answers fold into a floor that still judges', () => {
    const r = new RisingValue();
    for (let t = 0; t < 1_000_000; t += 100) r.arrived(BigInt(t), t + 1);
    expect(r.highestBefore(2_000_000)?.value).toBe(999_900n);
    expect(r.highestBefore(0)).toBeUndefined();
    const w = new ReadWatch();
    for (let t = 0; t < 500_000; t += 50) w.height(BigInt(Math.floor(t / 1000)), t, t + 2);
    w.height(3n, 600_000, 600_001);
    expect(w.figures().counts.height).toBe(1);
  });

  it('merges threads and segments: counts add, examples kept up to 20', () => {
    const one = new ReadWatch();
    for (let i = 0; i < 15; i++) one.height(i % 2 === 0 ? 10n : 9n, i * 10, i * 10 + 1);
    const merged = mergeReadRegressions([one.figures(), one.figures()]);
    expect(merged.counts.height).toBe(14);
    expect(merged.observed.height).toBe(30);
    expect(merged.examples).toHaveLength(14);
  });
});
