import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { claimFolder, cleanFolder, OWNED_MARKER } from '../../core/files/ownedFolder.js';
import type { Claim, EntryKind, FolderRules } from '../../core/files/ownedFolder.js';
import { GENESIS_FILE } from '../node/NetworkGenesis.js';
import { isNodeEntry, isTemporaryFile, NODE_DATA_DIR } from '../node/nodeDataDir.js';

/** Where `chainrpc devnet` keeps its data unless told (git-ignored). */
export const DEFAULT_DEVNET_DIR = '.chainrpc/devnet';
/** The node list a devnet writes once every node runs. */
export const DEVNET_FILE = 'devnet.json';

/** A node's folder in a devnet's data dir: mn1, mn2, ..., ln1, ... */
const NODE_FOLDER = /^(mn|ln)[1-9]\d*$/;

/**
 * What a devnet makes in its data dir: genesis.json, devnet.json, and a folder per node (mn1, ln1, ...) holding
 * only a node's own files (node-key, genesis.json, chain/, node.log). Anything else is a user's.
 */
export function isDevnetEntry(path: string, kind: EntryKind): boolean | 'folder' {
  const [top = '', inNode, ...deeper] = path.split('/');
  if (inNode === undefined) {
    if (NODE_FOLDER.test(top)) return kind === 'folder' ? 'folder' : false;
    return kind === 'file' && (top === GENESIS_FILE || top === DEVNET_FILE || isTemporaryFile(top));
  }
  return deeper.length === 0 && NODE_FOLDER.test(top) && isNodeEntry(inNode, kind);
}

const isKind = (path: string, kind: 'file' | 'folder'): boolean => {
  try {
    const s = lstatSync(path);
    return kind === 'file' ? s.isFile() : s.isDirectory();
  } catch {
    return false;
  }
};

/** A devnet's data dir from before chainrpc marked its folders: its genesis and its first MN's folder. */
const recognise = (dir: string): boolean => isKind(join(dir, GENESIS_FILE), 'file') && isKind(join(dir, 'mn1'), 'folder');

const rules = (dataDir: string, keepData: boolean): FolderRules => ({
  madeBy: 'chainrpc devnet',
  entry: isDevnetEntry,
  recognise,
  // --keep-data is suggested only for a folder it would take: a devnet's (marked, or recognised).
  advice: keepData
    ? '--keep-data resumes the devnet kept in a folder a chainrpc devnet made: give --data-dir that folder, or a new or empty one'
    : isKind(join(dataDir, OWNED_MARKER), 'file') || recognise(dataDir)
      ? 'a devnet starts fresh by emptying its data dir, and empties only a folder that holds nothing but a devnet\'s files: move the others out, give --data-dir a new or empty folder, or --keep-data to resume the devnet kept there as it is'
      : 'a devnet starts fresh by emptying its data dir, and empties only a folder a chainrpc devnet made: give --data-dir a new or empty folder',
});

/**
 * Takes a devnet's data dir before anything is written: with `keepData`, claims it as it is (new, empty,
 * marked, or recognisably a devnet's) to resume what it holds; without, empties it for a fresh start, which
 * only a marked (or recognised) folder holding nothing but a devnet's files allows. Anything else is refused
 * with a NotOursError naming the folder, and nothing is written or removed.
 */
export function claimDevnetDataDir(dataDir: string, keepData: boolean): Claim {
  return keepData ? claimFolder(dataDir, rules(dataDir, keepData)) : cleanFolder(dataDir, rules(dataDir, keepData));
}

/** A node's folder inside a claimed devnet data dir (made and marked, or taken as it is). */
export function claimDevnetNodeFolder(nodeDir: string): Claim {
  return claimFolder(nodeDir, {
    madeBy: 'chainrpc devnet',
    ...(NODE_DATA_DIR.recognise === undefined ? {} : { recognise: NODE_DATA_DIR.recognise }),
    advice: 'a devnet keeps one folder per node (mn1, ln1, ...) in its data dir: move that folder out of the way',
  });
}
