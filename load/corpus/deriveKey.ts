import { privateKeyFromSeed } from '../../core/codec/index.js';

/** Whose key: a sender (signs a lane) or a recipient (only its address is used). */
export type KeyRole = 'sender' | 'recipient';

/** How keys follow from the seed, written into every corpus (keys.derivation). */
export const KEY_DERIVATION = 'privateKey = SHA-256("chainrpc/key/v1" || 0x00 || UTF-8(seed + "/" + role + "/" + index)), role "sender" or "recipient" (docs/transaction-codec.md, seed keys)';

/**
 * The 32-byte private key of a corpus's sender or recipient: the codec's seed-key rule over
 * "<seed>/<role>/<index>", so the same seed makes the same senders again (re-funding, re-signing).
 */
export function deriveKey(seed: string, role: KeyRole, index: number): Uint8Array {
  return privateKeyFromSeed(`${seed}/${role}/${index}`);
}
