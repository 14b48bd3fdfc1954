import {
  addressOf,
  bytesToHex,
  createTransactionSigner,
  encodeTransactionBody,
  generatePrivateKey,
  publicKeyOf,
  signingMessageForBody,
} from '../core/codec/index.js';
import { ANY_MESSAGE_SIGNATURE, IDENTITY, identityRSignature, withSPlusL } from '../core/codec/craftSignature.js';
import { createMessageSigner } from '../core/codec/index.js';
import { decodeTransaction } from '../core/codec/decodeTransaction.js';
import { CodecError } from '../core/codec/CodecError.js';
import type { TransactionSigner } from '../core/codec/index.js';
import type { EncodedTransaction, Transfer, TxCodec } from './TxCodec.js';

const U128_MAX = (1n << 128n) - 1n;

/** Body bytes of a transfer, built without the encoder's range checks (for deliberately bad variants). */
function body(privateKey: Uint8Array, tx: Transfer): Uint8Array {
  return encodeTransactionBody({ chainId: tx.chainId, sender: addressOf(publicKeyOf(privateKey)), to: tx.to, value: tx.value, nonce: tx.nonce, fee: tx.fee });
}

/**
 * Signers by private key, each made once: making one derives the public key (noble) and OpenSSL's key object,
 * about 1 ms together against 0.05 ms a signature, and callers sign with a few keys many times (a faucet's
 * master key funding every sender, the fuzzer's pool of keys, a check's wallet). Bounded: emptied when full.
 */
const SIGNERS = new Map<string, TransactionSigner>();
const SIGNERS_KEPT = 1_024;

function signerOf(privateKey: Uint8Array): TransactionSigner {
  const id = bytesToHex(privateKey);
  const known = SIGNERS.get(id);
  if (known !== undefined) return known;
  const signer = createTransactionSigner(privateKey);
  if (SIGNERS.size >= SIGNERS_KEPT) SIGNERS.clear();
  SIGNERS.set(id, signer);
  return signer;
}

const wire = (b: Uint8Array, signature: Uint8Array): string => bytesToHex(b) + bytesToHex(signature);

/** The reference profile's wire format (docs/transaction-codec.md), with every crafted variant. */
export const referenceCodec: TxCodec = {
  name: 'chainrpc-tx-v1',
  newKey() {
    const privateKey = generatePrivateKey();
    return { privateKey, address: addressOf(publicKeyOf(privateKey)) };
  },
  addressOf: (privateKey) => addressOf(publicKeyOf(privateKey)),
  sign(privateKey, tx): EncodedTransaction {
    const signed = signerOf(privateKey).sign(tx);
    return { wire: signed.wire, hash: signed.hash };
  },
  chainIdOf(hex) {
    try {
      return decodeTransaction(hex).chainId;
    } catch (error) {
      if (error instanceof CodecError) return undefined;
      throw error;
    }
  },
  crafted: {
    badSignature(privateKey, tx) {
      const w = signerOf(privateKey).sign(tx).wire;
      const i = w.length - 40; // inside S
      return w.slice(0, i) + (w[i] === '0' ? '1' : '0') + w.slice(i + 1);
    },
    nonCanonicalS(privateKey, tx) {
      const b = body(privateKey, tx);
      return wire(b, withSPlusL(createMessageSigner(privateKey).sign(signingMessageForBody(b))));
    },
    smallOrderR(privateKey, tx) {
      const b = body(privateKey, tx);
      return wire(b, identityRSignature(privateKey, publicKeyOf(privateKey), signingMessageForBody(b)));
    },
    smallOrderKey: {
      address: addressOf(IDENTITY),
      sign(tx) {
        const b = encodeTransactionBody({ chainId: tx.chainId, sender: addressOf(IDENTITY), to: tx.to, value: tx.value, nonce: tx.nonce, fee: tx.fee });
        // R = B, S = 1: [1]B = B + [k]A for A the identity, whatever k: RFC 8032's equation holds for any message.
        return wire(b, ANY_MESSAGE_SIGNATURE);
      },
    },
    overflow(privateKey, tx) {
      // value = 2^128-1 and the transfer's fee (at least 1): the encoder refuses the sum, so the fee (the body's
      // last 16 bytes, big-endian) is written by hand.
      const b = body(privateKey, { ...tx, value: U128_MAX, fee: 0n });
      let fee = tx.fee > 0n ? tx.fee : 1n;
      for (let i = b.length - 1; i >= b.length - 16; i--) {
        b[i] = Number(fee & 0xffn);
        fee >>= 8n;
      }
      return wire(b, createMessageSigner(privateKey).sign(signingMessageForBody(b)));
    },
    wrongLength(privateKey, tx) {
      return signerOf(privateKey).sign(tx).wire.slice(0, -2);
    },
  },
};
