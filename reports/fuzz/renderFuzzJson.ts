/**
 * The JSON report of a fuzz run (report.json): the FuzzRun (fuzz/model.ts) as it is, after its format
 * version, "chainrpc-fuzz/1", described by reports/fuzz/fuzz-report.schema.json. It is what
 * `chainrpc fuzz --replay <report.json> <finding-id>` reads back: every finding's minimal case keeps its exact
 * bytes (base64). Written as every JSON report is (renderJsonReport: indented, bigints exact).
 */
import type { FuzzRun } from '../../fuzz/model.js';
import { renderJsonReport } from '../shared/jsonReport.js';

/** The format of a fuzz run's report.json; a consumer (the replay) checks it first. A new field or a changed meaning makes a new version. */
export const FUZZ_REPORT_FORMAT = 'chainrpc-fuzz/1';

/** A fuzz run as report.json holds it: its format first, then the run. */
export type FuzzReport = { format: typeof FUZZ_REPORT_FORMAT } & FuzzRun;

/** The run with its format version first (the run itself is not changed). */
export function fuzzReport(run: FuzzRun): FuzzReport {
  return { format: FUZZ_REPORT_FORMAT, ...run };
}

export function renderFuzzJson(run: FuzzRun): string {
  return renderJsonReport(fuzzReport(run));
}
