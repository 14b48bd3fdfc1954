// The charts of a load report, made from the model: what each shows, over which axis, in which unit. The
// drawing is svgChart.ts's; here runs become series. Several runs (several --url) are overlaid, a colour
// per run; one run gets a colour per series.
import type { LoadRun, SweepResult, SweepStep, TimelinePoint } from '../../load/model.js';
import { Histogram } from '../../load/metrics/index.js';
import { rebin } from './rebin.js';
import { formatTick } from '../shared/svgChart.js';
import { formatMsNumber, formatPercent, formatRate, stepOutcome } from './formatLoad.js';
import { signed, signedMs } from './healthText.js';
import { emptyChart, histogramChartSvg, lineChartSvg } from '../shared/svgChart.js';
import type { ChartAxis, ChartBand, ChartColor, ChartEvent, ChartPoint, LineSeries } from '../shared/svgChart.js';
import type { TimeMarker } from './chaosMarkers.js';

/** Beyond this many ticks a series is thinned (an hour at 1 s ticks): the SVG stays light, peaks stay. */
const MAX_POINTS = 900;

/** The tick length of a timeline, ms (the spacing of its points; 1 s when it cannot tell). */
export function tickMs(timeline: readonly TimelinePoint[]): number {
  const a = timeline[0];
  const b = timeline[1];
  return a && b && b.tMs > a.tMs ? b.tMs - a.tMs : 1000;
}

