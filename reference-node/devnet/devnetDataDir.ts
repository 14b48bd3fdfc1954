import { lstatSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
import { claimFolder, cleanFolder, folderMarker, foreignEntries, OWNED_MARKER } from '../../core/files/ownedFolder.js';
import type { Claim, EntryKind, FolderRules } from '../../core/files/ownedFolder.js';
import { GENESIS_FILE } from '../node/NetworkGenesis.js';
import { isNodeEntry, isTemporaryFile, NODE_DATA_DIR, NODE_STORE_FOLDER } from '../node/nodeDataDir.js';

/** Where `chainrpc devnet` keeps its data unless told (git-ignored). */
export const DEFAULT_DEVNET_DIR = '.chainrpc/devnet';
/** The node list a devnet writes once every node runs. */
export const DEVNET_FILE = 'devnet.json';
/** The lock a running devnet holds on its data dir: `{"pid": N, "startedAt": "…"}`, made exclusively, removed when it stops. */
export const DEVNET_LOCK_FILE = 'devnet.lock';

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
    return kind === 'file' && (top === GENESIS_FILE || top === DEVNET_FILE || top === DEVNET_LOCK_FILE || isTemporaryFile(top));
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

/** Whether `path` is a folder, or a link to one. */
const isFolder = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
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
 * A devnet's data dir that a running process uses: a devnet holds its lock file, or a node (a devnet's, or one
 * started by hand on a folder in it) holds a store's LevelDB lock. Nothing in it is touched.
 */
export class DataDirInUseError extends ChainrpcError {
  override readonly name = 'DataDirInUseError';
  readonly kind = 'usage';
}

/** The lock a devnet holds on its data dir while it runs; release() removes it (only while it is still this one's). */
export interface DevnetDataDirLock {
  readonly file: string;
  release(): void;
}

/** Whether `pid` runs (EPERM: it runs, as another user's). */
function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the devnet named in a lock file still runs: its pid runs and, where /proc tells, is a chainrpc
 * process (a pid reused after a reboot by something else is not). Undefined for a lock that names no live devnet.
 */
function lockHolder(file: string): number | undefined {
  let pid: number;
  try {
    pid = Number((JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid);
  } catch {
    return undefined;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || !pidRuns(pid)) return undefined;
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!/chainrpc|devnet/.test(command)) return undefined;
  } catch {
    // No /proc (macOS): a live pid is taken as the devnet.
  }
  return pid;
}

/** The stores (LevelDB folders) a node may hold in a devnet's data dir: each node folder's chain/, and chain/ at the top. */
function storesIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return [NODE_STORE_FOLDER, ...names.filter((n) => NODE_FOLDER.test(n)).map((n) => join(n, NODE_STORE_FOLDER))].map((s) => join(dir, s)).filter((s) => isKind(join(s, 'LOCK'), 'file'));
}

/** The POSIX locks held now, from /proc/locks (Linux): each lock's pid and its file's device and inode; undefined where there is none. */
function heldLocks(): { pid: number; major: number; minor: number; inode: number }[] | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/locks', 'utf8');
  } catch {
    return undefined;
  }
  const held = [];
  for (const line of text.split('\n')) {
    // "1: POSIX  ADVISORY  WRITE 23311 08:01:5498108 0 EOF"; a waiter's line has "->" after the number.
    const m = /^\d+:\s+(\S+)\s+\S+\s+\S+\s+(-?\d+)\s+([0-9a-f]+):([0-9a-f]+):(\d+)\s/.exec(line);
    if (m === null || m[1] === '->') continue;
    held.push({ pid: Number(m[2]), major: parseInt(m[3] ?? '', 16), minor: parseInt(m[4] ?? '', 16), inode: Number(m[5]) });
  }
  return held;
}

/**
 * The store in `dir` that a running process holds, and that process's pid when /proc/locks names it. On Linux
 * /proc/locks is read and nothing is opened; elsewhere each store is opened (and closed at once) to see whether
 * LevelDB refuses it as locked.
 */
