/**
 * `--baseline <previous report>`: the same figures of this run against the previous one's, with an
 * allowance for run-to-run noise, so a CI gate fails on a real regression and not on a noisy machine.
 *
 * Only like for like: a baseline measured under another load (rate or stages, arrival model, connections, mix,
 * batch size, ...) or one whose figures the product itself did not trust is refused (baselineProblems), before
 * anything is sent. Each run is matched with the baseline's run of its URL; only the runs left unmatched are
 * paired by position among the baseline's unmatched runs (a release candidate on a new port), said in `notes`.
 * Per pair, four figures: latency p50 and p99 (worse when higher), the achieved rate (worse when lower;
 * in the open model it only moves when the node cannot keep up) and the failed-call percentage (worse when
 * higher, compared in points). The allowed relative change is the threshold (default 10%) plus twice the
 * combined relative standard error of the figure, estimated from the spread of its per-tick values in both
 * runs (docs/load.md, "Comparing with a baseline").
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseJson, type JsonValue } from '../core/json/index.js';
import { packageRoot } from '../core/paths.js';
import { formatProblems, validatorsFor, type SchemaDocument, type Validators } from '../core/schema/validators.js';
import { DEFAULTS } from './scenario/loadScenario.js';
import { parseDuration } from './scenario/parseDuration.js';
import type { BaselineComparison, BaselineDelta, FigureUnit, LoadReport, LoadRun } from './model.js';
import { ChainrpcError } from '../core/errors/ChainrpcError.js';
import { K6_BUCKETS_PER_OCTAVE } from './k6/K6Summary.js';

/** A --baseline load report that cannot be read or compared with (usage: exit 2). */
export class LoadBaselineError extends ChainrpcError {
  override readonly name = 'LoadBaselineError';
  readonly kind = 'usage';
}

export const DEFAULT_REGRESSION = 0.1;

const REPORT_SCHEMA_ID = 'https://chainrpc.dev/reports/load-report.schema.json';
let reportValidators: Validators | undefined;
const reportSchema = (): Validators =>
  (reportValidators ??= validatorsFor([parseJson(readFileSync(join(packageRoot, 'reports', 'load', 'load-report.schema.json'), 'utf8')) as SchemaDocument]));

/**
 * Reads a previous load report (report.json of `chainrpc load`), checked whole against its schema: a report whose
 * runs lacked their figures was once accepted, the run sent in full, and the comparison then crashed on the
 * missing latency (an outside tester's `{"format":"chainrpc-load/2","runs":[{"url":…,"scenario":"bn"}]}`).
 */
