import { describe, expect, it } from 'vitest';
import { withSPlusL } from './craftSignature.js';
import { bytesToHex, hexToBytes } from './hex.js';
import { keypairFromSeed } from './keys.js';
import { signTransaction } from './signTransaction.js';
import { verifyTransaction } from './verifyTransaction.js';

const alice = keypairFromSeed('alice');
const tx = signTransaction({ chainId: 1n, to: keypairFromSeed('bob').address, value: 10n, nonce: 3n, fee: 2n }, alice.privateKey);
const { wire: _wire, hash: _hash, ...fields } = tx;

describe('verifyTransaction', () => {
  it('accepts a signed transaction, with or without wire and hash', () => {
    expect(verifyTransaction(tx)).toEqual({ ok: true });
    expect(verifyTransaction(fields)).toEqual({ ok: true });
    expect(verifyTransaction({ ...tx, wire: tx.wire.toUpperCase() })).toEqual({ ok: true });
  });

  it('rejects any changed field', () => {
    expect(verifyTransaction({ ...fields, chainId: 2n })).toMatchObject({ ok: false, code: 'BAD_SIGNATURE' });
    expect(verifyTransaction({ ...fields, nonce: 4n })).toMatchObject({ ok: false, code: 'BAD_SIGNATURE' });
    expect(verifyTransaction({ ...fields, value: 11n })).toMatchObject({ ok: false, code: 'BAD_SIGNATURE' });
    expect(verifyTransaction({ ...fields, to: alice.address })).toMatchObject({ ok: false, code: 'BAD_SIGNATURE' });
    expect(verifyTransaction({ ...fields, sender: keypairFromSeed('bob').address })).toMatchObject({ ok: false, code: 'BAD_SIGNATURE' });
  });

  it('rejects a malleated signature (S + L)', () => {
    const signature = bytesToHex(withSPlusL(hexToBytes(tx.signature)));
    expect(verifyTransaction({ ...fields, signature })).toMatchObject({ ok: false, code: 'NON_CANONICAL_S' });
  });

  it('rejects wire or hash that do not match the fields', () => {
    expect(verifyTransaction({ ...tx, wire: tx.wire.replace(/.$/, '0') })).toMatchObject({ ok: false, code: 'WIRE_MISMATCH' });
    expect(verifyTransaction({ ...tx, hash: '00'.repeat(32) })).toMatchObject({ ok: false, code: 'HASH_MISMATCH' });
  });

  it('reports malformed fields with their CodecError code instead of throwing', () => {
    expect(verifyTransaction({ ...fields, signature: 'ab' })).toMatchObject({ ok: false, code: 'WRONG_LENGTH' });
    expect(verifyTransaction({ ...fields, fee: -1n })).toMatchObject({ ok: false, code: 'U128_RANGE' });
    expect(verifyTransaction({ ...fields, to: '0x00' })).toMatchObject({ ok: false, code: 'HEX_PREFIX' });
  });

  it('gives a reason a person can act on', () => {
    const result = verifyTransaction({ ...fields, chainId: 2n });
    expect(result.ok ? '' : result.reason).toMatch(/does not verify/);
  });
});
