/**
 * `--baseline <previous report>`: the same figures of this run against the previous one's, with an
 * allowance for run-to-run noise, so a CI gate fails on a real regression and not on a noisy machine.
 *
 * For each run matched by URL and scenario (or, when the URLs differ, by position: a release candidate on
 * a new port), four figures: latency p50 and p99 (worse when higher), the achieved rate (worse when lower;
 * in the open model it only moves when the node cannot keep up) and the failed-call percentage (worse when
 * higher, compared in points). The allowed relative change is the threshold (default 10%) plus twice the
 * combined relative standard error of the figure, estimated from the spread of its per-tick values in both
 * runs (docs/load.md, "Comparing with a baseline").
 */
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseJson } from '../core/json/index.js';
import type { BaselineComparison, BaselineDelta, FigureUnit, LoadReport, LoadRun } from './model.js';
import { ChainrpcError } from '../core/errors/ChainrpcError.js';
import { K6_BUCKETS_PER_OCTAVE } from './k6/K6Summary.js';

/** A --baseline load report that cannot be read or compared with (usage: exit 2). */
export class LoadBaselineError extends ChainrpcError {
  override readonly name = 'LoadBaselineError';
  readonly kind = 'usage';
}

export const DEFAULT_REGRESSION = 0.1;

/** Reads a previous load report (report.json of `chainrpc load`). */
export function readBaselineReport(path: string): LoadReport {
  let value: unknown;
  try {
    value = parseJson(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new LoadBaselineError(`--baseline ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const report = value as Partial<LoadReport> | null;
  if (typeof report !== 'object' || report === null || !LOAD_FORMATS_READ.includes(String(report.format)) || !Array.isArray(report.runs)) {
    throw new LoadBaselineError(`--baseline ${path} is not a load report (report.json of chainrpc load, format chainrpc-load/1 or /2)`);
  }
  if (report.runs.length === 0) throw new LoadBaselineError(`--baseline ${path} holds no run to compare with (a sweep's report cannot be a baseline)`);
  return report as LoadReport;
}

/**
 * The load report formats a baseline may be in: /2 added the node's health (LoadRun.health), which a baseline
 * comparison does not read, so a /1 report compares as before.
 */
const LOAD_FORMATS_READ: readonly string[] = ['chainrpc-load/1', 'chainrpc-load/2'];

/** The relative standard error of the mean of per-tick values (0 with fewer than two). */
function relativeError(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (mean === 0) return 0;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  return Math.sqrt(variance / n) / mean;
}

/**
 * The measured window's whole ticks: a tick begun in the warm-up, or at or after the window's end (the drain, where
 * a last request or two ends), is not one of its seconds, and one such tick of 1 answer tripled the noise
 * allowed an achieved rate of 100/s (a 25.6% loss then passed). Nor is a tick that the next point begins before it
 * ends: in a node's merged run (several --url) a segment's last tick cut by the segment's end, or, in reports
 * written before the merge left them out, a segment's drain tick placed at the next segment's start (one of 1 to 4
 * answers there took the achieved rate's allowance from 0.11 to 0.51). A tick is 1 s (runEngine's tickMs).
 */
const TICK_MS = 1_000;
const measured = (run: LoadRun): LoadRun['timeline'] =>
  run.timeline.filter((p, i, all) => p.tMs >= 0 && p.tMs + TICK_MS <= run.durationMs && p.completed > 0 && (all[i + 1]?.tMs ?? Infinity) >= p.tMs + TICK_MS);

interface Figure {
  name: string;
  unit: FigureUnit;
  value: (run: LoadRun) => number;
  perTick: (run: LoadRun) => number[];
  /** +1: higher is worse; -1: lower is worse. */
  worse: 1 | -1;
  /** Compared as a difference in points, not a ratio (a percentage that may be 0). */
  points?: boolean;
  /** A latency percentile: in a k6 merge, the middle of a bucket 2^(1/8) wide. */
  bucketed?: boolean;
}

/** A bucket of k6's latency histograms, relative: 2^(1/8) - 1 = 9.05% (load/k6/K6Summary.ts). */
const K6_BUCKET_WIDTH = 2 ** (1 / K6_BUCKETS_PER_OCTAVE) - 1;

/** A run merged from k6's summaries (mergeK6Summaries): totals only, no timeline and no service time. */
const fromK6 = (run: LoadRun): boolean => run.timeline.length === 0 && run.service.count === 0 && run.latency.count > 0;

const failedPercent = (r: LoadRun): number => {
  const calls = r.methods.reduce((n, m) => n + m.calls, 0);
  return calls === 0 ? 0 : ((calls - r.methods.reduce((n, m) => n + m.ok, 0)) / calls) * 100;
};

const FIGURES: Figure[] = [
  { name: 'p50', unit: 'ms', value: (r) => r.latency.p50 / 1000, perTick: (r) => measured(r).map((p) => p.p50Us), worse: 1, bucketed: true },
  { name: 'p99', unit: 'ms', value: (r) => r.latency.p99 / 1000, perTick: (r) => measured(r).map((p) => p.p99Us), worse: 1, bucketed: true },
  // Per tick, what the achieved rate counts: the requests the node served (reports before `served`: every one that ended).
  { name: 'achievedRate', unit: '/s', value: (r) => r.schedule.achievedRate, perTick: (r) => measured(r).map((p) => p.served ?? p.completed), worse: -1 },
  { name: 'errors%', unit: '%', value: failedPercent, perTick: () => [], worse: 1, points: true },
];

function pairs(baseline: LoadReport, runs: readonly LoadRun[]): [LoadRun, LoadRun][] {
  const byKey = new Map(baseline.runs.map((r) => [`${r.url} ${r.scenario}`, r]));
  const matched = runs.map((r) => byKey.get(`${r.url} ${r.scenario}`));
  if (matched.every((m) => m !== undefined)) return runs.map((r, i) => [matched[i] as LoadRun, r]);
  // Different URLs (a new port, a new host): by position, same scenario.
  return runs.flatMap((r, i) => {
    const b = baseline.runs[i];
    return b !== undefined && b.scenario === r.scenario ? [[b, r] as [LoadRun, LoadRun]] : [];
  });
}

/**
 * The baseline file as it was read: the path resolved (links followed). A `latest/report.json` a later run moves
 * would otherwise name another report than the one compared with. As given when it cannot be resolved.
 */
export function resolvedBaselinePath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

/**
 * A delta's row name: "<url> <scenario> <figure>" when both runs were of one URL; when the baseline was measured on
 * another, both ("<url> (baseline <url>) <scenario> <figure>"), so no row claims the baseline was this URL's.
 */
const rowName = (before: LoadRun, now: LoadRun, figure: string): string =>
  before.url === now.url ? `${now.url} ${now.scenario} ${figure}` : `${now.url} (baseline ${before.url}) ${now.scenario} ${figure}`;

export function compareBaseline(file: string, baseline: LoadReport, runs: readonly LoadRun[], threshold = DEFAULT_REGRESSION): BaselineComparison {
  const deltas: BaselineDelta[] = [];
  for (const [before, now] of pairs(baseline, runs)) {
    for (const f of FIGURES) {
      const b = f.value(before);
      const c = f.value(now);
      if (f.points === true) {
        const change = (c - b) / 100;
        deltas.push({ metric: rowName(before, now, f.name), unit: f.unit, baseline: b, current: c, change, allowed: threshold / 10, regression: change * f.worse > threshold / 10 });
        continue;
      }
      if (b === 0) continue;
      const change = (c - b) / b;
      const noise = 2 * Math.hypot(relativeError(f.perTick(before)), relativeError(f.perTick(now)));
      // A k6 merge has no ticks to tell its noise by, and its percentiles are bucket middles: the same latency may be
      // written one bucket apart (+9.05%) in two runs. That bucket is allowed besides (an outside tester's reruns of one
      // server failed at --regression 8 on a one-bucket flip of p99).
      const resolution = f.bucketed === true && (fromK6(before) || fromK6(now)) ? K6_BUCKET_WIDTH : 0;
      const allowed = threshold + noise + resolution;
      deltas.push({ metric: rowName(before, now, f.name), unit: f.unit, baseline: b, current: c, change, allowed, regression: change * f.worse > allowed });
    }
  }
  if (deltas.length === 0 && runs.length > 0) {
    throw new LoadBaselineError(`--baseline ${file} has no run of scenario ${runs[0]?.scenario ?? ''} to compare with`);
  }
  return { file: resolvedBaselinePath(file), createdAt: baseline.createdAt, deltas };
}

/** Whether a figure is worse when it goes up (+1: latencies, errors) or down (-1: the achieved rate), from its row's name. */
const worseOf = (d: Pick<BaselineDelta, 'metric'>): 1 | -1 => FIGURES.find((f) => d.metric.endsWith(` ${f.name}`))?.worse ?? 1;

/**
 * What a delta says, the same way for every figure: a regression beyond the allowed change the worse way, an
 * improvement beyond it the better way, else within noise.
 */
export function deltaOutcome(d: Pick<BaselineDelta, 'metric' | 'change' | 'allowed' | 'regression'>): 'regression' | 'improved' | 'within noise' {
  if (d.regression) return 'regression';
  return -d.change * worseOf(d) > d.allowed ? 'improved' : 'within noise';
}

/** Whether a delta is compared in percentage points (the failed-call share), not as a relative change. */
export const inPoints = (d: Pick<BaselineDelta, 'unit'>): boolean => d.unit === '%';
