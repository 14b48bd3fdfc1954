/**
 * A threshold of a scenario's SLO, `[<method>:]<metric> <op> <value>[unit]` ("p99 < 250ms", "errors < 1%",
 * "chain_getAccount:p99 < 50ms"), parsed once and evaluated against a run. docs/load.md defines each metric.
 */
import { sureTrendLow } from '../health/leakFit.js';
import type { HistogramData, LoadRun, MethodStats, ThresholdResult } from '../model.js';

/**
 * Every metric a threshold may name, in the order docs/load.md lists them: what it measures (a time, a
 * percentage, or a count that may also be written as a percentage), whether it is kept per method, and whether
 * k6 measures it (what only the Node engine measures: its schedule lag, result validation, inclusion). The one
 * list: the scenario schema's Threshold pattern is generated from it (`npm run gen`, thresholdPattern below).
 */
export const THRESHOLD_METRICS = {
  p50: { measures: 'time', perMethod: true, k6: true },
  p90: { measures: 'time', perMethod: true, k6: true },
  p99: { measures: 'time', perMethod: true, k6: true },
  p999: { measures: 'time', perMethod: true, k6: true },
  max: { measures: 'time', perMethod: true, k6: true },
  mean: { measures: 'time', perMethod: true, k6: true },
  'service-p50': { measures: 'time', perMethod: true, k6: true },
  'service-p99': { measures: 'time', perMethod: true, k6: true },
  'lag-p99': { measures: 'time', perMethod: false, k6: false },
  'read-lag-p99': { measures: 'time', perMethod: false, k6: false },
  errors: { measures: 'percent', perMethod: true, k6: true },
  dropped: { measures: 'count', perMethod: false, k6: true },
  achieved: { measures: 'percent', perMethod: false, k6: true },
  invalid: { measures: 'percent', perMethod: true, k6: false },
  inclusion: { measures: 'percent', perMethod: false, k6: false },
  'tti-p50': { measures: 'time', perMethod: false, k6: false },
  'tti-p99': { measures: 'time', perMethod: false, k6: false },
  'head-lag-p99': { measures: 'time', perMethod: false, k6: false },
  stalls: { measures: 'count', perMethod: false, k6: false },
  regressions: { measures: 'count', perMethod: false, k6: false },
  'rss-growth': { measures: 'growth', perMethod: false, k6: false },
  'head-lag-drift': { measures: 'drift', perMethod: false, k6: false },
  failover: { measures: 'time', perMethod: false, k6: false },
  recovery: { measures: 'time', perMethod: false, k6: false },
  'lost-tx': { measures: 'count', perMethod: false, k6: false },
  'duplicate-tx': { measures: 'count', perMethod: false, k6: false },
  forks: { measures: 'count', perMethod: false, k6: false },
  mismatches: { measures: 'count', perMethod: false, k6: false },
} as const satisfies Record<string, { measures: 'time' | 'percent' | 'count' | 'growth' | 'drift'; perMethod: boolean; k6: boolean }>;

export type ThresholdMetric = keyof typeof THRESHOLD_METRICS;

/** The metrics only a run with faults measures (load/chaos/, docs/chaos.md): refused without a fault. */
export const FAULT_METRICS: ReadonlySet<ThresholdMetric> = new Set(['failover', 'recovery', 'lost-tx', 'duplicate-tx', 'forks']);

export const METRIC_NAMES = Object.keys(THRESHOLD_METRICS) as ThresholdMetric[];
const isMetric = (name: string): name is ThresholdMetric => Object.hasOwn(THRESHOLD_METRICS, name);

/** The scenario schema's pattern for a threshold (written into schemas/load/scenario.schema.json by `npm run gen`). */
export const thresholdPattern = (): string =>
  `^\\s*(?:[A-Za-z][A-Za-z0-9_.]*:)?(?:${METRIC_NAMES.join('|')})\\s*(?:<|<=|>|>=|==)\\s*[0-9]+(?:\\.[0-9]+)?\\s*(?:us|ms/h|ms|s/h|s|%|MB/h)?\\s*$`;

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
  /** ms for times; % for errors, achieved, invalid, inclusion, and dropped when written with %; count for dropped, stalls and regressions; MB/h for rss-growth; ms/h for head-lag-drift. */
  unit: 'ms' | '%' | 'count' | 'MB/h' | 'ms/h';
}

const PATTERN = /^(?:([A-Za-z][A-Za-z0-9_.]*):)?([a-z0-9-]+)\s*(<=|>=|==|<|>)\s*(\d+(?:\.\d+)?)\s*(us|ms\/h|ms|s\/h|s|%|MB\/h)?$/;

