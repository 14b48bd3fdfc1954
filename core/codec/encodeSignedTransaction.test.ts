import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeSignedTransaction } from './encodeSignedTransaction.js';
import { bytesToHex } from './hex.js';
import { keypairFromSeed } from './keys.js';
import { signTransaction } from './signTransaction.js';
import { codeOf, privateKeyArb, txRequestArb } from '../../test/support/codec.js';

describe('encodeSignedTransaction', () => {
  it('gives body || signature, the same bytes as the signer\'s wire field', () => {
    fc.assert(
      fc.property(privateKeyArb, txRequestArb, (priv, req) => {
        const signed = signTransaction(req, priv);
        const { wire: _wire, hash: _hash, ...fields } = signed;
        const bytes = encodeSignedTransaction(fields);
        expect(bytes).toHaveLength(177);
        expect(bytesToHex(bytes)).toBe(signed.wire);
      }),
      { numRuns: 50 },
    );
  });

  it('rejects a signature of the wrong size or format', () => {
    const signed = signTransaction({ chainId: 1n, to: '00'.repeat(32), value: 0n, nonce: 0n, fee: 0n }, keypairFromSeed('alice').privateKey);
    expect(codeOf(() => encodeSignedTransaction({ ...signed, signature: signed.signature.slice(2) }))).toBe('WRONG_LENGTH');
    expect(codeOf(() => encodeSignedTransaction({ ...signed, signature: `0x${signed.signature}` }))).toBe('HEX_PREFIX');
  });
});