function clock(seconds: number): string {
  const sign = seconds < 0 ? '−' : '';
  const s = Math.abs(Math.round(seconds));
  return `${sign}${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A time axis in seconds from the start of measurement: "30 s" on short runs, "5:00" on long ones. */
function timeAxis(runs: readonly LoadRun[]): ChartAxis {
  const longest = Math.max(0, ...runs.map((r) => r.durationMs + r.warmupMs));
  const format = longest > 180_000 ? clock : (s: number): string => `${formatTick(s)} s`;
  return { label: longest > 180_000 ? 'time since measurement began (min:s)' : 'time since measurement began', format, seconds: true };
}

/** The warm-up as a shaded band, where a timeline has warm-up ticks (tMs < 0). */
function warmupBands(runs: readonly LoadRun[]): ChartBand[] {
  const first = Math.min(0, ...runs.map((r) => r.timeline[0]?.tMs ?? 0));
  return first < 0 ? [{ from: first / 1000, to: 0, label: 'warm-up (left out of every figure)' }] : [];
}

/**
 * A timeline point as drawn: its tick's real span in ms from the start of measurement. A tick is cut short by the
 * warm-up's start, by the next point (a merged run's segment ends: the next segment's ticks begin at its own
 * start), and by the end of the measured window (a run stopped early, a segment).
 */
export interface TickSpan {
  point: TimelinePoint;
  fromMs: number;
  toMs: number;
}

/**
 * The ticks drawn over time: the warm-up's and the measured window's, each with its real span; not the drain
 * after the window (ticks beginning at or after its end, where the window's last requests end): those are none of
 * the run's seconds, and a second holding one or two answers would read as the node collapsing at the end.
 */
export function drawnTicks(run: LoadRun): TickSpan[] {
  const tick = tickMs(run.timeline);
  const out: TickSpan[] = [];
  run.timeline.forEach((point, i) => {
    if (point.tMs >= run.durationMs) return;
    const next = run.timeline[i + 1];
    const fromMs = Math.max(point.tMs, -run.warmupMs);
    let toMs = point.tMs + tick;
    if (next !== undefined && next.tMs > point.tMs) toMs = Math.min(toMs, next.tMs);
    toMs = Math.min(toMs, point.tMs < 0 ? 0 : run.durationMs);
    if (toMs > fromMs) out.push({ point, fromMs, toMs });
  });
  return out;
}

/**
 * Points of a series over a run's ticks (drawnTicks), at the end of each; a null value is a gap. `rate`: a count per
 * second, divided by the tick's real length; a tick shorter than half a tick gives no rate (left out: a few
 * requests over a few ms, or the answers still coming in after a stop, would read as a spike).
 */
function overTime(run: LoadRun, value: (p: TimelinePoint, tickSeconds: number) => number | null, thin: 'max' | 'mean', rate = false): ChartPoint[] {
  const tick = tickMs(run.timeline);
  const points = drawnTicks(run)
    .filter((t) => !rate || t.toMs - t.fromMs >= tick / 2)
    .map((t): ChartPoint => [t.toMs / 1000, value(t.point, (t.toMs - t.fromMs) / 1000)]);
  return thinOut(points, thin);
}

/** Requests of a point the node served (a report written before `served` existed: every one that ended). */
const servedOf = (p: TimelinePoint): number => p.served ?? p.completed;

/** The throughput chart's series of a run, [end of tick s, per second]: requests answered, and requests that failed with no answer. */
export function throughputSeries(run: LoadRun): { answered: ChartPoint[]; failed: ChartPoint[] } {
  return {
    answered: overTime(run, (p, s) => servedOf(p) / s, 'mean', true),
    failed: overTime(run, (p, s) => (p.completed - servedOf(p)) / s, 'max', true),
  };
}

/** The latency chart's series of a run, [end of tick s, ms]: a percentile of the node's answers; null (a gap) where it answered nothing. */
export const answerLatencySeries = (run: LoadRun, pick: 'p50Us' | 'p99Us'): ChartPoint[] => overTime(run, (p) => (servedOf(p) === 0 ? null : p[pick] / 1000), pick === 'p99Us' ? 'max' : 'mean');

/** At most MAX_POINTS points: consecutive points merged, keeping their highest (latency peaks) or their mean. */
export function thinOut(points: readonly ChartPoint[], how: 'max' | 'mean', max = MAX_POINTS): ChartPoint[] {
  if (points.length <= max) return [...points];
  const k = Math.ceil(points.length / max);
  const out: ChartPoint[] = [];
  for (let i = 0; i < points.length; i += k) {
    const group = points.slice(i, i + k);
    const ys = group.flatMap(([, y]) => (y === null ? [] : [y]));
    const last = group[group.length - 1];
    if (!last) continue;
    out.push([last[0], ys.length === 0 ? null : how === 'max' ? Math.max(...ys) : ys.reduce((a, b) => a + b, 0) / ys.length]);
  }
  return out;
}

/**
 * Faults on a time chart (chaosMarkers.ts put them on its clock), as the chart's events: marked for tests by
 * data-testid="chaos-marker" and their action. A fault not done is greyed.
 */
function faultEvents(markers: readonly TimeMarker[] | undefined): ChartEvent[] {
  return (markers ?? []).map((m) => ({ x: m.tMs / 1000, label: m.label, title: m.title, muted: !m.done, data: { testid: 'chaos-marker', action: m.action } }));
}

/** The sentence a chart's description gains when faults are drawn on it (for screen readers). */
const faultsNote = (markers: readonly TimeMarker[] | undefined): string => ((markers ?? []).length === 0 ? '' : ' Dashed vertical lines mark the faults injected, each labelled with what was done to which node.');

const msAxis = (label: string): ChartAxis => ({ label, format: formatTick });
const rateAxis = (label: string): ChartAxis => ({ label, format: formatTick });

/** Series names and colours: one run, a colour per metric; several, a colour per run and a dash per metric. */
function seriesFor(runs: readonly LoadRun[], metrics: readonly { name: string; color: ChartColor; dash?: boolean; points: (run: LoadRun) => ChartPoint[] }[]): LineSeries[] {
  if (runs.length === 1) {
    const run = runs[0] as LoadRun;
    return metrics.map((m) => ({ name: m.name, color: m.color, ...(m.dash === true ? { dash: true } : {}), points: m.points(run) }));
  }
  return runs.flatMap((run, i) => metrics.map((m, j): LineSeries => ({ name: `${m.name} · ${run.url}`, color: i, ...(j > 0 ? { dash: true } : {}), points: m.points(run) })));
}

/** Latency percentiles (p50, p99) of the node's answers tick by tick; `markers`: faults, on the runs' clock (the first run's when several). */
export function latencyOverTimeChart(id: string, runs: readonly LoadRun[], markers?: readonly TimeMarker[]): string {
  const latency = (pick: 'p50Us' | 'p99Us') => (run: LoadRun): ChartPoint[] => answerLatencySeries(run, pick);
  const bands = warmupBands(runs);
  const old = runs.some((r) => r.timeline.some((p) => p.served === undefined));
  return lineChartSvg({
    id,
    title: 'Latency over time (p50, p99 of the node\'s answers)',
    description: `The median and 99th percentile latency of the requests the node answered (a result or a JSON-RPC error) that ended in each tick, in milliseconds, from each request's scheduled send time. ${old ? 'This report was written before answers were told from failures per tick: its ticks hold failed requests too. ' : 'Requests that failed with no answer (timeouts, refused or reset connections, HTTP errors) are not drawn here: a refused connection fails in a millisecond, and a dead node would look the fastest; they are drawn in the throughput and errors charts. '}Ticks where the node answered nothing are gaps.${bands.length > 0 ? ' The shaded warm-up is left out of every other figure.' : ''} The requests still ending after the measured window are not drawn.${faultsNote(markers)}`,
    x: timeAxis(runs),
    y: msAxis('latency, ms'),
    series: seriesFor(runs, [
      { name: 'p50', color: 0, points: latency('p50Us') },
      { name: 'p99', color: 1, points: latency('p99Us') },
    ]),
    bands,
    events: faultEvents(markers),
  });
}

