import type { SignedTransaction } from '../../core/codec/index.js';

/** An account's confirmed state. An address never seen is { balance: 0n, nonce: 0n }. */
export interface Account {
  /** u128, base units. */
  readonly balance: bigint;
  /** u64: the nonce the account's next transaction must carry. */
  readonly nonce: bigint;
}

export interface GenesisAllocation {
  /** 64 hex characters (either case on input; stored lower case). */
  readonly address: string;
  /** u128, base units. */
  readonly balance: bigint;
}

export interface GenesisConfig {
  /** u64; every transaction and block of the chain carries it. */
  readonly chainId: bigint;
  readonly alloc: readonly GenesisAllocation[];
  /**
   * The account whose transfers count as faucet claims (a consensus rule, so every node of a
   * network must agree). Default: the devnet faucet address, devnetFaucetKeypair().address.
   */
  readonly faucetAddress?: string;
  /**
   * The network's members: the node ids (64-hex public keys) that may propose blocks. The genesis
   * block's PoU snapshot lists each with score 0, so the genesis hash commits to the member set.
   * Absent or empty: a snapshot of no one (chain-level tests; docs/chain.md pins that genesis hash).
   */
  readonly members?: readonly string[];
}

/** The fields the block hash covers (docs/chain.md, "Block hash"). */
export interface BlockHeader {
  readonly chainId: bigint;
  /** u64; the genesis block is height 0. */
  readonly height: bigint;
  /** 64 lower-case hex; 64 zeros for genesis. */
  readonly parentHash: string;
  /** u64, milliseconds since the Unix epoch; never below the parent's. 0 for genesis. */
  readonly timestamp: bigint;
  /** Proposer's node id: the 64-hex ed25519 public key. 64 zeros for genesis. */
  readonly proposer: string;
  /** Full transactions in execution order; the hash covers their hashes. */
  readonly transactions: readonly SignedTransaction[];
  /** 64 lower-case hex: the state root after executing the block. */
  readonly stateRoot: string;
  /** Proposer's PoU snapshot: node id (64 lower-case hex) -> score (u64). */
  readonly pou: Readonly<Record<string, bigint>>;
}

export interface Block extends BlockHeader {
  /** 128 lower-case hex: the proposer's ed25519 signature over the 32-byte hash; 128 zeros for genesis. */
  readonly signature: string;
  /** 64 lower-case hex: blockHash(header). */
  readonly hash: string;
}

/** The profile's chain_getBlockByHeight result. u64 fields are numbers when exact, else bigint. */
export interface RpcBlock {
  readonly height: number | bigint;
  readonly hash: string;
  readonly parent_hash: string;
  readonly timestamp: number | bigint;
  readonly proposer: string;
  readonly transaction_count: number;
  readonly transactions: string[];
}

export interface ChainLimits {
  /** Pending transactions in total (default 100,000). */
  readonly maxPending?: number;
  /** Pending transactions of one sender (default 10,000). */
  readonly maxPendingPerSender?: number;
  /** Transactions a produced block takes (default 2,000). */
  readonly maxBlockTransactions?: number;
  /** Relayed future transactions held per sender (default 256). */
  readonly maxHeldPerSender?: number;
  /** Relayed future transactions held in total (default 10,000). */
  readonly maxHeld?: number;
  /** How long a held transaction waits for its gap to fill, ms (default 60,000). */
  readonly heldTtlMs?: number;
}

export type ResolvedLimits = Required<ChainLimits>;

export const DEFAULT_LIMITS: ResolvedLimits = {
  maxPending: 100_000,
  maxPendingPerSender: 10_000,
  maxBlockTransactions: 2_000,
  maxHeldPerSender: 256,
  maxHeld: 10_000,
  heldTtlMs: 60_000,
};

export type SubmitSource = 'client' | 'relay';

export interface SubmitOutcome {
  readonly hash: string;
  /** 'held': a relayed transaction whose nonce is ahead; queued once the gap fills. */
  readonly status: 'pending' | 'held';
  /** The decoded transaction, for relaying to peers. */
  readonly tx: SignedTransaction;
  /** Its 354-hex wire form (what peers are sent). */
  readonly wire: string;
}

/** The chain_faucetClaim result ({transaction_hash, amount}) plus the transaction, for relaying. */
export interface FaucetClaim {
  readonly transaction_hash: string;
  /** Base units, as the profile's decimal string. */
  readonly amount: string;
  readonly tx: SignedTransaction;
  readonly wire: string;
}

export type ImportResult = 'imported' | 'known' | 'gap' | 'conflict';

export interface ProduceOptions {
  /** This node's id: the 64-hex ed25519 public key whose private key `sign` uses. */
  readonly proposer: string;
  /** Ed25519 signature (64 bytes) of the 32-byte block hash with the proposer's key. */
  readonly sign: (hash: Uint8Array) => Uint8Array;
  /** Wall-clock ms; the block gets max(parent timestamp, this). */
  readonly timestamp: bigint;
  /** PoU snapshot: node id -> score; or a function of the parent block (the tip when the block is built). */
  readonly pou: Readonly<Record<string, bigint>> | ((parent: Block) => Readonly<Record<string, bigint>>);
}

/**
 * The network's rules for who may propose a block on a parent (membership, the PoU snapshot, the
 * leader): a reason to refuse, or null. The chain applies it to every block it imports or produces,
 * after the hash and the proposer's signature are checked. A chain opened without one takes any
 * correctly signed proposer (chain-level tests; the node always gives one).
 */
export type ProposalRule = (block: Block, parent: Block) => string | null;

export type TransactionStatus =
  | { readonly status: 'pending' }
  | { readonly status: 'held' }
  | { readonly status: 'confirmed'; readonly height: bigint; readonly index: number };
