/**
 * Every method of the reference node, through real HTTP on loopback against a real node (store on
 * disk, block production running). Results are checked against the profile's schemas too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, JsonRpcError } from '../../core/client/index.js';
import type { RpcClient } from '../../core/client/index.js';
import {
  bytesToHex,
  createMessageSigner,
  createTransactionSigner,
  encodeTransactionBody,
  generatePrivateKey,
  keypairFromSeed,
  signingMessageForBody,
  U128_MAX,
} from '../../core/codec/index.js';
import type { SignedTransaction, TransactionSigner } from '../../core/codec/index.js';
import { validators } from '../../core/schema/validators.js';
import { ReferenceNode } from './ReferenceNode.js';
import { testNodeOptions } from '../../test/support/nodeOptions.js';

const TOKEN = 10n ** 18n;
const FEE = 10n ** 15n;
let dir: string;
let node: ReferenceNode;
let client: RpcClient;

/** Calls a method and checks its result against the method's profile schema. */
async function call<R>(method: string, params: unknown[] = []): Promise<R> {
  const result = await client.call<R>(method, params);
  const verdict = validators().result(method, result);
  expect(verdict, `${method} result ${JSON.stringify(result, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`).toEqual({ ok: true });
  return result;
}

async function rpcError(method: string, params: unknown[]): Promise<JsonRpcError> {
  const err = await client.call(method, params).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof JsonRpcError)) throw new Error(`${method} was expected to fail with a JSON-RPC error, got ${String(err)}`);
  expect(validators().error(method, err.error), `${method} error ${err.message}`).toEqual({ ok: true });
  return err;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function account(address: string): Promise<{ balance: string; nonce: number }> {
  return call('chain_getAccount', [address]);
}

/** Waits until the transaction is in a block; returns that block's height. */
async function included(hash: string): Promise<number> {
  let scanned = 0;
  return waitFor(`transaction ${hash} in a block`, async () => {
    const height = await call<number>('chain_blockNumber');
    for (let h = scanned + 1; h <= height; h++) {
      const block = await call<{ transactions: string[] }>('chain_getBlockByHeight', [h]);
      if (block.transactions.includes(hash)) return h;
      scanned = h;
    }
    return undefined;
  });
}

async function funded(seed: string): Promise<TransactionSigner> {
  const signer = createTransactionSigner(keypairFromSeed(seed).privateKey);
  const claim = await call<{ transaction_hash: string; amount: string }>('chain_faucetClaim', [signer.address]);
  await included(claim.transaction_hash);
  return signer;
}

const transfer = (signer: TransactionSigner, to: string, value: bigint, nonce: bigint, fee = FEE, chainId = 1n): SignedTransaction =>
  signer.sign({ chainId, to, value, nonce, fee });

/** A correctly signed transaction with value = 2^128-1 and fee = 1: the sum overflows u128. */
function overflowingWire(privateKey: Uint8Array, to: string): string {
  const signer = createMessageSigner(privateKey);
  const body = encodeTransactionBody({ chainId: 1n, sender: signer.address, to, value: U128_MAX, nonce: 1n, fee: 0n });
  body[body.length - 1] = 1; // fee is the last field: 16 bytes, big-endian
  return bytesToHex(body) + bytesToHex(signer.sign(signingMessageForBody(body)));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-node-'));
  node = await ReferenceNode.start(testNodeOptions(dir));
  client = createClient({ baseUrl: node.url });
});

