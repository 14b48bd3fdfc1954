import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Exchange, RunResult } from '../../suites/model.js';
import { renderHtml } from './renderHtml.js';
import { renderJson } from './renderJson.js';
import { renderJunit } from './renderJunit.js';
import { renderMarkdown } from './renderMarkdown.js';
import { renderTranscript } from './renderTranscript.js';

export type ReportKind = 'json' | 'junit' | 'markdown' | 'html' | 'transcript';

export interface WrittenReports {
  /** The folder, as an absolute path. */
  dir: string;
  /** The absolute path of each file. */
  files: Record<ReportKind, string>;
}

/** The file name of each report inside the folder. */
export const REPORT_FILES: Readonly<Record<ReportKind, string>> = {
  json: 'report.json',
  junit: 'junit.xml',
  markdown: 'summary.md',
  html: 'report.html',
  transcript: 'transcript.ndjson',
};

/** Writes a file whole or not at all: a reader (a CI step, a browser) never sees half a report. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, 'utf8');
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Renders every report of a run and writes them into `dir` (created if needed): report.json, junit.xml,
 * summary.md, report.html and transcript.ndjson. Each file is written to a temporary name and renamed,
 * so an existing report is replaced in one step. Resolves with the absolute paths.
 */
export async function writeReports(run: RunResult, transcript: readonly Exchange[], dir: string): Promise<WrittenReports> {
  // Render everything first: a renderer that throws leaves the folder as it was.
  const texts: Record<ReportKind, string> = {
    json: renderJson(run),
    junit: renderJunit(run),
    markdown: renderMarkdown(run),
    html: renderHtml(run),
    transcript: renderTranscript(transcript),
  };
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const files = Object.fromEntries(Object.entries(REPORT_FILES).map(([kind, name]) => [kind, join(root, name)])) as Record<ReportKind, string>;
  await Promise.all((Object.keys(texts) as ReportKind[]).map((kind) => writeAtomically(files[kind], texts[kind])));
  return { dir: root, files };
}
