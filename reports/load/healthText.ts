/**
 * The node's health as the load reports say it (Markdown and HTML alike): the head followed through the run, in
 * rows of a label, a value and a note. docs/load.md, "The node's health", defines each figure.
 */
import type { HeadHealth, LoadRun, NodeResources, TrendHalf } from '../../load/model.js';
import { formatCount, formatMs } from './formatLoad.js';
import { grouped } from '../../load/figures.js';
import { MIN_LEAK_POINTS } from '../../load/health/leakFit.js';

export interface HealthRow {
  label: string;
  value: string;
  note: string;
}

const DASH = '—';

/** Every row of one run's health: its head, the load's own reads, then its process. */
export function healthRows(run: Pick<LoadRun, 'health'>): HealthRow[] {
  return [...headHealthRows(run), ...readRows(run), ...resourceRows(run)];
}

/** The load's own reads that went backwards (ReadWatch); none when the mix read nothing it judges. */
export function readRows(run: Pick<LoadRun, 'health'>): HealthRow[] {
  const r = run.health?.reads;
  if (r === undefined) return [];
  const total = r.counts.height + r.counts.block + r.counts.nonce;
  const first = r.examples[0];
  const what = { height: 'height', block: 'block at height', nonce: 'nonce of' } as const;
  const seen = `of ${formatCount(r.observed.height)} heights, ${formatCount(r.observed.block)} blocks and ${formatCount(r.observed.nonce)} nonces the load read`;
  const note = first === undefined
    ? `none ${seen} went backwards (an answer compared with those that had arrived before its request was written)`
    : `${formatCount(r.counts.height)} heights, ${formatCount(r.counts.block)} blocks, ${formatCount(r.counts.nonce)} nonces ${seen}; first at ${formatMs(first.atMs)}: ${what[first.kind]}${first.key === '' ? '' : ` ${first.key}`} ${first.value} after ${first.previous.value}`;
  return [{ label: 'Reads gone backwards', value: formatCount(total), note }];
}

/**
 * The standard series a metrics page never held, as its figures show it (a page without process_cpu_seconds_total
 * gives no CPU at all, one without process_resident_memory_bytes no RSS sample: load/health/ResourceSampler.ts).
 * /proc always has both.
 */
export function lackedSeries(r: NodeResources): string[] {
  if (r.source.startsWith('pid ') || r.samples === 0) return [];
  const noRss = r.last === undefined;
  const noCpu = r.cpuSeconds === null && r.series.every((p) => p.cpuPercent === null);
  return [...(noCpu ? ['process_cpu_seconds_total'] : []), ...(noRss ? ['process_resident_memory_bytes'] : [])];
}

/** The rows of the node's process (--pid, --metrics-url); none when it was not read. */
export function resourceRows(run: Pick<LoadRun, 'health'>): HealthRow[] {
  const r = run.health?.resources;
  if (r === undefined) return [];
  const trend = r.rssTrend;
  const lacks = lackedSeries(r);
  const noCpu = lacks.includes('process_cpu_seconds_total');
  const noRss = lacks.includes('process_resident_memory_bytes');
  const notOnPage = (name: string): string => `not measured: the metrics page has no ${name}`;
  const missed = r.source.startsWith('pid ') ? 'the process gone' : 'scrapes that failed, or held none of the series read';
  return [
    { label: 'Node CPU per call', value: r.cpuPerCallUs === null ? DASH : `${formatCount(Math.round(r.cpuPerCallUs))} µs`, note: noCpu ? notOnPage('process_cpu_seconds_total') : r.cpuSeconds === null ? 'the process was not read through the measured windows' : r.answeredCalls === 0 ? `${grouped(r.cpuSeconds, 2)} s of CPU (user + system) over the measured time; no answered call of chainrpc's to divide it by${resetNote(r)}` : `${grouped(r.cpuSeconds, 2)} s of CPU (user + system) over the measured windows, for ${formatCount(r.answeredCalls)} answered calls${resetNote(r)}` },
    { label: 'Peak RSS', value: noRss ? DASH : mib(r.peakRssBytes), note: noRss ? notOnPage('process_resident_memory_bytes') : r.last === undefined ? '' : `at the end: ${mib(r.last.rssBytes)}${r.last.threads === undefined ? '' : `, ${formatCount(r.last.threads)} threads`}${r.last.openFds === undefined ? '' : `, ${formatCount(r.last.openFds)} open files`}` },
    { label: 'RSS trend', value: trend === null ? DASH : `${signed(trend.mbPerHour)} MiB/h`, note: noRss ? notOnPage('process_resident_memory_bytes') : trend === null ? 'fewer than 10 samples after the warm-up' : `least squares over ${formatCount(trend.points)} samples from ${formatMs(trend.fromMs)} (the warm-up left out); ${Math.round(trend.confidence * 100)}% interval ${signed(trend.low)} to ${signed(trend.high)} MiB/h${halfText(trend.lastHalf, 'MiB/h', signed, 'rss-growth')}${trend.endedMs === undefined ? '' : `; the process was gone from ${formatMs(trend.endedMs)}, before the run ended: the trend covers the run until then (rss-growth not measured)`}; a leak is sure only when the low ends are above the limit (rss-growth): growth that lasts to the end of the run, not a heap grown by a step and then held; a short run says little` },
    ...(r.metrics ?? []).map((m): HealthRow => ({
      label: m.name,
      value: m.perSecond === null ? number(m.last) : `${number(m.perSecond)}/s`,
      note: `${m.perSecond === null ? '' : `a counter: its rate over the run; `}from ${number(m.first)} to ${number(m.last)}, least ${number(m.min)}, most ${number(m.max)} over ${formatCount(m.samples)} scrapes (--metric, summed over its labels)`,
    })),
    { label: 'Process reads', value: formatCount(r.samples), note: `${r.source.startsWith('pid ') ? `${r.source}, /proc` : `${r.source} (Prometheus)`} every ${formatMs(r.intervalMs)}${lacks.length > 0 ? `; the page has no ${lacks.join(' and no ')}: what it has is read` : ''}${r.missed > 0 ? `; ${formatCount(r.missed)} gave nothing (${missed})` : ''}` },
  ];
}

