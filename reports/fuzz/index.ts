// The reports of `chainrpc fuzz`: pure renderers of a FuzzRun (fuzz/model.ts), the writer that puts them in a
// report folder beside the conformance and load runs', the headline every one leads with, and the live console progress.
export { FUZZ_REPORT_FORMAT, fuzzReport, renderFuzzJson, type FuzzReport } from './renderFuzzJson.js';
export { renderFuzzMarkdown } from './renderFuzzMarkdown.js';
export { findingText, renderFuzzJunit } from './renderFuzzJunit.js';
export { renderFuzzHtml } from './renderFuzzHtml.js';
export {
  FUZZ_FOLDER_PREFIX,
  FUZZ_REPORT_FILES,
  FUZZ_REPORT_KIND,
  renderFuzzReports,
  writeFuzzReports,
  type FuzzReportKind,
  type WriteFuzzReportsOptions,
  type WrittenFuzzReports,
} from './writeFuzzReports.js';
export { DEFAULT_REPORT_PATH, replayCommand, type FuzzReportOptions } from './findingText.js';
export { fuzzHeadline, type FuzzHeadline, type FuzzHeadlineWord } from './fuzzHeadline.js';
export { FuzzProgressLine, findingLine, fuzzStatusLine, type FuzzProgressOptions, type FuzzProgressSnapshot } from './fuzzProgress.js';