export function readBaselineReport(path: string): LoadReport {
  let value: JsonValue;
  try {
    value = parseJson(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new LoadBaselineError(`--baseline ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const report = value as Partial<LoadReport> | null;
  const notReport = `--baseline ${path} is not a load report (report.json of chainrpc load, format chainrpc-load/1 or /2)`;
  if (typeof report !== 'object' || report === null || !LOAD_FORMATS_READ.includes(String(report.format)) || !Array.isArray(report.runs)) throw new LoadBaselineError(notReport);
  if (report.runs.length === 0) throw new LoadBaselineError(`--baseline ${path} holds no run to compare with (a sweep's report cannot be a baseline)`);
  // A /1 report is a /2 one without the runs' health (optional in /2): checked as /2.
  const check = reportSchema().validate(REPORT_SCHEMA_ID, { ...(value as Record<string, JsonValue>), format: 'chainrpc-load/2' });
  if (!check.ok) {
    const more = check.problems.length > 3 ? ` (and ${check.problems.length - 3} more)` : '';
    throw new LoadBaselineError(`${notReport}: ${formatProblems(check.problems.slice(0, 3))}${more} (reports/load/load-report.schema.json)`);
  }
  return report as LoadReport;
}

/**
 * The load report formats a baseline may be in: /2 added the node's health (LoadRun.health), which a baseline
 * comparison does not read, so a /1 report compares as before.
 */
const LOAD_FORMATS_READ: readonly string[] = ['chainrpc-load/1', 'chainrpc-load/2'];

type Fields = Record<string, unknown>;
const fields = (v: unknown): Fields => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Fields) : {});
/** JSON with its keys sorted: two definitions that say the same thing read the same. */
const canonical = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(canonical).join(',')}]` : typeof v === 'object' && v !== null ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Fields)[k])}`).join(',')}}` : JSON.stringify(typeof v === 'bigint' ? v.toString() : v) ?? 'null';
const ms = (d: unknown): string => {
  try {
    return typeof d === 'string' ? `${parseDuration(d)} ms` : canonical(d);
  } catch {
    return canonical(d);
  }
};
const stageText = (st: unknown): string => {
  const x = fields(st);
  return `${'rate' in x ? `${canonical(x.rate)}/s` : `${canonical(x.from)}→${canonical(x.to)}/s`} for ${ms(x.duration)}`;
};
function arrivalsText(a: Fields): string {
  if (a.model === 'closed') return `closed, ${canonical(a.connections)} connections`;
  const shape = Array.isArray(a.stages) ? `stages ${a.stages.map(stageText).join(', ')}` : `${canonical(a.rate)}/s`;
  return `open, ${shape}, ${typeof a.distribution === 'string' ? a.distribution : 'uniform'} arrivals`;
}

/**
 * What sets the load of a scenario's definition, by name, defaults filled in as loadScenario fills them. The run's
 * length, warm-up, seed, thresholds and the share of results validated are not among them (a longer gate run is
 * still the same load); the corpus file's path is not either (it differs from machine to machine).
 */
function loadOf(definition: unknown): Map<string, string> {
  const d = fields(definition);
  const a = fields(d.arrivals);
  const open = a.model !== 'closed';
  const maxInFlight = typeof d.maxInFlight === 'number' ? d.maxInFlight : DEFAULTS.maxInFlight;
  const tx = fields(d.transactions);
  const params = fields(d.params);
  const mix = (Array.isArray(d.mix) ? d.mix : []).map((e) => {
    const entry = fields(e);
    const batch = fields(entry.batch);
    const calls = (Array.isArray(batch.mix) ? batch.mix : []).map((c) => ({ ...fields(c), weight: fields(c).weight ?? 1 }));
    return 'batch' in entry ? { weight: entry.weight ?? 1, batch: { size: batch.size, mix: calls } } : { ...entry, weight: entry.weight ?? 1 };
  });
  return new Map([
    ['arrivals', arrivalsText(a)],
    ['connections', open ? canonical(d.connections ?? Math.min(maxInFlight, DEFAULTS.maxConnections)) : 'n/a'],
    ['maxInFlight', open ? canonical(maxInFlight) : 'n/a'],
    ['timeout', d.timeout === undefined ? `${DEFAULTS.timeoutMs} ms` : ms(d.timeout)],
    ['mix', canonical(mix)],
    ['transactions', canonical({ senders: tx.senders ?? DEFAULTS.senders, perSender: tx.perSender ?? 'enough for the run', batchSize: tx.batchSize ?? DEFAULTS.batchSize })],
    ['params', canonical({ recentBlocks: params.recentBlocks ?? DEFAULTS.recentBlocks, accounts: params.accounts ?? DEFAULTS.accounts })],
    ['chaos', canonical(d.chaos ?? [])],
  ]);
}

const clip = (text: string): string => (text.length > 160 ? `${text.slice(0, 157)}...` : text);

/** How the load of two scenario definitions differs, one phrase per field ("arrivals: baseline open, 200/s, ...; this run ..."). */
export function loadDifferences(baselineDefinition: unknown, definition: unknown): string[] {
  const before = loadOf(baselineDefinition);
  const now = loadOf(definition);
  return [...now].filter(([k, v]) => before.get(k) !== v).map(([k, v]) => `${k}: the baseline's ${clip(before.get(k) ?? 'none')}, this run's ${clip(v)}`);
}

/** Why a baseline run's figures are not to be compared with (it was not trusted when it ran); undefined when they are. */
function untrusted(run: LoadRun): string | undefined {
  if (!run.valid) return run.invalid.length > 0 ? run.invalid.join('; ') : 'its figures were marked not to be trusted';
  if (run.stop.reason !== 'completed') return `it stopped early (${run.stop.reason}${run.stop.message === undefined ? '' : `: ${run.stop.message}`})`;
  return undefined;
}

/**
 * What makes a baseline unfit for this scenario's runs, known before anything is sent (an outside tester's gate
 * compared a run at 100/s with a baseline at 200/s and "failed" on the achieved rate, compared another scenario file
 * also named `bn`, and took a baseline of a node that never answered: latency then the time to ECONNREFUSED). Throws
 * LoadBaselineError: no run of the scenario, a run of it not trusted, or another load.
 */
export function baselineProblems(path: string, baseline: LoadReport, scenario: { name: string; definition: unknown }, urls?: readonly string[]): void {
  const runs = baseline.runs.filter((r) => r.scenario === scenario.name);
  if (runs.length === 0) throw new LoadBaselineError(`--baseline ${path} has no run of scenario ${scenario.name} (it ran ${[...new Set(baseline.runs.map((r) => r.scenario))].join(', ')})`);
  // Only the runs this one will be compared with: those of its URLs when any matches (pairs() matches by URL first; an
  // outside tester's trusted run of the one URL given was refused for the other URL's untrusted run), else any.
  const byUrl = urls === undefined ? [] : runs.filter((r) => urls.includes(r.url));
  for (const run of byUrl.length > 0 && byUrl.length === urls?.length ? byUrl : runs) {
    const why = untrusted(run);
    if (why !== undefined) throw new LoadBaselineError(`--baseline ${path}: its run of ${run.url} is not one to compare with, its report marked it NOT TRUSTED: ${why}; record the baseline again`);
  }
  const differences = loadDifferences(baseline.scenario.definition, scenario.definition);
  if (differences.length > 0) {
    throw new LoadBaselineError(`--baseline ${path} was measured under another load than this run's, so its figures are not like for like: ${differences.join('; ')}; run the scenario as the baseline ran it, or record a new baseline`);
  }
}

