import { CodecError } from './CodecError.js';
import { concatWire } from './encodeSignedTransaction.js';
import { encodeTransactionBody } from './encodeTransactionBody.js';
import { bytesToHex, hexToFixedBytes } from './hex.js';
import { SIGNATURE_LENGTH, TX_FIELDS } from './layout.js';
import { signingMessageForBody } from './signingMessage.js';
import { verifyStrictDetailed } from './strictVerify.js';
import { sha256Hex } from './transactionHash.js';
import type { TransactionVerifyResult, UnsignedTransaction } from './types.js';

export type TransactionToVerify = UnsignedTransaction & {
  readonly signature: string;
  /** If present, must be the encoding of the fields and signature. */
  readonly wire?: string;
  /** If present, must be SHA-256 of the wire bytes. */
  readonly hash?: string;
};

/**
 * Verify a transaction's signature strictly (strictVerify.ts) over the re-encoded fields, and
 * that `wire` and `hash`, when present, match them. Never throws: a malformed field is reported
 * with its CodecError code.
 */
export function verifyTransaction(tx: TransactionToVerify): TransactionVerifyResult {
  try {
    const body = encodeTransactionBody(tx);
    const signature = hexToFixedBytes(tx.signature, SIGNATURE_LENGTH, 'signature');
    if (tx.wire !== undefined || tx.hash !== undefined) {
      const wire = concatWire(body, signature);
      if (tx.wire !== undefined && (typeof tx.wire !== 'string' || tx.wire.toLowerCase() !== bytesToHex(wire))) {
        return { ok: false, code: 'WIRE_MISMATCH', reason: 'wire is not the encoding of the transaction fields and signature' };
      }
      if (tx.hash !== undefined && (typeof tx.hash !== 'string' || tx.hash.toLowerCase() !== sha256Hex(wire))) {
        return { ok: false, code: 'HASH_MISMATCH', reason: 'hash is not SHA-256 of the wire bytes' };
      }
    }
    const { sender } = TX_FIELDS;
    return verifyStrictDetailed(body.subarray(sender.offset, sender.offset + sender.size), signingMessageForBody(body), signature);
  } catch (error) {
    if (error instanceof CodecError) return { ok: false, code: error.code, reason: error.message };
    throw error; // a bug, not bad input
  }
}
