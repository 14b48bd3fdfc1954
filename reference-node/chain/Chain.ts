/**
 * The reference node's chain: confirmed state in memory, the mempool, block production and import,
 * and the crash-safe store underneath (docs/chain.md). The node layer (RPC, peers, leader
 * election) drives it through this class only.
 *
 * Durability rule: a block and everything it changes are written in one synced batch, and memory
 * (what every reader sees) is updated only after that write has resolved. So anything a reader has
 * seen survives a crash, and after a crash the store holds a whole number of blocks.
 */
import { decodeTransaction, isCodecError, createTransactionSigner, parseAddress, transactionHash, U64_MAX } from '../../core/codec/index.js';
import type { Keypair, SignedTransaction, TransactionSigner, TransactionVerifyCode, TransactionVerifyResult } from '../../core/codec/index.js';
import { ChainStore } from './ChainStore.js';
import { BlockRejectedError } from './BlockRejectedError.js';
import { blockHash, blockHashBytes } from './blockHash.js';
import { jsonInteger } from '../../core/json/index.js';
import { isHex64, toHex } from './bytes.js';
import { ChainError } from './ChainError.js';
import { REFERENCE_CHAIN_RULES } from './ChainRules.js';
import type { ChainRules } from './ChainRules.js';
import { resolveGenesis } from './genesis.js';
import { applyTransaction } from './applyTransaction.js';
import { loadChainState } from './loadChainState.js';
import { Mempool } from './Mempool.js';
import { ArrivalOrder } from './ArrivalOrder.js';
import { Mutex } from './Mutex.js';
import { verifyBlockSignature } from './signBlock.js';
import { stateRootHex } from './stateRoot.js';
import type { StateChanges, WorldState } from './WorldState.js';
import { DEFAULT_LIMITS } from './types.js';
import type {
  Account,
  Block,
  ChainLimits,
  FaucetClaim,
  GenesisConfig,
  ImportResult,
  ProduceOptions,
  ProposalRule,
  ResolvedLimits,
  SubmitOutcome,
  SubmitSource,
  TransactionStatus,
} from './types.js';

/** 10 tokens. */
export const DEFAULT_FAUCET_AMOUNT = 10n * 10n ** 18n;
export const DEFAULT_FAUCET_LIMIT = 1;
/** Blocks kept in memory besides the store (the rest are read from the store on demand). */
const RECENT_BLOCKS = 256;

const STRICT_VERIFY_CODES: ReadonlySet<TransactionVerifyCode> = new Set<TransactionVerifyCode>([
  'KEY_LENGTH',
  'SIGNATURE_LENGTH',
  'NON_CANONICAL_S',
  'NON_CANONICAL_A',
  'SMALL_ORDER_A',
  'NON_CANONICAL_R',
  'SMALL_ORDER_R',
  'BAD_SIGNATURE',
]);

export interface FaucetSettings {
  /** The faucet account's key; its address must be the genesis faucet address. */
  readonly keypair: Keypair;
  /** Base units per claim (default 10 tokens = 10^19). */
  readonly amount?: bigint;
  /** Claims per address, confirmed plus pending (default 1). */
  readonly limit?: number;
}

export interface ChainOpenOptions {
  readonly dataDir: string;
  readonly genesis: GenesisConfig;
  readonly limits?: ChainLimits;
  /** Without it, claimFaucet answers FaucetUnavailable. */
  readonly faucet?: FaucetSettings;
  /** Clock in ms for held-transaction expiry (tests inject one). Default Date.now. */
  readonly now?: () => number;
  /** Signature, chain id and fee rules. Default: REFERENCE_CHAIN_RULES; anything else is a deliberate variant. */
  readonly rules?: ChainRules;
  /** Who may propose on a parent (ProposalRule); applied to every imported and produced block. */
  readonly proposals?: ProposalRule;
}

export interface FaucetClaimOptions {
  readonly amount?: bigint;
  readonly limit?: number;
}

