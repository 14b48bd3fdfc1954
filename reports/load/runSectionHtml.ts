import type { ChaosReport, GeneratorCpu, HistogramData, InclusionStats, LoadRun } from '../../load/model.js';
import { escapeHtml as h } from '../shared/escapeHtml.js';
import { formatDuration } from '../shared/formatDuration.js';
import { formatCount, formatMetricValue, formatMicros, formatMs, formatPercent, formatRate, thresholdOutcome } from './formatLoad.js';
import { htmlTable, num, text } from '../shared/htmlTable.js';
import type { Cell } from '../shared/htmlTable.js';
import { errorsOverTimeChart, headLagChart, resourcesChart, inclusionDistributionChart, latencyOverTimeChart, pendingOverTimeChart, throughputOverTimeChart } from './loadCharts.js';
import { measuredNothing, stopNote, windowText } from './loadFacts.js';
import { healthRows } from './healthText.js';
import { CHAOS_CLIENT_HEAD, chaosClientRows } from './chaosText.js';
import { chaosMarkers } from './chaosMarkers.js';
import { hasServiceTime, LATENCY_SPAN, TRANSPORT_NOTE, type LatencyTiming } from './latencyText.js';

const DASH = '—';
/** A latency figure, or a dash where nothing was measured (0 would read as "instant"). */
export const us = (hist: HistogramData, pick: 'p50' | 'p90' | 'p99' | 'p999' | 'max' | 'min' | 'mean'): string => (hist.count === 0 ? DASH : formatMicros(hist[pick]));

export const callsOf = (run: LoadRun): number => run.methods.reduce((n, m) => n + m.calls, 0);
export const failedOf = (run: LoadRun): number => run.methods.reduce((n, m) => n + m.calls - m.ok, 0);
export const errorRate = (run: LoadRun): number => (callsOf(run) === 0 ? 0 : failedOf(run) / callsOf(run));
export const requestsOf = (run: LoadRun): number => run.latency.count;

/** "achieved of target": the open model's target, or "closed, N connections". */
export function rateText(run: LoadRun): string {
  const achieved = `${formatRate(run.schedule.achievedRate)} req/s`;
  return run.schedule.targetRate === null ? `${achieved} (closed model)` : `${achieved} of ${formatRate(run.schedule.targetRate)}`;
}

/** Errors by code, most frequent first: "-32005 ×12, -32603 ×3". */
export const byCode = (counts: Readonly<Record<string, number>>): string =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([code, n]) => `${code} ×${formatCount(n)}`)
    .join(', ');

function card(label: string, value: string, note: string, testid: string, tone = ''): string {
  return `<div class="card${tone === '' ? '' : ` tone-${tone}`}" data-testid="card-${testid}"><div class="card-label">${h(label)}</div><div class="card-value">${h(value)}</div><div class="card-note">${h(note)}</div></div>`;
}

/** The figures people look at first, large. */
function cardsHtml(run: LoadRun, timing: LatencyTiming): string {
  const { schedule } = run;
  const behind = schedule.targetRate !== null && schedule.achievedRate < schedule.targetRate * 0.99;
  const failed = failedOf(run);
  return `<div class="cards">${[
    card('Throughput', `${formatRate(schedule.achievedRate)} req/s`, schedule.targetRate === null ? 'closed model' : `target ${formatRate(schedule.targetRate)} req/s`, 'throughput', behind ? 'warn' : ''),
    card('Latency p50', us(run.latency, 'p50'), hasServiceTime(timing) ? `service ${us(run.service, 'p50')}` : timing === 'k6-write' ? "from the request's write (k6)" : "from the request's time (k6)", 'p50'),
    card('Latency p99', us(run.latency, 'p99'), `p99.9 ${us(run.latency, 'p999')}`, 'p99'),
    callsOf(run) === 0
      ? card('Failed calls', DASH, 'no call measured', 'errors')
      : card('Failed calls', formatPercent(errorRate(run)), `${formatCount(failed)} of ${formatCount(callsOf(run))} calls`, 'errors', failed > 0 ? 'bad' : ''),
    card('Dropped', formatCount(schedule.dropped), `of ${formatCount(schedule.scheduled)} requests scheduled`, 'dropped', schedule.dropped > 0 ? 'bad' : ''),
    ...(run.inclusion ? [card('Included', formatPercent(run.inclusion.ratio), `p99 ${run.inclusion.timeToInclusionMs.count === 0 ? DASH : formatMs(run.inclusion.timeToInclusionMs.p99)} to inclusion`, 'included', run.inclusion.ratio < 1 ? 'warn' : '')] : []),
  ].join('')}</div>`;
}

