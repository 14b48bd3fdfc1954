import { stringifyJson } from '../../core/json/index.js';
import type { RunResult } from '../../suites/model.js';
import { indentJson } from '../shared/indentJson.js';

/**
 * The JSON report (report.json): the RunResult as it is, format "chainrpc-report/2", described by
 * reports/report.schema.json. Indented for people and diffs; written by stringifyJson so that a bigint
 * anywhere in it comes out as the exact integer (JSON.stringify would throw).
 */
export function renderJson(run: RunResult): string {
  return `${indentJson(stringifyJson(run))}\n`;
}
