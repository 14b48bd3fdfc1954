import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomically } from './AtomicFile.js';
import { ChainrpcError } from '../errors/ChainrpcError.js';

/**
 * chainrpc removes only what it made. A folder chainrpc makes on a user's behalf (a devnet's data dir, a
 * node's, a k6 test's) carries a marker file naming chainrpc and what made it; chainrpc writes into an
 * existing folder only when it is empty, carries the marker, or is recognisably one chainrpc made before
 * markers existed (then it is marked); it cleans or removes only a marked folder, and only when everything
 * in it is of the kind chainrpc puts there. Links are never followed: a link inside a folder is not
 * chainrpc's. A file chainrpc writes over (a corpus, a profile) is claimed alike: only when it is absent or
 * chainrpc wrote it. docs/reports.md and docs/reference-node.md say, per command, what this means.
 */

/** The marker file's name, at the top of every folder chainrpc made. */
export const OWNED_MARKER = '.chainrpc-owned';
/** The marker's format: `{"format": "chainrpc-owned/1", "madeBy": "chainrpc devnet", "createdAt": "…", "note": "…"}`. */
export const OWNED_FORMAT = 'chainrpc-owned/1';

/** What an entry found in a folder is, as lstat sees it (a link is never followed). */
export type EntryKind = 'file' | 'folder' | 'link' | 'other';

export interface FolderRules {
  /** What makes the folder, written into its marker and named in refusals, e.g. "chainrpc devnet". */
  madeBy: string;
  /**
   * Which entries are chainrpc's, by path relative to the folder with '/' between names ("mn1",
   * "mn1/node-key"): true for an entry that is chainrpc's with everything below it, 'folder' for a folder
   * whose entries are judged in turn, false for anything else. Without it, everything in a marked folder is
   * taken as chainrpc's. The marker itself is always chainrpc's.
   */
  entry?: (path: string, kind: EntryKind) => boolean | 'folder';
  /** An unmarked folder that chainrpc made before it marked its folders, recognised by what it holds. */
  recognise?: (dir: string) => boolean;
  /** What the user can do instead, appended to a refusal ("give --data-dir a new or empty folder"). */
  advice?: string;
}