/** Every headline figure of a run, with its definition where it is not obvious. */
export function summaryRows(run: LoadRun, timing: LatencyTiming = 'scheduled'): Cell[][] {
  const { schedule } = run;
  const row = (label: string, value: string, note = ''): Cell[] => [text(label), num(value), text(note, 'note')];
  return [
    row('Rate achieved', rateText(run), 'requests the node served (a JSON-RPC answer) per second of the measured window'),
    row('Requests', formatCount(requestsOf(run)), `${formatCount(schedule.sent)} sent of ${formatCount(schedule.scheduled)} scheduled`),
    row('Calls ok', formatCount(callsOf(run) - failedOf(run)), 'answered with a result; each call of a batch counts'),
    row('Calls failed', `${formatCount(failedOf(run))} (${formatPercent(errorRate(run))})`, 'JSON-RPC errors (also inside a 200 or a batch) and unanswered calls'),
    row('Dropped', formatCount(schedule.dropped), 'not sent: the in-flight cap was reached at their time'),
    row('Generator lag p99', us(schedule.lagUs, 'p99'), `how late sends left against the schedule (max ${us(schedule.lagUs, 'max')})`),
    ...(schedule.readLagUs === undefined ? [] : [row('Read lag p99', us(schedule.readLagUs, 'p99'), `how long answers may have waited unread in the generator before their arrival was stamped (max ${us(schedule.readLagUs, 'max')})`)]),
    ...(schedule.generatorCpu === undefined ? [] : [generatorCpuRow(schedule.generatorCpu, row)]),
    row('Latency p50 / p90', `${us(run.latency, 'p50')} / ${us(run.latency, 'p90')}`, LATENCY_SPAN[timing]),
    row('Latency p99 / p99.9', `${us(run.latency, 'p99')} / ${us(run.latency, 'p999')}`),
    row('Latency max', us(run.latency, 'max'), `mean ${us(run.latency, 'mean')}`),
    ...(hasServiceTime(timing) ? [row('Service p50 / p99', `${us(run.service, 'p50')} / ${us(run.service, 'p99')}`, 'from the first byte written to the full answer')] : []),
    row('Most queued', formatCount(schedule.queuedMax), 'requests waiting at once for a free connection'),
  ];
}

/** The generator's own CPU over the run: what it took from a node on the same machine. */
function generatorCpuRow(cpu: GeneratorCpu, row: (label: string, value: string, note?: string) => Cell[]): Cell[] {
  const perRequest = cpu.perRequestUs === null ? '' : `${formatCount(Math.round(cpu.perRequestUs))} µs per request; `;
  return row('Generator CPU', `${cpu.percentOfCore.toFixed(1)}% of a core`, `${perRequest}chainrpc's whole process over the run (warm-up included): what it took from a node on the same machine`);
}

function thresholdsHtml(run: LoadRun, testid: string): string {
  if (run.thresholds.length === 0) return '<p class="note">The scenario sets no threshold.</p>';
  return htmlTable(
    testid,
    [text('Threshold'), num('Actual'), num('Limit'), text('Result')],
    run.thresholds.map((t) => [
      { html: `<code>${h(t.name)}</code>` },
      num(formatMetricValue(t.unit, t.actual)),
      num(formatMetricValue(t.unit, t.limit)),
      { html: { kept: '<span class="ok">kept</span>', broken: '<span class="bad">broken</span>', 'not judged': '<span class="note">not judged (interrupted)</span>' }[thresholdOutcome(run, t)] },
    ]),
  );
}