interface Faucet {
  readonly signer: TransactionSigner;
  readonly amount: bigint;
  readonly limit: number;
}

function resolveLimits(limits: ChainLimits | undefined): ResolvedLimits {
  const resolved: { -readonly [K in keyof ResolvedLimits]: number } = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof ResolvedLimits)[]) {
    const value = limits?.[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < (key === 'heldTtlMs' ? 0 : 1)) throw new RangeError(`chain limit ${key} must be a positive integer, got ${value}`);
    resolved[key] = value;
  }
  return resolved;
}

/** A PoU snapshot checked and in id order; throws TypeError on an entry that is not id -> u64. */
/** A block drafted and signed, not committed (Chain.draftBlock), with the state changes it makes. */
export interface BlockDraft {
  readonly block: Block;
  readonly changes: StateChanges;
}

/** Why produce options are unusable, if they are. */
function produceProblem(options: ProduceOptions): TypeError | undefined {
  if (!isHex64(options.proposer)) return new TypeError('proposer must be 64 lower-case hex characters (the node id)');
  const t = options.timestamp;
  if (typeof t !== 'bigint' || t < 0n || t > U64_MAX) return new TypeError('timestamp must be a u64 bigint (ms)');
  return undefined;
}

function snapshotOf(given: Readonly<Record<string, bigint>>): Record<string, bigint> {
  const pou: Record<string, bigint> = {};
  for (const id of Object.keys(given).sort()) {
    const score = given[id];
    if (!isHex64(id) || typeof score !== 'bigint' || score < 0n || score > U64_MAX) {
      throw new TypeError(`pou entry ${JSON.stringify(id)} must map a 64-hex node id to a u64 bigint score`);
    }
    pou[id] = score;
  }
  return pou;
}

/** A transaction of an imported block: the mempool's copy (verified at admission), or its verification. */
type TransactionCheck = { readonly known: SignedTransaction } | { readonly verified: TransactionVerifyResult | Promise<TransactionVerifyResult> };

/** A transaction decoded and its verification started ahead of its submit (Chain.prepare). */
interface Prepared {
  readonly tx: SignedTransaction;
  readonly verified: TransactionVerifyResult | Promise<TransactionVerifyResult>;
}

/** Verifications kept ahead of their submit: a batch's worth (maxBatch is 1,000) and room for a few more. */
export const PREPARED_KEPT = 4096;

/** The verdict on a transaction this node has just signed with its own key (a faucet claim). */
const SIGNED_HERE: TransactionVerifyResult = Object.freeze({ ok: true });

function normalizeAddress(address: string, what = 'address'): string {
  // Already 64 lower-case hex (every address a handler passes, after params validation): its own normal form.
  if (isHex64(address)) return address;
  return toHex(parseAddress(address, what)); // either case in, lower case out; CodecError when not 64 hex
}

export class Chain {
  readonly chainId: bigint;
  readonly genesisHash: string;
  /** Transfers from this account count as faucet claims (a consensus rule). */
  readonly faucetAddress: string;

  /** What one faucet claim pays, where this node runs the faucet (undefined: it has none). */
  get faucetAmount(): bigint | undefined {
    return this.faucet?.amount;
  }
  readonly dataDir: string;
  /** The sum of the genesis allocation: totalSupply() always equals it. */
  readonly genesisSupply: bigint;
  readonly limits: ResolvedLimits;

  private readonly mutex = new Mutex();
  private readonly arrivals = new ArrivalOrder();
  /** Verifications started ahead of their submit (prepare), by wire hex. */
  private readonly prepared = new Map<string, Prepared>();
  private readonly recent = new Map<bigint, Block>();
  private readonly listeners = new Set<(block: Block) => void>();
  private tipBlock: Block;
  private closed = false;
  private closing: Promise<void> | undefined;
  /** Set when a store write failed: memory may no longer match the disk, so no further writes. */
  private failure: Error | undefined;

