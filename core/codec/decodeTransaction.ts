import { CodecError } from './CodecError.js';
import { assembleSignedTransaction } from './encodeSignedTransaction.js';
import { hexToBytes } from './hex.js';
import { TX_BODY_LENGTH, TX_FIELDS, TX_VERSION, TX_WIRE_LENGTH } from './layout.js';
import { U128_MAX } from './u128.js';
import type { SignedTransaction } from './types.js';

function readU128(view: DataView, offset: number): bigint {
  return (view.getBigUint64(offset) << 64n) | view.getBigUint64(offset + 8);
}

/**
 * Wire hex -> SignedTransaction. Checks the hex, the version, the length and value + fee <= u128
 * max; does NOT verify the signature (verifyTransaction does). Only ever throws CodecError.
 */
export function decodeTransaction(hex: string): SignedTransaction {
  const bytes = hexToBytes(hex, 'transaction hex');
  // Version before length: a future version may have another length, and "unsupported version" is the useful message then.
  const version = bytes[0];
  if (version !== TX_VERSION) {
    throw new CodecError('UNSUPPORTED_VERSION', `transaction version byte is ${version}; this codec reads version ${TX_VERSION} only`);
  }
  if (bytes.length !== TX_WIRE_LENGTH) {
    throw new CodecError(
      'WRONG_LENGTH',
      `transaction is ${bytes.length} bytes (${bytes.length * 2} hex characters); a version-1 signed transaction is exactly ${TX_WIRE_LENGTH} bytes (${TX_WIRE_LENGTH * 2} hex characters)`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const value = readU128(view, TX_FIELDS.value.offset);
  const fee = readU128(view, TX_FIELDS.fee.offset);
  if (value + fee > U128_MAX) {
    throw new CodecError('AMOUNT_OVERFLOW', `value + fee = ${value + fee} exceeds the u128 maximum ${U128_MAX}; no node can debit it`);
  }
  const body = bytes.subarray(0, TX_BODY_LENGTH);
  const numbers = { chainId: view.getBigUint64(TX_FIELDS.chainId.offset), value, nonce: view.getBigUint64(TX_FIELDS.nonce.offset), fee };
  return assembleSignedTransaction(numbers, body, bytes.subarray(TX_BODY_LENGTH));
}