function methodsHtml(run: LoadRun, service: boolean): string {
  if (run.methods.length === 0) return '<p class="note">No call was made.</p>';
  return htmlTable(
    'methods',
    [text('Method'), num('Calls'), num('Ok'), text('Errors by code'), num('Unanswered'), num('Invalid / validated'), num('p50'), num('p99'), ...(service ? [num('Service p50')] : [])],
    run.methods.map((m) => {
      const errors = byCode(m.errors);
      return [
        { html: `<code>${h(m.method)}</code>` },
        num(formatCount(m.calls)),
        num(formatCount(m.ok)),
        text(errors === '' ? DASH : errors, errors === '' ? 'note' : 'bad'),
        num(formatCount(m.unanswered), m.unanswered > 0 ? 'bad' : ''),
        num(`${formatCount(m.invalid)} / ${formatCount(m.validated)}`, m.invalid > 0 ? 'bad' : ''),
        num(us(m.latency, 'p50')),
        num(us(m.latency, 'p99')),
        ...(service ? [num(us(m.service, 'p50'))] : []),
      ];
    }),
  );
}

function batchesHtml(run: LoadRun, service: boolean): string {
  if (run.batchSizes.length === 0) return '<p class="note">No request was sent.</p>';
  return htmlTable(
    'batch-sizes',
    [text('Request'), num('Requests'), num('p50'), num('p90'), num('p99'), num('Max'), ...(service ? [num('Service p50'), num('Service p99')] : [])],
    run.batchSizes.map((b) => [
      text(b.size === 'single' ? 'single call' : `batch of ${b.size}`),
      num(formatCount(b.requests)),
      num(us(b.latency, 'p50')),
      num(us(b.latency, 'p90')),
      num(us(b.latency, 'p99')),
      num(us(b.latency, 'max')),
      ...(service ? [num(us(b.service, 'p50')), num(us(b.service, 'p99'))] : []),
    ]),
  );
}

/** What the transport row says: its causes with their counts when there were any, else what the row means. */
function transportNote(f: LoadRun['failures'], timing: LatencyTiming): string {
  const causes = byCode(f.transportCauses ?? {});
  return causes === '' ? TRANSPORT_NOTE[timing] : causes;
}

function failuresHtml(run: LoadRun, timing: LatencyTiming): string {
  const f = run.failures;
  const statuses = byCode(f.httpStatus);
  const row = (label: string, n: number, note: string): Cell[] => [text(label), num(formatCount(n), n > 0 ? 'bad' : 'zero'), text(note, 'note')];
  return htmlTable('failures', [text('Request failure'), num('Count'), text('What it means')], [
    row('Timeouts', f.timeouts, "no answer within the scenario's timeout"),
    row('Transport', f.transport, transportNote(f, timing)),
    [text('HTTP status not 200'), num(statuses === '' ? '0' : statuses, statuses === '' ? 'zero' : 'bad'), text('by status', 'note')],
    row('Malformed', f.malformed, 'a 200 whose body is not a JSON-RPC response'),
    row('Extra batch elements', f.extraElements, 'an id that matches no call of the batch, or a second answer'),
    row('Missing batch elements', f.missingElements, 'batch answers missing one or more calls'),
  ]);
}

