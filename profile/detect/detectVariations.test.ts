/**
 * detect against nodes that chose otherwise in ways the legal variations do not cover one by one: a faucet
 * under another name, no faucet, method listings other than rpc.discover, no listing at all, a node that
 * refuses free transfers. Each legal variation's detected profile is compared with the profile a team would
 * write, and then made to pass every check, in test/legal-variations.detected.*.test.ts (one detection
 * serves both proofs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTransaction } from '../../core/codec/index.js';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import { startVaryingNode } from '../../test/support/varyingNode.js';
import { referenceCodec } from '../referenceCodec.js';
import { startProxy, startTestNode } from '../../test/support/suites.js';
import type { TestNode } from '../../test/support/suites.js';
import { detectProfile } from './detectProfile.js';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
});

afterAll(async () => {
  await node.stop();
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
