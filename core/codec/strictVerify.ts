/**
 * Strict Ed25519 verification: RFC 8032 §5.1.7 with every encoding check made explicit, so that
 * all nodes of a network accept exactly the same signatures (Chalkias et al., "Taming the many
 * EdDSAs", 2020). The checks below are byte comparisons only (no field arithmetic); the group
 * equation itself is OpenSSL's, through node:crypto, which is cofactorless: R == [S]B - [k]A.
 *
 * Why each pre-check: OpenSSL already rejects S >= L and a non-canonical R (it compares R's bytes
 * with a freshly encoded point), but it accepts small-order public keys, a small-order R and a
 * non-canonical A (speccheck cases 0, 1, 2 and 11). Each of those lets two verifiers disagree or
 * lets one signature pass for many messages/keys.
 */
import { verify as nodeVerify } from 'node:crypto';
import { publicKeyObject } from './keyObjectCache.js';

export type StrictVerifyCode =
  | 'KEY_LENGTH'
  | 'SIGNATURE_LENGTH'
  | 'NON_CANONICAL_S'
  | 'NON_CANONICAL_A'
  | 'SMALL_ORDER_A'
  | 'NON_CANONICAL_R'
  | 'SMALL_ORDER_R'
  | 'BAD_SIGNATURE';

export type StrictVerifyResult = { readonly ok: true } | { readonly ok: false; readonly code: StrictVerifyCode; readonly reason: string };

const fromHex = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex, 'hex'));

/** L = 2^252 + 27742317777372353535851937790883648493, the prime group order, little-endian. */
export const L_BYTES = fromHex('edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010');
/** p = 2^255 - 19, the field prime, little-endian. */
export const P_BYTES = fromHex('edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f');

/**
 * The 8 points of order dividing 8 (the torsion subgroup), canonically encoded. Derived from the
 * curve: x = 0 gives y = 1 (identity, order 1) and y = -1 (order 2); y = 0 gives x = ±sqrt(-1)
 * (order 4); the order-8 points are those P with [2]P of order 4, i.e. y^2 = (-1 ± sqrt(1+d))/d,
 * two y values, each with both signs of x. strictVerify.test.ts re-derives this list as the
 * multiples of one order-8 point. Non-canonical encodings of these points fail the y < p check first.
 */
export const SMALL_ORDER_ENCODINGS: readonly Uint8Array[] = [
  '0100000000000000000000000000000000000000000000000000000000000000', // identity, order 1
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // (0, -1), order 2
  '0000000000000000000000000000000000000000000000000000000000000000', // (+sqrt(-1), 0), order 4
  '0000000000000000000000000000000000000000000000000000000000000080', // (-sqrt(-1), 0), order 4
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', // order 8
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa', // order 8
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', // order 8
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85', // order 8
].map(fromHex);

/** The two encodings with x = 0 and the sign bit set: RFC 8032 §5.1.3 step 4 says decoding fails. */
const X_ZERO_SIGN_SET: readonly Uint8Array[] = [
  '0100000000000000000000000000000000000000000000000000000000000080', // y = 1
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', // y = p - 1
].map(fromHex);

