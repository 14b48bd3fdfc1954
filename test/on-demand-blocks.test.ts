/**
 * A chain that makes blocks only for transactions (Tendermint without empty blocks, a development chain that
 * mines on demand): legal, since the spec does not say a chain makes blocks without them. An outside tester's
 * node did so, and chain/height-rises failed (SHOULD) when it ran alone; in a full run other checks' transactions
 * happened to make blocks. Now the check gives the chain a transaction when no block comes, and fails only a
 * chain that makes none even then.
 */
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../core/json/index.js';
import type { JsonValue } from '../core/json/index.js';
import { nodeChecks, useUpstream, wrong } from './support/legalVariations.js';
import { runChecks, startProxy, testProfile } from './support/suites.js';

const upstream = useUpstream();

/**
 * The reference node seen as a chain that makes blocks only for transactions: its height reads as frozen until a
 * transaction comes (a faucet claim or a raw transaction); `stalled` keeps it frozen even then.
 */
async function onDemandNode(stalled: boolean): Promise<{ url: string; close: () => Promise<void> }> {
  let frozenAt: JsonValue | undefined;
  let given = false;
  return startProxy(
    upstream().url,
    (res, req) => {
      if (!req.body.includes('chain_blockNumber') || res.status !== 200 || (given && !stalled)) return res;
      const answer = parseJson(res.body);
      if (typeof answer !== 'object' || answer === null || Array.isArray(answer) || answer.result === undefined) return res;
      frozenAt ??= answer.result;
      return { ...res, body: stringifyJson({ ...answer, result: frozenAt }) };
    },
    () => undefined,
    (body) => {
      if (body.includes('chain_faucetClaim') || body.includes('chain_sendRawTransaction')) given = true;
      return body;
    },
  );
}

describe('chain/height-rises on a chain that makes blocks only for transactions', () => {
  const checks = nodeChecks.filter((c) => c.id === 'chain/height-rises');

  it('passes once it is given a transaction, and says so', async () => {
    const node = await onDemandNode(false);
    try {
      const results = await runChecks(checks, [node.url], { profile: testProfile() });
      expect(wrong(results)).toEqual([]);
      expect(results[0]?.evidence.message).toMatch(/no block without transactions\), then rose to \d+ within \d+ ms of a faucet claim/);
    } finally {
      await node.close();
    }
  }, 60_000);

  it('fails a chain that makes no block even then', async () => {
    const node = await onDemandNode(true);
    try {
      const results = await runChecks(checks, [node.url], { profile: testProfile() });
      expect(results.map((r) => r.status)).toEqual(['fail']);
      expect(results[0]?.evidence.message).toMatch(/after a faucet claim was accepted did not happen/);
    } finally {
      await node.close();
    }
  }, 60_000);
});