/** The open model's target rate at a time, from its stages (which start with the measured window, or with the warm-up when they cover it too). */
function targetAt(run: LoadRun): ((seconds: number) => number | null) | undefined {
  if (run.model.kind !== 'open' || run.model.stages.length === 0) return undefined;
  const stages = run.model.stages;
  const total = stages.reduce((n, s) => n + s.durationMs, 0);
  const startMs = Math.abs(total - (run.durationMs + run.warmupMs)) < Math.abs(total - run.durationMs) ? -run.warmupMs : 0;
  return (seconds) => {
    let t = seconds * 1000 - startMs;
    if (t < 0) return null;
    for (const s of stages) {
      if (t <= s.durationMs) return s.from + ((s.to - s.from) * t) / Math.max(1, s.durationMs);
      t -= s.durationMs;
    }
    return null;
  };
}

/**
 * Requests the node answered per second, tick by tick (what the achieved rate counts), the requests that failed with
 * no answer apart, and the open model's target; `markers` as for latency.
 */
export function throughputOverTimeChart(id: string, runs: readonly LoadRun[], markers?: readonly TimeMarker[]): string {
  // A report written before answers were told from failures per tick cannot draw its failures apart.
  const old = runs.some((r) => r.timeline.some((p) => p.served === undefined));
  const series = seriesFor(runs, [
    { name: 'answered req/s', color: 0, points: (run) => throughputSeries(run).answered },
    ...(old ? [] : [{ name: 'failed req/s (no answer)', color: 'fail' as const, dash: true, points: (run: LoadRun) => throughputSeries(run).failed }]),
  ]);
  // The target once (several runs share the scenario), as a dashed grey line.
  const first = runs[0];
  const target = first ? targetAt(first) : undefined;
  if (first && target) series.push({ name: 'target req/s', color: 'muted', dash: true, points: overTime(first, () => 0, 'mean', true).map(([x]): ChartPoint => [x, target(x)]) });
  return lineChartSvg({
    id,
    title: 'Throughput over time',
    description: `Requests the node answered (at least one call answered with a result or a JSON-RPC error: what the achieved rate counts) per second, tick by tick; apart, dashed, requests that ended with no answer (timeouts, refused or reset connections, HTTP errors, malformed answers) per second; and the rate the schedule asked for.${old ? ' This report was written before answers were told from failures per tick: its answered line counts every request that ended, and no failure line is drawn.' : ''} Each tick's count is divided by its real length; a tick shorter than half a tick (where a segment or a stopped run ends) is left out, and so are the requests still ending after the measured window.${faultsNote(markers)}`,
    x: timeAxis(runs),
    y: rateAxis('requests/s'),
    series,
    bands: warmupBands(runs),
    events: faultEvents(markers),
  });
}

