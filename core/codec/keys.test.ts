import { createPublicKey } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { privateKeyArb } from '../../test/support/codec.js';
import { CodecError } from './CodecError.js';
import { privateKeyObject } from './ed25519.js';
import { bytesToHex } from './hex.js';
import { addressOf, generatePrivateKey, keypairFromSeed, parseAddress, privateKeyFromSeed, publicKeyOf } from './keys.js';

/** A computed by OpenSSL, independently of noble. */
function opensslPublicKey(privateKey: Uint8Array): Uint8Array {
  const spki = createPublicKey(privateKeyObject(privateKey)).export({ format: 'der', type: 'spki' });
  return new Uint8Array(spki.subarray(spki.length - 32));
}

describe('keys', () => {
  it('derives seed keys as SHA-256("chainrpc/key/v1" || 0x00 || seed)', () => {
    // Fixed value: a change to the derivation changes every devnet account.
    expect(bytesToHex(privateKeyFromSeed('alice'))).toBe('a33ba8af228fb86593103a9c8a44f129982e792eea55a08fdb8779a67baac643');
    expect(privateKeyFromSeed('alice')).toEqual(privateKeyFromSeed('alice'));
    expect(privateKeyFromSeed('alice')).not.toEqual(privateKeyFromSeed('bob'));
  });

  it('gives RFC 8032 §7.1 TEST 1 public key for its secret key', () => {
    const secret = Uint8Array.from(Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex'));
    expect(addressOf(publicKeyOf(secret))).toBe('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
  });

  it('noble and OpenSSL derive the same public key', () => {
    fc.assert(fc.property(privateKeyArb, (priv) => bytesToHex(publicKeyOf(priv)) === bytesToHex(opensslPublicKey(priv))), { numRuns: 50 });
  });

  it('makes 64-hex lower-case addresses that parse back', () => {
    const { publicKey, address } = keypairFromSeed('bob');
    expect(address).toMatch(/^[0-9a-f]{64}$/);
    expect(parseAddress(address.toUpperCase())).toEqual(publicKey);
  });

  it('generates distinct random keys of 32 bytes', () => {
    const a = generatePrivateKey();
    expect(a).toHaveLength(32);
    expect(a).not.toEqual(generatePrivateKey());
  });

  it('rejects bad keys and seeds with CodecError', () => {
    expect(() => publicKeyOf(new Uint8Array(31))).toThrow(CodecError);
    expect(() => addressOf(new Uint8Array(33))).toThrow(/exactly 32/);
    expect(() => privateKeyFromSeed('')).toThrow(CodecError);
    expect(() => parseAddress('0x' + '00'.repeat(32))).toThrow(/remove the prefix/);
  });
});