function inclusionHtml(run: LoadRun): string {
  const inc = run.inclusion;
  if (!inc) return '';
  const t = inc.timeToInclusionMs;
  const ms = (v: number): string => (t.count === 0 ? DASH : formatMs(v));
  const refused = byCode(inc.refused);
  const row = (label: string, value: string, note = ''): Cell[] => [text(label), num(value), text(note, 'note')];
  return htmlTable('inclusion', [text('Inclusion'), num('Value'), text('')], [
    row('Accepted', formatCount(inc.accepted), inc.warmup === undefined ? 'answered with a hash' : 'answered with a hash, of the transactions scheduled in the measured window'),
    row('Refused', refused === '' ? '0' : refused, 'by error code'),
    row('Included', `${formatCount(inc.included)} (${formatPercent(inc.ratio)})`, `seen by ${inc.method === 'sender-nonce' ? "each sender's nonce" : 'transaction hashes in blocks'}, polled every ${formatMs(inc.pollIntervalMs)}`),
    row('Pending at the end', formatCount(inc.pending), `accepted, not seen included when tracking ended${inc.followedAfterMs === undefined ? '' : `, ${formatDuration(inc.followedAfterMs)} after the measured window (the pending chart's last point)`}`),
    ...(inc.warmup === undefined ? [] : [row('Warm-up transactions (apart)', `${formatCount(inc.warmup.accepted)} accepted, ${formatCount(inc.warmup.included)} included`, `sent in the warm-up and followed (a sender's later nonces wait for them), counted in no figure above${inc.warmup.refused > 0 ? `; ${formatCount(inc.warmup.refused)} refused` : ''}`)]),
    ...(inc.lanes === undefined ? [] : [row('Lanes after failed sends', `${formatCount(inc.lanes.resyncs)} stopped, ${formatCount(inc.lanes.resent)} sent again`, "each read its sender's nonce on the chain and went on from it (docs/chaos.md)")]),
    row('Time to inclusion p50 / p90', `${ms(t.p50)} / ${ms(t.p90)}`, 'from the scheduled send to the first poll that saw it included'),
    row('Time to inclusion p99 / max', `${ms(t.p99)} / ${ms(t.max)}`),
    row('Chain-side TPS', formatRate(inc.chainTps), 'included per second, first to last including block'),
    row('Per block', `mean ${formatRate(inc.perBlock.mean)}, max ${formatCount(inc.perBlock.max)}`, `over ${formatCount(inc.perBlock.blocks)} blocks`),
    ...trackingRows(inc.tracking).map(([label, value, note]) => row(label, value, note)),
  ]);
}

const ENDED_BY: Record<NonNullable<InclusionStats['tracking']>['endedBy'], string> = {
  'all-included': 'every accepted transaction included',
  grace: 'the grace period ran out',
  stopped: 'stopped (interrupted)',
};

/** How the following went, where it says something: why it ended, and only the counts that are not 0. */
function trackingRows(t: InclusionStats['tracking']): [string, string, string][] {
  if (t === undefined) return [];
  const rows: [string, string, string][] = [['Following ended', ENDED_BY[t.endedBy], t.endedBy === 'grace' ? 'what was still pending then is counted pending (lost, in a run with faults)' : '']];
  if (t.unanswered > 0) rows.push(['Sends with no answer', formatCount(t.unanswered), 'never shown included: neither accepted nor refused, their fate unknown (whole run)']);
  if (t.hashMismatches > 0) rows.push(['Answered with another hash', formatCount(t.hashMismatches), "the node's answer was not the transaction's own hash; followed by both"]);
  if (t.reorgs > 0) {
    const beyond = (t.reorgsBeyondHeld ?? 0) > 0 ? `; ${formatCount(t.reorgsBeyondHeld ?? 0)} went deeper than the 64 blocks held, whose blocks below stay counted as read` : '';
    rows.push(['Blocks replaced (reorganisations)', `${formatCount(t.reorgs)} (deepest ${formatCount(t.deepestReorg)} blocks)`, `blocks the chain replaced after they were read: transactions count from the blocks that replaced them${beyond}`]);
  }
  if (t.pollErrors > 0) rows.push(['Failed polls', formatCount(t.pollErrors), t.lastPollError ?? '']);
  return rows;
}

/** The node's health (its head followed through the run): healthText.ts's rows. */
export function healthHtml(run: Pick<LoadRun, 'health'>): string {
  const rows = healthRows(run);
  if (rows.length === 0) return '';
  return htmlTable('health', [text('The node'), num('Value'), text('')], rows.map((r): Cell[] => [text(r.label), num(r.value), text(r.note, 'note')]));
}

/** The notes a reader must see before any figure: the run is invalid, or stopped early. */
export function runWarnings(run: LoadRun): string {
  const notes: string[] = [];
  if (!run.valid) notes.push(`<div class="callout bad" data-testid="invalid"><strong>This run is invalid: its figures cannot be trusted.</strong><ul>${(run.invalid.length > 0 ? run.invalid : ['no reason given']).map((r) => `<li>${h(r)}</li>`).join('')}</ul></div>`);
  const stopped = stopNote(run);
  if (stopped !== undefined) notes.push(`<div class="callout warn" data-testid="stop"><strong>Stopped early:</strong> ${h(stopped)}.</div>`);
  return notes.join('');
}

export interface RunSectionOptions {
  /** The section's id and heading number (1-based). */
  index: number;
  /** Several runs: the time charts are overlaid in the comparison, so a run shows only its own inclusion charts. */
  compared: boolean;
  /** The report's faults (--chaos), marked on every time chart of the run. */
  chaos?: ChaosReport | undefined;
  /** What the latency runs from (a merged k6 run's is k6's, with no service time apart); default the Node engine's. */
  timing?: LatencyTiming;
}

/** One run: its warnings, headline figures, charts, and the tables by threshold, method, batch size and failure. */
export function runSectionHtml(run: LoadRun, options: RunSectionOptions): string {
  const id = `run-${options.index}`;
  const badges = [
    run.valid ? '<span class="badge ok">valid</span>' : '<span class="badge bad">invalid</span>',
    run.stop.reason === 'completed' ? '' : `<span class="badge warn">${h(run.stop.reason)}</span>`,
  ].join('');
  const markers = chaosMarkers(options.chaos, run);
  const timing = options.timing ?? 'scheduled';
  const charts: string[] = [];
  if (!options.compared) {
    if (run.timeline.length === 0) charts.push('<p class="note" data-testid="no-timeline">No tick was recorded: there is nothing to draw over time.</p>');
    // The warm-up's ticks alone would be drawn as if they were the run.
    else if (measuredNothing(run)) charts.push('<p class="note" data-testid="no-timeline">Nothing was measured (the run ended before its measured window opened): there is nothing to draw over time.</p>');
    else charts.push(latencyOverTimeChart(`${id}-latency`, [run], markers.measured), throughputOverTimeChart(`${id}-throughput`, [run], markers.measured), errorsOverTimeChart(`${id}-errors`, [run], markers.measured));
  }
  if (run.inclusion) {
    if (!options.compared && run.timeline.some((p) => p.pending !== undefined)) charts.push(pendingOverTimeChart(`${id}-pending`, [run], markers.measured));
    // Not over time: no faults on it.
    charts.push(inclusionDistributionChart(`${id}-inclusion`, run));
  }
  const window = `${windowText(run)}, ${run.startedAt} to ${run.endedAt}`;
  return [
    `<section class="run" id="${id}" data-testid="run" data-url="${h(run.url)}">`,
    `<h2>Run ${options.index}: <span class="url">${h(run.url)}</span> ${badges}</h2>`,
    `<p class="note">${h(run.scenario)} · ${h(window)}</p>`,
    runWarnings(run),
    cardsHtml(run, timing),
    `<h3>Thresholds</h3>${thresholdsHtml(run, 'thresholds')}`,
    charts.length > 0 ? `<div class="charts">${charts.join('')}</div>` : '',
    run.chaos ? `<h3>At each fault</h3>${htmlTable('chaos-clients', CHAOS_CLIENT_HEAD.map((c, i) => (i === 2 ? num(c) : text(c))), chaosClientRows(run).map((row) => row.map((c, i) => (i === 2 ? num(c) : text(c)))))}` : '',
    run.inclusion ? `<h3>Inclusion</h3>${inclusionHtml(run)}` : '',
    run.health ? `<h3>The node's health</h3>${healthHtml(run)}<div class="charts">${run.health.head === undefined ? '' : headLagChart(`${id}-head-lag`, run, markers.health)}${run.health.resources === undefined ? '' : resourcesChart(`${id}-resources`, run, markers.health)}</div>` : '',
    `<h3>Summary</h3>${htmlTable('summary', [text('Figure'), num('Value'), text('')], summaryRows(run, timing))}`,
    `<h3>By method</h3>${methodsHtml(run, hasServiceTime(timing))}`,
    `<h3>By request shape</h3>${batchesHtml(run, hasServiceTime(timing))}`,
    `<h3>Request failures</h3>${failuresHtml(run, timing)}`,
    '</section>',
  ].join('\n');
}
