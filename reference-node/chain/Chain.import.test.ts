import { afterEach, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import { blockHash } from './blockHash.js';
import { BlockRejectedError } from './BlockRejectedError.js';
import { decodeBlockWire, encodeBlockWire } from './blockWire.js';
import type { Chain } from './Chain.js';
import { signBlock } from './signBlock.js';
import { alice, bob, nodeA, nodeB, closeTestChains, openTestChain, produce, signer, transfer } from '../../test/support/chain.js';
import type { Block } from './types.js';

afterEach(closeTestChains);

/** Over the wire and back, as between two nodes. */
function viaWire(block: Block): Block {
  return decodeBlockWire(parseJson(stringifyJson(encodeBlockWire(block))));
}

/** A block with changed fields, re-hashed and re-signed by `by` (a valid signature over a wrong block). */
function resign(block: Block, changes: Partial<Block>, by = nodeA): Block {
  const changed = { ...block, ...changes };
  const hash = blockHash(changed);
  return { ...changed, hash, signature: signBlock(hash, by.keypair.privateKey) };
}

async function rejection(chain: Chain, block: Block): Promise<string> {
  try {
    await chain.importBlock(block);
  } catch (error) {
    if (error instanceof BlockRejectedError) return error.reason;
    throw error;
  }
  throw new Error('the block was imported');
}

/** Chain A with two blocks of transfers; chain B with the same genesis and nothing else. */
async function twoChains(): Promise<{ a: Chain; b: Chain; blocks: Block[] }> {
  const a = await openTestChain();
  const b = await openTestChain();
  await a.submit(transfer(alice, bob.address, 100n, 0n).wire, 'client');
  await a.claimFaucet(bob.address);
  const b1 = await produce(a, nodeA);
  await a.submit(transfer(bob, alice.address, 7n, 0n).wire, 'client');
  await a.submit(transfer(alice, signer('chain-test-dave').address, 3n, 1n).wire, 'client');
  const b2 = await produce(a, nodeA);
  return { a, b, blocks: [b1, b2] };
}

describe('importing blocks from a peer', () => {
  it('a block produced by another Chain with the same genesis is imported; state and hashes equal', async () => {
    const { a, b, blocks } = await twoChains();
    expect(b.genesisHash).toBe(a.genesisHash);
    for (const block of blocks) expect(await b.importBlock(viaWire(block))).toBe('imported');
    expect(b.height()).toBe(2n);
    expect(b.tip().hash).toBe(a.tip().hash);
    expect(b.stateRoot()).toBe(a.stateRoot());
    expect(new Map(b.accounts())).toEqual(new Map(a.accounts()));
    expect(b.faucetClaims(bob.address)).toBe(1n);
    expect(b.getBlock(1n)).toEqual(a.getBlock(1n));
    expect(await b.importBlock(viaWire(blocks[0] as Block))).toBe('known');
    expect(b.totalSupply()).toBe(b.genesisSupply);
  });

  it('gap above tip + 1, conflict for another block at a height or another parent', async () => {
    const { b, blocks } = await twoChains();
    const [b1, b2] = blocks as [Block, Block];
    expect(await b.importBlock(b2)).toBe('gap');
    const own = await produce(b, nodeB); // B's own block 1
    expect(await b.importBlock(b1)).toBe('conflict');
    expect(await b.importBlock(b2)).toBe('conflict'); // its parent is A's block 1, not B's
    expect(b.tip()).toBe(own);
  });

  it('rejects a bad signature, a bad state root, a bad hash, a tampered transaction; a bad parent is a conflict', async () => {
    const { b, blocks } = await twoChains();
    const b1 = blocks[0] as Block;
    const sig = b1.signature;
    expect(await rejection(b, { ...b1, signature: (sig[0] === '0' ? '1' : '0') + sig.slice(1) })).toMatch(/signature/);
    expect(await rejection(b, resign(b1, {}, nodeB))).toMatch(/signature/); // signed by someone else than the proposer
    expect(await rejection(b, resign(b1, { stateRoot: 'ab'.repeat(32) }))).toMatch(/state root/);
    expect(await rejection(b, { ...b1, timestamp: b1.timestamp + 1n })).toMatch(/hash does not match/);
    // A tampered transaction: one changed wire byte (re-hashed and re-signed, so only the tx is wrong).
    const wire = encodeBlockWire(b1) as { transactions: string[] };
    const first = wire.transactions[0] ?? '';
    const tamperedWire = first.slice(0, 150) + (first[150] === '0' ? '1' : '0') + first.slice(151);
    const tamperedTx = decodeBlockWire({ ...(encodeBlockWire(b1) as object), transactions: [tamperedWire, ...wire.transactions.slice(1)] }).transactions;
    expect(await rejection(b, resign(b1, { transactions: tamperedTx }))).toMatch(/transaction 0 .*fails verification/);
    // A valid transaction that does not apply (dropped nonce 0: nonce 1 first).
    expect(await rejection(b, resign(b1, { transactions: [transfer(alice, bob.address, 1n, 1n)] }))).toMatch(/transaction 0 .*nonce/);
    // Fields changed in memory while wire and hash stay: caught by the wire check.
    const forged = { ...(b1.transactions[0] ?? transfer(alice, bob.address, 1n, 0n)), value: 1n };
    expect(await rejection(b, resign(b1, { transactions: [forged, ...b1.transactions.slice(1)] }))).toMatch(/fails verification/);
    expect(await rejection(b, { ...b1, chainId: 8n })).toMatch(/chain id/);
    expect(await b.importBlock({ ...b1, parentHash: 'ee'.repeat(32) })).toBe('conflict');
    expect(b.height()).toBe(0n);
    expect(await b.importBlock(b1)).toBe('imported');
  });

  it('after an import, pending transactions it made stale are dropped and held ones promoted', async () => {
    const { b, blocks } = await twoChains();
    const b1 = blocks[0] as Block; // alice nonce 0 -> bob 100; faucet -> bob
    const rival = transfer(alice, bob.address, 999n, 0n); // alice nonce 0, another transfer
    await b.submit(rival.wire, 'client');
    const next = transfer(alice, bob.address, 5n, 1n);
    expect((await b.submit(next.wire, 'relay')).status).toBe('pending'); // continues rival's nonce
    const later = transfer(alice, bob.address, 5n, 2n);
    // B has rival (0) and next (1) pending; A's block confirms another nonce 0.
    await b.submit(later.wire, 'client');
    expect(await b.importBlock(b1)).toBe('imported');
    expect(b.transactionStatus(rival.hash)).toBeUndefined();
    // next (nonce 1) is now current against the confirmed state, and later follows it.
    expect(b.pendingTransactions().map((t) => t.hash)).toEqual([next.hash, later.hash]);

    const c = await openTestChain();
    const t1 = transfer(alice, bob.address, 100n, 1n);
    expect((await c.submit(t1.wire, 'relay')).status).toBe('held');
    expect(await c.importBlock(b1)).toBe('imported'); // confirms alice's nonce 0
    expect(c.heldCount()).toBe(0);
    expect(c.pendingTransactions().map((t) => t.hash)).toEqual([t1.hash]);
  });
});

describe('block wire format', () => {
  it('round-trips through JSON exactly', async () => {
    const { blocks } = await twoChains();
    for (const block of blocks) expect(viaWire(block)).toEqual(block);
  });

  it('refuses malformed input with a reason', async () => {
    const { blocks } = await twoChains();
    const good = encodeBlockWire(blocks[0] as Block) as Record<string, unknown>;
    const bad: [unknown, RegExp][] = [
      [null, /object/],
      [[], /object/],
      [{ ...good, extra: 1 }, /unknown field/],
      [{ ...good, hash: undefined }, /hash/],
      [{ ...good, height: 1 }, /height/],
      [{ ...good, height: '01' }, /height/],
      [{ ...good, height: '18446744073709551616' }, /u64/],
      [{ ...good, parent_hash: 'AB'.repeat(32) }, /parent_hash/],
      [{ ...good, signature: 'ab' }, /signature/],
      [{ ...good, transactions: 'x' }, /array/],
      [{ ...good, transactions: ['00'] }, /transactions\[0\]/],
      [{ ...good, transactions: [42] }, /transactions\[0\]/],
      [{ ...good, pou: { short: '1' } }, /pou/],
      [{ ...good, pou: { ['ab'.repeat(32)]: 1 } }, /pou score/],
    ];
    for (const [json, reason] of bad) {
      const clean = json !== null && typeof json === 'object' && !Array.isArray(json) ? Object.fromEntries(Object.entries(json).filter(([, v]) => v !== undefined)) : json;
      expect(() => decodeBlockWire(clean), JSON.stringify(reason.source)).toThrow(reason);
    }
  });
});
