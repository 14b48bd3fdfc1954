/**
 * Pending transactions, in arrival order, with the per-sender bookkeeping admission needs (docs/chain.md,
 * "Mempool and admission"). A transaction is admitted only with nonce == the sender's next pending
 * nonce, so arrival order already respects each sender's nonce order and a block can take them as
 * they come. Relayed transactions that arrive ahead of their predecessors (peers may deliver out of
 * order) wait in a bounded "held" buffer and are promoted when the gap fills.
 *
 * The caller has already decoded the transaction and checked chain id, signature and duplicates.
 */
import { formatU128, U128_MAX } from '../../core/codec/index.js';
import type { SignedTransaction } from '../../core/codec/index.js';
import { jsonInteger } from '../../core/json/index.js';
import { ChainError } from './ChainError.js';
import type { ResolvedLimits, SubmitSource } from './types.js';
import type { StateReader } from './WorldState.js';

interface SenderQueue {
  /** The nonce the sender's next transaction must carry. */
  next: bigint;
  /** Sum of value + fee over the sender's pending transactions. */
  spend: bigint;
  count: number;
}

interface HeldTx {
  readonly tx: SignedTransaction;
  /** When it was held (ms, from the injected clock). */
  readonly at: number;
}

export interface MempoolConfig {
  readonly limits: ResolvedLimits;
  readonly faucetAddress: string;
  /** Clock for held-transaction expiry (ms). */
  readonly now: () => number;
}

export class Mempool {
  private pending = new Map<string, SignedTransaction>();
  private senders = new Map<string, SenderQueue>();
  /** Pending credits (sum of value) per recipient, for the overflow check. */
  private credits = new Map<string, bigint>();
  /** Pending faucet transfers per recipient, for the faucet limit. */
  private faucetClaims = new Map<string, number>();
  /** Held relayed transactions, in arrival (= time) order, so expiry pops from the front. */
  private readonly held = new Map<string, HeldTx>();
  private readonly heldBySender = new Map<string, Map<bigint, string>>();

  constructor(private readonly config: MempoolConfig) {}

  get size(): number {
    return this.pending.size;
  }

  get heldCount(): number {
    return this.held.size;
  }

  status(hash: string): 'pending' | 'held' | undefined {
    if (this.pending.has(hash)) return 'pending';
    if (this.held.has(hash)) return 'held';
    return undefined;
  }

  get(hash: string): SignedTransaction | undefined {
    return this.pending.get(hash);
  }

  nextNonce(address: string, state: StateReader): bigint {
    return this.senders.get(address)?.next ?? state.getAccount(address).nonce;
  }

  pendingSpend(address: string): bigint {
    return this.senders.get(address)?.spend ?? 0n;
  }

  pendingFaucetClaims(address: string): number {
    return this.faucetClaims.get(address) ?? 0;
  }

  /** Pending transactions in arrival order (block production, relay). */
  transactions(): IterableIterator<SignedTransaction> {
    return this.pending.values();
  }

  /**
   * Nonce, balance, overflow and capacity checks, then queue (or hold, for a relayed future
   * transaction). Throws ChainError; on success the transaction is pending or held.
   */
  admit(tx: SignedTransaction, source: SubmitSource, state: StateReader): 'pending' | 'held' {
    this.expireHeld();
    const expected = this.nextNonce(tx.sender, state);
    if (tx.nonce < expected) {
      throw new ChainError('NonceTooLow', {
        reason: `nonce ${tx.nonce} was already used: the sender's next nonce, counting queued transactions, is ${expected}`,
        expected: jsonInteger(expected),
        actual: jsonInteger(tx.nonce),
      });
    }
    if (tx.nonce > expected) {
      if (source === 'client') {
        throw new ChainError('NonceGap', {
          reason: `nonce ${tx.nonce} is ahead of the sender's next nonce ${expected}; submit the transactions in between first (the node does not hold future transactions)`,
          expected: jsonInteger(expected),
          actual: jsonInteger(tx.nonce),
        });
      }
      this.hold(tx, expected);
      return 'held';
    }
    this.add(tx, state);
    this.promote(tx.sender, state);
    return 'pending';
  }

