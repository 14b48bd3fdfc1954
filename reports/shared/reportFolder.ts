import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeFileAtomically } from '../../core/files/AtomicFile.js';

/** Where a command writes its reports unless told otherwise (git-ignored): a folder per run, and `latest`. */
export const DEFAULT_REPORT_DIR = '.chainrpc/reports';

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

/**
 * Writes a run's report files into `<root>/<start time>/` and points `<root>/latest` at that folder (a
 * relative symbolic link, where the file system has them), so a CI step and `chainrpc replay` find the
 * newest report at one path whatever kind of run wrote it.
 */
export async function publishReportFolder<K extends string>(root: string, startedAt: string, files: ReportFiles<K>): Promise<WrittenFolder<K>> {
  const name = runFolderName(startedAt);
  const base = resolve(root);
  const written = await writeReportFolder(join(base, name), files);
  const latest = join(base, 'latest');
  // Made beside it and renamed over it: `latest` always points at a whole report, the old one or the new.
  const temp = `${latest}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await symlink(name, temp);
    await rename(temp, latest);
  } catch {
    // A file system without symlinks: the printed path is enough.
    await rm(temp, { force: true });
  }
  return written;
}
