import type { CodecErrorCode } from './CodecError.js';
import type { StrictVerifyCode } from './strictVerify.js';

/** What a client chooses when it builds a transfer (spec, "Transaction"), plus the network's chain id. */
export interface TransactionRequest {
  /** u64. Signed over, so a signature for one network cannot be replayed on another. */
  readonly chainId: bigint;
  /** Recipient address: 64 hex characters. */
  readonly to: string;
  /** u128, base units. */
  readonly value: bigint;
  /** u64; must equal the sender account's current nonce. */
  readonly nonce: bigint;
  /** u128, base units. value + fee must fit in u128. */
  readonly fee: bigint;
}

/** The signed-over fields: the request plus the sender's public key (its address). */
export interface UnsignedTransaction extends TransactionRequest {
  /** Sender's Ed25519 public key, 64 hex characters (= the sender's address). */
  readonly sender: string;
}

/** A signed transaction: every hex field lower case. */
export interface SignedTransaction extends UnsignedTransaction {
  /** Ed25519 signature R || S, 128 hex characters. */
  readonly signature: string;
  /** SHA-256 of the 177 wire bytes, 64 hex characters. */
  readonly hash: string;
  /** body || signature, 354 hex characters: the chain_sendRawTransaction parameter. */
  readonly wire: string;
}

export type TransactionVerifyCode = StrictVerifyCode | CodecErrorCode | 'WIRE_MISMATCH' | 'HASH_MISMATCH';

export type TransactionVerifyResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: TransactionVerifyCode; readonly reason: string };
