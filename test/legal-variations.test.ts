/**
 * Legal variations stay green (1 of 3: under a profile that says the choice). The varying test node
 * (test/support/varyingNode.ts) puts in front of a reference node, one at a time, each choice the spec leaves
 * open that real nodes make differently: names, encodings, shapes, the endpoint path, statuses, limits. With a
 * profile that describes it, every check passes at --level profile (no failure, no error); so does a node that
 * makes many of these choices at once, as nodes written by other teams do; profile files written before a
 * profile key existed mean what they meant; and batch answers may come in any order with extra fields.
 * The same choices with no profile: legal-variations.no-profile.test.ts; as profile detect writes it:
 * legal-variations.detected.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../core/json/index.js';
import type { JsonValue } from '../core/json/index.js';
import { against, describing, nodeChecks, useUpstream, wrong } from './support/legalVariations.js';
import { runChecks, startProxy } from './support/suites.js';
import { FOREIGN_NODE, JAYSON_NODE, VARIATION_PROFILES } from './support/variationProfiles.js';
import { startVaryingNode, VARIATIONS } from './support/varyingNode.js';
import type { VariationName } from './support/varyingNode.js';

const upstream = useUpstream();

describe('legal variations, each under a profile that describes it: every check passes', () => {
  for (const name of Object.keys(VARIATIONS) as VariationName[]) {
    it(`${name}: ${VARIATIONS[name].description}`, async () => {
      const results = await against(upstream(), [name], await describing(name, VARIATION_PROFILES[name].profile));
      expect(wrong(results)).toEqual([]);
    }, 60_000);
  }

  it(`a node written by another team (${FOREIGN_NODE.modes.join(', ')})`, async () => {
    const results = await against(upstream(), FOREIGN_NODE.modes, await describing('foreign', FOREIGN_NODE.profile));
    expect(wrong(results)).toEqual([]);
  }, 60_000);

  it(`the jayson-like node a user found wrong answers on (${JAYSON_NODE.modes.join(', ')})`, async () => {
    const results = await against(upstream(), JAYSON_NODE.modes, await describing('jayson', JAYSON_NODE.profile));
    expect(wrong(results)).toEqual([]);
  }, 60_000);
});

describe('a profile file written before genesisBlock and methodIntegers means what it always meant', () => {
  const genesisCheck = nodeChecks.filter((c) => c.id === 'chain_getBlockByHeight/genesis');

  it('genesisZeros with integers (and no per-method encodings) still describes a node that writes hex quantities', async () => {
    const results = await against(upstream(), ['hex-quantities'], await describing('old-hex', { genesisZeros: true, integers: 'hex' }));
    expect(wrong(results)).toEqual([]);
  }, 60_000);

  it('neither genesisZeros true nor false lets an empty genesis parent hash pass: only genesisBlock says it', async () => {
    for (const genesisZeros of [true, false]) {
      const node = await startVaryingNode(upstream().url, ['genesis-parent-empty']);
      try {
        const results = await runChecks(genesisCheck, [node.url], { profile: await describing('old', { genesisZeros }) });
        expect(results.map((r) => [r.id, r.status])).toEqual([['chain_getBlockByHeight/genesis', 'fail']]);
        expect(results[0]?.evidence.message).toMatch(/the genesis block\) breaks the profile's \(old\) schema: \/parent_hash must be 64 lower-case hexadecimal characters/);
      } finally {
        await node.close();
      }
    }
  }, 60_000);

  it('without methodIntegers, net_peerCount as a hex quantity fails the profile\'s one integers, as it always did', async () => {
    const results = await against(upstream(), ['hex-peer-count'], await describing('old', {}));
    expect(wrong(results).filter((line) => !line.startsWith('net_peerCount/profile-shape: fail'))).toEqual([]);
    expect(wrong(results)).toHaveLength(1);
  }, 60_000);
});

describe('a profile that does not state a result form the node chose', () => {
  it('net_peerCount as an object under a profile of counts: only its form fails (profile-shape); the count comparison, which finds no count to read, skips', async () => {
    const results = await against(upstream(), ['peer-count-object'], await describing('counts', {}));
    expect(wrong(results).map((line) => line.replace(/: fail: .*$/, ''))).toEqual(['net_peerCount/profile-shape']);
    const matches = results.find((r) => r.id === 'net_peerCount/matches-pou-peers');
    expect([matches?.status, matches?.evidence.message]).toEqual(['skip', expect.stringMatching(/no count to compare in net_peerCount's \{"count":\d+,"max":50\} \(peerCountResult: integer\)/)]);
  }, 60_000);
});

describe('batch answers in another order, with extra fields', () => {
  it('pass every check: JSON-RPC 2.0 §6 lets responses come in any order, and results may carry more than the spec shows', async () => {
    const extra = (r: JsonValue): JsonValue =>
      typeof r === 'object' && r !== null && !Array.isArray(r) && typeof r.result === 'object' && r.result !== null && !Array.isArray(r.result) ? { ...r, result: { ...r.result, 'x-vendor': 'legal' } } : r;
    const proxy = await startProxy(upstream().url, (res) => {
      if (res.status !== 200 || res.body === '') return res;
      try {
        const body = parseJson(res.body);
        return { ...res, body: stringifyJson(Array.isArray(body) ? [...body].reverse().map(extra) : extra(body)) };
      } catch {
        return res;
      }
    });
    try {
      expect(wrong(await runChecks(nodeChecks, [proxy.url]))).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
