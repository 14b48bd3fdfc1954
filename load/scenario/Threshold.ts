/**
 * A threshold of a scenario's SLO, `[<method>:]<metric> <op> <value>[unit]` ("p99 < 250ms", "errors < 1%",
 * "chain_getAccount:p99 < 50ms"), parsed once and evaluated against a run. docs/load.md defines each metric.
 */
import type { HistogramData, LoadRun, MethodStats, ThresholdResult } from '../model.js';

export type ThresholdMetric =
  | 'p50' | 'p90' | 'p99' | 'p999' | 'max' | 'mean'
  | 'service-p50' | 'service-p99' | 'lag-p99'
  | 'errors' | 'dropped' | 'achieved' | 'invalid' | 'inclusion' | 'tti-p50' | 'tti-p99';

export type ThresholdOp = '<' | '<=' | '>' | '>=' | '==';

export interface Threshold {
  /** As written, trimmed. */
  text: string;
  /** The spec's method name the threshold is scoped to, if any. */
  method?: string;
  metric: ThresholdMetric;
  op: ThresholdOp;
  /** In `unit`. */
  limit: number;
  /** ms for times; % for errors, achieved, invalid, inclusion, and dropped when written with %; count for dropped. */
  unit: 'ms' | '%' | 'count';
}

const TIME_METRICS = new Set<ThresholdMetric>(['p50', 'p90', 'p99', 'p999', 'max', 'mean', 'service-p50', 'service-p99', 'lag-p99', 'tti-p50', 'tti-p99']);
const PERCENT_METRICS = new Set<ThresholdMetric>(['errors', 'achieved', 'invalid', 'inclusion']);
/** Metrics a method-scoped threshold may name: those kept per method. */
const METHOD_METRICS = new Set<ThresholdMetric>(['p50', 'p90', 'p99', 'p999', 'max', 'mean', 'service-p50', 'service-p99', 'errors', 'invalid']);
const PATTERN = /^(?:([A-Za-z][A-Za-z0-9_.]*):)?([a-z0-9-]+)\s*(<=|>=|==|<|>)\s*(\d+(?:\.\d+)?)\s*(us|ms|s|%)?$/;

/** Parses a threshold; throws an Error whose message says what is wrong and how it should read. */
export function parseThreshold(raw: string): Threshold {
  const text = raw.trim();
  const match = PATTERN.exec(text);
  if (!match) throw new Error(`threshold "${raw}" does not read as [<method>:]<metric> <op> <value>, e.g. "p99 < 250ms" or "errors < 1%"`);
  const [, method, name = '', op = '<', number = '0', unit] = match;
  const metric = name as ThresholdMetric;
  if (!TIME_METRICS.has(metric) && !PERCENT_METRICS.has(metric) && metric !== 'dropped') {
    throw new Error(`threshold "${raw}": unknown metric "${name}" (p50 p90 p99 p999 max mean service-p50 service-p99 lag-p99 errors dropped achieved invalid inclusion tti-p50 tti-p99)`);
  }
  if (method !== undefined && !METHOD_METRICS.has(metric)) throw new Error(`threshold "${raw}": ${metric} is kept for the whole run, not per method`);
  let limit = Number(number);
  if (TIME_METRICS.has(metric)) {
    if (unit === '%') throw new Error(`threshold "${raw}": ${metric} is a time: write it in us, ms or s`);
    limit = unit === 'us' ? limit / 1000 : unit === 's' ? limit * 1000 : limit; // no unit: ms
  } else if (PERCENT_METRICS.has(metric)) {
    if (unit !== '%') throw new Error(`threshold "${raw}": ${metric} is a percentage: write it with %, e.g. "${metric} ${op} ${number}%"`);
  } else if (unit !== undefined && unit !== '%') {
    throw new Error(`threshold "${raw}": dropped is a count (or a percentage of the requests due, with %)`);
  }
  const kind = TIME_METRICS.has(metric) ? 'ms' : unit === '%' ? '%' : 'count';
  return { text, ...(method === undefined ? {} : { method }), metric, op: op as ThresholdOp, limit, unit: kind };
}

const ms = (us: number): number => us / 1000;

function fromHistogram(h: HistogramData, metric: ThresholdMetric): number | null {
  if (h.count === 0) return null;
  const key = metric.replace(/^(service|lag|tti)-/, '') as 'p50' | 'p90' | 'p99' | 'p999' | 'max' | 'mean';
  return h[key];
}

function failedPercent(stats: readonly MethodStats[]): number | null {
  const calls = stats.reduce((n, m) => n + m.calls, 0);
  if (calls === 0) return null;
  const ok = stats.reduce((n, m) => n + m.ok, 0);
  return ((calls - ok) / calls) * 100;
}

/** The metric's value on a run, in the threshold's unit; null when nothing was measured. */
function measure(run: LoadRun, t: Threshold, wire: (method: string) => string): number | null {
  const methods = t.method === undefined ? run.methods : run.methods.filter((m) => m.method === wire(t.method ?? ''));
  if (t.method !== undefined && methods.length === 0) return null;
  const one = methods[0];
  switch (t.metric) {
    case 'p50': case 'p90': case 'p99': case 'p999': case 'max': case 'mean': {
      const v = fromHistogram(t.method !== undefined && one ? one.latency : run.latency, t.metric);
      return v === null ? null : ms(v);
    }
    case 'service-p50': case 'service-p99': {
      const v = fromHistogram(t.method !== undefined && one ? one.service : run.service, t.metric);
      return v === null ? null : ms(v);
    }
    case 'lag-p99': {
      const v = fromHistogram(run.schedule.lagUs, t.metric);
      return v === null ? null : ms(v);
    }
    case 'errors':
      return failedPercent(methods);
    case 'invalid': {
      const validated = methods.reduce((n, m) => n + m.validated, 0);
      return validated === 0 ? null : (methods.reduce((n, m) => n + m.invalid, 0) / validated) * 100;
    }
    case 'dropped':
      if (t.unit === '%') return run.schedule.scheduled === 0 ? null : (run.schedule.dropped / run.schedule.scheduled) * 100;
      return run.schedule.dropped;
    case 'achieved':
      return run.schedule.targetRate === null || run.schedule.targetRate === 0 ? null : (run.schedule.achievedRate / run.schedule.targetRate) * 100;
    case 'inclusion':
      return run.inclusion === undefined || run.inclusion.accepted === 0 ? null : run.inclusion.ratio * 100;
    case 'tti-p50': case 'tti-p99':
      return run.inclusion === undefined ? null : fromHistogram(run.inclusion.timeToInclusionMs, t.metric);
  }
}

function holds(actual: number, op: ThresholdOp, limit: number): boolean {
  switch (op) {
    case '<': return actual < limit;
    case '<=': return actual <= limit;
    case '>': return actual > limit;
    case '>=': return actual >= limit;
    case '==': return actual === limit;
  }
}

/**
 * Each threshold against the run: kept or broken. Nothing measured breaks it (a dead node never passes an
 * SLO). `wire` maps a spec method name to the name the run recorded (the profile's rename).
 */
export function evaluateThresholds(run: LoadRun, thresholds: readonly Threshold[], wire: (method: string) => string = (m) => m): ThresholdResult[] {
  return thresholds.map((t) => {
    const actual = measure(run, t, wire);
    const rounded = actual === null ? null : Math.round(actual * 1000) / 1000;
    return { name: t.text, metric: t.method === undefined ? t.metric : `${t.method}:${t.metric}`, unit: t.unit, limit: t.limit, actual: rounded, ok: actual !== null && holds(actual, t.op, t.limit) };
  });
}
