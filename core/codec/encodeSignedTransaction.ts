import { encodeTransactionBody } from './encodeTransactionBody.js';
import { bytesToHex, hexToFixedBytes } from './hex.js';
import { SIGNATURE_LENGTH, TX_BODY_LENGTH, TX_FIELDS, TX_WIRE_LENGTH } from './layout.js';
import { sha256Hex } from './transactionHash.js';
import type { SignedTransaction, UnsignedTransaction } from './types.js';

/** Wire bytes: body (113) || signature (64) = 177 bytes. Does not verify the signature. */
export function encodeSignedTransaction(tx: UnsignedTransaction & { readonly signature: string }): Uint8Array {
  const body = encodeTransactionBody(tx);
  const signature = hexToFixedBytes(tx.signature, SIGNATURE_LENGTH, 'signature');
  return concatWire(body, signature);
}

export function concatWire(body: Uint8Array, signature: Uint8Array): Uint8Array {
  const wire = new Uint8Array(TX_WIRE_LENGTH);
  wire.set(body, 0);
  wire.set(signature, TX_BODY_LENGTH);
  return wire;
}

/** SignedTransaction from an encoded body and signature; hex fields are read from the bytes, so lower case. */
export function assembleSignedTransaction(
  tx: Pick<UnsignedTransaction, 'chainId' | 'value' | 'nonce' | 'fee'>,
  body: Uint8Array,
  signature: Uint8Array,
): SignedTransaction {
  const wire = concatWire(body, signature);
  const { sender, to } = TX_FIELDS;
  return {
    chainId: tx.chainId,
    sender: bytesToHex(body.subarray(sender.offset, sender.offset + sender.size)),
    to: bytesToHex(body.subarray(to.offset, to.offset + to.size)),
    value: tx.value,
    nonce: tx.nonce,
    fee: tx.fee,
    signature: bytesToHex(signature),
    hash: sha256Hex(wire),
    wire: bytesToHex(wire),
  };
}
