/** Helpers shared by the chain's tests (not public API): temp stores, keys, block production. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_UNITS_PER_TOKEN, createTransactionSigner, keypairFromSeed } from '../../core/codec/index.js';
import type { Keypair, SignedTransaction, TransactionSigner } from '../../core/codec/index.js';
import { Chain } from '../../reference-node/chain/Chain.js';
import type { ChainOpenOptions } from '../../reference-node/chain/Chain.js';
import { devnetFaucetKeypair } from '../../reference-node/chain/genesis.js';
import { createBlockSigner } from '../../reference-node/chain/signBlock.js';
import type { Block, GenesisConfig } from '../../reference-node/chain/types.js';

export const TOKEN = BASE_UNITS_PER_TOKEN;
export const FEE = 10n ** 15n;
export const CHAIN_ID = 7n;

/** Temp directories made by a test file; call removeTempDirs() in afterAll/afterEach. */
const dirs: string[] = [];

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chainrpc-chain-'));
  dirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function signer(seed: string): TransactionSigner {
  return createTransactionSigner(keypairFromSeed(seed).privateKey);
}

export const alice = signer('chain-test-alice');
export const bob = signer('chain-test-bob');

/** The devnet faucet plus alice with 1,000 tokens. */
export function testGenesis(chainId = CHAIN_ID): GenesisConfig {
  const faucet = devnetFaucetKeypair().address;
  return {
    chainId,
    alloc: [
      { address: faucet, balance: 1_000_000n * TOKEN },
      { address: alice.address, balance: 1_000n * TOKEN },
    ],
    faucetAddress: faucet,
  };
}

const openChains: Chain[] = [];

/** A chain in a fresh temp dir (unless overridden); closeTestChains closes it after the test. */
export async function openTestChain(overrides: Partial<ChainOpenOptions> = {}): Promise<Chain> {
  const chain = await Chain.open({ dataDir: tempDir(), genesis: testGenesis(), faucet: { keypair: devnetFaucetKeypair() }, ...overrides });
  openChains.push(chain);
  return chain;
}

/** For afterEach: closes every chain openTestChain opened, then removes the temp dirs. */
export async function closeTestChains(): Promise<void> {
  for (const chain of openChains.splice(0)) await chain.close();
  removeTempDirs();
}

/** A node identity that proposes blocks. */
export interface Proposer {
  readonly keypair: Keypair;
  readonly id: string;
  readonly sign: (hash: Uint8Array) => Uint8Array;
}

export function proposer(seed: string): Proposer {
  const keypair = keypairFromSeed(seed);
  return { keypair, id: keypair.address, sign: createBlockSigner(keypair.privateKey) };
}

export const nodeA = proposer('chain-test-node-a');
export const nodeB = proposer('chain-test-node-b');

let clock = 1_700_000_000_000n;

export function produce(chain: Chain, by: Proposer = nodeA): Promise<Block> {
  clock += 1000n;
  return chain.produceBlock({ proposer: by.id, sign: by.sign, timestamp: clock, pou: { [by.id]: 1n } });
}

export function transfer(from: TransactionSigner, to: string, value: bigint, nonce: bigint, fee = FEE, chainId = CHAIN_ID): SignedTransaction {
  return from.sign({ chainId, to, value, nonce, fee });
}

/** The ChainError name a promise rejects with, or 'resolved'. */
export async function errorName(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return (error as Error).name;
  }
}
