import { createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/** DER header of an SPKI Ed25519 public key (RFC 8410 §4); the 32-byte A follows. */
export const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Bounded cache of OpenSSL key objects, one per public key. Building one costs most of a
 * verification's time; a node verifies many transactions from few senders. Insertion-ordered Map,
 * oldest evicted first (FIFO): no bookkeeping on a hit, and a flood of one-off keys can only cost
 * memory up to the bound.
 */
export const KEY_OBJECT_CACHE_SIZE = 4096;
const cache = new Map<string, KeyObject>();

/** Node KeyObject for a 32-byte Ed25519 public key; throws if OpenSSL refuses the bytes. */
export function publicKeyObject(publicKey: Uint8Array): KeyObject {
  const id = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString('latin1');
  let key = cache.get(id);
  if (key === undefined) {
    key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: 'der', type: 'spki' });
    if (cache.size >= KEY_OBJECT_CACHE_SIZE) {
      const oldest = cache.keys().next();
      if (oldest.done !== true) cache.delete(oldest.value);
    }
    cache.set(id, key);
  }
  return key;
}

/** Number of cached key objects (for tests and the benchmark). */
export function keyObjectCacheSize(): number {
  return cache.size;
}
