/**
 * detect against nodes that chose otherwise: the varying test node (test/support/varyingNode.ts) in
 * front of a reference node, one legal variation at a time and several at once (FOREIGN_NODE). Each
 * detected profile must equal the profile test/support/variationProfiles.ts writes for that node, except
 * where one look from outside cannot see the whole choice: a value set of chain_health shows the one
 * value the node is in, and an error that cannot be provoked (-32603) shows no status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTransaction } from '../../../core/codec/index.js';
import { parseJson, stringifyJson } from '../../../core/json/index.js';
import { FOREIGN_NODE, JAYSON_NODE, VARIATION_PROFILES } from '../../../test/support/variationProfiles.js';
import { startVaryingNode } from '../../../test/support/varyingNode.js';
import type { VariationName } from '../../../test/support/varyingNode.js';
import { profileFromJson } from '../loadProfile.js';
import type { Profile } from '../Profile.js';
import { referenceCodec } from '../referenceCodec.js';
import { REFERENCE_SETTINGS } from '../referenceProfile.js';
import { startProxy, startTestNode, TEST_BLOCK_MS } from '../../../test/support/suites.js';
import type { TestNode } from '../../../test/support/suites.js';
import { detectProfile } from './detectProfile.js';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
});

afterAll(async () => {
  await node.stop();
});

/** The profile a team would write for the node: the variation's keys over the reference node's settings. */
async function expected(profile: Record<string, unknown>): Promise<Profile> {
  const { faucetLimit, maxBatch, maxBodyBytes } = REFERENCE_SETTINGS;
  return profileFromJson({ blockTimeMs: TEST_BLOCK_MS, faucetLimit, maxBatch, maxBodyBytes, ...profile }, 'expected.json');
}

/** Detects the node behind `url` and compares with `want`, allowing only what cannot be seen from outside. */
async function detectAndCompare(url: string, want: Profile, unseen: { bodyLimit?: boolean } = {}, told: { methodPrefix?: string } = {}): Promise<void> {
  const r = await detectProfile({ url, ...told });
  const got = await profileFromJson(r.profile, 'detected.json');
  // One chain_health answer shows one value of each set: it must be in the set.
  expect(want.health.status).toContain(got.health.status[0]);
  expect(want.health.mode).toContain(got.health.mode[0]);
  // Statuses of error codes never drawn (an internal error) cannot be listed: what is listed must be right.
  expect(want.http.errorByCode).toMatchObject(got.http.errorByCode);
  expect(Math.abs(got.blockTimeMs - want.blockTimeMs)).toBeLessThanOrEqual(30);
  const strip = (p: Profile): Record<string, unknown> => {
    const { name: _n, source: _s, codec: _c, blockTimeMs: _b, health: _h, http, maxBodyBytes, ...rest } = p;
    return { ...rest, http: { ...http, errorByCode: {} }, ...(unseen.bodyLimit === true ? {} : { maxBodyBytes }) };
  };
  expect(strip(got)).toEqual(strip(want));
  expect(r.warnings).toEqual([]);
}

const MODES = Object.keys(VARIATION_PROFILES) as VariationName[];

describe('detectProfile against the varying node', () => {
  it.each(MODES)('%s', async (mode) => {
    const varying = await startVaryingNode(node.url, [mode]);
    try {
      // method-prefix re-serializes every request, padding included, so the varying node's own 4 MiB
      // body limit is the one a client meets there, not the reference node's 1 MiB behind it;
      // prefix-unlisted renames every call the same way (renameMethods.ts).
      const reserialized = mode === 'method-prefix' || mode === 'prefix-unlisted';
      await detectAndCompare(varying.url, await expected(VARIATION_PROFILES[mode].profile), { bodyLimit: reserialized }, VARIATION_PROFILES[mode].detect);
    } finally {
      await varying.close();
    }
  }, 30_000);

  it('a node that chose otherwise in many ways at once (FOREIGN_NODE)', async () => {
    const varying = await startVaryingNode(node.url, FOREIGN_NODE.modes);
    try {
      await detectAndCompare(varying.url, await expected(FOREIGN_NODE.profile));
    } finally {
      await varying.close();
    }
  }, 30_000);
});

