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
