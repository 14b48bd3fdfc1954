/**
 * `chainrpc load merge`: the summaries that k6 instances of one chainrpc scenario wrote (load/k6/K6Summary.ts,
 * one per --execution-segment or k6-operator pod; read and checked by readK6Summary.ts) added up into one LoadRun
 * of the load harness (load/model.ts), so k6 runs get the same reports, thresholds and baseline comparison as
 * the engine's. The segments must cover the test once (executionSegments.ts).
 *
 * Counters add exactly. Histograms travel as counts per logarithmic bucket (K6Summary.ts); the merge adds the
 * counts bucket by bucket first, then records each bucket's geometric middle, 2^((i + 0.5) / 8) µs rounded,
 * `count` times into the harness's HDR histogram (load/metrics/Histogram.ts). A merged percentile is therefore
 * exact to the bucket resolution: it is the middle of the bucket that holds the true percentile, within 4.4%
 * of any value in that bucket (plus HDR's 0.1%), and it is the same whichever way the data was split across
 * instances, since only the summed counts reach the histogram.
 *
 * What k6 cannot say is said plainly in the run: no scheduled-time latency (k6's http_req_duration runs from
 * the write, so `latency` and `service` are the same histogram; docs/load.md explains), no schedule lag
 * (`lagUs` is empty), no result validation (`validated` and `invalid` are 0), no timeline (k6 summaries are
 * totals). Thresholds are judged again on the merged run, with the scenario definition's thresholds.
 */
import type { JsonValue } from '../../core/json/index.js';
import { Histogram } from '../metrics/Histogram.js';
import type { ArrivalModel, BatchSizeStats, HistogramData, LoadRun, MethodStats, RequestFailures } from '../model.js';
import { resolveScenario } from '../scenario/loadScenario.js';
import { ScenarioError } from '../scenario/ScenarioError.js';
import { evaluateThresholds, parseThreshold, type Threshold } from '../scenario/Threshold.js';
import { checkSegments } from './executionSegments.js';
import { K6_BUCKETS_PER_OCTAVE, K6_UNMEASURED_METRICS, k6ReplayJudges, type K6Buckets, type K6MethodCounts, type K6Summary } from './K6Summary.js';
import { K6SummaryError, show } from './K6SummaryError.js';

// What `chainrpc load merge` (cli/commands/load/merge.ts) takes from here: reading, merging, and the error of both.
export { K6SummaryError } from './K6SummaryError.js';
export { readK6Summary } from './readK6Summary.js';

/**
 * Instances whose ends lie further apart than this (or than 10% of warm-up plus measured window, if longer)
 * did not run together: the node never took the whole scenario's rate, and the merged figures say otherwise.
 */
export const K6_MAX_END_SPREAD_MS = 5000;

/** The value a bucket stands for in the merged histogram: its geometric middle, in whole µs. */
export function k6BucketMiddleUs(index: number): number {
  return Math.round(2 ** ((index + 0.5) / K6_BUCKETS_PER_OCTAVE));
}

/** The JSON pointer of the first place where two JSON values differ, or null when they are equal. */
function firstDifference(a: unknown, b: unknown, pointer = ''): string | null {
  if (a === b) return null;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return pointer || '/';
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(ao), ...Object.keys(bo)])];
  for (const k of keys) {
    const d = firstDifference(ao[k], bo[k], `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (d !== null) return d;
  }
  return null;
}

const baseUrl = (url: string): string => url.replace(/\/+$/, '');

/** Refuses summaries of different scenarios, definitions, nodes or profiles. */
function checkSameRun(summaries: readonly K6Summary[], name: (i: number) => string): void {
  const [first] = summaries as [K6Summary];
  summaries.forEach((s, i) => {
    if (i === 0) return;
    if (s.scenario.name !== first.scenario.name) throw new K6SummaryError(`the summaries are of different scenarios: ${first.scenario.name} (${name(0)}) and ${s.scenario.name} (${name(i)}); merge each scenario's summaries on their own`);
    if (baseUrl(s.url) !== baseUrl(first.url)) throw new K6SummaryError(`the summaries are of different nodes: ${first.url} (${name(0)}) and ${s.url} (${name(i)}); merge each node's summaries on their own`);
    const at = firstDifference(first.scenario.definition, s.scenario.definition);
    if (at !== null) throw new K6SummaryError(`${name(0)} and ${name(i)} ran scenario ${first.scenario.name} with different definitions (they differ at ${at}): they are not parts of one test`);
    const figures = (['durationMs', 'warmupMs', 'model'] as const).find((k) => firstDifference(first[k], s[k]) !== null);
    if (figures !== undefined) throw new K6SummaryError(`${name(0)} and ${name(i)} differ in ${figures}: they are not parts of one test`);
    if (firstDifference(first.replay, s.replay) !== null) throw new K6SummaryError(`${name(0)} and ${name(i)} replay different captures or plans: they are not parts of one test`);
    if (firstDifference(first.profile, s.profile) !== null) throw new K6SummaryError(`${name(0)} and ${name(i)} were made with different profiles (${first.profile?.name ?? 'reference'}, ${s.profile?.name ?? 'reference'}): they are not parts of one test`);
  });
}