/** Failed calls and dropped requests per second, tick by tick; `markers` as for latency. */
export function errorsOverTimeChart(id: string, runs: readonly LoadRun[], markers?: readonly TimeMarker[]): string {
  return lineChartSvg({
    id,
    title: 'Errors and drops over time',
    description: `Calls that failed (a JSON-RPC error, in a batch or not, or no answer) and requests dropped by the in-flight cap, per second, tick by tick, each tick's count divided by its real length (a tick shorter than half a tick is left out; so is the drain after the measured window).${faultsNote(markers)}`,
    x: timeAxis(runs),
    y: rateAxis('per second'),
    series: seriesFor(runs, [
      { name: 'failed calls/s', color: 'fail', points: (run) => overTime(run, (p, s) => p.failedCalls / s, 'max', true) },
      { name: 'dropped req/s', color: 6, dash: true, points: (run) => overTime(run, (p, s) => p.dropped / s, 'max', true) },
    ]),
    bands: warmupBands(runs),
    events: faultEvents(markers),
  });
}

/**
 * The pending chart's series of a run, [s, transactions]: at the end of each tick of the warm-up and the window, then
 * one point when tracking ended (`followedAfterMs` after the window), where the "pending at the end" figure is read.
 */
export function pendingSeries(run: LoadRun): ChartPoint[] {
  const points = overTime(run, (p) => p.pending ?? null, 'max');
  const after = run.inclusion?.followedAfterMs;
  if (after === undefined || run.inclusion === undefined) return points;
  return [...points, [(run.durationMs + after) / 1000, run.inclusion.pending]];
}

/** Signed-transaction load: transactions accepted and not yet included, tick by tick, to the end of tracking; `markers` as for latency. */
export function pendingOverTimeChart(id: string, runs: readonly LoadRun[], markers?: readonly TimeMarker[]): string {
  const tracked = runs.filter((r) => r.timeline.some((p) => p.pending !== undefined));
  const after = Math.max(0, ...tracked.map((r) => (r.inclusion?.followedAfterMs === undefined ? 0 : r.durationMs + r.inclusion.followedAfterMs)));
  const ends = Math.min(...tracked.map((r) => r.durationMs));
  const followed = after > ends ? [{ from: ends / 1000, to: after / 1000, label: 'after the window: the chain followed for what was pending' }] : [];
  return lineChartSvg({
    id,
    title: 'Pending transactions over time',
    description: `Transactions scheduled in the measured window that the node accepted and that were not yet seen included, at the end of each tick${followed.length > 0 ? ', then when tracking ended (the shaded stretch after the window, where the chain was followed for what was pending): the last point is the "pending at the end" figure' : ''}.${faultsNote(markers)}`,
    x: timeAxis(tracked),
    y: rateAxis('pending transactions'),
    series: seriesFor(tracked, [{ name: 'pending', color: 2, points: pendingSeries }]),
    bands: [...warmupBands(tracked), ...followed],
    events: faultEvents(markers),
  });
}

/** The node's head lag per height, at the time each height first appeared on any node, with its stalls shaded; `markers`: faults on the health clock. */
export function headLagChart(id: string, run: Pick<LoadRun, 'health'>, markers?: readonly TimeMarker[]): string {
  const head = run.health?.head;
  const title = 'Head lag over time';
  if (head?.alone === true) return emptyChart(id, title, 'The head was followed alone (one node, no --head-reference): no lag to draw, nothing to compare its heights with.');
  if (head === undefined || head.series.length === 0) return emptyChart(id, title, 'No new height appeared while the run followed the head.');
  const longest = Math.max(...head.series.map((p) => p.tMs));
  const format = longest > 180_000 ? clock : (s: number): string => `${formatTick(s)} s`;
  return lineChartSvg({
    id,
    title,
    description: `For each new height, how long after the first node to serve it this node served it, in milliseconds, at the time the height first appeared; from the first height it never served, the time since that height came (how far behind it was), to the end; dashed: the least-squares line through the lags after the warm-up (head-lag drift); shaded: stalls (the head held one height for more than 3 block times after another node had the next).${faultsNote(markers)}`,
    x: { label: longest > 180_000 ? 'time since the heads were first read (min:s)' : 'time since the heads were first read', format, seconds: true },
    y: msAxis('head lag, ms'),
    series: [
      { name: 'head lag', color: 0, points: thinOut(head.series.map((p): ChartPoint => [p.tMs / 1000, p.lagMs]), 'max') },
      ...(head.lagTrend === undefined || head.lagTrend === null ? [] : [{ name: `head-lag trend ${signedMs(head.lagTrend.msPerHour)}/h`, color: 2 as const, dash: true, points: head.lagTrend.line.map((p): ChartPoint => [p.tMs / 1000, p.lagMs]) }]),
    ],
    bands: head.stalls.map((st) => ({ from: st.startMs / 1000, to: (st.endMs ?? longest) / 1000, label: 'stalled' })),
    events: faultEvents(markers),
  });
}

