/**
 * The RPC fuzz property (reference-node/rpc/runRpcFuzz.ts) against the whole reference node: random
 * bytes, JSON, envelopes with wrong param types for every method, batches. The node never crashes,
 * answers by the rules, and serves a normal call after every group. FUZZ_RUNS sets the count (default 5,000,
 * with a new seed each run; `npm run test:fuzz-long` runs 200,000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUZZ_LIMITS, runRpcFuzz } from '../../test/support/runRpcFuzz.js';
import { ReferenceNode } from './ReferenceNode.js';
import { testNodeOptions } from '../../test/support/nodeOptions.js';

const runs = Number(process.env.FUZZ_RUNS ?? 5_000);
let dir: string;
let node: ReferenceNode;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-fuzz-'));
  node = await ReferenceNode.start(testNodeOptions(dir, { blockTimeMs: 200, maxBodyBytes: FUZZ_LIMITS.maxBodyBytes, maxBatch: FUZZ_LIMITS.maxBatch }));
});

afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('fuzz: the reference node survives and answers by the rules', () => {
  it(`${runs} random cases over HTTP`, async () => {
    const report = await runRpcFuzz({ runs, url: node.url });
    expect(report.cases).toBeGreaterThanOrEqual(runs);
    expect(Object.keys(report.byStatus).sort()).toEqual(runs >= 5_000 ? ['200', '204', '405', '413', '415'] : expect.any(Array));
    // Still producing blocks: the chain was not wedged by what it was sent.
    const before = node.chain.height();
    await new Promise((r) => setTimeout(r, 600));
    expect(node.chain.height()).toBeGreaterThan(before);
  }, 600_000);
});
