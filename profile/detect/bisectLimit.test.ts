import { describe, expect, it } from 'vitest';
import { bisectLimit } from './bisectLimit.js';
import type { Verdict } from './bisectLimit.js';
import { decideBlockTime, median, twoDigits } from './decideBlockTime.js';

/** A node with a limit: sizes up to it are served. Counts the probes. */
function limitAt(limit: number | undefined): { probe: (n: number) => Promise<Verdict>; sizes: number[] } {
  const sizes: number[] = [];
  return { sizes, probe: (n) => (sizes.push(n), Promise.resolve(limit === undefined || n <= limit ? 'served' : 'refused')) };
}

describe('bisectLimit', () => {
  it('finds the exact limit, below, at and above the start', async () => {
    for (const [limit, start] of [
      [1000, 1],
      [1, 1],
      [1024 * 1024, 64 * 1024],
      [1000, 64 * 1024],
      [16 * 1024 * 1024 - 1, 64 * 1024],
    ] as const) {
      const node = limitAt(limit);
      const r = await bisectLimit({ start, cap: 16 * 1024 * 1024, maxProbes: 60, probe: node.probe });
      expect(r.limit).toBe(limit);
      expect(r.refusedAt).toBe(limit + 1);
      expect(r.probes).toBe(node.sizes.length);
    }
  });

  it('stays bounded: 4096 by doubling and halving takes at most 25 probes', async () => {
    const node = limitAt(3001);
    const r = await bisectLimit({ start: 1, cap: 4096, maxProbes: 27, probe: node.probe });
    expect(r.limit).toBe(3001);
    expect(r.probes).toBeLessThanOrEqual(25);
  });

  it('no refusal up to the cap: no limit, served up to the cap', async () => {
    const r = await bisectLimit({ start: 1, cap: 4096, maxProbes: 30, probe: limitAt(undefined).probe });
    expect(r).toEqual({ limit: undefined, servedUpTo: 4096, refusedAt: undefined, probes: 13, stopped: false });
  });

  it('out of probes: bounds, no exact limit', async () => {
    const r = await bisectLimit({ start: 1, cap: 4096, maxProbes: 12, probe: limitAt(1000).probe });
    expect(r.limit).toBeUndefined();
    expect(r.servedUpTo).toBeLessThan(1001);
    expect(r.refusedAt).toBeGreaterThan(1000);
  });

  it('a probe that says stop ends the search', async () => {
    const r = await bisectLimit({ start: 1, cap: 4096, maxProbes: 30, probe: (n) => Promise.resolve(n >= 8 ? 'stop' : 'served') });
    expect(r).toEqual({ limit: undefined, servedUpTo: 4, refusedAt: undefined, probes: 4, stopped: true });
  });

  it('a floor skips sizes known to be served', async () => {
    const node = limitAt(100);
    await bisectLimit({ start: 1, floor: 64, cap: 4096, maxProbes: 30, probe: node.probe });
    expect(Math.min(...node.sizes)).toBeGreaterThan(64);
  });
});

describe('decideBlockTime', () => {
  const samples = (times: number[]): Parameters<typeof decideBlockTime>[0] => ({ rises: times.map((atMs, i) => ({ atMs, height: BigInt(i + 1) })), first: 0n, polls: 10, spentMs: 1000 });

  it('two significant digits; medians', () => {
    expect([twoDigits(101.5), twoDigits(1234), twoDigits(8), twoDigits(0.2), twoDigits(12_345)]).toEqual([100, 1200, 8, 1, 12_000]);
    expect([median([3, 1, 2]), median([4, 1, 2, 3]), median([])]).toEqual([2, 2.5, undefined]);
  });

  it('timestamps refine the sampled value when they agree', () => {
    const f = decideBlockTime(samples([100, 230, 320]), [101, 99, 100, 102]);
    expect([f.value, f.confidence]).toEqual([100, 'high']);
  });

  it('the sampled value stands when timestamps disagree, or are absent', () => {
    expect(decideBlockTime(samples([1000, 2000, 3000]), [5000, 5000, 5000]).value).toBe(1000);
    expect(decideBlockTime(samples([0, 2000, 4000]), []).value).toBe(2000);
  });

  it('the span of the rises times a block, each rise seen up to one read late: within a read over the blocks spanned', () => {
    // 100 ms blocks, read every ~50 ms (stretched to 90 ms on a busy machine): each rise is seen 0 to 90 ms late.
    const late = [0, 90, 10, 80, 45, 5, 70, 30];
    const f = decideBlockTime(samples(late.map((d, i) => 100 * i + d)), []);
    expect(Math.abs(Number(f.value) - 100)).toBeLessThanOrEqual(90 / 7);
    expect(f.evidence).toMatch(/8 rise\(s\), 104 ms per block/);
    // Consecutive intervals would carry each delay whole: their median here is 65 ms.
  });

  it('no rise: timestamps alone, else the default with low confidence', () => {
    expect(decideBlockTime(samples([]), [12_000, 12_000, 12_000]).value).toBe(12_000);
    // Whole-second timestamps of a 1.5 s chain: gaps of 1 s and 2 s. Not their median (1000 or 2000): the sampled
    // time, or without one the time over their span.
    const seconds = [1000, 2000, 1000, 2000, 1000, 2000, 1000];
    const withRises = decideBlockTime(samples([0, 1520, 3010, 4490]), seconds);
    expect(withRises.value).toBe(1500);
    expect(withRises.evidence).toMatch(/whole seconds: the sampled value is kept/);
    const alone = decideBlockTime(samples([]), [...seconds, 2000]);
    expect([alone.value, alone.confidence]).toEqual([1500, 'medium']);
    // A 400 ms chain in whole seconds over 7 gaps (0, 0, 1, 0, 1, 0, 0 s; a zero gap is no fault there): good to a
    // second over 7 blocks only, so low confidence.
    const fast = decideBlockTime(samples([]), [0, 0, 1000, 0, 1000, 0, 0]);
    expect([fast.value, fast.confidence]).toEqual([290, 'low']);
    expect(fast.evidence).toMatch(/good to about 143 ms/);
    const none = decideBlockTime(samples([]), []);
    expect([none.value, none.confidence]).toEqual([1000, 'low']);
  });
});
