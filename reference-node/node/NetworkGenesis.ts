import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '../../core/files/AtomicFile.js';
import { devnetGenesis } from '../chain/index.js';
import type { GenesisConfig } from '../chain/index.js';

/**
 * What a network is, fixed at its start and shared by every node (docs/reference-node.md,
 * "Membership and election"): the chain id and the members, the MN identities (64-hex public keys)
 * that may be elected and propose blocks. The genesis block lists the members in its PoU snapshot,
 * so the genesis hash, which every hello carries, commits to them: a node given another member set
 * is on another chain. The allocation is the devnet faucet's (chain/genesis.ts). The block time is the
 * network's too: the slot rule counts liveness windows, which are made of it, so a node that ran
 * another block time would refuse its peers' blocks (and they its own).
 *
 * The file (genesis.json): {"format": "chainrpc-genesis/2", "chain_id": "1", "block_time_ms": 1000,
 * "members": ["…64 hex…"]}; a chainrpc-genesis/1 file has no block_time_ms (its nodes must be given
 * the same --block-time).
 */
export interface NetworkGenesis {
  readonly chainId: bigint;
  /** Sorted, unique, 64 lower-case hex. */
  readonly members: readonly string[];
  /** The network's block time; absent in a chainrpc-genesis/1 file. */
  readonly blockTimeMs?: number;
}

/** The format without a block time (read, and written for a genesis without one). */
export const GENESIS_FORMAT = 'chainrpc-genesis/1';
/** The format with the network's block time. */
export const GENESIS_FORMAT_TIMED = 'chainrpc-genesis/2';
/** The shortest block time a node runs (chainrpc node --block-time). */
export const MIN_BLOCK_TIME_MS = 10;
/** The file a devnet writes, and a lone MN keeps in its data dir. */
export const GENESIS_FILE = 'genesis.json';
/** Most members a network may have. */
export const MAX_MEMBERS = 1_000;

/** The genesis as the chain takes it. */
export function genesisConfig(genesis: NetworkGenesis): GenesisConfig {
  return { ...devnetGenesis(genesis.chainId), members: genesis.members };
}

/** A genesis from its parts, members sorted; throws on a member that is not an id, or none, or a block time below the shortest. */
export function networkGenesis(chainId: bigint, members: readonly string[], blockTimeMs?: number): NetworkGenesis {
  if (blockTimeMs !== undefined && (!Number.isSafeInteger(blockTimeMs) || blockTimeMs < MIN_BLOCK_TIME_MS)) throw new Error(`the block time must be a whole number of ms, at least ${MIN_BLOCK_TIME_MS}; got ${blockTimeMs}`);
  if (members.length === 0) throw new Error('a network needs at least one member');
  if (members.length > MAX_MEMBERS) throw new Error(`a network has at most ${MAX_MEMBERS} members; got ${members.length}`);
  for (const m of members) if (!/^[0-9a-f]{64}$/.test(m)) throw new Error(`member ${JSON.stringify(m.slice(0, 80))} is not a node id (64 lower-case hex characters)`);
  const sorted = [...members].sort();
  const twice = sorted.find((m, i) => sorted[i + 1] === m);
  if (twice !== undefined) throw new Error(`member ${twice} is listed twice`);
  return blockTimeMs === undefined ? { chainId, members: sorted } : { chainId, members: sorted, blockTimeMs };
}

export function formatNetworkGenesis(genesis: NetworkGenesis): string {
  const { chainId, members, blockTimeMs } = genesis;
  const fields = blockTimeMs === undefined ? { format: GENESIS_FORMAT, chain_id: chainId.toString(), members } : { format: GENESIS_FORMAT_TIMED, chain_id: chainId.toString(), block_time_ms: blockTimeMs, members };
  return JSON.stringify(fields, null, 2) + '\n';
}

/** Reads a genesis file; throws an Error naming the file and the problem. */
export function readNetworkGenesis(path: string): NetworkGenesis {
  const fail = (reason: string): never => {
    throw new Error(`${path} is not a network genesis: ${reason}`);
  };
  if (!existsSync(path)) fail('no such file');
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return fail(`not JSON (${(err as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('not a JSON object');
  const { format, chain_id: chainId, members, block_time_ms: blockTime } = value as Record<string, unknown>;
  if (format !== GENESIS_FORMAT && format !== GENESIS_FORMAT_TIMED) fail(`format must be "${GENESIS_FORMAT_TIMED}" (or "${GENESIS_FORMAT}", without a block time)`);
  const fields = format === GENESIS_FORMAT ? ['format', 'chain_id', 'members'] : ['format', 'chain_id', 'block_time_ms', 'members'];
  const unknown = Object.keys(value).find((k) => !fields.includes(k));
  if (unknown !== undefined) fail(`unknown field ${JSON.stringify(unknown.slice(0, 40))} (the fields of ${String(format)} are ${fields.join(', ')})`);
  if (typeof chainId !== 'string' || !/^(0|[1-9][0-9]{0,19})$/.test(chainId) || BigInt(chainId) > 0xffff_ffff_ffff_ffffn) fail('chain_id must be a decimal string of a u64');
  if (format === GENESIS_FORMAT_TIMED && (typeof blockTime !== 'number' || !Number.isSafeInteger(blockTime) || blockTime < MIN_BLOCK_TIME_MS)) fail(`block_time_ms must be a whole number of ms, at least ${MIN_BLOCK_TIME_MS}`);
  if (!Array.isArray(members) || !members.every((m): m is string => typeof m === 'string')) return fail('members must be an array of node ids');
  try {
    return networkGenesis(BigInt(chainId as string), members, typeof blockTime === 'number' ? blockTime : undefined);
  } catch (err) {
    return fail((err as Error).message);
  }
}

/** The genesis a node keeps in its data dir (a lone MN's own, or one it was started with), or undefined. Throws when the file is there but broken. */
export function keptNetworkGenesis(dataDir: string): NetworkGenesis | undefined {
  const kept = join(dataDir, GENESIS_FILE);
  return existsSync(kept) ? readNetworkGenesis(kept) : undefined;
}

export function writeNetworkGenesis(path: string, genesis: NetworkGenesis): void {
  writeFileAtomically(path, formatNetworkGenesis(genesis));
}