/** Bucket counts summed across summaries (exact integers). */
function addBuckets(parts: readonly K6Buckets[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const b of parts) for (const [k, n] of Object.entries(b)) out.set(Number(k), (out.get(Number(k)) ?? 0) + n);
  return out;
}

/** The harness's histogram of summed buckets: each bucket's geometric middle recorded with its count (exact to the bucket resolution). */
function histogramOf(buckets: Map<number, number>): HistogramData {
  const h = new Histogram();
  for (const [index, count] of [...buckets.entries()].sort((a, b) => a[0] - b[0])) if (count > 0) h.record(k6BucketMiddleUs(index), count);
  return h.toData();
}

const sumRecords = (records: readonly Record<string, number>[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const r of records) for (const [k, v] of Object.entries(r)) out[k] = (out[k] ?? 0) + v;
  return out;
};

/** The open model's mean rate over the measured window (the time-weighted mean of its stages), requests/s. */
function modelRate(model: ArrivalModel): number | null {
  if (model.kind === 'closed') return null;
  const ms = model.stages.reduce((n, s) => n + s.durationMs, 0);
  return ms === 0 ? 0 : model.stages.reduce((n, s) => n + ((s.from + s.to) / 2) * s.durationMs, 0) / ms;
}

/**
 * The thresholds to judge the merged run by: those of the scenario definition a summary carries (checked
 * against the summary's own name, times and model), less those k6 does not measure.
 */
function judgedThresholds(first: K6Summary, source: string): Threshold[] {
  // A replay's definition is no scenario (what it sends is its capture's): its thresholds are read as they are written.
  if (first.replay !== undefined) return replayThresholds(first, source);
  try {
    const resolved = resolveScenario(first.scenario.definition as JsonValue, {}, `the scenario in ${source}`);
    if (resolved.name !== first.scenario.name) throw new K6SummaryError(`${source}: scenario.name is ${first.scenario.name} but its definition is named ${resolved.name}`);
    for (const k of ['durationMs', 'warmupMs', 'model'] as const) {
      if (firstDifference(resolved[k], first[k]) !== null) throw new K6SummaryError(`${source}: ${k} is ${show(first[k])}, but the scenario definition it carries gives ${show(resolved[k])}`);
    }
    // What only the Node engine measures was never measured here: left out, not broken (chainrpc load k6 says so).
    return resolved.thresholds.filter((t) => !K6_UNMEASURED_METRICS.has(t.metric));
  } catch (error) {
    if (error instanceof ScenarioError) throw new K6SummaryError(`${error.message} (the definition a summary carries is the scenario as it ran)`);
    throw error;
  }
}

/** The thresholds of a replay's test (its definition's `thresholds`), less those a k6 replay does not judge. */
function replayThresholds(first: K6Summary, source: string): Threshold[] {
  const definition = first.scenario.definition as { thresholds?: unknown } | null;
  const texts = definition?.thresholds;
  if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) throw new K6SummaryError(`${source}: a replay's scenario.definition.thresholds must be the thresholds' texts (an array of strings)`);
  return (texts as string[]).map((text) => {
    try {
      return parseThreshold(text);
    } catch (error) {
      throw new K6SummaryError(`${source}: scenario.definition.thresholds: ${error instanceof Error ? error.message : String(error)}`);
    }
  }).filter((t) => k6ReplayJudges(t.metric));
}

/**
 * One LoadRun out of the summaries of one k6 test: every instance (execution segment) of it, or one whole run.
 * `sources` names the summaries in messages (their files); without it they are "summary 1", "summary 2", ...
 * Throws K6SummaryError when they are not the parts of one test.
 */
