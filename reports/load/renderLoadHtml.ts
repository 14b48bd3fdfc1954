import type { BaselineComparison, ChaosReport, LoadReport, LoadRun, ReplayReport } from '../../load/model.js';
import { DIFF_EXAMPLE_HEAD, DIFF_METHOD_HEAD, diffExampleRows, diffLine, diffMethodRows, REPLAY_HEAD, replayRows } from './replayText.js';
import { CHAOS_EVENT_HEAD, CHAOS_RUN_HEAD, chaosEventRows, chaosRunRows, consistencyText } from './chaosText.js';
import type { Cell } from '../shared/htmlTable.js';
import { escapeHtml as h } from '../shared/escapeHtml.js';
import { formatDuration } from '../shared/formatDuration.js';
import { htmlPage, metaListHtml } from '../shared/htmlPage.js';
import { comparisonHtml } from './comparisonHtml.js';
import { describeModel } from './describeModel.js';
import { formatDeltaAllowed, formatDeltaChange, formatMetricValue, formatRate } from './formatLoad.js';
import { deltaOutcome } from '../../load/compareBaseline.js';
import { htmlTable, num, text } from '../shared/htmlTable.js';
import { LOAD_REPORT_CSS } from './loadHtmlAssets.js';
import { loadHeadline, verdictClass } from '../../load/loadVerdict.js';
import { measuredNothing, verdictFacts } from './loadFacts.js';
import { runSectionHtml } from './runSectionHtml.js';
import { LATENCY_NOTE, latencyTiming } from './latencyText.js';
import { sweepSectionHtml } from './sweepSectionHtml.js';

/** The scenario's definition as people read it: indented JSON (it is data), or the text as it came. */
function definitionText(definition: unknown): string {
  if (typeof definition === 'string') return definition;
  try {
    return JSON.stringify(definition, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2) ?? String(definition);
  } catch {
    return String(definition);
  }
}

function metaHtml(report: LoadReport): string {
  const runs = [...report.runs, ...report.sweeps.flatMap((s) => s.steps.slice(0, 1).map((step) => step.run))];
  const urls = [...new Set([...report.runs.map((r) => r.url), ...report.sweeps.map((s) => s.url)])];
  const first = runs[0];
  const items: [string, string][] = [
    ['Scenario', report.scenario.name],
    ['Command', report.command],
    [urls.length === 1 ? 'Node' : 'Nodes', urls.length === 0 ? 'none' : urls.join(', ')],
  ];
  if (report.runs[0]) items.push(['Model', describeModel(report.runs[0].model)]);
  for (const sweep of report.sweeps) {
    items.push(['Rates', `${sweep.steps.map((s) => formatRate(s.rate)).join(', ')} req/s (${sweep.search === 'given' ? 'given' : 'ramp, then bisection'})`]);
  }
  if (first) {
    const per = report.runs.length > 1 ? ' per run' : report.runs.length === 0 ? ' per step' : '';
    items.push(['Measured', measuredNothing(first) ? `nothing (${first.stop.reason} before the measured window opened)` : `${formatDuration(first.durationMs)}${per}${first.stop.reason === 'completed' ? '' : ` (stopped early: ${first.stop.reason})`}`]);
    items.push(['Warm-up', first.warmupMs > 0 ? `${formatDuration(first.warmupMs)}, left out of every figure` : 'none']);
  }
  items.push(['Profile', report.profile], ['Tool', `${report.tool.name} ${report.tool.version}`], ['Created', report.createdAt]);
  if (report.baseline) items.push(['Baseline', `${report.baseline.file} (${report.baseline.createdAt})`]);
  return metaListHtml(items);
}

const outcomeHtml = (outcome: ReturnType<typeof deltaOutcome>): string => `<span class="${outcome === 'regression' ? 'bad' : 'ok'}">${outcome}</span>`;

function baselineHtml(baseline: BaselineComparison): string {
  const regressions = baseline.deltas.filter((d) => d.regression).length;
  const table =
    baseline.deltas.length === 0
      ? '<p class="note">No figure could be compared (the baseline holds no run of this scenario and node).</p>'
      : htmlTable(
          'baseline-deltas',
          [text('Figure'), num('Baseline'), num('Now'), num('Change'), num('Allowed'), text('Result')],
          baseline.deltas.map((d) => [
            { html: `<code>${h(d.metric)}</code>` },
            num(formatMetricValue(d.unit, d.baseline)),
            num(formatMetricValue(d.unit, d.current)),
            num(formatDeltaChange(d), d.regression ? 'bad' : ''),
            num(formatDeltaAllowed(d)),
            { html: outcomeHtml(deltaOutcome(d)) },
          ]),
        );
  return [
    '<section class="baseline" id="baseline" data-testid="baseline">',
    `<h2>Against the baseline <span class="note">${regressions === 0 ? 'no regression' : `${regressions} regression(s)`}</span></h2>`,
    `<p class="note">${h(baseline.file)}, made ${h(baseline.createdAt)}. A change counts as a regression beyond the allowed change the worse way, and as an improvement beyond it the better way: the threshold, widened by the noise seen in both runs. Latencies and errors are worse up, rates worse down; latencies and rates change relatively (%), the failed-call share in percentage points.</p>`,
    table,
    '</section>',
  ].join('\n');
}

/**
 * The HTML report of a load command (report.html): one self-contained file (inline CSS, charts as inline
 * SVG, no script, nothing fetched), readable offline, from a CI artifact or file://. It leads with the
 * verdict and what stands behind it, then the run's parameters, the nodes compared (several --url), each
 * run (headline figures, charts over time, thresholds, per method, per request shape, failures), each
 * sweep (the knee, latency, throughput and errors against rate) and the baseline's deltas.
 *
 * Everything a user or a node wrote is escaped (escapeHtml); a Content-Security-Policy allows only the
 * page's own stylesheet, so even markup that slipped through could neither run nor load anything.
 */
