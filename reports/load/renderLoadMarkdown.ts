import type { ChaosReport, LoadReport, LoadRun, ReplayReport, SweepResult } from '../../load/model.js';
import { excerpt } from '../../core/excerpt.js';
import { markdownCode, markdownText } from '../shared/markdownText.js';
import { describeModel } from './describeModel.js';
import { deltaOutcome } from '../../load/compareBaseline.js';
import { formatDeltaAllowed, formatDeltaChange, formatCount, formatMetricValue, formatMicros, formatPercent, formatRate, stepOutcome, thresholdOutcome } from './formatLoad.js';
import { loadHeadline, type LoadVerdictWord } from '../../load/loadVerdict.js';
import { verdictFacts, windowText } from './loadFacts.js';
import { LATENCY_NOTE, latencyTiming } from './latencyText.js';
import { headHealthRows, healthRows, type HealthRow } from './healthText.js';
import { DIFF_METHOD_HEAD, diffLine, diffMethodRows, replayRows } from './replayText.js';
import { CHAOS_EVENT_HEAD, CHAOS_RUN_HEAD, chaosEventRows, chaosRunRows, consistencyText } from './chaosText.js';

const ICON: Record<LoadVerdictWord, string> = { PASSED: '✅', FAILED: '❌', 'NOT TRUSTED': '⚠️', INTERRUPTED: '⏹️' };
/** A step summary is for scanning: beyond these, the rest is in report.html. */
const MAX_FACTS = 8;
const MAX_ROWS = 25;
const MAX_COMMAND_CHARS = 400;

const cell = (text: string): string => markdownText(text);
const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
const lat = (run: LoadRun, pick: 'p50' | 'p90' | 'p99' | 'p999' | 'max'): string => (run.latency.count === 0 ? '—' : formatMicros(run.latency[pick]));
const failed = (run: LoadRun): number => run.methods.reduce((n, m) => n + m.calls - m.ok, 0);
const calls = (run: LoadRun): number => run.methods.reduce((n, m) => n + m.calls, 0);

function capped(lines: readonly string[], max: number, what: string): string[] {
  return lines.length <= max ? [...lines] : [...lines.slice(0, max), `| …and ${lines.length - max} more ${what} (report.html has them all) |`];
}

