import type { Exchange, RunResult } from '../../suites/model.js';
import { REPORT_FILE_NAMES, writeReportFolder } from '../shared/reportFolder.js';
import type { ReportFiles, WrittenFolder } from '../shared/reportFolder.js';
import { renderHtml } from './renderHtml.js';
import { renderJson } from './renderJson.js';
import { renderJunit } from './renderJunit.js';
import { renderMarkdown } from './renderMarkdown.js';
import { renderTranscript } from './renderTranscript.js';

export type ReportKind = 'json' | 'junit' | 'markdown' | 'html' | 'transcript';

export type WrittenReports = WrittenFolder<ReportKind>;

/** The kind a conformance run publishes as: its own link, `<report-dir>/latest-conformance`, beside `latest` (reports/shared/reportFolder.ts). */
export const CONFORMANCE_REPORT_KIND = 'conformance';

/** The file name of each report inside the folder. */
export const REPORT_FILES: Readonly<Record<ReportKind, string>> = { ...REPORT_FILE_NAMES, transcript: 'transcript.ndjson' };

/** Every report of a run, rendered (a renderer that throws throws here, before anything is written). */
export function renderReports(run: RunResult, transcript: readonly Exchange[]): ReportFiles<ReportKind> {
  const file = (kind: ReportKind, text: string): { name: string; text: string } => ({ name: REPORT_FILES[kind], text });
  return {
    json: file('json', renderJson(run)),
    junit: file('junit', renderJunit(run)),
    markdown: file('markdown', renderMarkdown(run)),
    html: file('html', renderHtml(run)),
    transcript: file('transcript', renderTranscript(transcript)),
  };
}

/**
 * Renders every report of a run and writes them into `dir` (created if needed): report.json, junit.xml,
 * summary.md, report.html and transcript.ndjson, each replaced in one step (reports/shared/reportFolder.ts).
 * Resolves with the absolute paths.
 */
export async function writeReports(run: RunResult, transcript: readonly Exchange[], dir: string): Promise<WrittenReports> {
  // Rendered first, inside the promise: a renderer that throws rejects it and leaves the folder as it was.
  const files = renderReports(run, transcript);
  return await writeReportFolder(dir, files);
}
