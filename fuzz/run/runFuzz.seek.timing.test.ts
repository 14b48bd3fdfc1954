/**
 * `--seek slow` ranks a case by its own time (runFuzz.ts, CostSeeker.ts): timed against a single-threaded node whose
 * cost per request is known, so in the timing lane, alone on the machine.
 */
import { describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { startSequentialNode } from '../../test/support/sequentialNode.js';
import { runFuzz } from './runFuzz.js';

describe('--seek slow', () => {
  it('--seek slow weighs a case by its own time, alone: on a single-threaded node the costly input is ranked, not those that waited behind it', async () => {
    // One request at a time, in order; chain_getAccount costs the square of its address's length (as a node scanning
    // it pairwise would): 1 ms for a normal one, seconds for a long one, which then times out (at 800 ms).
    const node = await startSequentialNode(
      (body) => {
        const long = /"method":"chain_getAccount","params":\["([^"]*)"/.exec(body)?.[1]?.length ?? 0;
        return Math.min(3_000, (long * long) / 400_000);
      },
      (body) => `{"jsonrpc":"2.0","id":${/"id":(\d+)/.exec(body)?.[1] ?? 'null'},"error":{"code":-32602,"message":"Invalid params"}}`,
    );
    try {
      const run = await runFuzz({ urls: [node.url], profile: referenceProfile(), seed: 3, cases: 120, durationMs: 25_000, only: ['chain_getAccount', 'chain_blockNumber'], concurrency: 4, maxRate: 1_000, maxBodyBytes: 1 << 20, timeoutMs: 800, livenessEvery: 100, seek: 'slow', shrink: { maxAttempts: 1, maxMs: 100 }, version: 'test' });
      const costly = (run.costly ?? []).map((k) => ({ bytes: Buffer.from(k.case.http.bodyBase64, 'base64').length, ms: k.case.answer.ms, timedOut: k.case.answer.failure !== undefined, body: k.case.http.bodyText ?? '' }));
      // The costliest is the long address (unanswered alone within the timeout: weighed, not dropped), and no small
      // request is weighed by the time it waited behind it (each costs the node about 1 ms).
      const said = JSON.stringify(costly.map((x) => [x.bytes, Math.round(x.ms), x.timedOut]));
      expect(costly[0]?.bytes, said).toBeGreaterThan(10_000);
      expect(costly[0]?.body, said).toMatch(/chain_getAccount/);
      for (const k of costly.filter((x) => x.bytes < 2_000)) expect(k.ms, said).toBeLessThan(200);
    } finally {
      await node.close();
    }
  }, 60_000);
});