/**
 * How two runs' arrival models differ (the rates they were asked for); undefined when alike. The length may differ:
 * a run's stages (runs of one rate joined) begin as the other's do, the last of the shorter one may be cut short (a
 * steady rate run longer; a replay looped longer over the same recorded pace, which an outside tester's gate refused).
 */
function modelDifference(before: LoadRun['model'], now: LoadRun['model']): string | undefined {
  const said = (m: LoadRun['model']): string =>
    m.kind === 'closed' ? `closed, ${m.connections} connections` : `open, ${m.distribution}, ${joined(m.stages).map((st, _, all) => (st.from === st.to ? `${st.from}/s` : `${st.from}→${st.to}/s`) + (all.length > 1 || st.from !== st.to ? ` for ${st.durationMs} ms` : '')).join(', ')}`;
  if (before.kind === 'closed' || now.kind === 'closed' || before.distribution !== now.distribution) return said(before) === said(now) ? undefined : `the baseline's ${said(before)}, this run's ${said(now)}`;
  const [a, b] = [joined(before.stages), joined(now.stages)];
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const alike = short.every((st, i) => {
    const other = long[i];
    const last = i === short.length - 1;
    return other !== undefined && st.from === other.from && st.to === other.to && (st.durationMs === other.durationMs || (last && st.from === st.to && st.durationMs <= other.durationMs));
  });
  return alike ? undefined : `the baseline's ${said(before)}, this run's ${said(now)}`;
}

type Stage = Extract<LoadRun['model'], { kind: 'open' }>['stages'][number];

