import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTransactionSigner } from './createTransactionSigner.js';
import { keypairFromSeed } from './keys.js';
import { signTransaction } from './signTransaction.js';
import { codeOf, privateKeyArb, txRequestArb } from '../../test/support/codec.js';
import type { TransactionRequest } from './types.js';

const alice = keypairFromSeed('alice');
const bob = keypairFromSeed('bob');
const request: TransactionRequest = { chainId: 1n, to: bob.address, value: 5n, nonce: 0n, fee: 1n };

describe('createTransactionSigner (node:crypto, the bulk signer)', () => {
  it('produces byte-identical transactions to the noble reference', () => {
    fc.assert(
      fc.property(privateKeyArb, fc.array(txRequestArb, { minLength: 1, maxLength: 3 }), (priv, requests) => {
        const signer = createTransactionSigner(priv);
        for (const req of requests) expect(signer.sign(req)).toEqual(signTransaction(req, priv));
      }),
      { numRuns: 60 },
    );
  });

  it('exposes the key and checks a given sender', () => {
    const signer = createTransactionSigner(alice.privateKey);
    expect(signer.address).toBe(alice.address);
    expect(signer.publicKey).toEqual(alice.publicKey);
    expect(codeOf(() => signer.sign({ ...request, sender: bob.address }))).toBe('SENDER_MISMATCH');
    expect(codeOf(() => createTransactionSigner(new Uint8Array(3)))).toBe('WRONG_LENGTH');
  });
});
