import type { RunResult } from '../../suites/model.js';
import { renderJsonReport } from '../shared/jsonReport.js';

/**
 * The JSON report (report.json): the RunResult as it is, format "chainrpc-report/4", described by
 * reports/conformance/report.schema.json, written as every JSON report is (renderJsonReport: indented,
 * bigints exact).
 */
export function renderJson(run: RunResult): string {
  return renderJsonReport(run);
}
