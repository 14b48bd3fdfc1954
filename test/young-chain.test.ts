/**
 * chain/parent-hash-links on a young chain. An outside tester's node wrote a wrong parent_hash from block 2 on;
 * started just before the run, the chain held one link (0 to 1) when the check ran, and the check passed having
 * seen one. Now it waits for three links before it judges.
 */
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../core/json/index.js';
import { nodeChecks, useUpstream } from './support/legalVariations.js';
import { runChecks, startProxy, testProfile } from './support/suites.js';

const upstream = useUpstream();

describe('chain/parent-hash-links on a chain that holds one link when the check starts', () => {
  it('waits for three links, and fails a node whose link from block 1 to block 2 is wrong', async () => {
    let heightsTold = 0;
    const node = await startProxy(upstream().url, (res, req) => {
      const call = parseJson(req.body);
      if (typeof call !== 'object' || call === null || Array.isArray(call) || res.status !== 200) return res;
      const answer = parseJson(res.body);
      if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return res;
      // The first height read says 1: the chain is young.
      if (call.method === 'chain_blockNumber' && heightsTold++ === 0) return { ...res, body: stringifyJson({ ...answer, result: 1 }) };
      const block = answer.result;
      if (call.method === 'chain_getBlockByHeight' && typeof block === 'object' && block !== null && !Array.isArray(block) && block.height === 2) {
        return { ...res, body: stringifyJson({ ...answer, result: { ...block, parent_hash: 'ab'.repeat(32) } }) };
      }
      return res;
    });
    try {
      const results = await runChecks(
        nodeChecks.filter((c) => c.id === 'chain/parent-hash-links'),
        [node.url],
        { profile: testProfile() },
      );
      expect(results.map((r) => r.status)).toEqual(['fail']);
      expect(results[0]?.evidence.message).toMatch(/block 2's parent_hash is not the hash of block 1/);
    } finally {
      await node.close();
    }
  }, 60_000);
});
