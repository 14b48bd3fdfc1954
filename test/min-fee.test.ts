/**
 * A node with a minimum fee (a legal choice: the spec shows none) refuses a free transfer. An outside tester's
 * node did, and chain_sendRawTransaction/result-is-transaction-hash skipped on it, though the suite had funds to
 * send a transfer the node takes.
 */
import { describe, expect, it } from 'vitest';
import { decodeTransaction } from '../core/codec/index.js';
import { parseJson, stringifyJson } from '../core/json/index.js';
import { nodeChecks, useUpstream } from './support/legalVariations.js';
import { runChecks, startProxy, testProfile } from './support/suites.js';

const upstream = useUpstream();

describe('a node that takes no transaction below a minimum fee', () => {
  it('chain_sendRawTransaction/result-is-transaction-hash reads the hash of a funded transfer instead', async () => {
    let underpriced = 0;
    const node = await startProxy(
      upstream().url,
      (res) => res,
      (req) => {
        try {
          const call = parseJson(req.body);
          if (typeof call !== 'object' || call === null || Array.isArray(call) || call.method !== 'chain_sendRawTransaction' || !Array.isArray(call.params) || typeof call.params[0] !== 'string') return undefined;
          if (decodeTransaction(call.params[0]).fee > 0n) return undefined;
          underpriced++;
          return { status: 200, headers: { 'content-type': 'application/json' }, body: stringifyJson({ jsonrpc: '2.0', id: call.id ?? null, error: { code: -32000, message: 'transaction underpriced' } }) };
        } catch {
          return undefined;
        }
      },
    );
    try {
      const results = await runChecks(
        nodeChecks.filter((c) => c.id === 'chain_sendRawTransaction/result-is-transaction-hash'),
        [node.url],
        { profile: testProfile() },
      );
      expect(underpriced, 'the free transfer was refused').toBeGreaterThan(0);
      expect(results.map((r) => [r.status, r.evidence.message])).toEqual([['pass', expect.stringMatching(/^hash "[0-9a-f]{64}"$/)]]);
    } finally {
      await node.close();
    }
  }, 60_000);
});
