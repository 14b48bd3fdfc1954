// The reports of a conformance run: pure renderers of a RunResult (or of its exchanges), the writer that
// puts them in a folder, and the console reporter of `chainrpc test`.
export { renderJson } from './renderJson.js';
export { renderJunit } from './renderJunit.js';
export { renderMarkdown, type MarkdownOptions } from './renderMarkdown.js';
export { renderHtml, type HtmlOptions } from './renderHtml.js';
export { renderTranscript } from './renderTranscript.js';
export { evidenceText } from './evidenceText.js';
export { renderReports, writeReports, REPORT_FILES, type ReportKind, type WrittenReports } from './writeReports.js';
export { ConsoleReporter, type ConsoleReporterOptions, type ReportsShown } from './consoleReporter.js';