afterAll(async () => {
  await client?.close();
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('reference node methods', () => {
  it('chain_health: ok, MN, the chain id', async () => {
    expect(await call('chain_health')).toEqual({ status: 'ok', mode: 'MN', chain_id: 1 });
  });

  it('chain_blockNumber rises, and a block exists for every height up to it (spec rule 1)', async () => {
    const first = await call<number>('chain_blockNumber');
    const later = await waitFor('two more blocks', async () => {
      const h = await call<number>('chain_blockNumber');
      return h >= first + 2 ? h : undefined;
    });
    for (let h = 0; h <= later; h++) {
      const block = await call<{ height: number; parent_hash: string; hash: string }>('chain_getBlockByHeight', [h]);
      expect(block.height).toBe(h);
    }
  });

  it('chain_getBlockByHeight: genesis, hash links, BlockNotFound above the tip, -32602 for a bad height', async () => {
    const genesis = await call<{ parent_hash: string; proposer: string; transaction_count: number }>('chain_getBlockByHeight', [0]);
    expect(genesis).toMatchObject({ parent_hash: '0'.repeat(64), proposer: '0'.repeat(64), transaction_count: 0 });
    const tip = await call<number>('chain_blockNumber');
    const a = await call<{ hash: string; proposer: string }>('chain_getBlockByHeight', [tip - 1]);
    const b = await call<{ parent_hash: string; proposer: string }>('chain_getBlockByHeight', [tip]);
    expect(b.parent_hash).toBe(a.hash);
    expect(b.proposer).toBe(node.id);
    const missing = await rpcError('chain_getBlockByHeight', [tip + 1000]);
    expect(missing.code).toBe(-32001);
    expect(missing.data).toMatchObject({ height: tip + 1000 });
    expect((await rpcError('chain_getBlockByHeight', [-1])).code).toBe(-32602);
    expect((await rpcError('chain_getBlockByHeight', ['1'])).code).toBe(-32602);
    expect((await rpcError('chain_getBlockByHeight', [])).code).toBe(-32602);
  });

  it('chain_getAccount: an unknown address is an empty account; upper case is the same account; bad addresses are -32602', async () => {
    const fresh = createTransactionSigner(generatePrivateKey()).address;
    expect(await account(fresh)).toEqual({ balance: '0', nonce: 0 });
    expect(await account(fresh.toUpperCase())).toEqual({ balance: '0', nonce: 0 });
    expect((await rpcError('chain_getAccount', [fresh.slice(1)])).code).toBe(-32602);
    expect((await rpcError('chain_getAccount', ['0x' + fresh.slice(2)])).code).toBe(-32602);
  });

  it('chain_faucetClaim credits the address through a block, once', async () => {
    const address = createTransactionSigner(generatePrivateKey()).address;
    const claim = await call<{ transaction_hash: string; amount: string }>('chain_faucetClaim', [address]);
    expect(claim.amount).toBe((10n * TOKEN).toString());
    await included(claim.transaction_hash);
    expect(await account(address)).toEqual({ balance: (10n * TOKEN).toString(), nonce: 0 });
    const again = await rpcError('chain_faucetClaim', [address]);
    expect(again.code).toBe(-32011);
    expect(again.data).toMatchObject({ address, limit: 1 });
  });

  it('a transfer with fee 10^15 moves value and fee exactly, bumps the nonce and shows up in a block', async () => {
    const alice = await funded('node-test-alice');
    const bob = createTransactionSigner(generatePrivateKey()).address;
    const tx = transfer(alice, bob, TOKEN, 0n);
    expect(await call('chain_sendRawTransaction', [tx.wire])).toBe(tx.hash);
    const height = await included(tx.hash);
    const block = await call<{ proposer: string; transactions: string[]; transaction_count: number }>('chain_getBlockByHeight', [height]);
    expect(block.transaction_count).toBe(block.transactions.length);
    expect(await account(alice.address)).toEqual({ balance: (10n * TOKEN - TOKEN - FEE).toString(), nonce: 1 });
    expect(await account(bob)).toEqual({ balance: TOKEN.toString(), nonce: 0 });
  });

  it('queues sequential nonces sent before a block, and includes them all in order', async () => {
    const sender = await funded('node-test-sequential');
    const to = createTransactionSigner(generatePrivateKey()).address;
    const txs = Array.from({ length: 50 }, (_, i) => transfer(sender, to, 1n, BigInt(i)));
    const outcomes = await client.batch(txs.map((t) => ({ method: 'chain_sendRawTransaction', params: [t.wire] })));
    expect(outcomes.map((o) => (o.ok ? o.result : o.error.code))).toEqual(txs.map((t) => t.hash));
    const last = txs[txs.length - 1];
    if (!last) throw new Error('no txs');
    await included(last.hash);
    expect(await account(sender.address)).toMatchObject({ nonce: 50 });
    expect(await account(to)).toEqual({ balance: '50', nonce: 0 });
  });

  it('refuses bad transactions, each with its own code and data.reason', async () => {
    const carol = await funded('node-test-carol');
    const to = createTransactionSigner(generatePrivateKey()).address;
    const good = transfer(carol, to, 1n, 0n);
    const code = async (wire: string): Promise<number> => {
      const err = await rpcError('chain_sendRawTransaction', [wire]);
      expect(typeof (err.data as { reason?: unknown }).reason).toBe('string');
      return err.code;
    };
    // A changed signature byte: -32004.
    const i = good.wire.length - 20;
    expect(await code(good.wire.slice(0, i) + (good.wire[i] === '0' ? '1' : '0') + good.wire.slice(i + 1))).toBe(-32004);
    // Another chain's transaction: -32003.
    expect(await code(transfer(carol, to, 1n, 0n, FEE, 2n).wire)).toBe(-32003);
    // Wrong length: -32002; odd-length hex: -32602.
    expect(await code(good.wire.slice(0, -2))).toBe(-32002);
    expect(await code(good.wire.slice(0, -1))).toBe(-32602);
    // Nonce gap: -32006.
    expect(await code(transfer(carol, to, 1n, 5n).wire)).toBe(-32006);
    // More than the balance: -32007.
    expect(await code(transfer(carol, to, 11n * TOKEN, 0n).wire)).toBe(-32007);
    // Accepted, then the same bytes again: -32009; the same nonce with other bytes: -32005.
    expect(await call('chain_sendRawTransaction', [good.wire])).toBe(good.hash);
    expect(await code(good.wire)).toBe(-32009);
    expect(await code(transfer(carol, to, 2n, 0n).wire)).toBe(-32005);
    // value + fee above 2^128-1, well signed: -32008 (the encoder refuses it, so the bytes are made by hand).
    expect(await code(overflowingWire(keypairFromSeed('node-test-carol').privateKey, to))).toBe(-32008);
  });

  it('chain_pouLocal: a lone MN leads itself and counts its usage', async () => {
    const pou = await call<{ local_score: number; leader: string; local_is_leader: boolean }>('chain_pouLocal');
    expect(pou).toMatchObject({ leader: node.id, local_is_leader: true });
    expect(pou.local_score).toBeGreaterThan(0);
    const later = await call<{ local_score: number }>('chain_pouLocal');
    expect(later.local_score).toBeGreaterThan(pou.local_score);
  });

  it('chain_pouPeers and net_peerCount: no peers', async () => {
    expect(await call('chain_pouPeers')).toEqual({ peers: {} });
    expect(await call('net_peerCount')).toBe(0);
  });

  it('rpc.discover returns the OpenRPC document', async () => {
    const doc = await call<{ openrpc: string; methods: { name: string }[] }>('rpc.discover');
    expect(doc.methods.map((m) => m.name)).toContain('chain_sendRawTransaction');
  });

  it('extra params are refused for methods that take none', async () => {
    expect((await rpcError('chain_blockNumber', [1])).code).toBe(-32602);
    expect((await rpcError('chain_pouPeers', ['x'])).code).toBe(-32602);
  });
});
