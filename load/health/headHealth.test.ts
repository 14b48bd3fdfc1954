import { describe, expect, it } from 'vitest';
import type { HeadSample } from './HeadFollower.js';
import { headHealth, type FollowedHead } from './headHealth.js';

/** Samples every `everyMs` from 0 to `untilMs` of a head given by `heightAt` (calls of 2 ms). */
function follow(url: string, heightAt: (tMs: number) => number, untilMs: number, everyMs = 50): FollowedHead {
  const samples: HeadSample[] = [];
  for (let t = 0; t <= untilMs; t += everyMs) samples.push({ sentMs: t, answeredMs: t + 2, height: heightAt(t + 1) });
  return { url, samples, failed: 0 };
}

const BLOCK = 1_000;
const wallHead = (lateMs: number) => (t: number): number => 10 + Math.floor(Math.max(0, t - lateMs) / BLOCK);
const options = { intervalMs: 50, endMs: 20_000, startedAtMs: 0 };

describe('headHealth', () => {
  it('measures each node\'s head lag against the earliest sighting of each height, within the sampling period', () => {
    const result = headHealth([follow('a', wallHead(0), 20_000), follow('b', wallHead(300), 20_000)], options);
    const a = result.get('a');
    const b = result.get('b');
    expect(a?.blockTimeMs).toBe(1_000);
    expect(a?.blocks).toBe(20);
    expect(a?.lagMs?.max).toBe(0);
    // Truth 300 ms; sampled every 50 ms: within one period.
    expect(b?.lagMs?.p50).toBeGreaterThanOrEqual(250);
    expect(b?.lagMs?.p50).toBeLessThanOrEqual(350);
    expect(b?.lagMs?.p99).toBeLessThanOrEqual(350);
    expect(b?.worst).toHaveLength(5);
    expect(b?.stalls).toEqual([]);
    expect(b?.regressionCount).toBe(0);
  });

  it('read less often than blocks come (once a second, 500 ms blocks): the block time is the chain\'s, and a node steadily two behind makes no stall', () => {
    // An outside tester's: --head-hz 1 on a chain of 500 ms blocks gave a block time of 0 and a stall of nearly every height.
    const fast = (lateBlocks: number) => (t: number): number => 10 + Math.max(0, Math.floor(t / 500) - lateBlocks);
    const result = headHealth([follow('a', fast(0), 20_000, 1_000), follow('b', fast(2), 20_000, 1_000), follow('c', fast(0), 20_000, 1_000)], { ...options, intervalMs: 1_000 });
    expect(result.get('a')?.blockTimeMs).toBeGreaterThanOrEqual(450);
    expect(result.get('a')?.blockTimeMs).toBeLessThanOrEqual(550);
    for (const url of ['a', 'b', 'c']) expect({ url, stalls: result.get(url)?.stalls }).toEqual({ url, stalls: [] });
    // Blocks of 300 ms read twice a second: about 300, not the reads' 500.
    const third = (t: number): number => 10 + Math.floor(t / 300);
    const slow = headHealth([follow('a', third, 20_000, 500), follow('b', third, 20_000, 500)], { ...options, intervalMs: 500 });
    expect(slow.get('a')?.blockTimeMs).toBeGreaterThanOrEqual(270);
    expect(slow.get('a')?.blockTimeMs).toBeLessThanOrEqual(330);
  });

  it('draws a node stalled for good as falling further behind to the end, not as catching up', () => {
    // b holds height 13 from t = 3 s to the end (12 s): an outside tester's chart fell from 9 s of lag to 0.2 s.
    const stuck = (t: number): number => (t >= 3_000 ? 13 : wallHead(0)(t));
    const series = headHealth([follow('a', wallHead(0), 12_000), follow('b', stuck, 12_000)], { ...options, endMs: 12_000 }).get('b')?.series ?? [];
    const after = series.filter((p) => p.tMs >= 4_000);
    expect(after.length).toBeGreaterThan(3);
    for (let i = 1; i < after.length; i++) expect(after[i]?.lagMs).toBeGreaterThanOrEqual(after[i - 1]?.lagMs ?? 0);
    // At the end, the time since height 14 came (t = 4 s), within a sampling period.
    expect(series.at(-1)?.tMs).toBeGreaterThanOrEqual(12_000);
    expect(series.at(-1)?.lagMs).toBeGreaterThanOrEqual(7_900);
    expect(series.at(-1)?.lagMs).toBeLessThanOrEqual(8_100);
  });

  it('a reference only gives heights their times: a node as fast as the others but behind the reference lags', () => {
    const sources = [follow('a', wallHead(200), 10_000), follow('b', wallHead(200), 10_000), follow('ref', wallHead(0), 10_000)];
    const result = headHealth(sources, { ...options, endMs: 10_000, reference: 'ref' });
    expect([...result.keys()]).toEqual(['a', 'b']);
    expect(result.get('a')?.lagMs?.p50).toBeGreaterThanOrEqual(150);
    expect(result.get('a')?.reference).toBe('ref');
  });

  it('says a stall (held while the others rose for more than 3 block times) with its start, end and depth', () => {
    // b holds height 13 from t = 3 s to t = 9 s, then catches up at once.
    const stuck = (t: number): number => (t >= 3_000 && t < 9_000 ? 13 : wallHead(0)(t));
    const result = headHealth([follow('a', wallHead(0), 12_000), follow('b', stuck, 12_000)], { ...options, endMs: 12_000 });
    const stalls = result.get('b')?.stalls ?? [];
    expect(stalls).toHaveLength(1);
    expect(stalls[0]?.height).toBe(13);
    expect(stalls[0]?.startMs).toBeGreaterThanOrEqual(3_950);
    expect(stalls[0]?.startMs).toBeLessThanOrEqual(4_050);
    expect(stalls[0]?.endMs).toBeGreaterThanOrEqual(8_950);
    expect(stalls[0]?.behindBlocks).toBe(6);
    expect(result.get('b')?.lagMs?.max).toBeGreaterThanOrEqual(4_900);
    expect(result.get('a')?.stalls).toEqual([]);
  });

  it('a node that never catches up is behind until the end (a lower bound), its stall still open', () => {
    const frozen = (t: number): number => (t < 2_000 ? wallHead(0)(t) : 11);
    const b = headHealth([follow('a', wallHead(0), 10_000), follow('b', frozen, 10_000)], { ...options, endMs: 10_000 }).get('b');
    expect(b?.stalls).toEqual([{ startMs: expect.any(Number) as number, endMs: null, height: 11, behindBlocks: 8 }]);
    expect(b?.lagMs?.max).toBeGreaterThanOrEqual(7_900);
  });

  it('a node steadily 4 blocks behind, advancing every block, lags 4 blocks and never stalls (500 ms and 1 s blocks)', () => {
    for (const block of [500, 1_000]) {
      const onTime = (t: number): number => 10 + Math.floor(t / block);
      // Behind from the start: it serves each height 4 blocks after the chain, and moves every block.
      const behind = (t: number): number => 6 + Math.floor(t / block);
      const b = headHealth([follow('a', onTime, 15_000), follow('b', behind, 15_000)], { ...options, endMs: 15_000 }).get('b');
      expect(b?.stalls).toEqual([]);
      expect(b?.lagMs?.p50).toBeGreaterThanOrEqual(4 * block - 50);
      expect(b?.lagMs?.p50).toBeLessThanOrEqual(4 * block + 50);
    }
  });

  it('a node frozen 3 s (6 blocks of 500 ms), then caught up: one stall, from the chain\'s next height to its rise', () => {
    const block = 500;
    const onTime = (t: number): number => 10 + Math.floor(t / block);
    // Frozen at the height it had at 7 s (24) over [7 s, 10 s), then on time again.
    const frozen = (t: number): number => (t >= 7_000 && t < 10_000 ? 24 : onTime(t));
    const b = headHealth([follow('a', onTime, 15_000), follow('b', frozen, 15_000)], { ...options, endMs: 15_000 }).get('b');
    const stalls = b?.stalls ?? [];
    expect(stalls).toHaveLength(1);
    expect(stalls[0]?.height).toBe(24);
    // The chain had 25 at 7.5 s; the node rose at 10 s: 2.5 s (within a sampling period at each end).
    expect(stalls[0]?.startMs).toBeGreaterThanOrEqual(7_500);
    expect(stalls[0]?.startMs).toBeLessThanOrEqual(7_560);
    expect((stalls[0]?.endMs ?? 0) - (stalls[0]?.startMs ?? 0)).toBeGreaterThanOrEqual(2_400);
    expect((stalls[0]?.endMs ?? 0) - (stalls[0]?.startMs ?? 0)).toBeLessThanOrEqual(2_560);
    expect(stalls[0]?.behindBlocks).toBe(6);
  });

  it('a node 4 blocks behind that freezes 3 s: one stall, from when it reached the height it held', () => {
    const block = 500;
    const behind = (t: number): number => 6 + Math.floor(t / block);
    // It reaches 20 at 7 s (4 blocks late) and holds it until 10 s.
    const frozen = (t: number): number => (t >= 7_000 && t < 10_000 ? 20 : behind(t));
    const b = headHealth([follow('a', (t) => 10 + Math.floor(t / block), 15_000), follow('b', frozen, 15_000)], { ...options, endMs: 15_000 }).get('b');
    const stalls = b?.stalls ?? [];
    expect(stalls).toHaveLength(1);
    expect(stalls[0]?.height).toBe(20);
    expect(stalls[0]?.startMs).toBeGreaterThanOrEqual(7_000);
    expect(stalls[0]?.startMs).toBeLessThanOrEqual(7_060);
    expect(stalls[0]?.endMs).toBeGreaterThanOrEqual(10_000);
    expect(stalls[0]?.endMs).toBeLessThanOrEqual(10_060);
  });

  it('a node that answers slowly never makes the others look late: a height is dated by the answer\'s arrival', () => {
    const block = 500;
    const onTime = (t: number): number => 10 + Math.floor(t / block);
    // On time, but each answer takes 800 ms, the height worked out when it answers (never before it exists);
    // one call at a time, the next sent when the last is answered.
    const samples: HeadSample[] = [];
    for (let t = 0; t + 800 <= 15_000; t += 800) samples.push({ sentMs: t, answeredMs: t + 800, height: onTime(t + 800) });
    const result = headHealth([follow('a', onTime, 15_000), follow('b', onTime, 15_000), { url: 'slow', samples, failed: 0 }], { ...options, endMs: 15_000 });
    for (const url of ['a', 'b']) {
      // Truth 0; the error is the follower's interval and the call (50 + 2 ms) at most.
      expect(result.get(url)?.lagMs?.p99).toBeLessThanOrEqual(52);
    }
    // The slow node's own figure is late by its calls, at most a call and an interval.
    expect(result.get('slow')?.lagMs?.max).toBeLessThanOrEqual(850);
    expect(result.get('slow')?.stalls).toEqual([]);
  });

  it('a node followed alone has no lag and no stalls to measure, and says so, however long its head freezes', () => {
    const block = 500;
    const frozen = (t: number): number => (t >= 7_000 && t < 10_000 ? 24 : 10 + Math.floor(t / block));
    const alone = headHealth([follow('a', frozen, 12_000)], { ...options, endMs: 12_000 }).get('a');
    expect(alone?.alone).toBe(true);
    expect(alone?.lagMs).toBeNull();
    expect(alone?.stalls).toEqual([]);
    expect(alone?.lagTrend).toBeNull();
    expect(alone?.blockTimeMs).toBe(500);
    // With a second node (or a reference) the same head shows its stall, and no `alone`.
    const compared = headHealth([follow('a', frozen, 12_000), follow('ref', (t) => 10 + Math.floor(t / block), 12_000)], { ...options, endMs: 12_000, reference: 'ref' }).get('a');
    expect(compared?.alone).toBeUndefined();
    expect(compared?.stalls).toHaveLength(1);
  });

  it('one move backwards, then growth from there, is one height gone backwards (a step down, not the climb back)', () => {
    // 11 until 6 s, then 3 lower (8, 9, 10, ... growing) for 2 s, then on time again.
    const onTime = (t: number): number => Math.floor(t / 500);
    const back = (t: number): number => (t >= 6_000 && t < 8_000 ? onTime(t) - 3 : onTime(t));
    const b = headHealth([follow('a', onTime, 10_000), follow('b', back, 10_000)], { ...options, endMs: 10_000 }).get('b');
    expect(b?.regressionCount).toBe(1);
    expect(b?.regressions.map((r) => [r.height, r.previous.height])).toEqual([[9, 11]]);
  });

  it('counts heights that went backwards, with both samples', () => {
    const flapping = (t: number): number => wallHead(0)(t) - (Math.floor(t / 50) % 10 === 5 && t > 1_500 ? 1 : 0);
    const b = headHealth([follow('a', wallHead(0), 5_000), follow('b', flapping, 5_000)], { ...options, endMs: 5_000 }).get('b');
    expect(b?.regressionCount).toBeGreaterThanOrEqual(5);
    const [first] = b?.regressions ?? [];
    expect(first?.kind).toBe('height');
    expect(first?.height).toBeLessThan(first?.previous.height ?? 0);
    expect(first?.atMs).toBeGreaterThan(first?.previous.atMs ?? Infinity);
  });

  it('fits the head lag over time: a node falling further behind drifts at its true rate, one steadily late does not', () => {
    // The drifting node runs 5% slow: it reaches height h at h·BLOCK/0.95, behind by 0.0526 of the time (189,474 ms/h).
    const slow = (t: number): number => 10 + Math.floor((t * 0.95) / BLOCK);
    const result = headHealth([follow('a', wallHead(0), 60_000), follow('b', slow, 60_000), follow('c', wallHead(300), 60_000)], { ...options, endMs: 60_000, trendFromMs: 5_000 });
    const drifting = result.get('b')?.lagTrend;
    expect(drifting?.fromMs).toBe(6_000);
    expect(drifting?.msPerHour).toBeGreaterThan(189_474 * 0.9);
    expect(drifting?.msPerHour).toBeLessThan(189_474 * 1.1);
    expect(drifting?.low).toBeGreaterThan(150_000);
    const steady = result.get('c')?.lagTrend;
    expect(steady?.low).toBeLessThan(1_000);
    expect(steady?.high).toBeGreaterThan(-1_000);
    // Too few heights after the warm-up: no trend rather than a wild one.
    expect(headHealth([follow('a', wallHead(0), 5_000)], { ...options, endMs: 5_000 }).get('a')?.lagTrend).toBeNull();
  });

  it('needs only the answers that changed the height (what a follower keeps on a day-long run): the same figures', () => {
    const stalling = (t: number): number => (t > 6_000 && t < 11_000 ? 15 : wallHead(120)(t));
    const flapping = (t: number): number => wallHead(0)(t) - (Math.floor(t / 50) % 10 === 5 && t > 1_500 ? 1 : 0);
    const every = [follow('a', wallHead(0), 20_000), follow('b', stalling, 20_000), follow('c', flapping, 20_000)];
    const changes = every.map((f): FollowedHead => ({ ...f, samples: f.samples.filter((s, i) => f.samples[i - 1]?.height !== s.height), answered: f.samples.length, medianIntervalMs: 50 }));
    expect(changes[1]?.samples.length).toBeLessThan((every[1]?.samples.length ?? 0) / 10);
    const all = headHealth(every, options);
    const kept = headHealth(changes, options);
    for (const url of ['a', 'b', 'c']) expect(kept.get(url)).toEqual(all.get(url));
    expect(all.get('b')?.stalls).toHaveLength(1);
  });

  it('judges no height that existed before following began, and says so when none appeared', () => {
    const still = headHealth([follow('a', () => 7, 3_000)], { ...options, endMs: 3_000 }).get('a');
    expect(still?.blocks).toBe(0);
    expect(still?.lagMs).toBeNull();
    expect(still?.blockTimeMs).toBeNull();
  });
});
