import { LEVELS } from '../../suites/model.js';
import type { CheckResult, RunResult, Status } from '../../suites/model.js';
import { excerpt } from '../../core/excerpt.js';
import { formatDuration } from '../shared/formatDuration.js';
import { isExpectedFailure, isGating, levelGates, verdictHeadline } from '../../suites/runner/verdict.js';
import { markdownCode, markdownFence, markdownText } from '../shared/markdownText.js';
import { gridMarkdown } from './gridMarkdown.js';
import { nodeGrid, STATUSES } from './nodeGrid.js';
import { shortHint, shortMessage } from './shortText.js';

export interface MarkdownOptions {
  /** How many failing checks to show in full before "and N more" (default 20; 10 in the grid, whose table already names each one). */
  maxFailures?: number;
  /**
   * rows: the failing checks one by one, per node (the layout of a run against one node). grid: a table
   * with a row per check that fails, errs or differs between nodes and a column per node, a line for the
   * rest, then the failing checks one block per check. Default: grid when the run has more than one
   * target, else rows.
   */
  layout?: 'rows' | 'grid';
  /** The grid's rows shown before "and N more" (default 40). */
  maxRows?: number;
}

const ICON = { CERTIFIED: '✅', PASSED: '✅', FAILED: '❌', INTERRUPTED: '⏹️' } as const;
// A reproduce command longer than this is left to report.html: a step summary is for scanning.
const MAX_COMMAND_CHARS = 2000;
const MAX_VALUE_CHARS = 300;
const MAX_BASELINE_LINES = 20;

const where = (r: CheckResult): string => `${markdownCode(r.id)} on ${markdownCode(r.node)}`;

function failureBlock(r: CheckResult, gating: boolean): string {
  const icon = r.status === 'error' ? '⚠️' : '❌';
  const lines = [`#### ${icon} ${markdownCode(r.id)} · ${r.level} ${r.status}${gating ? '' : ' (does not gate)'} · ${markdownCode(r.node)}`, ''];
  lines.push(`${markdownText(r.title)}: ${markdownText(shortMessage(r.evidence.message))}`);
  const { expected, actual } = r.evidence;
  if (expected !== undefined || actual !== undefined) {
    lines.push('');
    const pairs: string[] = [];
    if (expected !== undefined) pairs.push(`expected ${markdownCode(excerpt(expected, MAX_VALUE_CHARS))}`);
    if (actual !== undefined) pairs.push(`actual ${markdownCode(excerpt(actual, MAX_VALUE_CHARS))}`);
    lines.push(pairs.join(', '));
  }
  if (r.reproduce !== undefined) {
    lines.push('');
    lines.push(
      r.reproduce.length <= MAX_COMMAND_CHARS
        ? markdownFence(r.reproduce, 'sh')
        : `Reproduce: the command is ${r.reproduce.length} characters long; copy it from report.html or report.json.`,
    );
  }
  return lines.join('\n');
}

function listCapped(items: readonly string[]): string[] {
  const shown = items.slice(0, MAX_BASELINE_LINES);
  if (items.length > shown.length) shown.push(`- and ${items.length - shown.length} more`);
  return shown;
}

/**
 * A Markdown summary (summary.md) made for CI step summaries such as $GITHUB_STEP_SUMMARY: the verdict
 * first, counts per level and status, the failing checks with their reproduce commands (capped, with
 * "and N more"), then what the baseline needs (entries that pass now, entries that expired). Against
 * several nodes, the failing checks come as a grid first: a row per check that fails or differs, a column
 * per node (gridMarkdown.ts).
 * Everything a node or a check wrote is escaped or fenced, so it cannot turn into markup; a message or a
 * hint too long for a line is cut (shortText.ts: report.json keeps the whole).
 */