// Figures in one locale (en-US, "1,234.5") and signed with a real minus sign, as every report writes them (formatLoad.ts).
const mib = (bytes: number): string => `${grouped(bytes / 1_048_576, 1)} MiB`;
/** A metric's value: whole numbers grouped, others to 3 significant digits. */
const number = (v: number): string => (Number.isInteger(v) ? formatCount(v) : Math.abs(v) >= 1000 ? formatCount(Math.round(v)) : String(Number(v.toPrecision(3))));
/** A signed MiB/h figure: "+1,234.5", "−3,887.1", "0.0" (the tables' and the charts' legends alike). */
export const signed = (v: number): string => {
  const text = grouped(Math.abs(v), 1);
  return text === '0.0' ? text : `${v > 0 ? '+' : '−'}${text}`;
};

/** The rows of one run's head health; none when the run did not follow the node's head. */
export function headHealthRows(run: Pick<LoadRun, 'health'>): HealthRow[] {
  const head = run.health?.head;
  if (head === undefined) return [];
  const lag = head.lagMs;
  const reads = { label: 'Head reads', value: `${formatCount(head.samples)}${head.failed > 0 ? ` (+${formatCount(head.failed)} failed)` : ''}`, note: readsNote(head) };
  if (head.samples === 0) {
    // No read answered: nothing was seen of lags, stalls or heights (a 0 there would say the node kept them).
    const none = `not measured: none of the head reads was answered${head.failed > 0 ? ` (${formatCount(head.failed)} failed)` : ''}`;
    return [
      { label: 'Head lag p50 / p90', value: DASH, note: none },
      { label: 'Head lag p99 / max', value: DASH, note: '' },
      { label: 'Head-lag trend', value: DASH, note: '' },
      { label: 'Stalls', value: DASH, note: '' },
      { label: 'Heights gone backwards', value: DASH, note: '' },
      reads,
    ];
  }
  if (head.alone === true) {
    return [
      { label: 'Head lag p50 / p90', value: DASH, note: ALONE },
      { label: 'Head lag p99 / max', value: DASH, note: '' },
      { label: 'Head-lag trend', value: DASH, note: '' },
      { label: 'Stalls', value: DASH, note: 'not measured: a stall is the head held while another node had the next height, and no other was followed' },
      { label: 'Heights gone backwards', value: formatCount(head.regressionCount), note: regressionNote(head) },
      reads,
    ];
  }
  return [
    { label: 'Head lag p50 / p90', value: lag === null ? DASH : `${formatMs(lag.p50)} / ${formatMs(lag.p90)}`, note: lagNote(head) },
    { label: 'Head lag p99 / max', value: lag === null ? DASH : `${formatMs(lag.p99)} / ${formatMs(lag.max)}`, note: worstNote(head) },
    { label: 'Head-lag trend', value: head.lagTrend === undefined || head.lagTrend === null ? DASH : `${signedMs(head.lagTrend.msPerHour)}/h`, note: trendNote(head) },
    { label: 'Stalls', value: formatCount(head.stalls.length), note: stallNote(head) },
    { label: 'Heights gone backwards', value: formatCount(head.regressionCount), note: regressionNote(head) },
    reads,
  ];
}

