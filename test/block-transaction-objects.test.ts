/**
 * A block may list whole transactions rather than their hashes (the spec shows no transactions list at all). An
 * outside tester's node did, and state/transaction-in-block failed: "the transaction in a block did not happen".
 */
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../core/json/index.js';
import { nodeChecks, useUpstream } from './support/legalVariations.js';
import { runChecks, startProxy, testProfile } from './support/suites.js';

const upstream = useUpstream();

describe('a block that lists its transactions as objects', () => {
  it('shows state/transaction-in-block its transaction: an object carrying the hash is the transaction', async () => {
    const node = await startProxy(upstream().url, (res, req) => {
      if (!req.body.includes('chain_getBlockByHeight') || res.status !== 200) return res;
      const answer = parseJson(res.body);
      if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return res;
      const block = answer.result;
      if (typeof block !== 'object' || block === null || Array.isArray(block) || !Array.isArray(block.transactions)) return res;
      const transactions = block.transactions.map((hash) => ({ hash, kind: 'transfer' }));
      return { ...res, body: stringifyJson({ ...answer, result: { ...block, transactions } }) };
    });
    try {
      const results = await runChecks(nodeChecks.filter((c) => c.id === 'state/transaction-in-block'), [node.url], { profile: testProfile() });
      expect(results.map((r) => [r.status, r.evidence.message])).toEqual([['pass', expect.stringMatching(/^in block \d+$/)]]);
    } finally {
      await node.close();
    }
  }, 60_000);
});