export function mergeK6Summaries(summaries: readonly K6Summary[], sources?: readonly string[]): LoadRun {
  const name = (i: number): string => sources?.[i] ?? `summary ${i + 1}`;
  const [first] = summaries;
  if (first === undefined) throw new K6SummaryError('no summary to merge');
  checkSameRun(summaries, name);
  checkSegments(summaries, name);

  const thresholds = judgedThresholds(first, name(0));

  const { durationMs, warmupMs, model } = first;
  const seconds = durationMs / 1000;
  const latency = histogramOf(addBuckets(summaries.map((s) => s.requests.latency)));
  const requests = summaries.reduce((n, s) => n + s.requests.count, 0);
  const started = summaries.reduce((n, s) => n + s.schedule.started, 0);
  const dropped = summaries.reduce((n, s) => n + s.schedule.dropped, 0);

  const methodNames = [...new Set(summaries.flatMap((s) => Object.keys(s.methods)))].sort();
  const methods: MethodStats[] = methodNames.map((method) => {
    const parts = summaries.flatMap((s) => (Object.hasOwn(s.methods, method) ? [s.methods[method] as K6MethodCounts] : []));
    const h = histogramOf(addBuckets(parts.map((m) => m.latency)));
    return {
      method,
      calls: parts.reduce((n, m) => n + m.calls, 0),
      ok: parts.reduce((n, m) => n + m.ok, 0),
      errors: sumRecords(parts.map((m) => m.errors)),
      unanswered: parts.reduce((n, m) => n + m.unanswered, 0),
      // k6 does not check results against the method's schema.
      validated: 0,
      invalid: 0,
      latency: h,
      service: { ...h },
    };
  });

  // k6's "1" is a single call (not a batch); the harness names it "single".
  const sizes = [...new Set(summaries.flatMap((s) => Object.keys(s.batchSizes)))].sort((a, b) => Number(a) - Number(b));
  const batchSizes: BatchSizeStats[] = sizes.map((size) => {
    const parts = summaries.flatMap((s) => (Object.hasOwn(s.batchSizes, size) ? [s.batchSizes[size] as K6Summary['batchSizes'][string]] : []));
    const h = histogramOf(addBuckets(parts.map((b) => b.latency)));
    return { size: size === '1' ? 'single' : size, requests: parts.reduce((n, b) => n + b.requests, 0), latency: h, service: { ...h } };
  });

  const failed = (k: Exclude<keyof RequestFailures, 'httpStatus'>): number => summaries.reduce((n, s) => n + s.failures[k], 0);
  const failures: RequestFailures = {
    timeouts: failed('timeouts'),
    transport: failed('transport'),
    httpStatus: sumRecords(summaries.map((s) => s.failures.httpStatus)),
    malformed: failed('malformed'),
    extraElements: failed('extraElements'),
    missingElements: failed('missingElements'),
  };

  const ends = summaries.map((s) => Date.parse(s.endedAt));
  const lastEnd = Math.max(...ends);
  const spreadMs = lastEnd - Math.min(...ends);
  const allowedSpreadMs = Math.max(K6_MAX_END_SPREAD_MS, (warmupMs + durationMs) / 10);
  const invalid: string[] = [];
  if (spreadMs > allowedSpreadMs) {
    invalid.push(
      `the k6 instances did not run together: their ends lie ${(spreadMs / 1000).toFixed(1)} s apart (more than ${(allowedSpreadMs / 1000).toFixed(1)} s), so the node never took the whole scenario's load at once; start every instance together (the k6-operator does)`,
    );
  }

  const run: LoadRun = {
    url: baseUrl(first.url),
    scenario: first.scenario.name,
    model,
    startedAt: new Date(lastEnd - durationMs - warmupMs).toISOString(),
    endedAt: new Date(lastEnd).toISOString(),
    warmupMs,
    durationMs,
    valid: invalid.length === 0,
    invalid,
    schedule: {
      // Open model: the rate the scenario's stages ask for over the measured window; the closed model has none.
      targetRate: modelRate(model),
      // As runEngine defines it: exchanges that ended (answered or failed, any outcome) per second of the
      // measured window. k6 counts a request (http_reqs) when its exchange ends, so that is requests.count.
      achievedRate: seconds > 0 ? requests / seconds : 0,
      scheduled: started + dropped,
      sent: requests,
      dropped,
      // k6 queues nothing: an iteration with no free VU is dropped.
      queuedMax: 0,
      // k6 does not expose how late it started each iteration.
      lagUs: new Histogram().toData(),
    },
    failures,
    latency,
    // k6 times a request from its write (http_req_duration), not from a scheduled time: the one histogram
    // stands for both (docs/load.md, k6 runs).
    service: { ...latency },
    methods,
    batchSizes,
    // k6 summaries are totals: no timeline.
    timeline: [],
    thresholds: [],
    stop: { reason: 'completed', atMs: durationMs },
  };
  const wire = first.profile?.wire ?? {};
  run.thresholds = evaluateThresholds(run, thresholds, (m) => wire[m] ?? m);
  return run;
}
