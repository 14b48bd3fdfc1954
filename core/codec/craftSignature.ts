/**
 * Deliberately bad signatures for tests, the committed rejection vectors and conformance checks
 * (a node must refuse each of them). BigInt arithmetic here is fine: this is never on a hot path.
 */
import { createHash } from 'node:crypto';
import { privateScalar } from './ed25519.js';

/** Group order L (RFC 8032 §5.1). */
export const L = 2n ** 252n + 27742317777372353535851937790883648493n;
/** Field prime p (RFC 8032 §5.1). */
export const P = 2n ** 255n - 19n;

/** 32-byte little-endian encoding of 0 <= x < 2^256 (RFC 8032 §5.1.2). */
export function toLE32(x: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    out[i] = Number((x >> BigInt(8 * i)) & 0xffn);
  }
  return out;
}

export function fromLE(bytes: Uint8Array): bigint {
  let x = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(bytes[i] ?? 0);
  return x;
}

/** R || S with S given as an integer (may be >= L on purpose). */
export function signatureFrom(r: Uint8Array, s: bigint): Uint8Array {
  const sig = new Uint8Array(64);
  sig.set(r, 0);
  sig.set(toLE32(s), 32);
  return sig;
}

/** k = SHA-512(R || A || M) mod L (RFC 8032 §5.1.7 step 2). */
export function challenge(r: Uint8Array, publicKey: Uint8Array, message: Uint8Array): bigint {
  return fromLE(new Uint8Array(createHash('sha512').update(r).update(publicKey).update(message).digest())) % L;
}

/** Same signature with S replaced by S + L: the same group element, a second encoding (malleability). */
export function withSPlusL(signature: Uint8Array): Uint8Array {
  return signatureFrom(signature.subarray(0, 32), fromLE(signature.subarray(32, 64)) + L);
}

/** Canonical encoding of the identity point (x = 0, y = 1). */
export const IDENTITY = toLE32(1n);
/** Non-canonical encoding of the identity: y = p + 1 (= 1 mod p). */
export const IDENTITY_NON_CANONICAL = toLE32(P + 1n);

/**
 * A signature with R = identity that satisfies the cofactorless equation for a real key:
 * S = k * a mod L gives [S]B - [k]A = identity = R. An honest signer never produces it
 * (R = [r]B with r = 0 mod L); plain RFC 8032 equation checks accept it.
 */
export function identityRSignature(privateKey: Uint8Array, publicKey: Uint8Array, message: Uint8Array, r: Uint8Array = IDENTITY): Uint8Array {
  const k = challenge(r, publicKey, message);
  return signatureFrom(r, (k * privateScalar(privateKey)) % L);
}

/** The base point B's encoding (RFC 8032 §5.1: y = 4/5 mod p, x even). */
export const BASE_POINT = Uint8Array.from(Buffer.from('5866666666666666666666666666666666666666666666666666666666666666', 'hex'));

/**
 * A signature that holds for any message under a small-order public key A: R = B and S = 1 give [S]B = R, and
 * [k]A is the identity whatever k (for A the identity itself; for A of order 8 only when 8 divides k). R is no
 * small-order point and S is canonical: only the key's own check refuses it.
 */
export const ANY_MESSAGE_SIGNATURE = signatureFrom(BASE_POINT, 1n);