export function renderMarkdown(run: RunResult, options: MarkdownOptions = {}): string {
  const grid = (options.layout ?? (run.targets.length > 1 ? 'grid' : 'rows')) === 'grid';
  const maxFailures = options.maxFailures ?? (grid ? 10 : 20);
  const headline = verdictHeadline(run);
  const out: string[] = [`## ${ICON[headline.word]} chainrpc: ${markdownText(headline.line)}`, ''];

  const targets = run.targets.map(markdownCode).join(', ');
  out.push(
    `Profile ${markdownCode(run.profile.name)} · gate **${run.gate}** · ${run.targets.length === 1 ? 'target' : 'targets'} ${targets} · ` +
      `${formatDuration(run.durationMs)} · ${markdownText(`${run.tool.name} ${run.tool.version}`)} · exit code ${run.summary.exitCode}`,
    '',
  );

  // What to fix first: said once, before the counts it explains.
  if (run.hints !== undefined && run.hints.length > 0) {
    out.push('**First, fix this:**', '', ...run.hints.map((hint) => `- ${markdownText(shortHint(hint))}`), '');
  }

  // Counts per level x status, as the runner summed them.
  out.push('| Level | Pass | Fail | Error | Skip | Total |', '|---|--:|--:|--:|--:|--:|');
  const totals: Record<Status, number> = { pass: 0, fail: 0, error: 0, skip: 0 };
  for (const level of LEVELS) {
    const row = run.summary.counts[level];
    const cells = STATUSES.map((s) => {
      totals[s] += row[s];
      return String(row[s]);
    });
    const sum = STATUSES.reduce((n, s) => n + row[s], 0);
    const name = levelGates(level, run.gate) ? `**${level}** (gates)` : level;
    out.push(`| ${name} | ${cells.join(' | ')} | ${sum} |`);
  }
  out.push(`| All | ${STATUSES.map((s) => totals[s]).join(' | ')} | ${STATUSES.reduce((n, s) => n + totals[s], 0)} |`, '');

  if (grid) {
    out.push(...gridMarkdown(run, nodeGrid(run), { maxRows: options.maxRows ?? 40, maxFailures, maxCommandChars: MAX_COMMAND_CHARS }));
  } else {
    // Failing checks: those that gate first, then those below the gate; baseline-excused ones go to the notes.
    const failing = run.results.filter((r) => (r.status === 'fail' || r.status === 'error') && !isExpectedFailure(r));
    const ordered = [...failing.filter((r) => isGating(r, run.gate)), ...failing.filter((r) => !isGating(r, run.gate))];
    if (ordered.length > 0) {
      out.push(`### Failing checks (${ordered.length})`, '');
      for (const r of ordered.slice(0, maxFailures)) out.push(failureBlock(r, isGating(r, run.gate)), '');
      const rest = ordered.length - maxFailures;
      if (rest > 0) out.push(`…and ${rest} more failing check${rest === 1 ? '' : 's'}: see report.html or junit.xml.`, '');
    }
  }

  const expected = run.results.filter(isExpectedFailure);
  const nowPassing = run.results.filter((r) => r.baseline?.state === 'now-passing');
  const expired = run.results.filter((r) => r.baseline?.state === 'expired');
  if (expected.length + nowPassing.length + expired.length > 0) {
    out.push(`### Baseline${run.options.baseline === undefined ? '' : ` ${markdownCode(run.options.baseline)}`}`, '');
    if (nowPassing.length > 0) {
      out.push(`**Now passing: remove ${nowPassing.length === 1 ? 'this entry' : `these ${nowPassing.length} entries`} from the baseline**`, '');
      out.push(...listCapped(nowPassing.map((r) => `- ${where(r)}: ${markdownText(r.baseline?.reason ?? '')}`)), '');
    }
    if (expired.length > 0) {
      out.push(`**Expired: ${expired.length === 1 ? 'this entry gates' : `these ${expired.length} entries gate`} again**`, '');
      out.push(...listCapped(expired.map((r) => `- ${where(r)} (${r.status}), expired ${markdownText(r.baseline?.expires ?? '?')}: ${markdownText(r.baseline?.reason ?? '')}`)), '');
    }
    if (expected.length > 0) {
      out.push(`**Expected failures (${expected.length}, not gating)**`, '');
      const until = (r: CheckResult): string => (r.baseline?.expires === undefined ? '' : ` (until ${markdownText(r.baseline.expires)})`);
      out.push(...listCapped(expected.map((r) => `- ${where(r)}${until(r)}: ${markdownText(r.baseline?.reason ?? '')}`)), '');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}
