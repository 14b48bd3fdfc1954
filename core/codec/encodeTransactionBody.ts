import { CodecError } from './CodecError.js';
import { parseAddress } from './keys.js';
import { TX_BODY_LENGTH, TX_FIELDS, TX_VERSION } from './layout.js';
import { checkUint, U128_MAX, U64_MAX } from './u128.js';
import type { UnsignedTransaction } from './types.js';

function writeU128(view: DataView, offset: number, value: bigint): void {
  view.setBigUint64(offset, value >> 64n); // big-endian: high half first
  view.setBigUint64(offset + 8, value & U64_MAX);
}

/** The 113-byte unsigned body (layout.ts), after range-checking every field. */
export function encodeTransactionBody(tx: UnsignedTransaction): Uint8Array {
  if (typeof tx !== 'object' || tx === null) {
    throw new CodecError('INPUT_TYPE', `transaction must be an object with chainId, sender, to, value, nonce, fee; got ${tx === null ? 'null' : typeof tx}`);
  }
  const chainId = checkUint(tx.chainId, U64_MAX, 'chainId');
  const sender = parseAddress(tx.sender, 'sender');
  const to = parseAddress(tx.to, 'to');
  const value = checkUint(tx.value, U128_MAX, 'value');
  const nonce = checkUint(tx.nonce, U64_MAX, 'nonce');
  const fee = checkUint(tx.fee, U128_MAX, 'fee');
  // A node debits value + fee in u128 arithmetic; refuse what it could not debit without overflow.
  if (value + fee > U128_MAX) {
    throw new CodecError('AMOUNT_OVERFLOW', `value + fee = ${value + fee} exceeds the u128 maximum ${U128_MAX}; lower the value or the fee`);
  }
  const body = new Uint8Array(TX_BODY_LENGTH);
  const view = new DataView(body.buffer);
  body[TX_FIELDS.version.offset] = TX_VERSION;
  view.setBigUint64(TX_FIELDS.chainId.offset, chainId);
  body.set(sender, TX_FIELDS.sender.offset);
  body.set(to, TX_FIELDS.to.offset);
  writeU128(view, TX_FIELDS.value.offset, value);
  view.setBigUint64(TX_FIELDS.nonce.offset, nonce);
  writeU128(view, TX_FIELDS.fee.offset, fee);
  return body;
}
