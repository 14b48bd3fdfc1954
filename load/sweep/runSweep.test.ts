// The knee found on a server whose capacity is known exactly (test/support/loadServers.ts: serial service of
// a fixed cost, in virtual time) lies within 5% of that capacity: the sweep proves its own number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { startBucketServer, startCapacityServer, startDelayServer, type CapacityServer } from '../../test/support/loadServers.js';
import { loadVerdict } from '../loadVerdict.js';
import { resolveScenario } from '../scenario/loadScenario.js';
import { isPoolReason } from './connectionPool.js';
import { GENERATOR_TRIES, runSweep } from './runSweep.js';

let server: CapacityServer;
beforeAll(async () => {
  server = await startCapacityServer({ capacity: 120 });
});
afterAll(async () => server.stop());

describe('chainrpc load sweep', () => {
  it('finds the knee of a known-capacity server within 5%', async () => {
    const scenario = resolveScenario({ name: 'capacity', arrivals: { model: 'open', rate: 50 }, duration: '2s', warmup: '300ms', maxInFlight: 16, validate: 0, mix: [{ method: 'chain_health' }] });
    const result = await runSweep({ scenario, url: server.url, profile: referenceProfile(), profileSource: null, threads: 1, log: () => {}, startRate: 100, step: '2s', resolution: 0.03 });
    expect(result.knee).not.toBeNull();
    expect(result.knee ?? 0).toBeGreaterThanOrEqual(114);
    expect(result.knee ?? 0).toBeLessThanOrEqual(126);
    // Above the knee the SLO broke, and the steps say why.
    const above = result.steps.filter((s) => s.rate > (result.knee ?? 0));
    expect(above.length).toBeGreaterThan(0);
    expect(above.every((s) => !s.sloHeld && s.reasons.length > 0)).toBe(true);
  }, 120_000);

  it('never counts a rate the generator could not keep to against the node: it tries again, then stops the search there', async () => {
    // A send-lag bound of 1 µs no generator keeps: every run is invalid because of the generator alone.
    const scenario = resolveScenario({ name: 'capacity', arrivals: { model: 'open', rate: 50 }, duration: '300ms', warmup: '100ms', maxInFlight: 16, validate: 0, mix: [{ method: 'chain_health' }] });
    const lines: string[] = [];
    const result = await runSweep({ scenario, url: server.url, profile: referenceProfile(), profileSource: null, threads: 1, maxLagP99Us: 1, log: (l) => lines.push(l), startRate: 30, step: '300ms' });
    expect(result.steps).toHaveLength(1);
    const [step] = result.steps;
    expect(step).toMatchObject({ rate: 30, sloHeld: false, generatorLimited: true });
    expect(step?.reasons.every((r) => r.startsWith('the generator'))).toBe(true);
    expect(result.knee).toBeNull();
    expect(lines.filter((l) => /^sweep: 30 requests\/s/.test(l))).toHaveLength(GENERATOR_TRIES);
    expect(lines.at(-1)).toMatch(/not measured: the generator fell behind on every try/);
  }, 60_000);

  it('counts only what the node served: one that answers HTTP 503 above its capacity does not hold the SLO there', async () => {
    // 70 requests/s served, the rest refused at once with 503. Before, the 503s counted in the achieved rate:
    // 100/s "held", and the knee was put above the node's capacity.
    const bucket = await startBucketServer({ rate: 70, burst: 10 });
    try {
      const scenario = resolveScenario({ name: 'bucket', arrivals: { model: 'open', rate: 50 }, duration: '1500ms', warmup: '300ms', maxInFlight: 16, validate: 0, mix: [{ method: 'chain_health' }] });
      // The generator's own lag is not judged here (a bound of 1 s): what the node served is.
      const result = await runSweep({ scenario, url: bucket.url, profile: referenceProfile(), profileSource: null, threads: 1, maxLagP99Us: 1_000_000, log: () => {}, rates: [50, 100], step: '1500ms' });
      const [low, high] = result.steps;
      expect(low, JSON.stringify(low?.reasons)).toMatchObject({ rate: 50, sloHeld: true });
      expect(high?.rate).toBe(100);
      expect(high?.sloHeld).toBe(false);
      expect(Object.values(high?.run.failures.httpStatus ?? {}).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(high?.run.schedule.achievedRate).toBeLessThan(85);
      expect(high?.reasons.join(' ')).toMatch(/^achieved \d+\.\d\/s, under 99% of 100\/s/);
      expect(result.knee).toBe(50);
    } finally {
      await bucket.stop();
    }
  }, 60_000);

  it('says when the generator\'s connection pool, not the node, held a step back, and names --connections; not for a node that slows down', async () => {
    // An outside tester's node of a fixed 100 ms and no limit of its own "kneed" where 64 connections / 0.1 s ran
    // out. Here 4 connections of a 100 ms node carry 40/s: at 80/s requests wait for them, the node's time the same.
    const fixed = await startDelayServer({ delayMs: 100 });
    try {
      const scenario = resolveScenario({ name: 'pool', arrivals: { model: 'open', rate: 10 }, duration: '1500ms', warmup: '300ms', connections: 4, maxInFlight: 64, validate: 0, mix: [{ method: 'chain_health' }] });
      const result = await runSweep({ scenario, url: fixed.url, profile: referenceProfile(), profileSource: null, threads: 1, maxLagP99Us: 1_000_000, log: () => {}, rates: [10, 80], step: '1500ms' });
      const [low, high] = result.steps;
      expect(low, JSON.stringify(low?.reasons)).toMatchObject({ rate: 10, sloHeld: true });
      expect(high?.sloHeld).toBe(false);
      expect(high?.reasons[0]).toMatch(/^requests waited for the generator's connections \(4, up to \d+ requests waiting at once\) while the node's service time did not rise .* so this step measured the generator's connection pool, not the node; give --connections \d+ or more to measure the node at 80\/s$/);
      expect(loadVerdict([], [result], undefined, false).knees).toEqual([`${fixed.url}: knee at 10 requests/s (at 80 requests/s the generator's connection pool was the limit, not the node, whose service time did not rise: give more --connections to measure past it)`]);
    } finally {
      await fixed.stop();
    }
    // A node that serves 120/s one at a time: past it its service time rises (requests queue inside it), so the knee is its own.
    const capacity = resolveScenario({ name: 'capacity', arrivals: { model: 'open', rate: 50 }, duration: '1500ms', warmup: '300ms', maxInFlight: 16, validate: 0, mix: [{ method: 'chain_health' }] });
    const slowed = await runSweep({ scenario: capacity, url: server.url, profile: referenceProfile(), profileSource: null, threads: 1, maxLagP99Us: 1_000_000, log: () => {}, rates: [60, 240], step: '1500ms' });
    expect(slowed.steps[1]?.sloHeld).toBe(false);
    expect(slowed.steps[1]?.reasons.some(isPoolReason), JSON.stringify(slowed.steps[1]?.reasons)).toBe(false);
  }, 60_000);
});
