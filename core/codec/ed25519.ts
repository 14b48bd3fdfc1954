/**
 * The one module that touches Ed25519 implementations (RFC 8032 §5.1): @noble/ed25519 is the
 * reference (named by the design card; audited, readable), node:crypto (OpenSSL) is the fast path.
 * Ed25519 signing is deterministic (§5.1.6), so both give identical bytes; createTransactionSigner.test.ts checks that.
 */
import { createHash, createPrivateKey, sign as nodeSign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import * as noble from '@noble/ed25519';

// noble v3 ships no sync SHA-512; node's is native and fast.
noble.hashes.sha512 = (message) => new Uint8Array(createHash('sha512').update(message).digest());

/** DER header of a PKCS#8 Ed25519 private key (RFC 8410 §7); the 32-byte seed follows. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Public key A of a 32-byte private key (RFC 8032 §5.1.5), computed by noble. */
export function noblePublicKey(privateKey: Uint8Array): Uint8Array {
  return noble.getPublicKey(privateKey);
}

/** Signature (R || S, 64 bytes) by noble, the reference signer (RFC 8032 §5.1.6). */
export function nobleSign(message: Uint8Array, privateKey: Uint8Array): Uint8Array {
  return noble.sign(message, privateKey);
}

/**
 * noble's strict verifier ({ zip215: false }). Only for tests: it uses the cofactored equation
 * ([8][S]B = [8]R + [8][k]A), so it accepts mixed-order cases that our cofactorless rule rejects.
 */
export function nobleVerifyStrict(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return noble.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** The private scalar `s` of RFC 8032 §5.1.5 step 2; tests use it to build edge-case signatures. */
export function privateScalar(privateKey: Uint8Array): bigint {
  return noble.utils.getExtendedPublicKey(privateKey).scalar;
}

/** OpenSSL private-key object. Costly to build (about 0.3 ms: OpenSSL derives A), so build it once per key. */
export function privateKeyObject(privateKey: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, privateKey]), format: 'der', type: 'pkcs8' });
}

/** Signature by node:crypto (OpenSSL) with a prepared key object: the fast signer. */
export function nodeSignWith(message: Uint8Array, key: KeyObject): Uint8Array {
  const sig = nodeSign(null, message, key);
  return new Uint8Array(sig.buffer, sig.byteOffset, sig.byteLength);
}

/** noble's point type, for tests that derive curve facts (small-order points) from first principles. */
export const NoblePoint = noble.Point;