async function heldStore(dir: string): Promise<{ store: string; pid?: number } | undefined> {
  const stores = storesIn(dir);
  if (stores.length === 0) return undefined;
  const held = heldLocks();
  if (held !== undefined) {
    for (const store of stores) {
      const s = statSync(join(store, 'LOCK'), { bigint: true });
      const dev = s.dev;
      const major = Number(((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn));
      const minor = Number((dev & 0xffn) | ((dev >> 12n) & ~0xffn));
      const lock = held.find((l) => BigInt(l.inode) === s.ino && l.major === major && l.minor === minor);
      if (lock !== undefined) return { store, ...(lock.pid > 0 ? { pid: lock.pid } : {}) };
    }
    return undefined;
  }
  const { LevelStore } = await import('../store/LevelStore.js');
  const { StoreLockedError } = await import('../store/StoreLockedError.js');
  for (const store of stores) {
    try {
      await (await LevelStore.open(store)).close();
    } catch (err) {
      if (err instanceof StoreLockedError) return { store };
    }
  }
  return undefined;
}

/** Refuses (DataDirInUseError) a data dir a running devnet or node uses; nothing in it is touched. */
async function refuseInUse(dir: string): Promise<void> {
  const advice = 'stop it first, or give --data-dir another folder; nothing in it was touched';
  const devnet = lockHolder(join(dir, DEVNET_LOCK_FILE));
  if (devnet !== undefined) throw new DataDirInUseError(`${dir} is in use by a running devnet (pid ${devnet}; its lock: ${join(dir, DEVNET_LOCK_FILE)}): ${advice} (kill ${devnet})`);
  const node = await heldStore(dir);
  if (node !== undefined) {
    const who = node.pid === undefined ? 'a running node process' : `a running node (pid ${node.pid})`;
    throw new DataDirInUseError(`${dir} is in use: its store ${node.store} is held by ${who} (its LevelDB LOCK file is held): ${advice}${node.pid === undefined ? '' : ` (kill ${node.pid})`}`);
  }
}

/** Makes the lock file exclusively, for this process; a lock left by a devnet that no longer runs is taken over. */
function takeLock(dir: string): DevnetDataDirLock {
  const file = join(dir, DEVNET_LOCK_FILE);
  const text = `${JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() })}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, text, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = lockHolder(file);
      if (holder !== undefined || attempt > 0) throw new DataDirInUseError(`${dir} is in use by a running devnet (${holder === undefined ? 'it took the lock just now' : `pid ${holder}`}; its lock: ${file}): stop it first, or give --data-dir another folder; nothing in it was touched`);
      // Left by a devnet that was killed outright: its nodes are gone too (refuseInUse saw no store held).
      rmSync(file, { force: true });
    }
  }
  return {
    file,
    release: () => {
      try {
        if (Number((JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid) === process.pid) unlinkSync(file);
      } catch {
        // Gone already, or not this one's: nothing to release.
      }
    },
  };
}

/**
 * Takes a devnet's data dir, and the devnet's lock on it, before anything is written: a data dir that a running
 * devnet (its lock file) or node (a store's LevelDB lock) uses is refused (DataDirInUseError), naming the
 * process, and nothing in it is touched. With `keepData`, claims it as it is (new, empty, marked, or recognisably
 * a devnet's) to resume what it holds; without, empties it for a fresh start (everything but the marker and the
 * lock), which only a marked (or recognised) folder holding nothing but a devnet's files allows. Anything else is
 * refused with a NotOursError naming the folder, and nothing is written or removed.
 */
export async function claimDevnetDataDir(dataDir: string, keepData: boolean): Promise<DevnetDataDirLock> {
  const dir = resolve(dataDir);
  const folderRules = rules(dir, keepData);
  await refuseInUse(dir);
  // A fresh start over a devnet's folder that holds a user's file: cleanFolder refuses it, naming them, removing nothing.
  // (The folder named may be a link to a folder: that folder is meant, as claimFolder has it.)
  if (!keepData && isFolder(dir) && (folderMarker(dir) !== undefined || recognise(dir)) && foreignEntries(dir, folderRules, 1).length > 0) cleanFolder(dir, folderRules);
  claimFolder(dir, folderRules);
  // The lock before anything is removed: a devnet starting at the same moment finds it, and is refused.
  const lock = takeLock(dir);
  if (!keepData) {
    try {
      for (const name of readdirSync(dir)) if (name !== OWNED_MARKER && name !== DEVNET_LOCK_FILE) rmSync(join(dir, name), { recursive: true, force: true });
    } catch (err) {
      lock.release();
      throw err;
    }
  }
  return lock;
}

/** A node's folder inside a claimed devnet data dir (made and marked, or taken as it is). */
export function claimDevnetNodeFolder(nodeDir: string): Claim {
  return claimFolder(nodeDir, {
    madeBy: 'chainrpc devnet',
    ...(NODE_DATA_DIR.recognise === undefined ? {} : { recognise: NODE_DATA_DIR.recognise }),
    advice: 'a devnet keeps one folder per node (mn1, ln1, ...) in its data dir: move that folder out of the way',
  });
}
