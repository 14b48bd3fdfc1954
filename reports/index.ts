// The report renderers: pure functions of a RunResult (or of exchanges), and the writer that puts them in a folder.
export { renderJson } from './renderJson.js';
export { renderJunit } from './renderJunit.js';
export { renderMarkdown, type MarkdownOptions } from './renderMarkdown.js';
export { renderHtml } from './renderHtml.js';
export { renderTranscript } from './renderTranscript.js';
export { curlFor } from '../suites/runner/curlFor.js';
export { writeReports, REPORT_FILES, type ReportKind, type WrittenReports } from './writeReports.js';
export { isExpectedFailure, isGating, levelGates, summarize, verdictHeadline, type Headline, type VerdictWord } from '../suites/runner/verdict.js';
export { evidenceText } from './evidenceText.js';
