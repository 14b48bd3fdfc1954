import type { LoadReport } from '../../load/model.js';
import { DEFAULT_REPORT_DIR, publishReportFolder, REPORT_FILE_NAMES } from '../shared/reportFolder.js';
import type { ReportFiles, WrittenFolder } from '../shared/reportFolder.js';
import { renderLoadHtml } from './renderLoadHtml.js';
import { renderLoadJson } from './renderLoadJson.js';
import { renderLoadJunit } from './renderLoadJunit.js';
import { renderLoadMarkdown } from './renderLoadMarkdown.js';

export type LoadReportKind = 'json' | 'html' | 'markdown' | 'junit';

export type WrittenLoadReports = WrittenFolder<LoadReportKind>;

/** The file name of each load report inside its folder (the same names as a conformance run's). */
export const LOAD_REPORT_FILES: Readonly<Record<LoadReportKind, string>> = REPORT_FILE_NAMES;

/** The prefix of a load run's folder, so load and conformance runs are told apart in one report folder. */
export const LOAD_FOLDER_PREFIX = 'load-';

/** The kind a load run publishes as: its own link, `<dir>/latest-load`, beside `latest` (reports/shared/reportFolder.ts). */
export const LOAD_REPORT_KIND = 'load';

/** Every report of a load command, rendered (a renderer that throws throws here, before anything is written). */
export function renderLoadReports(report: LoadReport): ReportFiles<LoadReportKind> {
  const file = (kind: LoadReportKind, text: string): { name: string; text: string } => ({ name: LOAD_REPORT_FILES[kind], text });
  return {
    json: file('json', renderLoadJson(report)),
    html: file('html', renderLoadHtml(report)),
    markdown: file('markdown', renderLoadMarkdown(report)),
    junit: file('junit', renderLoadJunit(report)),
  };
}

export interface WriteLoadReportsOptions {
  /** The report folder (--report-dir); default .chainrpc/reports, shared with `chainrpc test`. */
  dir?: string;
}

/**
 * Renders every report of a load command and writes them into `<dir>/load-<created at>/` (report.json,
 * report.html, summary.md, junit.xml, each written whole), then points `<dir>/latest` and `<dir>/latest-load`
 * at that folder, like a conformance run's `latest` and `latest-conformance`. Resolves with the absolute paths.
 */
export async function writeLoadReports(report: LoadReport, options: WriteLoadReportsOptions = {}): Promise<WrittenLoadReports> {
  // Rendered first, inside the promise: a renderer that throws rejects it and leaves the folder as it was.
  const files = renderLoadReports(report);
  return await publishReportFolder(options.dir ?? DEFAULT_REPORT_DIR, `${LOAD_FOLDER_PREFIX}${report.createdAt}`, files, LOAD_REPORT_KIND);
}
