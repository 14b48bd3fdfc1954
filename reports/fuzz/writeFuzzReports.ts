/**
 * Every report of a fuzz run, rendered (report.json, report.html, summary.md, junit.xml), and written into a
 * new `<report-dir>/fuzz-<start time>/` of the report folder that `chainrpc test` and `chainrpc load` write to,
 * each file whole or not at all, with `<report-dir>/latest` and `<report-dir>/latest-fuzz` pointed at it
 * (reports/shared/reportFolder.ts). The replay commands in the reports name that folder's report.json.
 */
import { join, resolve } from 'node:path';
import { writeFileAtomically } from '../../core/files/AtomicFile.js';
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
  /**
   * A profile detected for the run (`--profile detect`), as JSON: written beside the reports as
   * DETECTED_PROFILE_FILE, which report.json then names as the run's profile file (options.profileFile) and
   * every replay command passes.
   */
  detectedProfile?: unknown;
}

/** The file a detected profile is kept in, in the run's report folder. */
export const DETECTED_PROFILE_FILE = 'profile.json';

/** The written reports, and the profile file the run's findings are judged by when there is one (absolute). */
export type WrittenFuzzRun = WrittenFuzzReports & { profileFile?: string };

/**
 * Renders every report of a run and writes them into `<dir>/fuzz-<started at>/`, then points `<dir>/latest` and
 * `<dir>/latest-fuzz` at it. The reports' replay commands name `<dir>/fuzz-<started at>/report.json`, with `dir`
 * as given (relative stays relative), and the run's profile file (options.profileFile; a detected profile's is
 * the profile.json written beside them, before them, as an absolute path). A renderer that throws leaves the
 * report folder as it was. Call `checkReportRoot(dir, FUZZ_REPORT_KIND)` before the run, so a long run is not
 * made for a folder that cannot take its report. Resolves with the absolute paths.
 */
export async function writeFuzzReports(run: FuzzRun, options: WriteFuzzReportsOptions = {}): Promise<WrittenFuzzRun> {
  let profileFile = run.options.profileFile;
  const render = (folder: string): ReportFiles<FuzzReportKind> => {
    const detected = options.detectedProfile === undefined ? undefined : resolve(folder, DETECTED_PROFILE_FILE);
    const shown = detected === undefined ? run : { ...run, options: { ...run.options, profileFile: detected } };
    const files = renderFuzzReports(shown, { reportPath: join(folder, FUZZ_REPORT_FILES.json), ...(options.command === undefined ? {} : { command: options.command }) });
    // Rendered first (a renderer that throws leaves the folder empty), written before the reports that name it.
    if (detected !== undefined) writeFileAtomically(detected, `${JSON.stringify(options.detectedProfile, null, 2)}\n`);
    profileFile = detected ?? profileFile;
    return files;
  };
  const written = await publishReportFolder(options.dir ?? DEFAULT_REPORT_DIR, `${FUZZ_FOLDER_PREFIX}${run.startedAt}`, render, FUZZ_REPORT_KIND);
  return profileFile === undefined ? written : { ...written, profileFile };
}