/** a < b for 32-byte little-endian integers, compared from the most significant byte. */
function lessThanLE(a: Uint8Array, offset: number, b: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    const x = a[offset + i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

function equals32(a: Uint8Array, offset: number, b: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (a[offset + i] !== b[i]) return false;
  return true;
}

function inList(a: Uint8Array, offset: number, list: readonly Uint8Array[]): boolean {
  for (const b of list) if (equals32(a, offset, b)) return true;
  return false;
}

/** RFC 8032 §5.1.3: y (the low 255 bits) must be < p, and x = 0 must not carry the sign bit. */
function isCanonicalPoint(a: Uint8Array, offset: number): boolean {
  // y < p, with the sign bit (bit 255) masked off the top byte.
  let below = false;
  for (let i = 31; i >= 0; i--) {
    const x = (a[offset + i] ?? 0) & (i === 31 ? 0x7f : 0xff);
    const y = P_BYTES[i] ?? 0;
    if (x !== y) {
      below = x < y;
      break;
    }
  }
  return below && !inList(a, offset, X_ZERO_SIGN_SET);
}

const OK: StrictVerifyResult = Object.freeze({ ok: true });
const fail = (code: StrictVerifyCode, reason: string): StrictVerifyResult => Object.freeze({ ok: false, code, reason });
const FAIL = {
  KEY_LENGTH: fail('KEY_LENGTH', 'public key must be 32 bytes'),
  SIGNATURE_LENGTH: fail('SIGNATURE_LENGTH', 'signature must be 64 bytes (R || S)'),
  NON_CANONICAL_S: fail('NON_CANONICAL_S', 'S is not below the group order L (RFC 8032 §5.1.7 step 1): the signature is malleable'),
  NON_CANONICAL_A: fail('NON_CANONICAL_A', 'public key A is not a canonical point encoding (y >= p, or x = 0 with the sign bit set; RFC 8032 §5.1.3)'),
  SMALL_ORDER_A: fail('SMALL_ORDER_A', 'public key A has small order (it is in the 8-torsion): such a key signs any message'),
  NON_CANONICAL_R: fail('NON_CANONICAL_R', 'R is not a canonical point encoding (y >= p, or x = 0 with the sign bit set; RFC 8032 §5.1.3)'),
  SMALL_ORDER_R: fail('SMALL_ORDER_R', 'R has small order (it is in the 8-torsion): not produced by an honest signer'),
  BAD_SIGNATURE: fail('BAD_SIGNATURE', 'signature does not verify for this key and message ([S]B != R + [k]A, or A/R is not a curve point)'),
} as const;

/**
 * The byte-level rules (every check but the group equation), in the order of the reasons above; undefined
 * when all pass. Shared by the verification on this thread and the one on the thread pool (offThreadVerify.ts).
 */
export function strictPrecheck(publicKey: Uint8Array, signature: Uint8Array): StrictVerifyResult | undefined {
  if (publicKey.length !== 32) return FAIL.KEY_LENGTH;
  if (signature.length !== 64) return FAIL.SIGNATURE_LENGTH;
  // S is the little-endian integer in bytes 32..63 (§5.1.6 step 6); S >= L is the classic malleability.
  if (!lessThanLE(signature, 32, L_BYTES)) return FAIL.NON_CANONICAL_S;
  if (!isCanonicalPoint(publicKey, 0)) return FAIL.NON_CANONICAL_A;
  if (inList(publicKey, 0, SMALL_ORDER_ENCODINGS)) return FAIL.SMALL_ORDER_A;
  if (!isCanonicalPoint(signature, 0)) return FAIL.NON_CANONICAL_R;
  // An honest R = [r]B is small-order only if r = 0 mod L (probability 2^-252); libsodium rejects it too.
  if (inList(signature, 0, SMALL_ORDER_ENCODINGS)) return FAIL.SMALL_ORDER_R;
  return undefined;
}

/** The group equation's verdict as a result: OpenSSL's true or false. */
export const equationResult = (holds: boolean): StrictVerifyResult => (holds ? OK : FAIL.BAD_SIGNATURE);

/** Strict verification with the reason for a rejection. Never throws. */
export function verifyStrictDetailed(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): StrictVerifyResult {
  const refused = strictPrecheck(publicKey, signature);
  if (refused !== undefined) return refused;
  try {
    return equationResult(nodeVerify(null, message, publicKeyObject(publicKey), signature));
  } catch {
    // OpenSSL refusing the key bytes (not a curve point) is a failed verification, not a crash.
    return FAIL.BAD_SIGNATURE;
  }
}

/** Strict verification (see the module comment): true only for a signature every strict node accepts. */
export function verifyStrict(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  return verifyStrictDetailed(publicKey, message, signature).ok;
}