function runsTable(runs: readonly LoadRun[]): string[] {
  const out = [
    row(['Node', 'Achieved / target req/s', 'Requests', 'Failed calls', 'Dropped', 'p50', 'p90', 'p99', 'p99.9', 'Max', 'Valid']),
    row(['---', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', ':-:']),
  ];
  for (const r of runs) {
    const target = r.schedule.targetRate === null ? 'closed' : formatRate(r.schedule.targetRate);
    const stop = r.stop.reason === 'completed' ? '' : ` (${r.stop.reason})`;
    out.push(
      row([
        `${markdownCode(r.url)}${cell(stop)}`,
        `${formatRate(r.schedule.achievedRate)} / ${target}`,
        formatCount(r.latency.count),
        calls(r) === 0 ? '—' : `${formatCount(failed(r))} (${formatPercent(failed(r) / calls(r))})`,
        formatCount(r.schedule.dropped),
        lat(r, 'p50'),
        lat(r, 'p90'),
        lat(r, 'p99'),
        lat(r, 'p999'),
        lat(r, 'max'),
        r.valid ? 'yes' : '**no**',
      ]),
    );
  }
  return out;
}

function thresholdsTable(runs: readonly LoadRun[]): string[] {
  const several = runs.length > 1;
  const lines = runs.flatMap((r) =>
    r.thresholds.map((t) =>
      row([
        ...(several ? [markdownCode(r.url)] : []),
        markdownCode(t.name),
        formatMetricValue(t.unit, t.actual),
        formatMetricValue(t.unit, t.limit),
        { kept: '✅ kept', broken: '❌ **broken**', 'not judged': 'not judged (interrupted)' }[thresholdOutcome(r, t)],
      ]),
    ),
  );
  if (lines.length === 0) return [];
  return [
    '### Thresholds',
    '',
    row([...(several ? ['Node'] : []), 'Threshold', 'Actual', 'Limit', '']),
    row([...(several ? ['---'] : []), '---', '--:', '--:', '---']),
    ...capped(lines, MAX_ROWS, 'thresholds'),
    '',
  ];
}

/** The nodes' health, one row each: the head lag, stalls, heights gone backwards, and the process's figures (healthText.ts says each). */
export function healthTable(runs: readonly Pick<LoadRun, 'url' | 'health'>[]): string[] {
  const followed = runs.filter((r) => r.health !== undefined);
  if (followed.length === 0) return [];
  const value = (rows: HealthRow[], label: string): string => cell(rows.find((r) => r.label === label)?.value ?? '—');
  const lines = followed.map((r) => {
    const rows = healthRows(r);
    return row([markdownCode(r.url), ...['Head lag p50 / p90', 'Head lag p99 / max', 'Stalls', 'Heights gone backwards', 'Reads gone backwards', 'Node CPU per call', 'Peak RSS'].map((l) => value(rows, l))]);
  });
  const note = headHealthRows(followed.find((r) => r.health?.head !== undefined) ?? {})[0]?.note;
  return [
    '### The node\'s health',
    '',
    row(['Node', 'Head lag p50 / p90', 'p99 / max', 'Stalls', 'Heights back', 'Reads back', 'CPU per call', 'Peak RSS']),
    row(['---', '--:', '--:', '--:', '--:', '--:', '--:', '--:']),
    ...capped(lines, MAX_ROWS, 'nodes'),
    '',
    ...(note === undefined ? [] : [`Head lag ${markdownText(note)}.`, '']),
  ];
}

function sweepLines(sweep: SweepResult): string[] {
  const knee = sweep.knee === null ? '**no knee**: the SLO held at no rate tried' : `knee at **${formatRate(sweep.knee)} req/s**`;
  const steps = [...sweep.steps].sort((a, b) => a.rate - b.rate);
  return [
    `### Sweep on ${markdownCode(sweep.url)}: ${knee}`,
    '',
    ...(sweep.stopped === undefined ? [] : [`⚠️ The search ended early: ${markdownText(sweep.stopped)}.`, '']),
    row(['Target req/s', 'Achieved', 'Dropped', 'p50', 'p99', 'Failed calls', 'SLO']),
    row(['--:', '--:', '--:', '--:', '--:', '--:', '---']),
    ...capped(
      steps.map((s) =>
        row([
          `${formatRate(s.rate)}${s.rate === sweep.knee ? ' (knee)' : ''}`,
          formatRate(s.run.schedule.achievedRate),
          formatCount(s.run.schedule.dropped),
          lat(s.run, 'p50'),
          lat(s.run, 'p99'),
          formatPercent(calls(s.run) === 0 ? 0 : failed(s.run) / calls(s.run)),
          s.sloHeld ? 'held' : `${stepOutcome(s)}: ${cell(s.reasons.join('; '))}`,
        ]),
      ),
      MAX_ROWS,
      'steps',
    ),
    '',
  ];
}

function baselineLines(report: LoadReport): string[] {
  const baseline = report.baseline;
  if (!baseline) return [];
  const regressions = baseline.deltas.filter((d) => d.regression);
  const improved = baseline.deltas.filter((d) => deltaOutcome(d) === 'improved').length;
  const head = `### Baseline ${markdownCode(baseline.file)}: ${regressions.length === 0 ? `no regression in ${baseline.deltas.length} figure(s)` : `**${regressions.length} regression(s)** in ${baseline.deltas.length} figure(s)`}${improved > 0 ? `, ${improved} improved` : ''}`;
  if (regressions.length === 0) return [head, ''];
  return [
    head,
    '',
    row(['Figure', 'Baseline', 'Now', 'Change', 'Allowed']),
    row(['---', '--:', '--:', '--:', '--:']),
    ...capped(
      regressions.map((d) => row([markdownCode(d.metric), formatMetricValue(d.unit, d.baseline), formatMetricValue(d.unit, d.current), `**${formatDeltaChange(d)}**`, formatDeltaAllowed(d)])),
      MAX_ROWS,
      'regressions',
    ),
    '',
  ];
}

/**
 * A Markdown summary (summary.md) made for CI step summaries such as $GITHUB_STEP_SUMMARY, kept short:
 * the verdict first and what stands behind it, the scenario and model, a table of the runs (rate,
 * requests, failures, drops, percentiles), the thresholds, each sweep's knee and steps, and the baseline's
 * regressions. Everything a user or a node wrote is escaped or put in code, so it cannot become markup.
 */
/** A replay: what of the capture went and how, and each run's diff by method (replayText.ts; the examples are report.html's). */
function replayLines(replay: ReplayReport, runs: readonly LoadRun[]): string[] {
  const row = (r: readonly string[]): string => `| ${r.map((c) => markdownText(c)).join(' | ')} |`;
  const out = ['### Replay', '', '| | |', '|---|---|', ...replayRows(replay).map(row), ''];
  for (const run of runs) {
    if (run.diff === undefined) continue;
    out.push(markdownText(diffLine(run, run.diff)), '', row(DIFF_METHOD_HEAD), `|${DIFF_METHOD_HEAD.map(() => '---').join('|')}|`, ...diffMethodRows(run.diff).map(row), '');
  }
  return out;
}

/** A run with faults: the events, the chain's consistency, each node's recovery and ledger (chaosText.ts). */
function faultsLines(chaos: ChaosReport, runs: readonly LoadRun[]): string[] {
  const table = (head: readonly string[], rows: readonly (readonly string[])[]): string[] => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map((c) => markdownText(c)).join(' | ')} |`)];
  return ['### Faults', '', ...table(CHAOS_EVENT_HEAD, chaosEventRows(chaos)), '', markdownText(consistencyText(chaos)), '', ...table(CHAOS_RUN_HEAD, chaosRunRows(chaos, runs)), ''];
}

export function renderLoadMarkdown(report: LoadReport): string {
  const headline = loadHeadline(report);
  const facts = verdictFacts(report);
  const first = report.runs[0] ?? report.sweeps[0]?.steps[0]?.run;
  const out: string[] = [`## ${ICON[headline.word]} chainrpc load: ${markdownText(headline.line)}`, ''];
  if (facts.length > 0) {
    out.push(...facts.slice(0, MAX_FACTS).map((f) => `- ${markdownText(f)}`));
    if (facts.length > MAX_FACTS) out.push(`- …and ${facts.length - MAX_FACTS} more (report.html)`);
    out.push('');
  }
  const about = [`Scenario ${markdownCode(report.scenario.name)}`, `profile ${markdownCode(report.profile)}`];
  if (first) {
    if (report.runs.length > 0) about.push(markdownText(describeModel(first.model)));
    about.push(windowText(first));
  }
  about.push(markdownText(`${report.tool.name} ${report.tool.version}`), markdownText(report.createdAt));
  out.push(about.join(' · '), '');
  if (report.runs.length > 0) out.push(...runsTable(report.runs), '');
  out.push(...thresholdsTable(report.runs));
  out.push(...healthTable(report.runs));
  if (report.replay !== undefined) out.push(...replayLines(report.replay, report.runs));
  if (report.chaos !== undefined) out.push(...faultsLines(report.chaos, report.runs));
  for (const sweep of report.sweeps) out.push(...sweepLines(sweep));
  out.push(...baselineLines(report));
  out.push(`Command: ${markdownCode(excerpt(report.command, MAX_COMMAND_CHARS))}`, '');
  const timing = latencyTiming(report);
  const latencyNote = timing === 'scheduled' ? 'Latency from each request\'s scheduled send time (no coordinated omission); percentiles' : `${LATENCY_NOTE[timing]} Percentiles`;
  out.push(`${latencyNote} from HDR histograms. Charts, per-method figures and every threshold: \`report.html\`.`, '');
  return out.join('\n');
}
