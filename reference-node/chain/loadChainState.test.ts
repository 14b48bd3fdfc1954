import { afterEach, describe, expect, it } from 'vitest';
import { ChainStore, accountKey, blockKey, KEY_META, KEY_TIP, txKey } from './ChainStore.js';
import { encodeBlockRecord } from './blockRecord.js';
import { GenesisMismatchError } from '../store/GenesisMismatchError.js';
import { StoreDamagedError } from '../store/StoreDamagedError.js';
import { StoreLockedError } from '../store/StoreLockedError.js';
import { blockHash } from './blockHash.js';
import { concatBytes, u128be, u64be } from './bytes.js';
import { Chain } from './Chain.js';
import { devnetFaucetKeypair } from './genesis.js';
import { alice, bob, nodeA, produce, removeTempDirs, tempDir, testGenesis, transfer } from '../../test/support/chain.js';
import type { Block } from './types.js';

afterEach(removeTempDirs);

const openAt = (dataDir: string): Promise<Chain> => Chain.open({ dataDir, genesis: testGenesis(), faucet: { keypair: devnetFaucetKeypair() } });

/** A store with blocks 0..2 holding transfers and a faucet claim; closed. */
async function builtStore(): Promise<{ dir: string; blocks: Block[] }> {
  const dir = tempDir();
  const chain = await openAt(dir);
  await chain.submit(transfer(alice, bob.address, 10n, 0n).wire, 'client');
  await chain.claimFaucet(bob.address);
  const b1 = await produce(chain, nodeA);
  await chain.submit(transfer(bob, alice.address, 3n, 0n).wire, 'client');
  const b2 = await produce(chain, nodeA);
  await chain.close();
  return { dir, blocks: [b1, b2] };
}

/** Change the store directly, as bit rot or a bad tool would. */
async function tamper(dir: string, change: (store: ChainStore) => Promise<void>): Promise<void> {
  const store = await ChainStore.open(dir);
  try {
    await change(store);
  } finally {
    await store.close();
  }
}

async function damage(dir: string): Promise<StoreDamagedError> {
  const error = await openAt(dir).catch((e: unknown) => e);
  if (!(error instanceof StoreDamagedError)) throw new Error(`expected StoreDamagedError, got ${String(error)}`);
  expect(error.dataDir).toBe(dir);
  expect(error.message).toContain(dir);
  expect(error.message).toMatch(/remove the data directory/);
  return error;
}