/** The node's process (--pid) over the run: its CPU (% of one core) and its RSS (MiB), side by side on one scale each; `markers`: faults on the health clock. */
export function resourcesChart(id: string, run: Pick<LoadRun, 'health'>, markers?: readonly TimeMarker[]): string {
  const r = run.health?.resources;
  const title = 'The node\'s CPU and memory over time';
  if (r === undefined || r.series.length < 2) return emptyChart(id, title, 'Too few samples of the process to draw.');
  const longest = Math.max(...r.series.map((p) => p.tMs));
  const format = longest > 180_000 ? clock : (s: number): string => `${formatTick(s)} s`;
  return lineChartSvg({
    id,
    title,
    description: `The node's process (${r.source}) read every ${r.intervalMs} ms: its CPU since the previous sample in % of one core, and its resident memory in MiB, over the whole run (every node's turn and warm-up included); dashed, the RSS trend fitted after the warm-up.${faultsNote(markers)}`,
    x: { label: longest > 180_000 ? 'time since the run began (min:s)' : 'time since the run began', format, seconds: true },
    y: rateAxis('CPU % of a core · RSS MiB'),
    series: [
      { name: 'CPU %', color: 0, points: thinOut(r.series.map((p): ChartPoint => [p.tMs / 1000, p.cpuPercent]), 'mean') },
      { name: 'RSS MiB', color: 1, points: thinOut(r.series.map((p): ChartPoint => [p.tMs / 1000, p.rssBytes / 1_048_576]), 'max') },
      ...(r.rssTrend === null ? [] : [{ name: `RSS trend ${signed(r.rssTrend.mbPerHour)} MiB/h`, color: 2 as const, dash: true, points: r.rssTrend.line.map((p): ChartPoint => [p.tMs / 1000, p.mb]) }]),
    ],
    events: faultEvents(markers),
  });
}

/** Signed-transaction load: how long transactions took to be included, as a histogram with p50 and p99 marked. */
export function inclusionDistributionChart(id: string, run: LoadRun): string {
  const title = 'Time to inclusion';
  const data = run.inclusion?.timeToInclusionMs;
  if (!data || data.count === 0) return emptyChart(id, title, 'No transaction was seen included.');
  let buckets;
  try {
    buckets = Histogram.decode(data.encoded).buckets();
  } catch (error) {
    return emptyChart(id, title, `The histogram could not be read (${error instanceof Error ? error.message : String(error)}); its percentiles are in the table.`);
  }
  const step = Math.max(1, niceBinWidth(data.max - Math.min(data.min, 0), 40));
  const from = Math.floor(data.min / step) * step;
  const to = Math.max(from + step, Math.ceil((data.max + 1) / step) * step);
  const { bins } = rebin(buckets, from, to, Math.round((to - from) / step));
  return histogramChartSvg({
    id,
    title,
    description: `How long the ${data.count.toLocaleString('en-US')} included transactions took from their scheduled send to the first poll that saw them in a block (poll every ${run.inclusion?.pollIntervalMs ?? '?'} ms), in milliseconds. The median and the 99th percentile are marked.`,
    x: { label: 'time to inclusion, ms', format: formatTick },
    yLabel: 'transactions',
    bins,
    color: 3,
    markers: [
      { x: data.p50, label: `p50 ${formatMsNumber(data.p50)} ms` },
      { x: data.p99, label: `p99 ${formatMsNumber(data.p99)} ms` },
    ],
  });
}