  /** Balance, overflow and capacity checks for a transaction whose nonce is the next one; queues it. */
  private add(tx: SignedTransaction, state: StateReader): void {
    const queue = this.senders.get(tx.sender);
    const spend = queue?.spend ?? 0n;
    const balance = state.getAccount(tx.sender).balance;
    const available = balance > spend ? balance - spend : 0n;
    const required = tx.value + tx.fee;
    if (available < required) {
      throw new ChainError('InsufficientBalance', {
        reason: `the sender's balance less its queued spends is ${available}, below value + fee = ${required}`,
        available: formatU128(available),
        required: formatU128(required),
      });
    }
    // A transfer to oneself credits nothing net (the value comes out of the same balance).
    const credits = this.credits.get(tx.to) ?? 0n;
    const credit = tx.to === tx.sender ? 0n : tx.value;
    if (state.getAccount(tx.to).balance + credits + credit > U128_MAX) {
      throw new ChainError('AmountOverflow', {
        reason: `the recipient's balance plus its queued credits plus value ${tx.value} would exceed the u128 maximum ${U128_MAX}`,
      });
    }
    const { maxPending, maxPendingPerSender } = this.config.limits;
    if (this.pending.size >= maxPending) {
      throw new ChainError('MempoolFull', { reason: `the node holds ${maxPending} pending transactions, its limit; retry after the next block`, limit: maxPending });
    }
    if ((queue?.count ?? 0) >= maxPendingPerSender) {
      throw new ChainError('MempoolFull', {
        reason: `this sender has ${maxPendingPerSender} pending transactions, the per-sender limit; retry after the next block`,
        limit: maxPendingPerSender,
      });
    }
    this.pending.set(tx.hash, tx);
    if (queue) {
      queue.next = tx.nonce + 1n;
      queue.spend += required;
      queue.count++;
    } else {
      this.senders.set(tx.sender, { next: tx.nonce + 1n, spend: required, count: 1 });
    }
    if (credit > 0n) this.credits.set(tx.to, credits + credit);
    if (tx.sender === this.config.faucetAddress) this.faucetClaims.set(tx.to, this.pendingFaucetClaims(tx.to) + 1);
  }

  private hold(tx: SignedTransaction, expected: bigint): void {
    const { maxHeld, maxHeldPerSender } = this.config.limits;
    const bySender = this.heldBySender.get(tx.sender);
    if (bySender?.has(tx.nonce)) {
      throw new ChainError('NonceGap', {
        reason: `another transaction with nonce ${tx.nonce} from this sender is already held, waiting for nonce ${expected}`,
        expected: jsonInteger(expected),
        actual: jsonInteger(tx.nonce),
      });
    }
    if ((bySender?.size ?? 0) >= maxHeldPerSender) {
      throw new ChainError('MempoolFull', { reason: `this sender has ${maxHeldPerSender} held future transactions, the limit`, limit: maxHeldPerSender });
    }
    if (this.held.size >= maxHeld) {
      throw new ChainError('MempoolFull', { reason: `the node holds ${maxHeld} future transactions, its limit`, limit: maxHeld });
    }
    this.held.set(tx.hash, { tx, at: this.config.now() });
    if (bySender) bySender.set(tx.nonce, tx.hash);
    else this.heldBySender.set(tx.sender, new Map([[tx.nonce, tx.hash]]));
  }

  private removeHeld(hash: string): HeldTx | undefined {
    const entry = this.held.get(hash);
    if (!entry) return undefined;
    this.held.delete(hash);
    const bySender = this.heldBySender.get(entry.tx.sender);
    bySender?.delete(entry.tx.nonce);
    if (bySender?.size === 0) this.heldBySender.delete(entry.tx.sender);
    return entry;
  }

  /** Drop held transactions older than the TTL. */
  private expireHeld(): void {
    const cutoff = this.config.now() - this.config.limits.heldTtlMs;
    for (const [hash, entry] of this.held) {
      if (entry.at > cutoff) break;
      this.removeHeld(hash);
    }
  }

  /** Move the sender's held transactions that now continue its queue into it; drop stale ones. */
  private promote(sender: string, state: StateReader): void {
    const bySender = this.heldBySender.get(sender);
    if (!bySender) return;
    const next = this.nextNonce(sender, state);
    for (const [nonce, hash] of bySender) if (nonce < next) this.removeHeld(hash);
    for (;;) {
      const hash = this.heldBySender.get(sender)?.get(this.nextNonce(sender, state));
      if (hash === undefined) return;
      const entry = this.removeHeld(hash);
      if (!entry) return;
      try {
        this.add(entry.tx, state);
      } catch (error) {
        // No longer admissible (balance, capacity): dropped; later ones stay held until they expire.
        if (error instanceof ChainError) return;
        throw error;
      }
    }
  }

  /**
   * After a block is committed: remove its transactions, re-check the rest against the new state
   * in arrival order (dropping any that no longer fit, and so the rest of that sender's queue),
   * promote held transactions whose gap is now filled, expire old ones. Returns the dropped hashes.
   */
  /** Empties the mempool, held transactions too; returns the hashes it dropped, pending ones first, in arrival order. */
  clear(): string[] {
    const dropped = [...this.pending.keys(), ...this.held.keys()];
    this.pending = new Map();
    this.senders = new Map();
    this.credits = new Map();
    this.faucetClaims = new Map();
    this.held.clear();
    this.heldBySender.clear();
    return dropped;
  }

  afterBlock(included: Iterable<string>, state: StateReader): string[] {
    const previous = this.pending;
    for (const hash of included) {
      previous.delete(hash);
      this.removeHeld(hash);
    }
    this.pending = new Map();
    this.senders = new Map();
    this.credits = new Map();
    this.faucetClaims = new Map();
    const dropped: string[] = [];
    for (const tx of previous.values()) {
      if (tx.nonce !== this.nextNonce(tx.sender, state)) {
        dropped.push(tx.hash);
        continue;
      }
      try {
        this.add(tx, state);
      } catch (error) {
        if (!(error instanceof ChainError)) throw error;
        dropped.push(tx.hash);
      }
    }
    this.expireHeld();
    for (const sender of [...this.heldBySender.keys()]) this.promote(sender, state);
    return dropped;
  }
}
