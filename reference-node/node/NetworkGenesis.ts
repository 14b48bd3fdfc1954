import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomically } from '../../core/files/AtomicFile.js';
import { devnetGenesis } from '../chain/index.js';
import type { GenesisConfig } from '../chain/index.js';

/**
 * What a network is, fixed at its start and shared by every node (docs/reference-node.md,
 * "Membership and election"): the chain id and the members, the MN identities (64-hex public keys)
 * that may be elected and propose blocks. The genesis block lists the members in its PoU snapshot,
 * so the genesis hash, which every hello carries, commits to them: a node given another member set
 * is on another chain. The allocation is the devnet faucet's (chain/genesis.ts).
 *
 * The file (genesis.json): {"format": "chainrpc-genesis/1", "chain_id": "1", "members": ["…64 hex…"]}.
 */
export interface NetworkGenesis {
  readonly chainId: bigint;
  /** Sorted, unique, 64 lower-case hex. */
  readonly members: readonly string[];
}

export const GENESIS_FORMAT = 'chainrpc-genesis/1';
/** The file a devnet writes, and a lone MN keeps in its data dir. */
export const GENESIS_FILE = 'genesis.json';
/** Most members a network may have. */
export const MAX_MEMBERS = 1_000;

/** The genesis as the chain takes it. */
export function genesisConfig(genesis: NetworkGenesis): GenesisConfig {
  return { ...devnetGenesis(genesis.chainId), members: genesis.members };
}

/** A genesis from its parts, members sorted; throws on a member that is not an id, or none. */
export function networkGenesis(chainId: bigint, members: readonly string[]): NetworkGenesis {
  if (members.length === 0) throw new Error('a network needs at least one member');
  if (members.length > MAX_MEMBERS) throw new Error(`a network has at most ${MAX_MEMBERS} members; got ${members.length}`);
  for (const m of members) if (!/^[0-9a-f]{64}$/.test(m)) throw new Error(`member ${JSON.stringify(m.slice(0, 80))} is not a node id (64 lower-case hex characters)`);
  const sorted = [...members].sort();
  const twice = sorted.find((m, i) => sorted[i + 1] === m);
  if (twice !== undefined) throw new Error(`member ${twice} is listed twice`);
  return { chainId, members: sorted };
}

export function formatNetworkGenesis(genesis: NetworkGenesis): string {
  return JSON.stringify({ format: GENESIS_FORMAT, chain_id: genesis.chainId.toString(), members: genesis.members }, null, 2) + '\n';
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
  const unknown = Object.keys(value).find((k) => !['format', 'chain_id', 'members'].includes(k));
  if (unknown !== undefined) fail(`unknown field ${JSON.stringify(unknown.slice(0, 40))} (the fields are format, chain_id and members)`);
  const { format, chain_id: chainId, members } = value as Record<string, unknown>;
  if (format !== GENESIS_FORMAT) fail(`format must be "${GENESIS_FORMAT}"`);
  if (typeof chainId !== 'string' || !/^(0|[1-9][0-9]{0,19})$/.test(chainId) || BigInt(chainId) > 0xffff_ffff_ffff_ffffn) fail('chain_id must be a decimal string of a u64');
  if (!Array.isArray(members) || !members.every((m): m is string => typeof m === 'string')) return fail('members must be an array of node ids');
  try {
    return networkGenesis(BigInt(chainId as string), members);
  } catch (err) {
    return fail((err as Error).message);
  }
}

export function writeNetworkGenesis(path: string, genesis: NetworkGenesis): void {
  writeFileAtomically(path, formatNetworkGenesis(genesis));
}
