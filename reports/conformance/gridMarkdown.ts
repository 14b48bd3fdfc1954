import type { CheckResult, RunResult, Status } from '../../suites/model.js';
import { isExpectedFailure, isGating } from '../../suites/runner/verdict.js';
import { excerpt } from '../../core/excerpt.js';
import { markdownCode, markdownFence, markdownText } from '../shared/markdownText.js';
import { networkCulprits, rowResults, sameLine } from './nodeGrid.js';
import { shortMessage } from './shortText.js';
import type { GridRow, NodeGrid } from './nodeGrid.js';

/**
 * summary.md for a run against several nodes: the grid of report.html in short. A table with a row per
 * check that fails, errs or differs between nodes and a column per node (a symbol per status), a line
 * counting the checks with the same result everywhere, then the failing checks, one block per check with
 * the message of each node it fails on and one reproduce command. Capped, with how many were left out.
 */

export interface GridMarkdownOptions {
  /** Rows of the table before "and N more" (default 40). */
  maxRows: number;
  /** Failing checks shown in full before "and N more" (default 20). */
  maxFailures: number;
  /** Longest reproduce command shown (longer ones are left to report.html). */
  maxCommandChars: number;
}

export const STATUS_SYMBOL: Readonly<Record<Status, string>> = { pass: '✅', fail: '❌', error: '⚠️', skip: '⏭️' };
const NO_RESULT = '–';
const MAX_VALUE_CHARS = 200;

type MarkWord = 'expected' | 'expired' | 'now passes' | 'below gate';
const MARK_MEANING: Readonly<Record<MarkWord, string>> = {
  expected: 'a baseline entry expects this failure',
  expired: 'its baseline entry expired, it gates again',
  'now passes': 'a baseline entry lists it but it passes: remove the entry',
  'below gate': 'fails below the gate, which the run does not fail for',
};

/** Code in a table cell: a pipe would end the cell, so it is escaped (GFM reads `\|` inside code as `|`). */
const cellCode = (text: string): string => markdownCode(text).replace(/\|/g, '\\|');

const failing = (r: CheckResult): boolean => (r.status === 'fail' || r.status === 'error') && !isExpectedFailure(r);

function markOf(r: CheckResult, run: RunResult): MarkWord | undefined {
  if (r.baseline?.state === 'expected-fail') return 'expected';
  if (r.baseline?.state === 'expired') return 'expired';
  if (r.baseline?.state === 'now-passing') return 'now passes';
  return failing(r) && !isGating(r, run.gate) ? 'below gate' : undefined;
}

function cellText(r: CheckResult | undefined, run: RunResult, marks: Set<MarkWord>): string {
  if (!r) return NO_RESULT;
  const mark = markOf(r, run);
  if (mark === undefined) return STATUS_SYMBOL[r.status];
  marks.add(mark);
  return `${STATUS_SYMBOL[r.status]} *${mark}*`;
}

function tableLines(rows: readonly GridRow[], grid: NodeGrid, run: RunResult): { lines: string[]; marks: Set<MarkWord> } {
  const marks = new Set<MarkWord>();
  const network = rows.some((r) => r.network !== undefined);
  const heads = [...grid.columns.map((c) => cellCode(c.label)), ...(network ? ['network'] : [])];
  const lines = [`| Check | Level | ${heads.join(' | ')} |`, `|---|---|${heads.map(() => ':-:|').join('')}`];
  for (const row of rows) {
    const cells = row.network
      ? [...grid.columns.map(() => ''), cellText(row.network, run, marks)]
      : [...row.cells.map((r) => cellText(r, run, marks)), ...(network ? [''] : [])];
    lines.push(`| ${cellCode(row.id)} | ${row.info.level} | ${cells.join(' | ')} |`);
  }
  return { lines, marks };
}