describe('reopening a store', () => {
  it('gives the identical tip, blocks and state', async () => {
    const dir = tempDir();
    const chain = await openAt(dir);
    await chain.submit(transfer(alice, bob.address, 10n, 0n).wire, 'client');
    await chain.claimFaucet(bob.address);
    await produce(chain);
    await produce(chain);
    const before = { tip: chain.tip(), root: chain.stateRoot(), accounts: new Map(chain.accounts()), claims: chain.faucetClaims(bob.address) };
    const blocks = chain.blocksFrom(0n, 10);
    await chain.close();
    await expect(chain.submit(transfer(alice, bob.address, 1n, 1n).wire, 'client')).rejects.toThrow(/closed/);

    const again = await openAt(dir);
    try {
      expect(again.tip()).toEqual(before.tip);
      expect(again.stateRoot()).toBe(before.root);
      expect(new Map(again.accounts())).toEqual(before.accounts);
      expect(again.faucetClaims(bob.address)).toBe(before.claims);
      expect(again.blocksFrom(0n, 10)).toEqual(blocks);
      expect(again.getAccount(alice.address).nonce).toBe(1n);
      // Confirmed-duplicate detection survives the restart.
      await expect(again.submit(transfer(alice, bob.address, 10n, 0n).wire, 'client')).rejects.toMatchObject({ name: 'TxDuplicate' });
      expect((await produce(again)).height).toBe(3n);
    } finally {
      await again.close();
    }
  });

  it('a second open of the same directory is refused clearly', async () => {
    const dir = tempDir();
    const chain = await openAt(dir);
    try {
      const error = await openAt(dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreLockedError);
      expect((error as Error).message).toMatch(/already in use/);
    } finally {
      await chain.close();
    }
  });

  it('a store of another chain is refused (chain id or genesis differ)', async () => {
    const dir = tempDir();
    await (await openAt(dir)).close();
    const error = await Chain.open({ dataDir: dir, genesis: testGenesis(8n) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GenesisMismatchError);
    expect((error as Error).message).toMatch(/holds chain id 7 .* configured for chain id 8/);
    const alloc = await Chain.open({ dataDir: dir, genesis: { ...testGenesis(), alloc: [] } }).catch((e: unknown) => e);
    expect(alloc).toBeInstanceOf(GenesisMismatchError);
  });
});

describe('a damaged store is refused at open', () => {
  it('garbage bytes under a key: checksum failure naming the key', async () => {
    const { dir } = await builtStore();
    await tamper(dir, (s) => s.level.writeRawUnsafe([{ type: 'put', key: accountKey(alice.address), value: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) }]));
    expect((await damage(dir)).problem).toMatch(new RegExp(`"a:${alice.address}" fails its checksum`));
  });

  it('one flipped byte inside a stored block', async () => {
    const { dir } = await builtStore();
    await tamper(dir, async (s) => {
      const raw = (await s.level.getRawUnsafe(blockKey(1n))) ?? new Uint8Array();
      const copy = new Uint8Array(raw);
      copy[copy.length - 5] = (copy[copy.length - 5] ?? 0) ^ 1;
      await s.level.writeRawUnsafe([{ type: 'put', key: blockKey(1n), value: copy }]);
    });
    expect((await damage(dir)).problem).toMatch(/b:0000000000000001.*checksum/);
  });

  it('a missing block, a missing tip block, a missing tip pointer', async () => {
    const first = await builtStore();
    await tamper(first.dir, (s) => s.level.write([{ type: 'del', key: blockKey(1n) }]));
    expect((await damage(first.dir)).problem).toMatch(/block 1 is missing/);

    const second = await builtStore();
    await tamper(second.dir, (s) => s.level.write([{ type: 'del', key: blockKey(2n) }]));
    expect((await damage(second.dir)).problem).toMatch(/tip pointer names block 2 but the stored blocks end at block 1/);

    const third = await builtStore();
    await tamper(third.dir, (s) => s.level.write([{ type: 'del', key: KEY_TIP }]));
    expect((await damage(third.dir)).problem).toMatch(/tip pointer .* is missing/);
  });

  it('a block rewritten with a valid checksum but other contents: hash mismatch', async () => {
    const { dir, blocks } = await builtStore();
    const b1 = blocks[0] as Block;
    await tamper(dir, (s) => s.level.write([{ type: 'put', key: blockKey(1n), value: encodeBlockRecord({ ...b1, timestamp: b1.timestamp + 1n }) }]));
    expect((await damage(dir)).problem).toMatch(/contents of block 1 do not match its hash/);
  });

  it('a re-hashed block that breaks the parent link', async () => {
    const { dir, blocks } = await builtStore();
    const b2 = blocks[1] as Block;
    const relinked = { ...b2, parentHash: 'ab'.repeat(32) };
    await tamper(dir, (s) => s.level.write([{ type: 'put', key: blockKey(2n), value: encodeBlockRecord({ ...relinked, hash: blockHash(relinked) }) }]));
    expect((await damage(dir)).problem).toMatch(/block 2's parent hash .* does not match block 1's hash/);
  });

  it('an account changed with a valid checksum: state root mismatch', async () => {
    const { dir } = await builtStore();
    await tamper(dir, (s) => s.level.write([{ type: 'put', key: accountKey(bob.address), value: concatBytes([u128be(10n ** 30n), u64be(1n)]) }]));
    expect((await damage(dir)).problem).toMatch(/state root .* does not match the chain/);
  });

  it('a missing entry of the transaction index', async () => {
    const { dir, blocks } = await builtStore();
    await tamper(dir, (s) => s.level.write([{ type: 'del', key: txKey((blocks[0] as Block).transactions[0]?.hash ?? '') }]));
    expect((await damage(dir)).problem).toMatch(/transaction index \(2 entries\) does not match the 3 transactions/);
  });

  it('data without chain metadata', async () => {
    const { dir } = await builtStore();
    await tamper(dir, (s) => s.level.write([{ type: 'del', key: KEY_META }]));
    expect((await damage(dir)).problem).toMatch(/no chain metadata/);
  });
});
