import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { claimFolder } from '../../core/files/ownedFolder.js';
import type { Claim, EntryKind, FolderRules } from '../../core/files/ownedFolder.js';
import { GENESIS_FILE } from './NetworkGenesis.js';

/** The node's key in its data dir (NodeIdentity.ts). */
export const NODE_KEY_FILE = 'node-key';
/** The chain store's folder in a node's data dir (LevelDB). */
export const NODE_STORE_FOLDER = 'chain';
/** The log a devnet keeps of each node, beside its files (`chainrpc node` itself logs to stderr). */
export const NODE_LOG_FILE = 'node.log';

/** A temporary file of a file written whole (core/files/AtomicFile.ts): `.<name>.<pid>.<hex>.tmp`. */
export const isTemporaryFile = (name: string): boolean => /^\..+\.\d+\.[0-9a-f]+\.tmp$/.test(name);

/** Whether an entry at the top of a node's data dir is a node's own: its key, the genesis, the store, the log a devnet keeps. */
export function isNodeEntry(name: string, kind: EntryKind): boolean {
  if (kind === 'folder') return name === NODE_STORE_FOLDER;
  return kind === 'file' && (name === NODE_KEY_FILE || name === GENESIS_FILE || name === NODE_LOG_FILE || isTemporaryFile(name));
}

const kindAt = (path: string): EntryKind | undefined => {
  try {
    const s = lstatSync(path);
    return s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'folder' : s.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
};

/**
 * A node's data dir (chainrpc node --data-dir): a node writes its key, the network's genesis and its store
 * there, and resumes from them. It takes a new or empty folder (and marks it), a folder chainrpc marked (a
 * devnet's node folder), or one that already holds a node's own files (a data dir from before markers); a
 * folder of anything else is refused. A node never removes its data dir.
 */
export const NODE_DATA_DIR: FolderRules = {
  madeBy: 'chainrpc node',
  recognise: (dir) => [NODE_KEY_FILE, GENESIS_FILE, NODE_LOG_FILE, NODE_STORE_FOLDER].some((name) => {
    const kind = kindAt(join(dir, name));
    return kind !== undefined && isNodeEntry(name, kind);
  }),
  advice: "a node writes its key, genesis and store into its data dir: give --data-dir a new or empty folder, or a node's data dir to resume it",
};

/** Takes a node's data dir before anything is written to it (NotOursError: a folder of someone else's files). */
export function claimNodeDataDir(dataDir: string): Claim {
  return claimFolder(dataDir, NODE_DATA_DIR);
}