/** Why a head followed alone has no lag and no stalls (HeadHealth.alone). */
const ALONE = 'not measured: the head was followed alone (one node, no --head-reference), with no other heights to compare its own with; a second --url or --head-reference <url> gives the lag and the stalls (thresholds on them were not judged)';

function lagNote(head: HeadHealth): string {
  if (head.blocks === 0) return 'no new height appeared while the run followed the head';
  const against = head.reference === undefined ? 'the first node of the run to serve it' : `the first of the run's nodes and ${head.reference} to serve it`;
  return `over ${formatCount(head.blocks)} heights${head.blockTimeMs === null ? '' : `, one every ${formatMs(head.blockTimeMs)}`}: when the node first served each, after ${against}`;
}

function worstNote(head: HeadHealth): string {
  const worst = head.worst.filter((w) => w.lagMs > 0).slice(0, 3);
  return worst.length === 0 ? '' : `latest: ${worst.map((w) => `height ${w.height} (${formatMs(w.lagMs)})`).join(', ')}`;
}

/** A trend's last half, when it was fitted: "; its last half, from 21.0 s: +3.1 to +9.0 MiB/h". */
function halfText(half: TrendHalf | null | undefined, unit: string, value: (v: number) => string, threshold: string): string {
  if (half === undefined) return '';
  // Too few points in the last half to fit: whether the trend lasts is not known, and its threshold is not judged on the whole line alone.
  if (half === null) return `; its last half had fewer than ${MIN_LEAK_POINTS} points: not enough data to judge whether it lasts (${threshold} not measured: a longer run gives it)`;
  return `; its last half, from ${formatMs(half.fromMs)}: ${value(half.low)} to ${value(half.high)} ${unit}`;
}

/** A signed time: "+12 ms", "−1,632 ms" (the tables' and the charts' legends alike). */
export const signedMs = (ms: number): string => `${ms > 0 ? '+' : ms < 0 ? '−' : ''}${formatMs(Math.abs(ms))}`;

function trendNote(head: HeadHealth): string {
  const t = head.lagTrend;
  if (t === undefined) return '';
  if (t === null) return 'fewer than 10 heights reached after the warm-up';
  return `least squares over the lag of ${formatCount(t.points)} heights from ${formatMs(t.fromMs)} (the warm-up left out); ${Math.round(t.confidence * 100)}% interval ${signedMs(t.low)} to ${signedMs(t.high)} per hour${halfText(t.lastHalf, 'per hour', signedMs, 'head-lag-drift')}; a node surely falling further behind, to the end of the run, has its low ends above the limit (head-lag-drift)`;
}

function stallNote(head: HeadHealth): string {
  const first = head.stalls[0];
  if (first === undefined) return 'its head never held one height for more than 3 block times after another node had the next';
  const end = first.endMs === null ? 'still held at the end' : `for ${formatMs(first.endMs - first.startMs)}`;
  return `first at ${formatMs(first.startMs)}: held at height ${first.height} ${end}, ${formatCount(first.behindBlocks)} heights behind`;
}

function regressionNote(head: HeadHealth): string {
  const first = head.regressions[0];
  if (first === undefined) return 'it never served a height lower than the one it served before';
  return `first at ${formatMs(first.atMs)}: height ${first.height} after ${first.previous.height} (at ${formatMs(first.previous.atMs)})`;
}

function readsNote(head: HeadHealth): string {
  const failure = head.lastFailure === undefined ? '' : `; last failure: ${head.lastFailure}`;
  return `chain_blockNumber every ${formatMs(head.intervalMs)} (median achieved ${formatMs(head.medianIntervalMs)}), on a connection of its own, apart from the load${failure}`;
}

/** A CPU counter that went down (a restart) said beside the CPU figure: the CPU just before each restart is not seen. */
function resetNote(r: Pick<NodeResources, 'cpuResets'>): string {
  const n = r.cpuResets ?? 0;
  return n === 0 ? '' : `; the CPU counter went back to 0 ${n === 1 ? 'once' : `${n} times`} (the process restarted): counted from there again, the CPU just before ${n === 1 ? 'it' : 'each'} not seen`;
}
