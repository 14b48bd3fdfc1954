import { createHash } from 'node:crypto';
import { CodecError } from './CodecError.js';
import { bytesToHex, hexToBytes } from './hex.js';
import { TX_WIRE_LENGTH } from './layout.js';

/**
 * Transaction hash: SHA-256 of the 177 wire bytes (body and signature), lower-case hex. Hashing
 * the signature too makes the hash name exactly one wire transaction; strict verification (S < L,
 * canonical R) leaves a signer no second valid signature, so no second hash for the same transfer.
 */
export function transactionHash(wire: Uint8Array | string): string {
  const bytes = typeof wire === 'string' ? hexToBytes(wire, 'transaction hex') : wire;
  if (!(bytes instanceof Uint8Array)) {
    throw new CodecError('INPUT_TYPE', `transaction must be a hex string or a Uint8Array, got ${typeof wire}`);
  }
  if (bytes.length !== TX_WIRE_LENGTH) {
    throw new CodecError('WRONG_LENGTH', `transaction is ${bytes.length} bytes; a signed transaction is exactly ${TX_WIRE_LENGTH}`);
  }
  return sha256Hex(bytes);
}

export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(createHash('sha256').update(bytes).digest());
}
