// Per-call accounting inside batches, exact against a server that counts what it did; and the same exactness
// when the work is split between two worker threads.
import { afterEach, describe, expect, it } from 'vitest';
import { startBatchErrorServer, type BatchErrorServer, type BatchTruth } from '../../test/support/loadServers.js';
import { testSourceSpec } from '../../test/support/loadTestSource.js';
import type { LoadRun } from '../model.js';
import { fixedCallsSpec } from '../../test/support/fixedCallsSource.js';
import { runEngine } from './runEngine.js';

let server: BatchErrorServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const RULES = {
  // In a batch of 12 (ids 1 to 12): id 11 left out; ids 5 and 10 errors, by method; every 3rd answer an
  // element of an unknown id, every 4th a second answer to one call.
  errorEvery: 5,
  codes: { chain_getAccount: -32602, chain_blockNumber: -32005 },
  dropEvery: 11,
  unknownEvery: 3,
  repeatEvery: 4,
};

/** The harness's counts, in the server's terms. */
function counted(run: Pick<LoadRun, 'methods' | 'failures'>): BatchTruth {
  const nonEmpty = <T extends object>(r: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(r).filter(([, v]) => Object.keys(v).length > 0));
  return {
    calls: Object.fromEntries(run.methods.map((m) => [m.method, m.calls])),
    errors: nonEmpty(Object.fromEntries(run.methods.map((m) => [m.method, m.errors]))),
    dropped: Object.fromEntries(run.methods.filter((m) => m.unanswered > 0).map((m) => [m.method, m.unanswered])),
    batchesMissing: run.failures.missingElements,
    batchesExtra: run.failures.extraElements,
  };
}

describe('runEngine: calls inside batches', () => {
  it('counts errors by method and code, missing and extra elements, exactly as the server made them', async () => {
    server = await startBatchErrorServer(RULES);
    const run = await runEngine({
      url: server.endpoint,
      model: { kind: 'open', distribution: 'uniform', stages: [{ from: 200, to: 200, durationMs: 1_500 }] },
      // No warm-up: every request the server answered is in the figures.
      warmupMs: 0,
      durationMs: 1_500,
      maxInFlight: 100,
      timeoutMs: 5_000,
      source: fixedCallsSpec({ calls: [{ method: 'chain_getAccount', params: ['ab'] }, { method: 'chain_blockNumber' }, { method: 'chain_health' }], batchSize: 12 }),
    });
    expect(run.schedule.sent).toBe(300);
    expect(counted(run)).toEqual(server.truth);
    // And in absolute terms: 300 batches of 12, the methods in turn, so each method has 4 calls per batch.
    expect(server.truth.calls).toEqual({ chain_getAccount: 1_200, chain_blockNumber: 1_200, chain_health: 1_200 });
    // Every batch misses id 11; the 3rd, 6th, ... and the 4th, 8th, ... answers hold an extra (multiples of 12 counted once).
    expect(run.failures).toMatchObject({ missingElements: 300, extraElements: 100 + 75 - 25, malformed: 0 });
    const ok = run.methods.reduce((n, m) => n + m.ok, 0);
    expect(ok).toBe(300 * (12 - 1 - 2));
    expect(run.batchSizes.map((b) => [b.size, b.requests])).toEqual([['12', 300]]);
    // A method's latency holds one value per call.
    expect(run.methods.map((m) => m.latency.count)).toEqual([1_200, 1_200, 1_200]);
  });

  it('with two worker threads: merged counts equal the server\'s, both threads sent, every histogram holds every call', async () => {
    server = await startBatchErrorServer(RULES);
    const progress: number[] = [];
    const run = await runEngine({
      url: server.endpoint,
      model: { kind: 'open', distribution: 'uniform', stages: [{ from: 200, to: 200, durationMs: 1_000 }] },
      warmupMs: 0,
      durationMs: 1_000,
      maxInFlight: 100,
      timeoutMs: 5_000,
      threads: 2,
      tickMs: 250,
      // Each thread names its methods after itself ("t<threadId>:a"), so the counts show who sent what.
      source: testSourceSpec({ methods: ['a', 'b'], batchSize: 12, stampThread: true }),
      onProgress: (p) => progress.push(p.okCalls),
    });
    expect(counted(run)).toEqual(server.truth);
    const threads = new Set(run.methods.map((m) => m.method.split(':')[0]));
    expect(threads.size).toBe(2);
    expect(threads.has('t0')).toBe(false); // not the main thread
    // The schedule was split: 100 batches each, merged to the whole.
    expect(run.schedule).toMatchObject({ scheduled: 200, sent: 200, dropped: 0 });
    for (const m of run.methods) expect(m.calls).toBe(600);
    expect(run.latency.count).toBe(200);
    expect(run.methods.reduce((n, m) => n + m.latency.count, 0)).toBe(2_400);
    expect(run.batchSizes).toMatchObject([{ size: '12', requests: 200 }]);
    // The timeline merged both threads' ticks.
    expect(run.timeline.reduce((n, p) => n + p.completed, 0)).toBe(200);
    expect(run.timeline.reduce((n, p) => n + p.okCalls + p.failedCalls, 0)).toBe(2_400);
    expect(progress.length).toBeGreaterThanOrEqual(4);
    expect(progress.at(-1)).toBe(run.methods.reduce((n, m) => n + m.ok, 0));
  });
});
