import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '../../core/files/AtomicFile.js';
import { bytesToHex, createMessageSigner, generatePrivateKey, hexToFixedBytes } from '../../core/codec/index.js';
import { claimNodeDataDir, NODE_KEY_FILE } from './nodeDataDir.js';

export { NODE_KEY_FILE };

/**
 * A node's identity: an ed25519 key kept in its data dir (node-key, mode 0600). The identifier is
 * the hex of the public key, 64 characters (the spec asks peer identifiers for at least 16); the node
 * signs the blocks it proposes with it.
 */
export interface NodeIdentity {
  readonly id: string;
  readonly publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

/**
 * The node's identity from its data dir, the key made the first time. The data dir is claimed first
 * (nodeDataDir.ts): a folder of someone else's files is refused with a NotOursError before anything is written.
 */
export function loadOrCreateIdentity(dataDir: string): NodeIdentity {
  claimNodeDataDir(dataDir);
  const path = join(dataDir, NODE_KEY_FILE);
  let privateKey: Uint8Array;
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8').trim();
    try {
      privateKey = hexToFixedBytes(text, 32, 'node key');
    } catch (err) {
      throw new Error(`${path} is not a node key (64 hex characters): ${(err as Error).message}. Remove it to make a new identity.`, { cause: err });
    }
  } else {
    privateKey = generatePrivateKey();
    // Whole or not at all: a crash here must not leave a node an empty key file it cannot start with.
    writeFileAtomically(path, bytesToHex(privateKey) + '\n', 0o600);
  }
  const signer = createMessageSigner(privateKey);
  return { id: signer.address, publicKey: signer.publicKey, sign: (message) => signer.sign(message) };
}
