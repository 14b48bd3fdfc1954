import { randomBytes } from 'node:crypto';
import { lstatSync, readlinkSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { mkdir, rename, rm, rmdir, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeFileAtomically } from '../../core/files/AtomicFile.js';
import { NotOursError } from '../../core/files/ownedFolder.js';

/** Where a command writes its reports unless told otherwise (git-ignored): a folder per run, and the `latest` links. */
export const DEFAULT_REPORT_DIR = '.chainrpc/reports';

/** The link to the newest run of any kind in a report folder. */
export const LATEST_LINK = 'latest';

/** The file name of each report every kind of run writes into its folder (a conformance run adds its transcript). */
export const REPORT_FILE_NAMES = { json: 'report.json', html: 'report.html', markdown: 'summary.md', junit: 'junit.xml' } as const;

/** The link to the newest run of one kind (`latest-conformance`, `latest-load`), so runs of two kinds can share a report folder. */
export const latestLinkOf = (kind: string): string => `${LATEST_LINK}-${kind}`;

/** The rendered files of one report kind: for each file, its name in the folder and its text. */
export type ReportFiles<K extends string> = Readonly<Record<K, { readonly name: string; readonly text: string }>>;

export interface WrittenFolder<K extends string> {
  /** The folder, as an absolute path. */
  dir: string;
  /** The absolute path of each file. */
  files: Record<K, string>;
}

/**
 * Writes rendered report files into `dir` (created if needed). Each file is written to a temporary name
 * and renamed, so an existing report is replaced in one step. Render before calling: a renderer that
 * throws then leaves the folder as it was. Resolves with the absolute paths.
 */
export async function writeReportFolder<K extends string>(dir: string, files: ReportFiles<K>): Promise<WrittenFolder<K>> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const kinds = Object.keys(files) as K[];
  const paths = Object.fromEntries(kinds.map((kind) => [kind, join(root, files[kind].name)])) as Record<K, string>;
  // Each file whole or not at all: a reader (a CI step, a browser) never sees half a report.
  for (const kind of kinds) writeFileAtomically(paths[kind], files[kind].text);
  return { dir: root, files: paths };
}

/** The folder name of a run that started at an ISO time: the time with ':' and '.' as '-' (2026-11-23T12-33-13-004Z). */
export const runFolderName = (startedAt: string): string => startedAt.replace(/[:.]/g, '-');

/** The links a run of `kind` moves: `latest`, and `latest-<kind>` when the kind is named. */
const linksOf = (kind: string | undefined): string[] => (kind === undefined ? [LATEST_LINK] : [LATEST_LINK, latestLinkOf(kind)]);

const lstatOrUndefined = (path: string): ReturnType<typeof lstatSync> | undefined => {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
};

/**
 * Refuses (NotOursError, naming the folder) a report folder chainrpc would damage: one that is not a folder,
 * or that holds a `latest` (or `latest-<kind>`) that is not a link, which moving the link would replace. A
 * folder of a user's other files is fine: a run only adds a folder of its own. Call it before a run, so a
 * long run is not made for a report that cannot be written.
 */
export function checkReportRoot(root: string, kind?: string): void {
  const base = resolve(root);
  try {
    if (!statSync(base).isDirectory()) throw new NotOursError(base, `${base} is not a folder: reports go into a folder (give --report-dir a folder)`);
  } catch (err) {
    if (err instanceof NotOursError || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    if (lstatOrUndefined(base) !== undefined) throw new NotOursError(base, `${base} is a link to nothing: give --report-dir a folder`);
    return;
  }
  for (const link of linksOf(kind)) {
    const stats = lstatOrUndefined(join(base, link));
    if (stats !== undefined && !isOurLink(join(base, link), stats)) {
      const what = stats.isSymbolicLink() ? ` (a link to ${readlinkSync(join(base, link))})` : stats.isDirectory() ? '/' : '';
      throw new NotOursError(base, `${base} holds ${link}${what}, which is not chainrpc's link to the newest report and would be replaced: move it, or give --report-dir another folder`);
    }
  }
}

/** A run folder's name, as runFolderName makes it (after a kind's prefix, load- or fuzz-; and newRunFolder's -2, -3, ...). */
const RUN_FOLDER = /^([a-z][a-z-]*-)?\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z(-\d+)?$/;

/**
 * Whether `path` is chainrpc's `latest` link: a link to a run folder beside it, by its bare name (as
 * publishReportFolder makes it). A link of the user's (to anything else) is theirs: an outside tester's link to a
 * folder of their own was replaced without a word.
 */
function isOurLink(path: string, stats: Pick<Stats, 'isSymbolicLink'> | undefined): boolean {
  if (stats?.isSymbolicLink() !== true) return false;
  try {
    return RUN_FOLDER.test(readlinkSync(path));
  } catch {
    return false;
  }
}

/** Makes a new folder `<base>/<name>` (or `<name>-2`, ... when a run of the same millisecond has one): a run never writes into a folder it did not make. */
async function newRunFolder(base: string, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name}-${n}`;
    try {
      await mkdir(join(base, candidate));
      return candidate;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 100) throw err;
    }
  }
}

/**
 * Writes a run's report files into a new folder `<root>/<start time>/` and points `<root>/latest`, and with
 * `kind` also `<root>/latest-<kind>`, at it (relative symbolic links, where the file system has them), so a CI
 * step finds the newest report at one path, and `chainrpc replay` the newest conformance report whatever ran
 * after it. Nothing in the report folder but these links is replaced: `checkReportRoot` refuses a `latest`
 * that is not a link before anything is written.
 *
 * `files` may be a function of the new folder's path (`<root>/<name>`, with `root` as given), for a report
 * that names its own place (a replay command that reads it back). It is called once the folder is made; if
 * it throws, the folder, still empty, is removed and the error passes on: the report folder is as it was.
 */
export async function publishReportFolder<K extends string>(root: string, startedAt: string, files: ReportFiles<K> | ((folder: string) => ReportFiles<K>), kind?: string): Promise<WrittenFolder<K>> {
  const base = resolve(root);
  checkReportRoot(base, kind);
  await mkdir(base, { recursive: true });
  const name = await newRunFolder(base, runFolderName(startedAt));
  let rendered: ReportFiles<K>;
  try {
    rendered = typeof files === 'function' ? files(join(root, name)) : files;
  } catch (err) {
    await rmdir(join(base, name));
    throw err;
  }
  const written = await writeReportFolder(join(base, name), rendered);
  for (const link of linksOf(kind)) {
    const latest = join(base, link);
    // Made beside it and renamed over it: the link always points at a whole report, the old one or the new.
    const temp = `${latest}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      // Renamed only over our link (or nothing): a file, folder or link of the user's of that name appeared since the check.
      const stats = lstatOrUndefined(latest);
      if (stats !== undefined && !isOurLink(latest, stats)) continue;
      await symlink(name, temp);
      await rename(temp, latest);
    } catch {
      // A file system without symlinks: the printed path is enough.
      await rm(temp, { force: true });
    }
  }
  return written;
}
