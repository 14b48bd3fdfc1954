import { stringifyJson } from '../../core/json/index.js';
import { indentJson } from './indentJson.js';

/**
 * What every JSON report starts with: its format and version ("chainrpc-report/4" for a conformance run),
 * which a consumer checks first. A new field or a changed meaning makes a new version.
 */
export interface VersionedReport {
  readonly format: `chainrpc-${string}/${number}`;
}

/**
 * A JSON report as written to disk: indented like JSON.stringify(report, null, 2) for people and diffs,
 * written by stringifyJson so that a bigint anywhere in it comes out as the exact integer (JSON.stringify
 * would throw), with a final newline.
 */
export function renderJsonReport(report: VersionedReport): string {
  return `${indentJson(stringifyJson(report))}\n`;
}
