/**
 * Every report of a fuzz run, rendered (report.json, report.html, summary.md, junit.xml), and written into a
 * new `<report-dir>/fuzz-<start time>/` of the report folder that `chainrpc test` and `chainrpc load` write to,
 * each file whole or not at all, with `<report-dir>/latest` and `<report-dir>/latest-fuzz` pointed at it
 * (reports/shared/reportFolder.ts). The replay commands in the reports name that folder's report.json.
 */
import { join } from 'node:path';
import type { FuzzRun } from '../../fuzz/model.js';
import { DEFAULT_REPORT_DIR, publishReportFolder, REPORT_FILE_NAMES } from '../shared/reportFolder.js';
import type { ReportFiles, WrittenFolder } from '../shared/reportFolder.js';
import type { FuzzReportOptions } from './findingText.js';
import { renderFuzzHtml } from './renderFuzzHtml.js';
import { renderFuzzJson } from './renderFuzzJson.js';
import { renderFuzzJunit } from './renderFuzzJunit.js';
import { renderFuzzMarkdown } from './renderFuzzMarkdown.js';

export type FuzzReportKind = 'json' | 'html' | 'markdown' | 'junit';

export type WrittenFuzzReports = WrittenFolder<FuzzReportKind>;

/** The file name of each fuzz report inside its folder (the same names as a conformance or load run's). */
export const FUZZ_REPORT_FILES: Readonly<Record<FuzzReportKind, string>> = REPORT_FILE_NAMES;

/** The prefix of a fuzz run's folder, so fuzz, load and conformance runs are told apart in one report folder. */
export const FUZZ_FOLDER_PREFIX = 'fuzz-';

/** The kind a fuzz run publishes as: its own link, `<dir>/latest-fuzz`, beside `latest`. */
export const FUZZ_REPORT_KIND = 'fuzz';

/** Every report of a run, rendered (a renderer that throws throws here, before anything is written). */
export function renderFuzzReports(run: FuzzRun, options: FuzzReportOptions = {}): ReportFiles<FuzzReportKind> {
  const file = (kind: FuzzReportKind, text: string): { name: string; text: string } => ({ name: FUZZ_REPORT_FILES[kind], text });
  return {
    json: file('json', renderFuzzJson(run)),
    html: file('html', renderFuzzHtml(run, options)),
    markdown: file('markdown', renderFuzzMarkdown(run, options)),
    junit: file('junit', renderFuzzJunit(run, options)),
  };
}

export interface WriteFuzzReportsOptions {
  /** The report folder (--report-dir); default (also when undefined) .chainrpc/reports, shared with `chainrpc test` and `chainrpc load`. */
  dir?: string | undefined;
  /** The command as it ran, shown in report.html and summary.md. */
  command?: string | undefined;
}

/**
 * Renders every report of a run and writes them into `<dir>/fuzz-<started at>/`, then points `<dir>/latest` and
 * `<dir>/latest-fuzz` at it. The reports' replay commands name `<dir>/fuzz-<started at>/report.json`, with `dir`
 * as given (relative stays relative). A renderer that throws leaves the report folder as it was. Call
 * `checkReportRoot(dir, FUZZ_REPORT_KIND)` before the run, so a long run is not made for a folder that cannot
 * take its report. Resolves with the absolute paths.
 */
export async function writeFuzzReports(run: FuzzRun, options: WriteFuzzReportsOptions = {}): Promise<WrittenFuzzReports> {
  const render = (folder: string): ReportFiles<FuzzReportKind> => renderFuzzReports(run, { reportPath: join(folder, FUZZ_REPORT_FILES.json), ...(options.command === undefined ? {} : { command: options.command }) });
  return await publishReportFolder(options.dir ?? DEFAULT_REPORT_DIR, `${FUZZ_FOLDER_PREFIX}${run.startedAt}`, render, FUZZ_REPORT_KIND);
}
