import { createHash, randomBytes } from 'node:crypto';
import { CodecError } from './CodecError.js';
import { noblePublicKey } from './ed25519.js';
import { bytesToHex, hexToFixedBytes } from './hex.js';

/** Domain tag for seed-derived keys: a devnet seed can never collide with another hash use. */
export const KEY_DOMAIN_TAG = 'chainrpc/key/v1';

export interface Keypair {
  /** 32-byte Ed25519 private key (the RFC 8032 §5.1.5 seed). Keep it secret. */
  readonly privateKey: Uint8Array;
  /** 32-byte Ed25519 public key A. */
  readonly publicKey: Uint8Array;
  /** Lower-case hex of the public key: 64 characters, the spec's account address. */
  readonly address: string;
}

/** A 32-byte Ed25519 key (private or public), or a CodecError that says which and what is wrong. */
function checkKey(key: unknown, what: 'private key' | 'public key'): Uint8Array {
  if (!(key instanceof Uint8Array)) {
    throw new CodecError('INPUT_TYPE', `${what} must be a Uint8Array of 32 bytes, got ${typeof key}`);
  }
  if (key.length !== 32) {
    throw new CodecError('WRONG_LENGTH', `${what} has ${key.length} bytes; an Ed25519 ${what} is exactly 32`);
  }
  return key;
}

const checkPrivateKey = (privateKey: unknown): Uint8Array => checkKey(privateKey, 'private key');
const checkPublicKey = (publicKey: unknown): Uint8Array => checkKey(publicKey, 'public key');

/** A fresh private key: 32 bytes from the OS CSPRNG (RFC 8032 §5.1.5: the key is 32 random octets). */
export function generatePrivateKey(): Uint8Array {
  return new Uint8Array(randomBytes(32));
}

/**
 * Deterministic private key: SHA-256("chainrpc/key/v1" || 0x00 || UTF-8(seed)). For test vectors
 * and devnet accounts only; a guessable seed is a public key to anyone who guesses it.
 */
export function privateKeyFromSeed(seed: string): Uint8Array {
  if (typeof seed !== 'string') throw new CodecError('INPUT_TYPE', `key seed must be a string, got ${typeof seed}`);
  if (seed.length === 0) throw new CodecError('EMPTY_INPUT', 'key seed is empty; pass a non-empty string such as "alice"');
  return new Uint8Array(createHash('sha256').update(KEY_DOMAIN_TAG).update(new Uint8Array([0])).update(seed, 'utf8').digest());
}

/** Public key A of a private key (RFC 8032 §5.1.5), computed by @noble/ed25519. */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  return noblePublicKey(checkPrivateKey(privateKey));
}

/** Address of a public key: its 64 lower-case hex characters. */
export function addressOf(publicKey: Uint8Array): string {
  return bytesToHex(checkPublicKey(publicKey));
}

/** Address string -> the 32 bytes it names. Either case accepted; no 0x prefix. */
export function parseAddress(address: unknown, what = 'address'): Uint8Array {
  return hexToFixedBytes(address, 32, what);
}

export function keypairOf(privateKey: Uint8Array): Keypair {
  const publicKey = publicKeyOf(privateKey);
  return { privateKey: privateKey.slice(), publicKey, address: addressOf(publicKey) };
}

export function keypairFromSeed(seed: string): Keypair {
  return keypairOf(privateKeyFromSeed(seed));
}

export function generateKeypair(): Keypair {
  return keypairOf(generatePrivateKey());
}
