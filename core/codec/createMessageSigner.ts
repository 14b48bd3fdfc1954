import { nodeSignWith, privateKeyObject } from './ed25519.js';
import { keypairOf } from './keys.js';

export interface MessageSigner {
  readonly publicKey: Uint8Array;
  /** Hex of the public key: an account address, or a node identifier. */
  readonly address: string;
  /** Ed25519 signature (RFC 8032) of arbitrary bytes: 64 bytes, R || S. */
  sign(message: Uint8Array): Uint8Array;
}

/**
 * Signs arbitrary messages with one key (a node signing the blocks it proposes), through node:crypto
 * with the key object built once. Callers choose a domain-separated message: never sign bytes that
 * could also parse as a transaction's signing message (those start with "chainrpc/tx/v1").
 */
export function createMessageSigner(privateKey: Uint8Array): MessageSigner {
  const { publicKey, address } = keypairOf(privateKey);
  const key = privateKeyObject(privateKey);
  return { publicKey, address, sign: (message) => nodeSignWith(message, key) };
}
