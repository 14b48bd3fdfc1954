// The report renderers: pure functions of a RunResult (or of exchanges), and the writer that puts them in a folder.
export { renderJson } from './conformance/renderJson.js';
export { renderJunit } from './conformance/renderJunit.js';
export { renderMarkdown, type MarkdownOptions } from './conformance/renderMarkdown.js';
export { renderHtml } from './conformance/renderHtml.js';
export { renderTranscript } from './conformance/renderTranscript.js';
export { curlFor } from '../suites/runner/curlFor.js';
export { writeReports, REPORT_FILES, type ReportKind, type WrittenReports } from './conformance/writeReports.js';
export { isExpectedFailure, isGating, levelGates, summarize, verdictHeadline, type Headline, type VerdictWord } from '../suites/runner/verdict.js';
export { evidenceText } from './conformance/evidenceText.js';