/** A folder or file chainrpc will not write into, clean or remove: it holds a user's files. */
export class NotOursError extends ChainrpcError {
  override readonly name = 'NotOursError';
  readonly kind = 'usage';
  constructor(
    /** The folder or file, as an absolute path. */
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** How chainrpc came to hold the folder: it made it now, it was empty, it was marked, or it was recognised (and is now marked). */
export type Claim = 'made' | 'empty' | 'marked' | 'recognised';

const kindOf = (stats: Stats): EntryKind => (stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'folder' : stats.isFile() ? 'file' : 'other');

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The first `bytes` of a file as text ('' when it cannot be read). */
export function fileHead(path: string, bytes = 4096): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(bytes);
    const n = readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, n).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** What made a marked folder ("chainrpc devnet"), or undefined when `dir` carries no marker of chainrpc's (a link named so is none). */
export function folderMarker(dir: string): string | undefined {
  const marker = join(dir, OWNED_MARKER);
  if (lstatOrUndefined(marker)?.isFile() !== true) return undefined;
  try {
    const value = JSON.parse(readFileSync(marker, 'utf8')) as { format?: unknown; madeBy?: unknown };
    return value.format === OWNED_FORMAT && typeof value.madeBy === 'string' ? value.madeBy : undefined;
  } catch {
    return undefined;
  }
}

function writeMarker(dir: string, madeBy: string): void {
  const marker = { format: OWNED_FORMAT, madeBy, createdAt: new Date().toISOString(), note: `${madeBy} made this folder and may empty it: keep nothing of your own here` };
  writeFileAtomically(join(dir, OWNED_MARKER), `${JSON.stringify(marker, null, 2)}\n`);
}

/** A few entry names for a message: "thesis.txt, sub/"; `more`: the list was cut short before it was given. */
function listed(names: readonly string[], more = false): string {
  const shown = names.slice(0, 5).join(', ');
  return names.length > 5 ? `${shown} and ${more ? 'more' : `${names.length - 5} more`}` : shown;
}

function entriesOf(dir: string): string[] {
  return readdirSync(dir).sort();
}

/**
 * The entries of `dir` that are not chainrpc's by `rules.entry` (relative paths, folders ending in '/'),
 * at most `limit` of them. Links are not followed; a marker file is always chainrpc's.
 */
export function foreignEntries(dir: string, rules: Pick<FolderRules, 'entry'>, limit = 20): string[] {
  const foreign: string[] = [];
  const judge = rules.entry;
  if (judge === undefined) return foreign;
  const walk = (relative: string): void => {
    for (const name of entriesOf(join(dir, relative))) {
      if (foreign.length >= limit) return;
      const path = relative === '' ? name : `${relative}/${name}`;
      const stats = lstatOrUndefined(join(dir, path));
      if (stats === undefined) continue;
      const kind = kindOf(stats);
      if (name === OWNED_MARKER && kind === 'file') continue;
      const verdict = judge(path, kind);
      if (verdict === 'folder' && kind === 'folder') walk(path);
      else if (verdict !== true) foreign.push(kind === 'folder' ? `${path}/` : path);
    }
  };
  walk('');
  return foreign;
}

type FolderState = 'missing' | 'empty' | 'marked' | 'recognised';

/** What a refusal appends: the user's way out, when the rules name one. */
const adviceOf = (rules: FolderRules): string => (rules.advice === undefined ? '' : `; ${rules.advice}`);

/** What `path` is to chainrpc; anything it may not take is refused with a NotOursError naming it and some of what it holds. */
function inspectFolder(path: string, rules: FolderRules): FolderState {
  const advice = adviceOf(rules);
  let stats: Stats;
  try {
    // The folder the user named may be a link to a folder: that folder is meant.
    stats = statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    if (lstatOrUndefined(path) !== undefined) throw new NotOursError(path, `${path} is a link to nothing${advice}`);
    return 'missing';
  }
  if (!stats.isDirectory()) throw new NotOursError(path, `${path} is not a folder${advice}`);
  if (folderMarker(path) !== undefined) return 'marked';
  const held = entriesOf(path);
  if (held.length === 0) return 'empty';
  if (rules.recognise?.(path) === true) return 'recognised';
  const shown = held.map((name) => (lstatOrUndefined(join(path, name))?.isDirectory() === true ? `${name}/` : name));
  throw new NotOursError(path, `${path} is not empty and was not made by ${rules.madeBy} (it holds ${listed(shown)})${advice}`);
}

/**
 * Takes `dir` for chainrpc to write into: makes it (parents too) with a marker when it is missing; marks it
 * when it is empty or recognised; takes it as it is when it carries a marker. Anything else (a folder holding
 * files chainrpc did not make, a file, a broken link) is refused with a NotOursError naming the folder and
 * some of what it holds.
 */
export function claimFolder(dir: string, rules: FolderRules): Claim {
  const path = resolve(dir);
  return claimInspected(path, inspectFolder(path, rules), rules);
}

/** claimFolder once `path` is inspected: makes or marks it as its state asks. */
function claimInspected(path: string, state: FolderState, rules: FolderRules): Claim {
  if (state === 'marked') return 'marked';
  if (state === 'missing') mkdirSync(path, { recursive: true });
  writeMarker(path, rules.madeBy);
  return state === 'missing' ? 'made' : state;
}

/** Refuses (NotOursError) a folder chainrpc holds that has come to hold something chainrpc did not put there. */
function refuseForeign(path: string, rules: FolderRules, doing: string): void {
  const foreign = foreignEntries(path, rules, 6);
  if (foreign.length === 0) return;
  throw new NotOursError(path, `${path} holds what ${rules.madeBy} did not make (${listed(foreign, true)}), so it will not ${doing} it${adviceOf(rules)}`);
}

/**
 * Empties `dir` for a fresh start and keeps it claimed: every entry but the marker goes, when the folder may
 * be claimed (claimFolder's rules) and everything in it is chainrpc's by `rules.entry`; else NotOursError,
 * and nothing is removed or written. A link inside is removed as a link, never followed.
 */
export function cleanFolder(dir: string, rules: FolderRules): Claim {
  const path = resolve(dir);
  const state = inspectFolder(path, rules);
  if (state === 'marked' || state === 'recognised') refuseForeign(path, rules, 'empty');
  const claim = claimInspected(path, state, rules);
  if (claim === 'made' || claim === 'empty') return claim;
  for (const name of entriesOf(path)) if (name !== OWNED_MARKER) rmSync(join(path, name), { recursive: true, force: true });
  return claim;
}

/**
 * Removes `dir` when it carries chainrpc's marker and everything in it is chainrpc's (`rules.entry`); a
 * missing folder is nothing to do (false). Anything else is refused (NotOursError) and left as it is.
 */
export function removeFolder(dir: string, rules: FolderRules): boolean {
  const path = resolve(dir);
  const stats = lstatOrUndefined(path);
  if (stats === undefined) return false;
  if (!stats.isDirectory() || folderMarker(path) === undefined) throw new NotOursError(path, `${path} was not made by ${rules.madeBy}, so it will not remove it${adviceOf(rules)}`);
  refuseForeign(path, rules, 'remove');
  rmSync(path, { recursive: true, force: true });
  return true;
}

/**
 * Takes the file `path` for chainrpc to write (or replace): it may be missing, or a regular file that
 * `isOurs` recognises (given its path; `fileHead` reads its start) as one chainrpc wrote. A user's file, a
 * folder or a link is refused with a NotOursError naming it, `what` chainrpc writes there, and `advice`.
 */
export function claimFile(path: string, what: string, isOurs: (path: string) => boolean, advice?: string): void {
  const full = resolve(path);
  const stats = lstatOrUndefined(full);
  if (stats === undefined) return;
  const then = advice === undefined ? '' : `; ${advice}`;
  const kind = kindOf(stats);
  if (kind === 'file' && isOurs(full)) return;
  const is = kind === 'file' ? 'a file chainrpc did not write' : kind === 'folder' ? 'a folder' : kind === 'link' ? 'a link' : 'not a regular file';
  throw new NotOursError(full, `${full} is ${is}, so chainrpc will not replace it with ${what}${then}`);
}

/** Whether the JSON file at `path` (read whole when it is at most `maxBytes`) is an object that `test` accepts. */
export function jsonFileIs(path: string, test: (value: Record<string, unknown>) => boolean, maxBytes = 16 * 1024 * 1024): boolean {
  try {
    if (statSync(path).size > maxBytes) return false;
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) && test(value as Record<string, unknown>);
  } catch {
    return false;
  }
}
