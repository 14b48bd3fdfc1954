// Figures of a load run as people read them, the same in every report, on the console and in the verdict.
// Numbers are written in one locale (en-US: "1,234.5") so output does not change with the machine that wrote
// it. reports/load/formatLoad.ts re-exports these and adds the reports' own.
import type { FigureUnit, LoadRun, ThresholdResult } from './model.js';

/** A number with exactly `decimals` decimals and thousands separators. */
export const grouped = (value: number, decimals: number): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** Milliseconds with three significant digits below 100 ("0.412", "4.12", "41.2"), whole above ("412", "4,120"). */
export function formatMsNumber(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  const abs = Math.abs(ms);
  if (abs === 0) return '0';
  if (abs < 1) return grouped(ms, 3);
  if (abs < 10) return grouped(ms, 2);
  if (abs < 100) return grouped(ms, 1);
  return grouped(Math.round(ms), 0);
}

/** Milliseconds (time to inclusion, durations in the model's `...Ms` fields). */
export const formatMs = (ms: number): string => `${formatMsNumber(ms)} ms`;

/** A whole count with thousands separators. */
export const formatCount = (n: number): string => (Number.isFinite(n) ? grouped(Math.round(n), 0) : '?');

/** Requests per second: one decimal below 100, whole above. */
export const formatRate = (perSecond: number): string => (Number.isFinite(perSecond) ? grouped(perSecond, Math.abs(perSecond) < 100 && perSecond % 1 !== 0 ? 1 : 0) : '?');

/** A ratio (0..1) as a percentage with enough digits to tell small error rates apart: 0.000528 reads "0.053%". */
export function formatPercent(ratio: number): string {
  if (!Number.isFinite(ratio)) return '?';
  const pct = ratio * 100;
  const abs = Math.abs(pct);
  if (abs === 0) return '0%';
  if (abs < 0.01) return '< 0.01%';
  if (abs < 1) return `${grouped(pct, 3)}%`;
  if (abs < 10) return `${grouped(pct, 2)}%`;
  return `${grouped(pct, 1)}%`;
}

/**
 * The value of a threshold or a baseline figure in its unit (FigureUnit of the model): "41.2 ms", "0.53%",
 * "1,200/s", "3". null is a threshold's figure when nothing was measured.
 */
export function formatMetricValue(unit: FigureUnit, value: number | null): string {
  if (value === null) return 'nothing measured';
  switch (unit) {
    case 'ms': return formatMs(value);
    case '%': return formatPercent(value / 100);
    case '/s': return `${formatRate(value)}/s`;
    case 'count': return formatCount(value);
    // The unit is written MB/h in a threshold (rss-growth < 50MB/h), but the figure is MiB (2^20 bytes) per hour.
    case 'MB/h': return `${value > 0 ? '+' : ''}${value.toFixed(1)} MiB/h`;
    case 'ms/h': return `${value > 0 ? '+' : ''}${formatMs(value)}/h`;
  }
}

/**
 * How a threshold of a run came out, as every report and the verdict say it: kept, broken, or not judged when the
 * run was interrupted (Ctrl-C): the thresholds speak of the whole window, and the run measured a part of it.
 */
export function thresholdOutcome(run: Pick<LoadRun, 'stop'>, t: Pick<ThresholdResult, 'ok'>): 'kept' | 'broken' | 'not judged' {
  if (run.stop.reason === 'interrupted') return 'not judged';
  return t.ok ? 'kept' : 'broken';
}

/**
 * What a threshold measured, with its unit, as a sentence's part: "1.73 ms", "0.53%", "3 requests" (a count
 * says what it counts: requests dropped, calls that differ, stalls, ...), "nothing measured".
 */
export function thresholdActual(t: Pick<ThresholdResult, 'unit' | 'actual' | 'metric'>): string {
  if (t.actual === null) return UNMEASURED[t.metric.replace(/^.*:/, '')] ?? formatMetricValue(t.unit, null);
  const text = formatMetricValue(t.unit, t.actual);
  if (t.unit !== 'count') return text;
  // Each count says what it counts: requests dropped, calls that differ, stalls, reads gone backwards, ...
  const noun = COUNTED[t.metric.replace(/^.*:/, '')] ?? '';
  return noun === '' ? text : `${text} ${noun}${t.actual === 1 ? '' : 's'}`;
}

/**
 * A figure that has no value says why: of a run with faults (docs/chaos.md), a recovery or a next block that never
 * came was measured, to the end of the run; a node whose chain was not compared has no fork count; and a replay's
 * diff that compared no call has no mismatch count.
 */
const UNMEASURED: Record<string, string> = {
  recovery: 'not recovered by the end',
  failover: 'no next block by the end',
  forks: 'not compared (the node did not answer after the run, or no other did)',
  mismatches: 'no call compared (the other side answered none the node did, or every call was set aside)',
};

/** A threshold's figure after "actual" in a sentence, or why it has none: "actual 1.73 ms", "not recovered by the end". */
export function thresholdSaid(t: Pick<ThresholdResult, 'unit' | 'actual' | 'metric'>): string {
  return t.actual === null ? thresholdActual(t) : `actual ${thresholdActual(t)}`;
}

const COUNTED: Record<string, string> = { dropped: 'request', mismatches: 'call', stalls: 'stall', regressions: 'read', 'lost-tx': 'transaction', 'duplicate-tx': 'transaction', forks: 'fork' };
