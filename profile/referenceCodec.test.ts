import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signTransaction } from '../core/codec/signTransaction.js';
import { privateKeyArb, txRequestArb } from '../test/support/codec.js';
import { referenceCodec } from './referenceCodec.js';

describe('referenceCodec.sign (a signer kept per key)', () => {
  it('signs as the noble reference does, whatever the order of the keys and transactions', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), txRequestArb), { minLength: 1, maxLength: 8 }), fc.array(privateKeyArb, { minLength: 3, maxLength: 3 }), (steps, keys) => {
        for (const [k, tx] of steps) {
          const key = keys[k]!;
          const { wire, hash } = signTransaction(tx, key);
          expect(referenceCodec.sign(key, tx)).toEqual({ wire, hash });
        }
      }),
      { numRuns: 40 },
    );
  });

  it('follows the key bytes, not the array holding them: a key rewritten in place signs as the new key', () => {
    const key = new Uint8Array(32).fill(7);
    const tx = { chainId: 1n, to: `${'ab'.repeat(32)}`, value: 3n, nonce: 0n, fee: 1n };
    expect(referenceCodec.sign(key, tx).wire).toBe(signTransaction(tx, key).wire);
    key.fill(9);
    expect(referenceCodec.sign(key, tx).wire).toBe(signTransaction(tx, new Uint8Array(32).fill(9)).wire);
  });
});

describe('referenceCodec.crafted.overflow', () => {
  it("carries value 2^128-1 and the transfer's own fee, so a node with a minimum fee cannot refuse it for its fee", () => {
    const crafted = referenceCodec.crafted;
    if (crafted === undefined) throw new Error('the reference codec crafts bad transactions');
    const key = referenceCodec.newKey();
    for (const fee of [0n, 1n, 10n ** 12n, 10n ** 15n, 2n ** 127n]) {
      const wire = crafted.overflow(key.privateKey, { chainId: 7n, to: referenceCodec.newKey().address, value: 1n, nonce: 3n, fee });
      const bytes = Buffer.from(wire, 'hex');
      expect(bytes.length).toBe(177);
      const body = bytes.subarray(0, 113);
      expect(BigInt(`0x${body.subarray(73, 89).toString('hex')}`)).toBe(2n ** 128n - 1n);
      expect(BigInt(`0x${body.subarray(97, 113).toString('hex')}`)).toBe(fee > 0n ? fee : 1n);
      expect(BigInt(`0x${body.subarray(89, 97).toString('hex')}`)).toBe(3n);
    }
  });
});
