/**
 * Opening a store: create it with the genesis block if empty, else load it and check its integrity
 * before anything is served (docs/chain.md, "Integrity checks at open"). Every failure is a
 * StoreDamagedError that names the problem and the directory and says how to recover.
 */
import { GenesisMismatchError } from '../store/GenesisMismatchError.js';
import type { ChainStore } from './ChainStore.js';
import { StoreDamagedError } from '../store/StoreDamagedError.js';
import { blockHash } from './blockHash.js';
import { hex32, sha256, toHex, u32be, u64be } from './bytes.js';
import type { ResolvedGenesis } from './genesis.js';
import { isEmptyAccount, stateRootHex } from './stateRoot.js';
import { WorldState } from './WorldState.js';
import type { Block } from './types.js';

export interface LoadedChain {
  readonly state: WorldState;
  readonly tip: Block;
  /** The most recent blocks, oldest first (at most `keepRecent`). */
  readonly recent: readonly Block[];
  /** True when the store was empty and has just been created. */
  readonly created: boolean;
}

const MOD = 1n << 256n;

/** One transaction-index entry's contribution to the index checksum (sum mod 2^256, like the state root). */
function txIndexEntry(hash: string, height: bigint, index: number): bigint {
  return BigInt(`0x${toHex(sha256(hex32(hash, 'transaction hash'), u64be(height), u32be(index)))}`);
}

export async function loadChainState(store: ChainStore, genesis: ResolvedGenesis, keepRecent: number): Promise<LoadedChain> {
  const damaged = (problem: string): StoreDamagedError => new StoreDamagedError(store.dataDir, problem);
  const configured = { chainId: genesis.chainId, genesisHash: genesis.block.hash, faucetAddress: genesis.faucetAddress };

  const meta = await store.readMeta();
  if (meta === undefined) {
    if (!(await store.isEmpty())) throw damaged('it holds data but no chain metadata (key m:meta)');
    const state = genesis.state;
    await store.initialize(configured, genesis.block, {
      accounts: new Map(state.accountEntries()),
      faucetCounts: new Map(state.faucetEntries()),
      root: state.root,
    });
    return { state, tip: genesis.block, recent: [genesis.block], created: true };
  }
  if (meta.chainId !== configured.chainId || meta.genesisHash !== configured.genesisHash || meta.faucetAddress !== configured.faucetAddress) {
    throw new GenesisMismatchError(store.dataDir, meta, configured);
  }

  const tipPointer = await store.readTip();
  if (tipPointer === undefined) throw damaged('the tip pointer (key m:tip) is missing');

  // Blocks, in height order: contiguous from 0, each hash recomputed, each parent link checked.
  const recent: Block[] = [];
  let previous: Block | undefined;
  let expected = 0n;
  let txCount = 0;
  let txSum = 0n;
  for await (const { keyHeight, block } of store.blocks()) {
    if (keyHeight !== expected) {
      throw damaged(
        expected === 0n
          ? `the genesis block (height 0) is missing; the first stored block is at height ${keyHeight}`
          : `block ${expected} is missing (the store jumps from block ${expected - 1n} to block ${keyHeight})`,
      );
    }
    if (block.height !== keyHeight) throw damaged(`the block stored for height ${keyHeight} says it is block ${block.height}`);
    if (block.chainId !== configured.chainId) throw damaged(`block ${keyHeight} is for chain id ${block.chainId}, not ${configured.chainId}`);
    let recomputed: string;
    try {
      recomputed = blockHash(block);
    } catch (error) {
      throw damaged(`block ${keyHeight} has malformed header fields (${(error as Error).message})`);
    }
    if (recomputed !== block.hash) throw damaged(`the contents of block ${keyHeight} do not match its hash ${block.hash}`);
    if (previous === undefined) {
      if (block.hash !== configured.genesisHash) throw damaged(`the stored genesis block's hash ${block.hash} is not the configured genesis ${configured.genesisHash}`);
    } else if (block.parentHash !== previous.hash) {
      throw damaged(`block ${keyHeight}'s parent hash ${block.parentHash} does not match block ${previous.height}'s hash ${previous.hash}`);
    }
    block.transactions.forEach((tx, index) => {
      txSum = (txSum + txIndexEntry(tx.hash, block.height, index)) % MOD;
    });
    txCount += block.transactions.length;
    recent.push(block);
    if (recent.length > keepRecent) recent.shift();
    previous = block;
    expected++;
  }
  if (previous === undefined) throw damaged('it holds no blocks, not even genesis');
  if (previous.height < tipPointer.height) {
    throw damaged(`the tip pointer names block ${tipPointer.height} but the stored blocks end at block ${previous.height}`);
  }
  if (previous.height > tipPointer.height) throw damaged(`it holds blocks above the tip pointer's block ${tipPointer.height} (up to ${previous.height})`);
  if (previous.hash !== tipPointer.hash) throw damaged(`the tip pointer's hash ${tipPointer.hash} is not block ${previous.height}'s hash ${previous.hash}`);
  const tip = previous;

  // State: every account and faucet count, then the recomputed root against the tip's.
  const state = new WorldState();
  for await (const [address, account] of store.accounts()) {
    if (isEmptyAccount(account)) throw damaged(`account ${address} is stored although it is empty`);
    state.setAccount(address, account);
  }
  for await (const [address, count] of store.faucetCounts()) {
    if (count === 0n) throw damaged(`faucet count of ${address} is stored although it is 0`);
    state.setFaucetCount(address, count);
  }
  if (state.stateRoot !== tip.stateRoot) {
    throw damaged(
      `the state root of the stored accounts and faucet counts is ${stateRootHex(state.root)}, but block ${tip.height} says ${tip.stateRoot}: the state does not match the chain`,
    );
  }

  // The confirmed-transaction index must list exactly the blocks' transactions.
  let indexCount = 0;
  let indexSum = 0n;
  for await (const [hash, location] of store.txIndex()) {
    indexSum = (indexSum + txIndexEntry(hash, location.height, location.index)) % MOD;
    indexCount++;
  }
  if (indexCount !== txCount || indexSum !== txSum) {
    throw damaged(`the transaction index (${indexCount} entries) does not match the ${txCount} transactions in the blocks`);
  }

  return { state, tip, recent, created: false };
}
