/**
 * Every stored value is `checksum (8 bytes) || payload`, checksum = the first 8 bytes of
 * SHA-256(key || 0x00 || payload). Binding the key means a value copied under the wrong key fails
 * too. It catches bit rot and torn or foreign writes; it is not a defence against an attacker
 * with write access to the directory.
 */
import { createHash } from 'node:crypto';

export const CHECKSUM_LENGTH = 8;

function checksum(key: string, payload: Uint8Array): Uint8Array {
  const digest = createHash('sha256').update(key, 'utf8').update(new Uint8Array([0])).update(payload).digest();
  return new Uint8Array(digest.buffer, digest.byteOffset, CHECKSUM_LENGTH);
}

export function sealValue(key: string, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(CHECKSUM_LENGTH + payload.length);
  out.set(checksum(key, payload), 0);
  out.set(payload, CHECKSUM_LENGTH);
  return out;
}

/** The payload, or undefined when the stored bytes fail their checksum. */
export function unsealValue(key: string, stored: Uint8Array): Uint8Array | undefined {
  if (stored.length < CHECKSUM_LENGTH) return undefined;
  const payload = stored.subarray(CHECKSUM_LENGTH);
  const expected = checksum(key, payload);
  for (let i = 0; i < CHECKSUM_LENGTH; i++) if (stored[i] !== expected[i]) return undefined;
  return payload;
}