/** Stages with each run of one steady rate joined into one. */
function joined(stages: readonly Stage[]): Stage[] {
  const out: Stage[] = [];
  for (const st of stages) {
    const last = out.at(-1);
    if (last !== undefined && last.from === last.to && st.from === st.to && st.from === last.from) out[out.length - 1] = { ...last, durationMs: last.durationMs + st.durationMs };
    else out.push({ ...st });
  }
  return out;
}

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

/** A bucket of k6's latency histograms, relative: 2^(1/70) - 1 = 1.0% (load/k6/K6Summary.ts; 9.05% in format 1 summaries). */
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

/**
 * Each run with the baseline's run of its URL and scenario; then each run left over with the baseline's runs left
 * over, in order (a new port, a new host), said in `notes`, as is a run left with none. Until 2026-11-29 one new URL
 * paired every run by position, so a node was compared with another node's baseline and its own went unused.
 */
function pairs(baseline: LoadReport, runs: readonly LoadRun[]): { pairs: [LoadRun, LoadRun][]; notes: string[] } {
  const spare = [...baseline.runs];
  const take = (found: (b: LoadRun) => boolean): LoadRun | undefined => {
    const i = spare.findIndex(found);
    return i < 0 ? undefined : spare.splice(i, 1)[0];
  };
  const own = runs.map((r) => take((b) => b.url === r.url && b.scenario === r.scenario));
  const notes: string[] = [];
  const paired = runs.flatMap((r, i): [LoadRun, LoadRun][] => {
    const b = own[i] ?? take((x) => x.scenario === r.scenario);
    if (b === undefined) notes.push(`${r.url}: the baseline has no run of it (nor one of another URL left over), so it is not compared`);
    else if (b.url !== r.url) notes.push(`${r.url} is compared with the baseline's run of ${b.url}: the baseline has no run of ${r.url}, and the runs of URLs it lacks take its runs left over, in order`);
    return b === undefined ? [] : [[b, r]];
  });
  return { pairs: paired, notes };
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
  return compareWithBaseline(file, baseline, runs, threshold).comparison;
}

/**
 * The comparison, and what it says besides its rows (printed by the command): how runs were paired when a URL
 * differs, a run with no baseline run, and a figure not compared because its baseline is 0. Throws LoadBaselineError
 * when nothing can be compared, or a pair's runs were asked for another load (a baseline run not trusted is refused
 * before anything is sent, by baselineProblems).
 */
export function compareWithBaseline(file: string, baseline: LoadReport, runs: readonly LoadRun[], threshold = DEFAULT_REGRESSION): { comparison: BaselineComparison; notes: string[] } {
  const deltas: BaselineDelta[] = [];
  const paired = pairs(baseline, runs);
  const notes = [...paired.notes];
  for (const [before, now] of paired.pairs) {
    const other = modelDifference(before.model, now.model);
    if (other !== undefined) throw new LoadBaselineError(`--baseline ${file}: its run of ${before.url} was asked for another load than ${now.url}'s (${other}), so its figures are not like for like`);
    for (const f of FIGURES) {
      const b = f.value(before);
      const c = f.value(now);
      if (f.points === true) {
        const change = (c - b) / 100;
        deltas.push({ metric: rowName(before, now, f.name), unit: f.unit, baseline: b, current: c, change, allowed: threshold / 10, regression: change * f.worse > threshold / 10 });
        continue;
      }
      if (b === 0) {
        // No relative change from 0: said, not skipped silently.
        notes.push(`${rowName(before, now, f.name)} is not compared: the baseline's is 0 (this run's ${c} ${f.unit})`);
        continue;
      }
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
  if (paired.pairs.length === 0 && runs.length > 0) {
    throw new LoadBaselineError(`--baseline ${file} has no run of scenario ${runs[0]?.scenario ?? ''} to compare with`);
  }
  return { comparison: { file: resolvedBaselinePath(file), createdAt: baseline.createdAt, deltas }, notes };
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
