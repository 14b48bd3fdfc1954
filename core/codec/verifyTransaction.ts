import { CodecError } from './CodecError.js';
import { concatWire } from './encodeSignedTransaction.js';
import { encodeTransactionBody } from './encodeTransactionBody.js';
import { bytesToHex, hexToFixedBytes } from './hex.js';
import { SIGNATURE_LENGTH, TX_FIELDS } from './layout.js';
import { signingMessageForBody } from './signingMessage.js';
import { verifyStrictOffThread } from './offThreadVerify.js';
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

/** What the group equation is checked on, once the transaction's own encodings agree. */
interface Signed {
  readonly publicKey: Uint8Array;
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
}

/**
 * The checks before the group equation: the fields re-encoded, `wire` and `hash` against them. A refusal, or
 * what the signature is checked on. Never throws for bad input: a malformed field is reported with its CodecError code.
 */
function prepare(tx: TransactionToVerify): TransactionVerifyResult | Signed {
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
    return { publicKey: body.subarray(sender.offset, sender.offset + sender.size), message: signingMessageForBody(body), signature };
  } catch (error) {
    if (error instanceof CodecError) return { ok: false, code: error.code, reason: error.message };
    throw error; // a bug, not bad input
  }
}

/**
 * Verify a transaction's signature strictly (strictVerify.ts) over the re-encoded fields, and
 * that `wire` and `hash`, when present, match them. Never throws: a malformed field is reported
 * with its CodecError code.
 */
export function verifyTransaction(tx: TransactionToVerify): TransactionVerifyResult {
  const signed = prepare(tx);
  return 'ok' in signed ? signed : verifyStrictDetailed(signed.publicKey, signed.message, signed.signature);
}

/**
 * verifyTransaction with the group equation on libuv's thread pool (offThreadVerify.ts): the same checks and
 * verdicts, the event loop free meanwhile. Never rejects for bad input.
 */
export function verifyTransactionOffThread(tx: TransactionToVerify): Promise<TransactionVerifyResult> {
  const signed = prepare(tx);
  return 'ok' in signed ? Promise.resolve(signed) : verifyStrictOffThread(signed.publicKey, signed.message, signed.signature);
}
