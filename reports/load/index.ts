// The reports of a load command (`chainrpc load`): pure renderers of a LoadReport (load/model.ts), the writer
// that puts them in a report folder beside the conformance runs', and the live console progress.
export { renderLoadJson } from './renderLoadJson.js';
export { renderLoadHtml } from './renderLoadHtml.js';
export { renderLoadMarkdown } from './renderLoadMarkdown.js';
export { renderLoadJunit } from './renderLoadJunit.js';
export {
  LOAD_FOLDER_PREFIX,
  LOAD_REPORT_FILES,
  renderLoadReports,
  writeLoadReports,
  type LoadReportKind,
  type WriteLoadReportsOptions,
  type WrittenLoadReports,
} from './writeLoadReports.js';
export { loadProgress, progressLine, type LoadProgressOptions, type LoadProgressPrinter, type ProgressStream } from './loadProgress.js';
export { loadHeadline, type LoadHeadline, type LoadVerdictWord } from '../../load/loadVerdict.js';
export { verdictFacts } from './loadFacts.js';