/** A run with faults: the network's events, the chain's consistency, and each node's recovery and ledger. */
function faultsHtml(chaos: ChaosReport, runs: readonly LoadRun[]): string {
  const cells = (row: readonly string[]): Cell[] => row.map((c) => text(c));
  const forked = chaos.consistency !== null && chaos.consistency.forks.length > 0;
  return [
    '<section id="faults" data-testid="faults">',
    '<h2>Faults</h2>',
    htmlTable('chaos-events', CHAOS_EVENT_HEAD.map((c) => text(c)), chaosEventRows(chaos).map(cells)),
    `<p class="${forked ? 'callout bad' : 'note'}" data-testid="consistency">${h(consistencyText(chaos))}</p>`,
    htmlTable('chaos-runs', CHAOS_RUN_HEAD.map((c) => text(c)), chaosRunRows(chaos, runs).map(cells)),
    '<p class="note">Times from the start of measurement. Next block: from the fault to the first higher height any running node served (the failover time when the leader was hit). Recovery: from the fault to the clients\' first successful call again. Definitions: docs/chaos.md.</p>',
    '</section>',
  ].join('\n');
}

/** A replay: the capture, its pace, what went and what was left out, the changes made, each run's diff (replayText.ts). */
function replayHtml(replay: ReplayReport, runs: readonly LoadRun[]): string {
  const cells = (row: readonly string[]): Cell[] => row.map((c) => text(c));
  const diffs = runs.flatMap((run) =>
    run.diff === undefined
      ? []
      : [
          `<p class="${run.diff.mismatches > 0 ? 'callout bad' : 'note'}" data-testid="diff">${h(diffLine(run, run.diff))}</p>`,
          htmlTable('diff-methods', DIFF_METHOD_HEAD.map((c) => text(c)), diffMethodRows(run.diff).map(cells)),
          run.diff.examples.length === 0 ? '' : htmlTable('diff-examples', DIFF_EXAMPLE_HEAD.map((c) => text(c)), diffExampleRows(run.diff).map(cells)),
        ],
  );
  return [
    '<section id="replay" data-testid="replay">',
    '<h2>Replay</h2>',
    htmlTable('replay', REPLAY_HEAD.map((c) => text(c)), replayRows(replay).map(cells)),
    ...diffs,
    '<p class="note">Each request sent as recorded (a batch as the batch it was), at its recorded time on the run\'s clock; what was left out and every change made are above. docs/replay.md.</p>',
    '</section>',
  ].join('\n');
}

export function renderLoadHtml(report: LoadReport): string {
  const headline = loadHeadline(report);
  const facts = verdictFacts(report);
  const compared = report.runs.length > 1;
  const timing = latencyTiming(report);
  const toc: [string, string][] = [
    ...(report.replay ? [['replay', 'Replay'] as [string, string]] : []),
    ...(report.chaos ? [['faults', 'Faults'] as [string, string]] : []),
    ...(compared ? [['comparison', 'Comparison'] as [string, string]] : []),
    ...report.runs.map((r, i): [string, string] => [`run-${i + 1}`, `Run ${i + 1}: ${r.url}`]),
    ...report.sweeps.map((s, i): [string, string] => [`sweep-${i + 1}`, `Sweep ${i + 1}: ${s.url}`]),
    ...(report.baseline ? [['baseline', 'Baseline'] as [string, string]] : []),
  ];
  const sections = [
    report.replay ? replayHtml(report.replay, report.runs) : '',
    report.chaos ? faultsHtml(report.chaos, report.runs) : '',
    compared ? comparisonHtml(report.runs, report.chaos) : '',
    ...report.runs.map((run, i) => runSectionHtml(run, { index: i + 1, compared, chaos: report.chaos, timing })),
    ...report.sweeps.map((sweep, i) => sweepSectionHtml(sweep, i + 1)),
    report.baseline ? baselineHtml(report.baseline) : '',
  ].filter((s) => s !== '');
  return htmlPage({
    title: `chainrpc load: ${report.scenario.name}: ${headline.line}`,
    styles: LOAD_REPORT_CSS,
    script: '',
    body: [
      '<header>',
      `<h1>chainrpc load report · <span class="scenario">${h(report.scenario.name)}</span></h1>`,
      `<p class="verdict verdict-${verdictClass(headline.word)}" data-testid="verdict">${h(headline.line)}</p>`,
      facts.length > 0 ? `<ul class="facts" data-testid="verdict-facts">${facts.map((f) => `<li>${h(f)}</li>`).join('')}</ul>` : '',
      metaHtml(report),
      `<details class="definition"><summary>Scenario definition, as it ran</summary><pre data-testid="definition">${h(definitionText(report.scenario.definition))}</pre></details>`,
      '</header>',
      toc.length > 1 ? `<nav class="toc" aria-label="Sections">${toc.map(([id, label]) => `<a href="#${id}">${h(label)}</a>`).join('')}</nav>` : '',
      '<main>',
      sections.length > 0 ? sections.join('\n') : '<p class="note" data-testid="nothing">This report holds no run and no sweep.</p>',
      '</main>',
      `<footer class="note">${h(LATENCY_NOTE[timing])} Percentiles come from HDR histograms (3 significant digits), kept whole in report.json. Times in µs are shown in ms.</footer>`,
    ],
  });
}
