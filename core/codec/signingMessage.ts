import { encodeTransactionBody } from './encodeTransactionBody.js';
import { TX_SIGNING_MESSAGE_LENGTH, TX_SIGNING_PREFIX } from './layout.js';
import type { UnsignedTransaction } from './types.js';

/** The bytes Ed25519 signs: "chainrpc/tx/v1" || 0x00 || body (128 bytes). */
export function signingMessage(tx: UnsignedTransaction): Uint8Array {
  return signingMessageForBody(encodeTransactionBody(tx));
}

/** Same, from an already encoded 113-byte body. */
export function signingMessageForBody(body: Uint8Array): Uint8Array {
  const message = new Uint8Array(TX_SIGNING_MESSAGE_LENGTH);
  message.set(TX_SIGNING_PREFIX, 0);
  message.set(body, TX_SIGNING_PREFIX.length);
  return message;
}