/** A bin width of 1, 2 or 5 times a power of ten that cuts `range` into at most about `count` bins. */
function niceBinWidth(range: number, count: number): number {
  const raw = range / count;
  if (!(raw > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * magnitude;
}

const byRate = (sweep: SweepResult): SweepStep[] => [...sweep.steps].sort((a, b) => a.rate - b.rate);
const kneeMarkers = (sweep: SweepResult): { x: number; label: string }[] => (sweep.knee === null ? [] : [{ x: sweep.knee, label: `knee ${formatRate(sweep.knee)} req/s` }]);
const held = (step: SweepStep): string => (step.generatorLimited ? 'not measured: the generator fell behind' : `SLO ${stepOutcome(step)}`);
const rateAxisX: ChartAxis = { label: 'target rate, requests/s', format: formatTick };

/** A sweep: latency p50 and p99 against the target rate, the knee marked. */
export function sweepLatencyChart(id: string, sweep: SweepResult): string {
  const steps = byRate(sweep);
  const tip = (s: SweepStep, us: number): string => `${formatRate(s.rate)} req/s: ${formatMsNumber(us / 1000)} ms (${held(s)})`;
  return lineChartSvg({
    id,
    title: 'Latency against rate',
    description: `The median and 99th percentile latency at each target rate of the sweep, in milliseconds.${sweep.knee === null ? ' The SLO held at no rate.' : ` The knee, the highest rate where the SLO held, is marked at ${formatRate(sweep.knee)} requests/s.`}`,
    x: rateAxisX,
    y: msAxis('latency, ms'),
    series: [
      { name: 'p50', color: 0, dots: true, points: steps.map((s) => [s.rate, s.run.latency.count === 0 ? null : s.run.latency.p50 / 1000]), tips: steps.map((s) => tip(s, s.run.latency.p50)) },
      { name: 'p99', color: 1, dots: true, points: steps.map((s) => [s.rate, s.run.latency.count === 0 ? null : s.run.latency.p99 / 1000]), tips: steps.map((s) => tip(s, s.run.latency.p99)) },
    ],
    markers: kneeMarkers(sweep),
  });
}

/** A sweep: the achieved rate against the target (the diagonal is a node that keeps up), the knee marked. */
export function sweepThroughputChart(id: string, sweep: SweepResult): string {
  const steps = byRate(sweep);
  const low = Math.min(...steps.map((s) => s.rate));
  const top = Math.max(...steps.map((s) => s.rate));
  return lineChartSvg({
    id,
    title: 'Throughput against rate',
    description: 'The rate achieved at each target rate of the sweep, in requests per second; on the dashed diagonal the node keeps up with the schedule.',
    x: rateAxisX,
    y: rateAxis('achieved requests/s'),
    series: [
      { name: 'achieved', color: 0, dots: true, points: steps.map((s) => [s.rate, s.run.schedule.achievedRate]), tips: steps.map((s) => `${formatRate(s.rate)} req/s asked: ${formatRate(s.run.schedule.achievedRate)} req/s achieved (${held(s)})`) },
      { name: 'target (keeping up)', color: 'muted', dash: true, points: [[low, low], [top, top]] },
    ],
    markers: kneeMarkers(sweep),
  });
}

/** A sweep: failed calls and dropped requests, as shares, against the target rate. */
export function sweepErrorsChart(id: string, sweep: SweepResult): string {
  const steps = byRate(sweep);
  const failedShare = (s: SweepStep): number => {
    const calls = s.run.methods.reduce((n, m) => n + m.calls, 0);
    return calls === 0 ? 0 : (s.run.methods.reduce((n, m) => n + m.calls - m.ok, 0) / calls) * 100;
  };
  const droppedShare = (s: SweepStep): number => (s.run.schedule.scheduled === 0 ? 0 : (s.run.schedule.dropped / s.run.schedule.scheduled) * 100);
  return lineChartSvg({
    id,
    title: 'Errors and drops against rate',
    description: 'At each target rate of the sweep: the share of calls that failed and the share of scheduled requests dropped, in percent.',
    x: rateAxisX,
    y: { label: 'percent', format: (v) => `${formatTick(v)}%` },
    series: [
      { name: 'failed calls', color: 'fail', dots: true, points: steps.map((s) => [s.rate, failedShare(s)]), tips: steps.map((s) => `${formatRate(s.rate)} req/s: ${formatPercent(failedShare(s) / 100)} of calls failed`) },
      { name: 'dropped requests', color: 6, dash: true, dots: true, points: steps.map((s) => [s.rate, droppedShare(s)]), tips: steps.map((s) => `${formatRate(s.rate)} req/s: ${formatPercent(droppedShare(s) / 100)} of requests dropped`) },
    ],
    markers: kneeMarkers(sweep),
  });
}