describe('detectProfile on the node a user found wrong answers on (JAYSON_NODE)', () => {
  it('given its prefix, finds the faucet under <prefix>faucet, the empty genesis parent hash and the hex peer count', async () => {
    const varying = await startVaryingNode(node.url, JAYSON_NODE.modes);
    try {
      await detectAndCompare(varying.url, await expected(JAYSON_NODE.profile), { bodyLimit: true }, JAYSON_NODE.detect);
    } finally {
      await varying.close();
    }
  }, 30_000);
});

describe('detectProfile and method names', () => {
  it('a faucet under another name and no listing: found by trying the names nodes give a faucet', async () => {
    const varying = await startVaryingNode(node.url, ['faucet-renamed', 'no-discover']);
    try {
      const r = await detectProfile({ url: varying.url, limits: false, transactions: false });
      const f = Object.fromEntries(r.findings.map((x) => [x.key, x]));
      expect([f.methodNames?.value, f.methodNames?.confidence, f.faucet?.value, f.faucetLimit?.value]).toEqual([{ chain_faucetClaim: 'chain_faucet' }, 'medium', true, 1]);
      expect(f.methodNames?.evidence).toMatch(/chain_faucetClaim -> chain_faucet \(chain_faucetClaim is not served; chain_faucet \[\] -> error -32602/);
      expect(r.warnings).toEqual([]);
    } finally {
      await varying.close();
    }
  }, 30_000);

  it('a node without a faucet: the names tried are bounded, and it is said to have none', async () => {
    // chain_faucetClaim and every name tried for a faucet are unknown here.
    const noFaucet = await startProxy(node.url, (res) => res, undefined, (body) => body.replace(/"(chain_faucetClaim)"/g, '"unknown_$1"'));
    try {
      const r = await detectProfile({ url: noFaucet.url, limits: false, transactions: false });
      const f = Object.fromEntries(r.findings.map((x) => [x.key, x]));
      expect([f.faucet?.value, f.methodNames?.value]).toEqual([false, {}]);
      expect(r.requests).toBeLessThan(80);
    } finally {
      await noFaucet.close();
    }
  }, 30_000);

  it('a node that lists its methods with rpc_methods (Substrate, jsonrpsee) instead of rpc.discover: its prefix is found', async () => {
    const names = ['acme_health', 'acme_blockNumber', 'acme_getBlockByHeight', 'acme_getAccount', 'acme_sendRawTransaction', 'acme_faucetClaim', 'acme_pouLocal', 'acme_pouPeers', 'net_peerCount', 'rpc_methods'];
    const listing = await startProxy(
      node.url,
      (res) => ({ ...res, body: res.body.replace(/"chain_(?!id")/g, '"acme_') }),
      (req) => (req.body.includes('"rpc_methods"') ? { status: 200, headers: { 'content-type': 'application/json' }, body: stringifyJson({ jsonrpc: '2.0', id: (parseJson(req.body) as { id: number }).id, result: { version: 1, methods: names } }) } : undefined),
      (body) => body.replace(/"(chain_|rpc\.discover)/g, '"unknown_$1').replace(/"acme_/g, '"chain_'),
    );
    try {
      const r = await detectProfile({ url: listing.url, limits: false, transactions: false, faucet: false });
      const f = Object.fromEntries(r.findings.map((x) => [x.key, x]));
      expect([f.methodPrefix?.value, f.methodPrefix?.confidence, f.methodNames?.value]).toEqual(['acme_', 'high', {}]);
      expect(f.methodPrefix?.evidence).toMatch(/^rpc_methods lists 10 method\(s\); 9 of 9 spec methods matched by name; 9 of 9 answered/);
    } finally {
      await listing.close();
    }
  }, 30_000);

  it('a node built on go-ethereum\'s rpc package lists its namespaces (rpc_modules): the one serving this interface is the prefix', async () => {
    const modules = await startProxy(
      node.url,
      (res) => ({ ...res, body: res.body.replace(/"chain_(?!id")/g, '"acme_') }),
      (req) => (req.body.includes('"rpc_modules"') ? { status: 200, headers: { 'content-type': 'application/json' }, body: stringifyJson({ jsonrpc: '2.0', id: (parseJson(req.body) as { id: number }).id, result: { eth: '1.0', net: '1.0', acme: '1.0' } }) } : undefined),
      (body) => body.replace(/"(chain_|rpc\.discover)/g, '"unknown_$1').replace(/"acme_/g, '"chain_'),
    );
    try {
      const r = await detectProfile({ url: modules.url, limits: false, transactions: false, faucet: false });
      const f = Object.fromEntries(r.findings.map((x) => [x.key, x]));
      expect([f.methodPrefix?.value, f.methodPrefix?.confidence]).toEqual(['acme_', 'high']);
      expect(f.methodPrefix?.evidence).toMatch(/^rpc_modules lists the namespaces eth, acme; acme_getBlockByHeight and acme_health are served/);
    } finally {
      await modules.close();
    }
  }, 30_000);

  it('a node with other names and no rpc.discover: not found, with the advice; found with --method-prefix', async () => {
    // acme_* on the wire (chain_* names are unknown there), and no rpc.discover to list them.
    const hidden = await startProxy(
      node.url,
      (res) => ({ ...res, body: res.body.replace(/"chain_(?!id")/g, '"acme_') }),
      undefined,
      (body) => body.replace(/"(chain_|rpc\.discover)/g, '"unknown_$1').replace(/"acme_/g, '"chain_'),
    );
    try {
      const lost = await detectProfile({ url: hidden.url, limits: false, transactions: false, faucet: false });
      expect(lost.warnings.join('\n')).toMatch(/methods not served: chain_health .*pass --method-prefix/);
      const found = await detectProfile({ url: hidden.url, methodPrefix: 'acme_', limits: false });
      expect(found.warnings).toEqual([]);
      const f = Object.fromEntries(found.findings.map((x) => [x.key, x]));
      expect([f.methodPrefix?.value, f.methodPrefix?.basis, f.txResult?.value, f.faucetLimit?.value]).toEqual(['acme_', 'given', 'hash', 1]);
    } finally {
      await hidden.close();
    }
  }, 30_000);
});

describe('detectProfile and transactions', () => {
  it('a node that refuses free transfers is sent one funded by the faucet, with the profile fee', async () => {
    // Refuses fee 0 as a node with a minimum fee would; everything else goes to the reference node.
    const proxy = await startProxy(
      node.url,
      (res) => res,
      (req) => {
        let call;
        try {
          call = parseJson(req.body);
        } catch {
          return undefined;
        }
        if (typeof call !== 'object' || call === null || Array.isArray(call) || call.method !== 'chain_sendRawTransaction' || !Array.isArray(call.params)) return undefined;
        const wire = call.params[0];
        let fee: bigint | undefined;
        try {
          fee = typeof wire === 'string' ? decodeTransaction(wire).fee : undefined;
        } catch {
          return undefined;
        }
        if (fee !== 0n) return undefined;
        return { status: 200, headers: { 'content-type': 'application/json' }, body: stringifyJson({ jsonrpc: '2.0', id: call.id ?? null, error: { code: -32050, message: 'Fee too low', data: { reason: 'the fee is below the minimum' } } }) };
      },
    );
    try {
      const r = await detectProfile({ url: proxy.url, limits: false });
      const f = Object.fromEntries(r.findings.map((x) => [x.key, x]));
      expect(f.txResult?.evidence).toMatch(/a funded transfer \(faucet key, value 0, fee 1000000000000000, nonce 0\)/);
      expect([f.txResult?.value, f.sequentialNonces?.value, f.nonceGap?.value]).toEqual(['hash', 'queued', 'refused']);
      expect([f['errorCodes.TxDuplicate']?.value, f['errorCodes.NonceTooLow']?.value, f['errorCodes.NonceGap']?.value]).toEqual([-32009, -32005, -32006]);
      expect(r.warnings).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('a node that refuses every transaction alike is said to use another format, and its codes are not guessed', async () => {
    // A codec of another format: version byte 2, which the reference node cannot read (TxMalformed for all).
    const other = { ...referenceCodec, name: 'other-format-v2', sign: (key: Uint8Array, tx: Parameters<typeof referenceCodec.sign>[1]) => ({ wire: `02${referenceCodec.sign(key, tx).wire.slice(2)}` }) };
    delete (other as { crafted?: unknown }).crafted;
    const r = await detectProfile({ url: node.url, codec: other, faucet: false, limits: false });
    expect(r.warnings.join('\n')).toMatch(/every transaction \(\d+\) was refused with -32002: the node may use another transaction format/);
    const f = Object.fromEntries(r.findings.map((x) => [x.key, x]));
    expect([f.codec?.confidence, f.txResult?.basis, f['errorCodes.TxWrongChain']?.basis, f['errorCodes.InsufficientBalance']?.basis]).toEqual(['low', 'default', 'default', 'default']);
  }, 30_000);
});
