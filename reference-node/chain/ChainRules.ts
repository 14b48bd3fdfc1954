import { verifyTransactionOffThread } from '../../core/codec/index.js';
import type { SignedTransaction, TransactionVerifyResult } from '../../core/codec/index.js';

/**
 * The consensus choices the chain reads at admission, import and execution (docs/chain.md), as data.
 * An honest node runs REFERENCE_CHAIN_RULES; any other rules are a deliberate variant (the fault
 * layer above the node builds them to prove the suite: ARCHITECTURE.md), passed to Chain.open.
 */
export interface ChainRules {
  /**
   * Signature verification, at admission and at block import alike. Honest: strict RFC 8032 (core/codec/strictVerify.ts),
   * its group equation on libuv's thread pool (core/codec/offThreadVerify.ts), so it answers later; a variant may
   * answer at once. The chain admits in arrival order either way (Chain.submit).
   */
  verify(tx: SignedTransaction): TransactionVerifyResult | Promise<TransactionVerifyResult>;
  /** Whether a transaction signed for `txChainId` is valid on a chain whose id is `own`. Honest: only its own. */
  acceptsChainId(txChainId: bigint, own: bigint): boolean;
  /** The fee a transaction pays when it is applied (debited from the sender, credited to the proposer). Honest: its fee field. */
  fee(tx: SignedTransaction): bigint;
}

export const REFERENCE_CHAIN_RULES: ChainRules = Object.freeze({
  verify: verifyTransactionOffThread,
  acceptsChainId: (txChainId: bigint, own: bigint) => txChainId === own,
  fee: (tx: SignedTransaction) => tx.fee,
} satisfies ChainRules);