function failureBlock(row: GridRow, grid: NodeGrid, run: RunResult, maxCommandChars: number): string {
  const shown = rowResults(row).filter(failing);
  const label = (r: CheckResult): string => {
    const column = grid.columns.find((c) => c.url === r.node);
    return column ? column.label : r.node;
  };
  const icon = shown.some((r) => r.status === 'fail') ? '❌' : '⚠️';
  const statuses = [...new Set(shown.map((r) => r.status))].join(' and ');
  const where = row.network ? 'on the network' : `on ${shown.length} of ${run.targets.length} nodes`;
  const gates = shown.some((r) => isGating(r, run.gate));
  const lines = [`#### ${icon} ${markdownCode(row.id)} · ${row.info.level} ${statuses} ${where}${gates ? '' : ' (does not gate)'}`, '', markdownText(row.info.title), ''];
  for (const r of shown) {
    const { expected, actual } = r.evidence;
    const pairs: string[] = [];
    if (expected !== undefined) pairs.push(`expected ${markdownCode(excerpt(expected, MAX_VALUE_CHARS))}`);
    if (actual !== undefined) pairs.push(`actual ${markdownCode(excerpt(actual, MAX_VALUE_CHARS))}`);
    const culprits = row.network ? networkCulprits(r, grid.columns) : [];
    const who = row.network ? `network${culprits.length === 0 ? '' : ` (on ${culprits.map((c) => markdownCode(c.label)).join(', ')})`}` : markdownCode(label(r));
    lines.push(`- ${STATUS_SYMBOL[r.status]} ${who}: ${markdownText(shortMessage(r.evidence.message))}${pairs.length > 0 ? ` (${pairs.join(', ')})` : ''}`);
  }
  const first = shown.find((r) => r.reproduce !== undefined);
  if (first?.reproduce !== undefined) {
    const on = row.network ? '' : ` (${markdownCode(label(first))})`;
    lines.push(
      '',
      first.reproduce.length <= maxCommandChars
        ? `Reproduce${on}:\n\n${markdownFence(first.reproduce, 'sh')}`
        : `Reproduce${on}: the command is ${first.reproduce.length} characters long; copy it from report.html or report.json.`,
    );
  }
  return lines.join('\n');
}

/** The grid part of summary.md, between the counts and the baseline notes. */
export function gridMarkdown(run: RunResult, grid: NodeGrid, options: GridMarkdownOptions): string[] {
  const out: string[] = [];
  const attention = grid.rows.filter((r) => r.part !== 'same');
  const same = grid.rows.filter((r) => r.part === 'same');
  // Failing rows that gate first, then failing ones below the gate, then those that only differ.
  const rank = (r: GridRow): number => (r.part === 'failing' ? (r.gating ? 0 : 1) : 2);
  const ordered = attention.map((row, i) => ({ row, i })).sort((a, b) => rank(a.row) - rank(b.row) || a.i - b.i).map((x) => x.row);
  if (ordered.length > 0) {
    const fails = ordered.filter((r) => r.part === 'failing').length;
    const differs = ordered.length - fails;
    const what = [fails > 0 ? `${fails} fail or err on some node` : '', differs > 0 ? `${differs} differ between nodes` : ''].filter((t) => t !== '').join(', ');
    out.push(`### By node: ${what}`, '');
    const { lines, marks } = tableLines(ordered.slice(0, options.maxRows), grid, run);
    out.push(...lines, '');
    const rest = ordered.length - options.maxRows;
    if (rest > 0) out.push(`…and ${rest} more check${rest === 1 ? '' : 's'} that fail or differ: see report.html.`, '');
    const legend = [`${STATUS_SYMBOL.pass} pass`, `${STATUS_SYMBOL.fail} fail`, `${STATUS_SYMBOL.error} error`, `${STATUS_SYMBOL.skip} skip`, `${NO_RESULT} no result`];
    const meanings = [...marks].map((m) => `*${m}*: ${MARK_MEANING[m]}`);
    out.push(`${legend.join(' · ')}${meanings.length > 0 ? `; ${meanings.join('; ')}` : ''}.`, '');
  } else {
    out.push('No check fails, errs or differs between the nodes.', '');
  }
  if (same.length > 0) out.push(`${markdownText(sameLine(same))}.`, '');

  const failingRows = ordered.filter((r) => rowResults(r).some(failing));
  if (failingRows.length > 0) {
    out.push(`### Failing checks (${failingRows.length})`, '');
    for (const row of failingRows.slice(0, options.maxFailures)) out.push(failureBlock(row, grid, run, options.maxCommandChars), '');
    const rest = failingRows.length - options.maxFailures;
    if (rest > 0) out.push(`…and ${rest} more failing check${rest === 1 ? '' : 's'}: see report.html or junit.xml.`, '');
  }
  return out;
}
