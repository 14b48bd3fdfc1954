import { BASE_UNITS_PER_TOKEN, keypairFromSeed, parseAddress, U128_MAX, U64_MAX } from '../../core/codec/index.js';
import type { Keypair } from '../../core/codec/index.js';
import { blockHash } from './blockHash.js';
import { isHex64, toHex, ZERO_HASH, ZERO_SIGNATURE } from './bytes.js';
import { WorldState } from './WorldState.js';
import type { Block, GenesisConfig } from './types.js';

export const DEVNET_FAUCET_SEED = 'chainrpc-devnet-faucet';
/** 10^9 tokens = 10^27 base units. */
export const DEVNET_FAUCET_BALANCE = 1_000_000_000n * BASE_UNITS_PER_TOKEN;

let devnetFaucet: Keypair | undefined;

/** The devnet faucet key: seed-derived, so public. Never for real funds. */
export function devnetFaucetKeypair(): Keypair {
  devnetFaucet ??= keypairFromSeed(DEVNET_FAUCET_SEED);
  return devnetFaucet;
}

/** The devnet genesis: the faucet account holds the whole supply. */
export function devnetGenesis(chainId: bigint): GenesisConfig {
  const faucet = devnetFaucetKeypair().address;
  return { chainId, alloc: [{ address: faucet, balance: DEVNET_FAUCET_BALANCE }], faucetAddress: faucet };
}

export interface ResolvedGenesis {
  readonly chainId: bigint;
  readonly faucetAddress: string;
  /** The genesis state (the allocation). */
  readonly state: WorldState;
  readonly block: Block;
  readonly totalSupply: bigint;
}

/** Validate the config and build block 0 and its state. Deterministic: same config, same hash. */
export function resolveGenesis(config: GenesisConfig): ResolvedGenesis {
  if (typeof config.chainId !== 'bigint' || config.chainId < 0n || config.chainId > U64_MAX) {
    throw new RangeError(`genesis chainId must be a u64 bigint, got ${String(config.chainId)}`);
  }
  const faucetAddress = toHex(parseAddress(config.faucetAddress ?? devnetFaucetKeypair().address, 'genesis faucetAddress'));
  const state = new WorldState();
  let totalSupply = 0n;
  for (const [i, entry] of config.alloc.entries()) {
    const address = toHex(parseAddress(entry.address, `genesis alloc[${i}].address`));
    if (typeof entry.balance !== 'bigint' || entry.balance < 0n || entry.balance > U128_MAX) {
      throw new RangeError(`genesis alloc[${i}].balance must be a u128 bigint`);
    }
    if (state.getAccount(address).balance !== 0n) throw new RangeError(`genesis alloc lists ${address} twice`);
    totalSupply += entry.balance;
    state.setAccount(address, { balance: entry.balance, nonce: 0n });
  }
  const pou: Record<string, bigint> = {};
  for (const [i, id] of (config.members ?? []).entries()) {
    if (!isHex64(id)) throw new RangeError(`genesis members[${i}] must be a node id, 64 lower-case hex characters`);
    if (id in pou) throw new RangeError(`genesis members lists ${id} twice`);
    pou[id] = 0n;
  }
  // Supply is conserved, so if the total fits in u128 no credit can ever overflow in practice.
  if (totalSupply > U128_MAX) throw new RangeError(`genesis allocation totals ${totalSupply}, above the u128 maximum`);
  const header = {
    chainId: config.chainId,
    height: 0n,
    parentHash: ZERO_HASH,
    timestamp: 0n,
    proposer: ZERO_HASH,
    transactions: [],
    stateRoot: state.stateRoot,
    pou,
  };
  const block: Block = { ...header, signature: ZERO_SIGNATURE, hash: blockHash(header) };
  return { chainId: config.chainId, faucetAddress, state, block, totalSupply };
}

/** Block 0 of a config. */
export function genesisBlock(config: GenesisConfig): Block {
  return resolveGenesis(config).block;
}