/** Parses a threshold; throws an Error whose message says what is wrong and how it should read. */
export function parseThreshold(raw: string): Threshold {
  const text = raw.trim();
  const match = PATTERN.exec(text);
  if (!match) throw new Error(`threshold "${raw}" does not read as [<method>:]<metric> <op> <value>, e.g. "p99 < 250ms" or "errors < 1%"`);
  const [, method, name = '', op = '<', number = '0', unit] = match;
  if (!isMetric(name)) throw new Error(`threshold "${raw}": unknown metric "${name}" (${METRIC_NAMES.join(' ')})`);
  const metric = name;
  const { measures, perMethod } = THRESHOLD_METRICS[metric];
  if (method !== undefined && !perMethod) throw new Error(`threshold "${raw}": ${metric} is kept for the whole run, not per method`);
  let limit = Number(number);
  if (measures === 'growth') {
    if (unit !== 'MB/h') throw new Error(`threshold "${raw}": ${metric} is a growth: write it in MB/h, e.g. "${metric} ${op} ${number}MB/h"`);
    return { text, metric, op: op as ThresholdOp, limit, unit: 'MB/h' };
  }
  if (unit === 'MB/h') throw new Error(`threshold "${raw}": only rss-growth is written in MB/h`);
  if (measures === 'drift') {
    if (unit !== 'ms/h' && unit !== 's/h') throw new Error(`threshold "${raw}": ${metric} is a drift: write it in ms/h or s/h, e.g. "${metric} ${op} ${number}s/h"`);
    return { text, metric, op: op as ThresholdOp, limit: unit === 's/h' ? limit * 1000 : limit, unit: 'ms/h' };
  }
  if (unit === 'ms/h' || unit === 's/h') throw new Error(`threshold "${raw}": only head-lag-drift is written in ms/h or s/h`);
  if (measures === 'time') {
    if (unit === '%') throw new Error(`threshold "${raw}": ${metric} is a time: write it in us, ms or s`);
    limit = unit === 'us' ? limit / 1000 : unit === 's' ? limit * 1000 : limit; // no unit: ms
  } else if (measures === 'percent') {
    if (unit !== '%') throw new Error(`threshold "${raw}": ${metric} is a percentage: write it with %, e.g. "${metric} ${op} ${number}%"`);
  } else if (unit !== undefined && (unit !== '%' || metric !== 'dropped')) {
    throw new Error(`threshold "${raw}": ${metric} is a count${metric === 'dropped' ? ' (or a percentage of the requests due, with %)' : `, written without a unit: "${metric} ${op} ${number}"`}`);
  }
  const kind = measures === 'time' ? 'ms' : unit === '%' ? '%' : 'count';
  return { text, ...(method === undefined ? {} : { method }), metric, op: op as ThresholdOp, limit, unit: kind };
}

const ms = (us: number): number => us / 1000;

function fromHistogram(h: HistogramData, metric: ThresholdMetric): number | null {
  if (h.count === 0) return null;
  const key = metric.replace(/^(service|lag|read-lag|tti)-/, '') as 'p50' | 'p90' | 'p99' | 'p999' | 'max' | 'mean';
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
    case 'read-lag-p99': {
      const v = run.schedule.readLagUs === undefined ? null : fromHistogram(run.schedule.readLagUs, t.metric);
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
    // The node's own health (load/health/): null when its head was not followed, or no new height appeared.
    case 'head-lag-p99':
      return run.health?.head?.lagMs?.p99 ?? null;
    // A head followed alone (no other node, no reference) has no stalls to count: nothing measured, not 0.
    case 'stalls':
      return run.health?.head === undefined || run.health.head.alone === true ? null : run.health.head.stalls.length;
    // The head's (the follower's) and the load's own reads' (ReadWatch): null when neither was watched.
    // A replay's diff (--diff-url): calls whose two answers disagree; nothing measured when no call was compared
    // (the second node answered none, or every call was set aside): no mismatch seen is no agreement seen.
    case 'mismatches':
      return run.diff === undefined || run.diff.compared === 0 ? null : run.diff.mismatches;
    case 'regressions': {
      const head = run.health?.head?.regressionCount;
      const reads = run.health?.reads;
      if (head === undefined && reads === undefined) return null;
      return (head ?? 0) + (reads === undefined ? 0 : reads.counts.height + reads.counts.block + reads.counts.nonce);
    }
    // The lower end of the RSS slope's interval after the warm-up, and of its last half's: above the limit only
    // when growth is sure and still there at the end.
    case 'rss-growth': {
      const trend = run.health?.resources?.rssTrend;
      // A process gone before the end: its trend is of a part of the run, not the growth the threshold speaks of.
      return trend === undefined || trend === null || trend.endedMs !== undefined ? null : sureTrendLow(trend);
    }
    // The same of the head lag's slope: above the limit only when the node surely falls further behind, to the end.
    case 'head-lag-drift': {
      const trend = run.health?.head?.lagTrend;
      return trend === undefined || trend === null ? null : sureTrendLow(trend);
    }
    // A run with faults (load/chaos/, docs/chaos.md): null without one; a recovery or failover that never came is null too.
    case 'failover':
      return run.chaos?.failoverMs ?? null;
    case 'recovery':
      return run.chaos?.recoveryMs ?? null;
    case 'lost-tx':
      return run.chaos?.lostTx ?? null;
    case 'duplicate-tx':
      return run.chaos?.duplicateTx ?? null;
    case 'forks':
      return run.chaos?.forks ?? null;
  }
}

/**
 * The achieved rate counts the requests the node served within the window, so one request scheduled at the window's
 * very end and answered just after it is short by one, whatever the node: on a short run with random (Poisson)
 * arrivals, one request is more than 1% (an outside tester's 2 s window of 54 requests read 98.1% against a server
 * that kept up). A lower bound on `achieved` is kept when the shortfall is at most that one request.
 */
export function achievedWithinOneRequest(run: Pick<LoadRun, 'schedule' | 'durationMs'>, percent: number): boolean {
  const target = run.schedule.targetRate;
  if (target === null || target === 0) return false;
  return ((target * percent) / 100 - run.schedule.achievedRate) * (run.durationMs / 1000) <= 1 + 1e-9;
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
    const graced = t.metric === 'achieved' && (t.op === '>=' || t.op === '>') && achievedWithinOneRequest(run, t.limit);
    return { name: t.text, metric: t.method === undefined ? t.metric : `${t.method}:${t.metric}`, unit: t.unit, limit: t.limit, actual: rounded, ok: actual !== null && (holds(actual, t.op, t.limit) || graced) };
  });
}
