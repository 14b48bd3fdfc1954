import type { LoadReport } from '../../load/model.js';
import { renderJsonReport } from '../shared/jsonReport.js';

/**
 * The JSON report of a load command (report.json): the LoadReport as it is, format "chainrpc-load/2",
 * described by reports/load/load-report.schema.json, histograms encoded whole (so runs can be merged and
 * compared later), written as every JSON report is (renderJsonReport: indented, bigints exact).
 */
export function renderLoadJson(report: LoadReport): string {
  return renderJsonReport(report);
}
