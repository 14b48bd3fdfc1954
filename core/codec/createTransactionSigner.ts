import { nodeSignWith, privateKeyObject } from './ed25519.js';
import { assembleSignedTransaction } from './encodeSignedTransaction.js';
import { encodeTransactionBody } from './encodeTransactionBody.js';
import { keypairOf } from './keys.js';
import { signingMessageForBody } from './signingMessage.js';
import { withSender } from './signTransaction.js';
import type { TransactionToSign } from './signTransaction.js';
import type { SignedTransaction } from './types.js';

export interface TransactionSigner {
  readonly publicKey: Uint8Array;
  readonly address: string;
  sign(tx: TransactionToSign): SignedTransaction;
}

/**
 * Bulk signer for one key (load corpora, devnet faucets): node:crypto (OpenSSL) with the key
 * object built once, several times faster than noble. Same bytes as signTransaction, since
 * Ed25519 is deterministic (RFC 8032 §5.1.6); createTransactionSigner.test.ts checks it.
 */
export function createTransactionSigner(privateKey: Uint8Array): TransactionSigner {
  const { publicKey, address } = keypairOf(privateKey); // validates the key; A by noble, the reference
  const key = privateKeyObject(privateKey);
  return {
    publicKey,
    address,
    sign(tx: TransactionToSign): SignedTransaction {
      const unsigned = withSender(tx, address);
      const body = encodeTransactionBody(unsigned);
      return assembleSignedTransaction(unsigned, body, nodeSignWith(signingMessageForBody(body), key));
    },
  };
}
