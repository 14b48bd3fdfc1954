import { CodecError } from './CodecError.js';
import { nobleSign } from './ed25519.js';
import { assembleSignedTransaction } from './encodeSignedTransaction.js';
import { encodeTransactionBody } from './encodeTransactionBody.js';
import { addressOf, publicKeyOf } from './keys.js';
import { signingMessageForBody } from './signingMessage.js';
import type { SignedTransaction, TransactionRequest, UnsignedTransaction } from './types.js';

/** A request, optionally naming the sender; if named, it must be the signing key's address. */
export type TransactionToSign = TransactionRequest & { readonly sender?: string };

/** The sender is derived from the key; a sender given by the caller is checked against it. */
export function withSender(tx: TransactionToSign, address: string): UnsignedTransaction {
  if (typeof tx !== 'object' || tx === null) {
    throw new CodecError('INPUT_TYPE', `transaction must be an object with chainId, to, value, nonce, fee; got ${tx === null ? 'null' : typeof tx}`);
  }
  if (tx.sender !== undefined && (typeof tx.sender !== 'string' || tx.sender.toLowerCase() !== address)) {
    throw new CodecError('SENDER_MISMATCH', `sender ${String(tx.sender)} is not the signing key's address ${address}; omit sender or sign with its key`);
  }
  return { chainId: tx.chainId, sender: address, to: tx.to, value: tx.value, nonce: tx.nonce, fee: tx.fee };
}

/**
 * Sign with @noble/ed25519, the reference signer. One-shot: derives the public key each call
 * (a scalar multiplication), so for many transactions per key use createTransactionSigner.
 */
export function signTransaction(tx: TransactionToSign, privateKey: Uint8Array): SignedTransaction {
  const unsigned = withSender(tx, addressOf(publicKeyOf(privateKey)));
  const body = encodeTransactionBody(unsigned);
  return assembleSignedTransaction(unsigned, body, nobleSign(signingMessageForBody(body), privateKey));
}