  private constructor(
    private readonly store: ChainStore,
    private readonly state: WorldState,
    tip: Block,
    recent: readonly Block[],
    private readonly mempool: Mempool,
    private readonly faucet: Faucet | undefined,
    private readonly rules: ChainRules,
    private readonly proposals: ProposalRule | undefined,
    info: { chainId: bigint; genesisHash: string; faucetAddress: string; genesisSupply: bigint; limits: ResolvedLimits },
  ) {
    this.chainId = info.chainId;
    this.genesisHash = info.genesisHash;
    this.faucetAddress = info.faucetAddress;
    this.genesisSupply = info.genesisSupply;
    this.limits = info.limits;
    this.dataDir = store.dataDir;
    this.tipBlock = tip;
    for (const block of recent) this.recent.set(block.height, block);
  }

  /**
   * Opens the chain in dataDir: creates it with the genesis block if empty, else loads it and
   * checks its integrity. Throws StoreLockedError (directory in use), GenesisMismatchError (another
   * chain) or StoreDamagedError (never serve wrong state).
   */
  static async open(options: ChainOpenOptions): Promise<Chain> {
    const genesis = resolveGenesis(options.genesis);
    const limits = resolveLimits(options.limits);
    let faucet: Faucet | undefined;
    if (options.faucet) {
      const signer = createTransactionSigner(options.faucet.keypair.privateKey);
      if (signer.address !== genesis.faucetAddress) {
        throw new Error(`the faucet key's address ${signer.address} is not the genesis faucet address ${genesis.faucetAddress}`);
      }
      const amount = options.faucet.amount ?? DEFAULT_FAUCET_AMOUNT;
      const limit = options.faucet.limit ?? DEFAULT_FAUCET_LIMIT;
      if (amount <= 0n) throw new RangeError('faucet amount must be positive');
      if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError('faucet limit must be a non-negative integer');
      faucet = { signer, amount, limit };
    }
    const store = await ChainStore.open(options.dataDir);
    try {
      const loaded = await loadChainState(store, genesis, RECENT_BLOCKS);
      const mempool = new Mempool({ limits, faucetAddress: genesis.faucetAddress, now: options.now ?? Date.now });
      return new Chain(store, loaded.state, loaded.tip, loaded.recent, mempool, faucet, options.rules ?? REFERENCE_CHAIN_RULES, options.proposals, {
        chainId: genesis.chainId,
        genesisHash: genesis.block.hash,
        faucetAddress: genesis.faucetAddress,
        genesisSupply: genesis.totalSupply,
        limits,
      });
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  // ---- reads (memory; old blocks from the store) ----

  height(): bigint {
    return this.tipBlock.height;
  }

  tip(): Block {
    return this.tipBlock;
  }

  /** The block at a height, or undefined above the tip. */
  getBlock(height: bigint): Block | undefined {
    if (height < 0n || height > this.tipBlock.height) return undefined;
    const cached = this.recent.get(height);
    if (cached) return cached;
    this.checkOpen();
    return this.store.getBlockSync(height);
  }

  /** Up to `max` consecutive blocks from `height` (serving sync). */
  blocksFrom(height: bigint, max: number): Block[] {
    const blocks: Block[] = [];
    for (let h = height < 0n ? 0n : height; blocks.length < max && h <= this.tipBlock.height; h++) {
      const block = this.getBlock(h);
      if (!block) break;
      blocks.push(block);
    }
    return blocks;
  }

  /** Confirmed account state; an address never seen is { balance: 0n, nonce: 0n }. */
  getAccount(address: string): Account {
    return this.state.getAccount(normalizeAddress(address));
  }

  /** Confirmed faucet claims of an address. */
  faucetClaims(address: string): bigint {
    return this.state.faucetCount(normalizeAddress(address));
  }

  /** The nonce the address's next transaction must carry, counting queued ones. */
  pendingNonce(address: string): bigint {
    return this.mempool.nextNonce(normalizeAddress(address), this.state);
  }

  pendingCount(): number {
    return this.mempool.size;
  }

  heldCount(): number {
    return this.mempool.heldCount;
  }

  /** Pending transactions in arrival order (for relaying to peers). */
  pendingTransactions(limit = Number.POSITIVE_INFINITY): SignedTransaction[] {
    const out: SignedTransaction[] = [];
    for (const tx of this.mempool.transactions()) {
      if (out.length >= limit) break;
      out.push(tx);
    }
    return out;
  }

  /** Whether a wire transaction (hex) is pending, held or confirmed here; false for one that is no transaction. */
  knowsWire(hex: string): boolean {
    let hash: string;
    try {
      hash = transactionHash(hex);
    } catch {
      return false;
    }
    return this.transactionStatus(hash) !== undefined;
  }

  transactionStatus(hash: string): TransactionStatus | undefined {
    const key = hash.toLowerCase();
    const status = this.mempool.status(key);
    if (status) return { status };
    if (!isHex64(key)) return undefined;
    this.checkOpen();
    const location = this.store.transactionLocationSync(key);
    return location ? { status: 'confirmed', ...location } : undefined;
  }

  /** Sum of all balances; equals genesisSupply (fees go to proposers). */
  totalSupply(): bigint {
    return this.state.totalSupply();
  }

  /** The confirmed state root, 64 hex (equals tip().stateRoot). */
  stateRoot(): string {
    return this.state.stateRoot;
  }

  /** Every non-empty account (tests, tools). */
  accounts(): IterableIterator<[string, Account]> {
    return this.state.accountEntries();
  }

  /** Called after each block is committed (produced or imported). Returns an unsubscribe function. */
  onBlock(listener: (block: Block) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- admission ----

  /**
   * Admit a transaction (wire hex, or decoded) to the mempool. Throws ChainError with the
   * profile's error name and data. 'relay' holds a transaction whose nonce is ahead instead of
   * refusing it with NonceGap. Its signature is checked while earlier arrivals still verify (the honest
   * rules verify on the thread pool); it is admitted after them, in arrival order (ArrivalOrder.ts).
   */
  submit(input: string | SignedTransaction, source: SubmitSource): Promise<SubmitOutcome> {
    let started: Prepared;
    try {
      const early = typeof input === 'string' ? this.takePrepared(input) : undefined;
      if (early !== undefined) this.checkOpen();
      started = early ?? this.startVerifying(input);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const { tx, verified } = started;
    return this.arrivals.run(verified, (result) => this.admit(tx, result, source));
  }

  /**
   * Starts a wire transaction's verification before its turn (the transactions later in a batch, while the
   * first are admitted), so that its submit finds it done or under way. Never throws and changes no state: a
   * transaction that does not decode or is for another chain is left to its submit.
   * Kept by its exact hex, the oldest let go past PREPARED_KEPT (a verdict on the same bytes is always the same).
   */
  prepare(hex: string): void {
    if (this.closed || this.prepared.has(hex)) return;
    let started: Prepared;
    try {
      started = this.startVerifying(hex);
    } catch {
      return;
    }
    if (this.prepared.size >= PREPARED_KEPT) {
      const oldest = this.prepared.keys().next();
      if (oldest.done !== true) this.prepared.delete(oldest.value);
    }
    this.prepared.set(hex, started);
  }

  /** The checks before the signature's (admissible), then its verification started. */
  private startVerifying(input: string | SignedTransaction): Prepared {
    const tx = this.admissible(input);
    return { tx, verified: this.rules.verify(tx) };
  }

  /** The verification prepare started for `hex`, taken out of the cache; undefined when there is none. */
  private takePrepared(hex: string): Prepared | undefined {
    const early = this.prepared.get(hex);
    if (early !== undefined) this.prepared.delete(hex);
    return early;
  }

  /** The checks before the signature's: the chain open, the wire decoded, the chain id. */
  private admissible(input: string | SignedTransaction): SignedTransaction {
    this.checkOpen();
    let tx: SignedTransaction;
    if (typeof input === 'string') {
      try {
        tx = decodeTransaction(input);
      } catch (error) {
        if (!isCodecError(error)) throw error;
        if (error.code === 'AMOUNT_OVERFLOW') throw new ChainError('AmountOverflow', { reason: error.message });
        throw new ChainError('TxMalformed', { reason: error.message });
      }
    } else {
      tx = input;
    }
    if (!this.rules.acceptsChainId(tx.chainId, this.chainId)) {
      throw new ChainError('TxWrongChain', {
        reason: `the transaction is signed for chain id ${tx.chainId}; this network's chain id is ${this.chainId}`,
        expected: jsonInteger(this.chainId),
        actual: jsonInteger(tx.chainId),
      });
    }
    return tx;
  }

  /** The signature's verdict, then the mempool's rules, at the transaction's turn. */
  private admit(tx: SignedTransaction, verified: TransactionVerifyResult, source: SubmitSource): SubmitOutcome {
    this.checkOpen();
    if (!verified.ok) {
      if (STRICT_VERIFY_CODES.has(verified.code)) throw new ChainError('TxBadSignature', { reason: verified.reason });
      throw new ChainError('TxMalformed', { reason: verified.reason });
    }
    if (this.mempool.status(tx.hash) !== undefined || this.isConfirmed(tx)) {
      throw new ChainError('TxDuplicate', { reason: `transaction ${tx.hash} is already queued or confirmed`, hash: tx.hash });
    }
    const status = this.mempool.admit(tx, source, this.state);
    return { hash: tx.hash, status, tx, wire: tx.wire };
  }

  /** A confirmed transaction's nonce is below its sender's confirmed nonce, so only then ask the index. */
  private isConfirmed(tx: SignedTransaction): boolean {
    if (tx.nonce >= this.state.getAccount(tx.sender).nonce) return false;
    return this.store.transactionLocationSync(tx.hash) !== undefined;
  }

  // ---- faucet ----

  /**
   * A transfer of the faucet amount from the faucet key to `address`, fee 0, at the faucet's next
   * pending nonce, admitted like any transaction. FaucetLimit past the per-address limit
   * (confirmed plus pending claims); FaucetUnavailable without a key or funds.
   */
  claimFaucet(address: string, options: FaucetClaimOptions = {}): Promise<FaucetClaim> {
    // In arrival order with the transactions still verifying: its limit, balance and nonce are read at its turn.
    return this.arrivals.run(undefined, () => this.claim(address, options));
  }

  private claim(address: string, options: FaucetClaimOptions): FaucetClaim {
    this.checkOpen();
    if (!this.faucet) throw new ChainError('FaucetUnavailable', { reason: 'this node has no faucet key configured' });
    const to = normalizeAddress(address);
    const limit = options.limit ?? this.faucet.limit;
    const claims = this.state.faucetCount(to) + BigInt(this.mempool.pendingFaucetClaims(to));
    if (claims >= BigInt(limit)) {
      throw new ChainError('FaucetLimit', {
        reason: `address ${to} has already claimed from the faucet ${claims} time(s), counting pending claims; the limit is ${limit}`,
        address: to,
        limit,
      });
    }
    const amount = options.amount ?? this.faucet.amount;
    const balance = this.state.getAccount(this.faucetAddress).balance;
    const spend = this.mempool.pendingSpend(this.faucetAddress);
    const available = balance > spend ? balance - spend : 0n;
    if (available < amount) {
      throw new ChainError('FaucetUnavailable', { reason: `the faucet has ${available} base units left, less than a claim of ${amount}` });
    }
    const tx = this.faucet.signer.sign({ chainId: this.chainId, to, value: amount, nonce: this.mempool.nextNonce(this.faucetAddress, this.state), fee: 0n });
    // Signed here and now with the faucet's own key: there is no signature to doubt.
    this.admit(tx, SIGNED_HERE, 'client');
    return { transaction_hash: tx.hash, amount: amount.toString(), tx, wire: tx.wire };
  }

  // ---- blocks ----

  /**
   * Build, sign and commit the next block from pending transactions (arrival order, at most
   * maxBlockTransactions; a transaction that no longer applies is skipped with every later one of
   * its sender). Resolves once the block is durable and visible.
   */
  produceBlock(options: ProduceOptions): Promise<Block> {
    const invalid = produceProblem(options);
    if (invalid !== undefined) return Promise.reject(invalid);
    return this.mutex.run(async () => {
      const draft = this.draftNow(options);
      await this.commit(draft.block, draft.changes);
      return draft.block;
    });
  }

  /**
   * The next block as produceBlock would make it, signed, but not committed: a leader that commits only once a
   * majority of the members holds its block (node/BlockProducer.ts) sends the draft first. commitDraft commits it.
   */
  draftBlock(options: ProduceOptions): Promise<BlockDraft> {
    const invalid = produceProblem(options);
    if (invalid !== undefined) return Promise.reject(invalid);
    return this.mutex.run(() => Promise.resolve(this.draftNow(options)));
  }

  /**
   * Commits a draft of draftBlock: 'committed', or 'held' when the chain already holds that very block (a peer
   * that had it first served it back), or 'stale' when the tip moved on to another block (the draft is dropped:
   * its transactions stay pending).
   */
  commitDraft(draft: BlockDraft): Promise<'committed' | 'held' | 'stale'> {
    return this.mutex.run(async () => {
      this.checkWritable();
      if (this.getBlock(draft.block.height)?.hash === draft.block.hash) return 'held';
      if (this.tipBlock.hash !== draft.block.parentHash) return 'stale';
      await this.commit(draft.block, draft.changes);
      return 'committed';
    });
  }

  /** The next block on the tip, drafted and signed (called under the mutex). */
  private draftNow(options: ProduceOptions): BlockDraft {
    const { proposer, sign, timestamp } = options;
    this.checkWritable();
    const parent = this.tipBlock;
    const pou = snapshotOf(typeof options.pou === 'function' ? options.pou(parent) : options.pou);
    const draft = this.state.draft();
    const included: SignedTransaction[] = [];
    const skipped = new Set<string>();
    for (const tx of this.mempool.transactions()) {
      if (included.length >= this.limits.maxBlockTransactions) break;
      if (skipped.has(tx.sender)) continue;
      if (applyTransaction(draft, tx, proposer, this.faucetAddress, this.rules.fee(tx)).ok) included.push(tx);
      else skipped.add(tx.sender);
    }
    const header = {
      chainId: this.chainId,
      height: parent.height + 1n,
      parentHash: parent.hash,
      timestamp: timestamp > parent.timestamp ? timestamp : parent.timestamp,
      proposer,
      transactions: included,
      stateRoot: stateRootHex(draft.root),
      pou,
    };
    const hashBytes = blockHashBytes(header);
    const signature = sign(hashBytes);
    if (!(signature instanceof Uint8Array) || signature.length !== 64) throw new TypeError('sign must return a 64-byte ed25519 signature');
    const block: Block = { ...header, signature: toHex(signature), hash: toHex(hashBytes) };
    const check = verifyBlockSignature(block);
    // Peers would refuse it; better to fail here than to commit a block nobody accepts.
    if (!check.ok) throw new Error(`the sign function does not sign for proposer ${proposer}: ${check.reason}`);
    const refused = this.proposals?.(block, parent);
    if (refused) throw new Error(`this block would be refused by the network: ${refused}`);
    return { block, changes: draft.changes() };
  }

  /**
   * Import a peer's block. 'known': we have it; 'conflict': we have another block at that height,
   * or its parent is not our tip; 'gap': it is beyond tip + 1 (sync first). Otherwise it is
   * verified (hash, proposer signature, every transaction re-executed, state root) and committed.
   * Throws BlockRejectedError when it is invalid.
   */
  importBlock(block: Block): Promise<ImportResult> {
    return this.mutex.run(async () => {
      this.checkWritable();
      const reject = (reason: string): never => {
        throw new BlockRejectedError(reason, block.height, block.hash);
      };
      if (block.chainId !== this.chainId) reject(`it is for chain id ${block.chainId}, this chain is ${this.chainId}`);
      const tip = this.tipBlock;
      if (block.height <= tip.height) return this.getBlock(block.height)?.hash === block.hash ? 'known' : 'conflict';
      if (block.height > tip.height + 1n) return 'gap';
      if (block.parentHash !== tip.hash) return 'conflict';

      let recomputed: string;
      try {
        recomputed = blockHash(block);
      } catch (error) {
        return reject(`malformed header (${(error as Error).message})`);
      }
      if (recomputed !== block.hash) reject(`its hash does not match its contents (recomputed ${recomputed})`);
      if (block.timestamp < tip.timestamp) reject(`its timestamp ${block.timestamp} is below its parent's ${tip.timestamp}`);
      const signature = verifyBlockSignature(block);
      if (!signature.ok) reject(signature.reason);
      const refused = this.proposals?.(block, tip);
      if (refused) reject(refused);

      // A transaction we already verified at admission (same wire bytes) is not verified again; the others
      // are all verified at once (on the thread pool, for the honest rules) and judged below in block order.
      const checks = block.transactions.map((tx): TransactionCheck => {
        const known = this.mempool.get(tx.hash);
        return known !== undefined && known.wire === tx.wire ? { known } : { verified: this.rules.verify(tx) };
      });
      const draft = this.state.draft();
      const transactions: SignedTransaction[] = [];
      for (const [i, tx] of block.transactions.entries()) {
        const check = checks[i] as TransactionCheck;
        let canonical: SignedTransaction;
        if ('known' in check) {
          canonical = check.known;
        } else {
          const verified = await check.verified;
          if (!verified.ok) reject(`transaction ${i} (${tx.hash}) fails verification: ${verified.reason}`);
          canonical = tx;
        }
        if (!this.rules.acceptsChainId(canonical.chainId, this.chainId)) reject(`transaction ${i} (${tx.hash}) is for chain id ${canonical.chainId}`);
        const applied = applyTransaction(draft, canonical, block.proposer, this.faucetAddress, this.rules.fee(canonical));
        if (!applied.ok) reject(`transaction ${i} (${tx.hash}) is invalid: ${applied.reason}`);
        transactions.push(canonical);
      }
      const root = stateRootHex(draft.root);
      if (root !== block.stateRoot) reject(`its state root ${block.stateRoot} is not the state after executing it (${root})`);
      const pou: Record<string, bigint> = {};
      for (const id of Object.keys(block.pou).sort()) pou[id] = block.pou[id] ?? 0n;
      await this.commit({ ...block, transactions, pou }, draft.changes());
      return 'imported';
    });
  }

  /** Durable first (one synced batch), then visible: memory, tip, mempool. */
  private async commit(block: Block, changes: StateChanges): Promise<void> {
    try {
      await this.store.commitBlock(block, changes);
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      throw error;
    }
    this.state.applyChanges(changes);
    this.tipBlock = block;
    this.recent.set(block.height, block);
    this.recent.delete(block.height - BigInt(RECENT_BLOCKS));
    this.mempool.afterBlock(
      block.transactions.map((tx) => tx.hash),
      this.state,
    );
    for (const listener of this.listeners) listener(block);
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('the chain is closed');
  }

  private checkWritable(): void {
    this.checkOpen();
    if (this.failure) {
      throw new Error(`a store write failed earlier (${this.failure.message}); restart the node so it reloads the chain from ${this.dataDir}`);
    }
  }

  /**
   * Drops every pending and held transaction (never included, unless sent again); returns their hashes. An
   * operator's flush, and the seam of a fault that loses the mempool (faults/resilience.ts).
   */
  dropPending(): Promise<string[]> {
    return this.mutex.run(() => Promise.resolve(this.mempool.clear()));
  }

  /** Waits for a block being produced or imported, then closes the store. */
  close(): Promise<void> {
    this.closing ??= this.mutex.run(async () => {
      this.closed = true;
      await this.store.close();
    });
    return this.closing;
  }
}
