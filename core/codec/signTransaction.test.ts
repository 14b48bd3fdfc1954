import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTransaction } from './decodeTransaction.js';
import { keypairFromSeed } from './keys.js';
import { signTransaction } from './signTransaction.js';
import { codeOf, privateKeyArb, txRequestArb } from '../../test/support/codec.js';
import { transactionHash } from './transactionHash.js';
import { verifyTransaction } from './verifyTransaction.js';
import type { TransactionRequest } from './types.js';

const alice = keypairFromSeed('alice');
const bob = keypairFromSeed('bob');
const request: TransactionRequest = { chainId: 1n, to: bob.address, value: 5n, nonce: 0n, fee: 1n };

describe('signTransaction (noble, the reference signer)', () => {
  it('derives the sender from the key and fills signature, wire and hash', () => {
    const tx = signTransaction(request, alice.privateKey);
    expect(tx.sender).toBe(alice.address);
    expect(tx.signature).toMatch(/^[0-9a-f]{128}$/);
    expect(tx.wire).toMatch(/^[0-9a-f]{354}$/);
    expect(tx.wire.endsWith(tx.signature)).toBe(true);
    expect(tx.hash).toBe(transactionHash(tx.wire));
    expect(verifyTransaction(tx)).toEqual({ ok: true });
  });

  it('normalises an upper-case recipient to lower case', () => {
    expect(signTransaction({ ...request, to: bob.address.toUpperCase() }, alice.privateKey)).toEqual(signTransaction(request, alice.privateKey));
  });

  it('accepts a matching sender and refuses a different one', () => {
    expect(signTransaction({ ...request, sender: alice.address.toUpperCase() }, alice.privateKey).sender).toBe(alice.address);
    expect(codeOf(() => signTransaction({ ...request, sender: bob.address }, alice.privateKey))).toBe('SENDER_MISMATCH');
  });

  it('rejects a bad key or field with CodecError', () => {
    expect(codeOf(() => signTransaction(request, new Uint8Array(31)))).toBe('WRONG_LENGTH');
    expect(codeOf(() => signTransaction({ ...request, value: -1n }, alice.privateKey))).toBe('U128_RANGE');
  });

  it('binds the chain id: a chain-1 signature does not verify for chain 2', () => {
    const tx = signTransaction(request, alice.privateKey);
    const replayed = { chainId: 2n, sender: tx.sender, to: tx.to, value: tx.value, nonce: tx.nonce, fee: tx.fee, signature: tx.signature };
    expect(verifyTransaction(replayed)).toMatchObject({ ok: false, code: 'BAD_SIGNATURE' });
  });

  it('round-trips: random tx -> sign -> decode gives the same transaction, which verifies', () => {
    fc.assert(
      fc.property(privateKeyArb, txRequestArb, (priv, req) => {
        const signed = signTransaction(req, priv);
        const decoded = decodeTransaction(signed.wire);
        expect(decoded).toEqual(signed);
        expect(decoded).toMatchObject(req);
        expect(verifyTransaction(decoded)).toEqual({ ok: true });
      }),
      { numRuns: 100 },
    );
  });
});
