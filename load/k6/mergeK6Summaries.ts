/**
 * `chainrpc load merge`: the summaries that k6 instances of one chainrpc scenario wrote (load/k6/K6Summary.ts,
 * one per --execution-segment or k6-operator pod; read and checked by readK6Summary.ts) added up into one LoadRun
 * of the load harness (load/model.ts), so k6 runs get the same reports, thresholds and baseline comparison as
 * the engine's. The segments must cover the test once (executionSegments.ts).
 *
 * Counters add exactly. Histograms travel as counts per logarithmic bucket (K6Summary.ts); the merge adds the
 * counts bucket by bucket first, then records each bucket's geometric middle, 2^((i + 0.5) / 70) µs rounded,
 * `count` times into the harness's HDR histogram (load/metrics/Histogram.ts). A merged percentile is therefore
 * exact to the bucket resolution: it is the middle of the bucket that holds the true percentile, within 0.5%
 * of any value in that bucket (plus HDR's 0.1%), and it is the same whichever way the data was split across
 * instances, since only the summed counts reach the histogram. The exact sum, min and max travel beside the
 * buckets and merge exactly: the merged min, max and mean are exact, and no percentile lies outside [min, max].
 * (Format 1 summaries: 9%-wide buckets, within 4.4%, and min, max and mean from bucket middles.)
 *
 * What k6 cannot say is said plainly in the run: one latency, as k6 measured it (k6's http_req_duration runs
 * from the write; a replay adds each request's delay after its time), and no service time apart (`service` is
 * empty: a copy of the latency would pass for a second measurement); no schedule lag (`lagUs` is empty), no
 * result validation (`validated` and `invalid` are 0), no timeline (k6 summaries are totals). Requests an
 * instance sent that never ended (k6 cut them off) count as sent and failed. What k6 actually ran is checked
 * against the script (checkK6Run.ts). Thresholds are judged again on the merged run, with the scenario
 * definition's thresholds; those k6 does not measure are left out and returned with why (`mergeK6`).
 */
import type { JsonValue } from '../../core/json/index.js';
import { Histogram } from '../metrics/Histogram.js';
import type { ArrivalModel, BatchSizeStats, HistogramData, LoadRun, MethodStats, RequestFailures } from '../model.js';
import { resolveScenario } from '../scenario/loadScenario.js';
import { ScenarioError } from '../scenario/ScenarioError.js';
import { evaluateThresholds, parseThreshold, type Threshold, type ThresholdMetric } from '../scenario/Threshold.js';
import { ranProblems, runWindow } from './checkK6Run.js';
import { checkSegments } from './executionSegments.js';
import { K6_BUCKETS_PER_OCTAVE, K6_SUMMARY_FORMAT_V1, k6BucketsOf, K6_UNMEASURED_METRICS, k6ReplayJudges, type K6Buckets, type K6Exact, type K6MethodCounts, type K6Summary } from './K6Summary.js';
import { K6SummaryError, show } from './K6SummaryError.js';

// What `chainrpc load merge` (cli/commands/load/merge.ts) takes from here: reading, merging, and the error of both.
export { K6SummaryError } from './K6SummaryError.js';
export { readK6Summary } from './readK6Summary.js';

/** The value a bucket stands for in the merged histogram: its geometric middle, in whole µs (`perOctave`: the layout's, format 2's unless told). */
export function k6BucketMiddleUs(index: number, perOctave = K6_BUCKETS_PER_OCTAVE): number {
  return Math.round(2 ** ((index + 0.5) / perOctave));
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
    if (s.format !== first.format) throw new K6SummaryError(`${name(0)} is of format ${first.format} and ${name(i)} of ${s.format}: they were written by different chainrpc k6 runtimes (their latency buckets differ), so they are not parts of one test; make the test again and run every instance of it`);
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

/** One histogram of one summary: its buckets, and (format 2) its exact figures. */
interface K6Part {
  latency: K6Buckets;
  latencyExact?: K6Exact;
}

/**
 * The harness's histogram of parts' summed buckets (of `perOctave`): each bucket's geometric middle recorded with its
 * count (exact to the bucket resolution). When every part holding values carries its exact figures, the min, max and
 * mean are those (exact), and each percentile is kept within [min, max]: a bucket's middle may lie beyond every value
 * in it (a server answering in exactly 200 ms had a merged p50 of 193.66 ms, and a mean too, in 9%-wide buckets).
 */
function histogramOf(parts: readonly K6Part[], perOctave: number): HistogramData {
  const buckets = addBuckets(parts.map((p) => p.latency));
  const h = new Histogram();
  for (const [index, count] of [...buckets.entries()].sort((a, b) => a[0] - b[0])) if (count > 0) h.record(k6BucketMiddleUs(index, perOctave), count);
  const data = h.toData();
  const holding = parts.filter((p) => Object.values(p.latency).some((n) => n > 0));
  if (data.count === 0 || holding.some((p) => p.latencyExact === undefined)) return data;
  const exact = holding.map((p) => p.latencyExact as K6Exact);
  const min = Math.round(Math.min(...exact.map((e) => e.minUs)));
  const max = Math.round(Math.max(...exact.map((e) => e.maxUs)));
  const within = (v: number): number => Math.min(max, Math.max(min, v));
  const mean = Math.round((exact.reduce((n, e) => n + e.sumUs, 0) / data.count) * 1000) / 1000;
  return { ...data, min, max, mean, p50: within(data.p50), p90: within(data.p90), p99: within(data.p99), p999: within(data.p999) };
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

/** A threshold of the definition left out of the merged run's judging, and why. */
export interface K6NotJudged {
  threshold: string;
  why: string;
}

const NODE_ONLY = 'only the Node engine measures it: k6 reports no send lag, no result validation, no inclusion, no node health and no faults';
const REPLAY_SENDS_ALL = 'a k6 replay sends every request, late rather than dropped';
const REPLAY_NO_SERVICE = "a k6 replay times each request from its time in the replay, with no service time apart";

/** Why a k6 test leaves a threshold of this metric out (a replay's own reasons when `replay`), or undefined when it judges it. */
function notJudgedWhy(metric: ThresholdMetric, replay: boolean): string | undefined {
  if (K6_UNMEASURED_METRICS.has(metric)) return NODE_ONLY;
  if (!replay || k6ReplayJudges(metric)) return undefined;
  return metric === 'dropped' || metric === 'achieved' ? REPLAY_SENDS_ALL : REPLAY_NO_SERVICE;
}

/**
 * The thresholds to judge the merged run by: those of the scenario definition a summary carries (checked
 * against the summary's own name, times and model), less those k6 does not measure, which are returned apart.
 */
function judgedThresholds(first: K6Summary, source: string): { judged: Threshold[]; notJudged: K6NotJudged[] } {
  const all = first.replay !== undefined ? replayThresholds(first, source) : definitionThresholds(first, source);
  const replay = first.replay !== undefined;
  const judged: Threshold[] = [];
  const notJudged: K6NotJudged[] = [];
  for (const t of all) {
    const why = notJudgedWhy(t.metric, replay);
    if (why === undefined) judged.push(t);
    else notJudged.push({ threshold: t.text, why });
  }
  return { judged, notJudged };
}

/** Every threshold of the scenario definition a summary carries, once the definition is checked against the summary. */
function definitionThresholds(first: K6Summary, source: string): Threshold[] {
  try {
    const resolved = resolveScenario(first.scenario.definition as JsonValue, {}, `the scenario in ${source}`);
    if (resolved.name !== first.scenario.name) throw new K6SummaryError(`${source}: scenario.name is ${first.scenario.name} but its definition is named ${resolved.name}`);
    for (const k of ['durationMs', 'warmupMs', 'model'] as const) {
      if (firstDifference(resolved[k], first[k]) !== null) throw new K6SummaryError(`${source}: ${k} is ${show(first[k])}, but the scenario definition it carries gives ${show(resolved[k])}`);
    }
    return resolved.thresholds;
  } catch (error) {
    if (error instanceof ScenarioError) throw new K6SummaryError(`${error.message} (the definition a summary carries is the scenario as it ran)`);
    throw error;
  }
}

/** Every threshold of a replay's test (its definition's `thresholds`): a replay's definition is no scenario (what it sends is its capture's). */
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
  });
}

const EMPTY = (): HistogramData => new Histogram().toData();

/** Requests an instance sent that never ended: k6 cut them off (at the graceful stop, or an interrupted run). Older summaries: started iterations less ended requests. */
const cutOffOf = (s: K6Summary): number => Math.max(0, (s.schedule.sent ?? s.schedule.started) - s.requests.count);

/**
 * The methods' figures added up. A call counted as sent but neither answered nor unanswered was cut off with its
 * request: unanswered. k6 does not validate results, nor time the write apart (no service time).
 */
function mergedMethods(summaries: readonly K6Summary[], perOctave: number): MethodStats[] {
  const methodNames = [...new Set(summaries.flatMap((s) => Object.keys(s.methods)))].sort();
  return methodNames.map((method) => {
    const parts = summaries.flatMap((s) => (Object.hasOwn(s.methods, method) ? [s.methods[method] as K6MethodCounts] : []));
    const cutOff = (m: K6MethodCounts): number => Math.max(0, m.calls - m.ok - m.unanswered - Object.values(m.errors).reduce((n, e) => n + e, 0));
    return {
      method,
      calls: parts.reduce((n, m) => n + m.calls, 0),
      ok: parts.reduce((n, m) => n + m.ok, 0),
      errors: sumRecords(parts.map((m) => m.errors)),
      unanswered: parts.reduce((n, m) => n + m.unanswered + cutOff(m), 0),
      validated: 0,
      invalid: 0,
      latency: histogramOf(parts, perOctave),
      service: EMPTY(),
    };
  });
}

/** The request shapes' figures added up; k6's "1" is a single call (not a batch), which the harness names "single". */
function mergedBatchSizes(summaries: readonly K6Summary[], perOctave: number): BatchSizeStats[] {
  const sizes = [...new Set(summaries.flatMap((s) => Object.keys(s.batchSizes)))].sort((a, b) => Number(a) - Number(b));
  return sizes.map((size) => {
    const parts = summaries.flatMap((s) => (Object.hasOwn(s.batchSizes, size) ? [s.batchSizes[size] as K6Summary['batchSizes'][string]] : []));
    return { size: size === '1' ? 'single' : size, requests: parts.reduce((n, b) => n + b.requests, 0), latency: histogramOf(parts, perOctave), service: EMPTY() };
  });
}

/** Failed exchanges added up; requests cut off count among transport failures (k6 closed them before any answer). */
function mergedFailures(summaries: readonly K6Summary[], cutOff: number): RequestFailures {
  const failed = (k: Exclude<keyof RequestFailures, 'httpStatus' | 'transportCauses'>): number => summaries.reduce((n, s) => n + s.failures[k], 0);
  return {
    timeouts: failed('timeouts'),
    transport: failed('transport') + cutOff,
    httpStatus: sumRecords(summaries.map((s) => s.failures.httpStatus)),
    malformed: failed('malformed'),
    extraElements: failed('extraElements'),
    missingElements: failed('missingElements'),
  };
}

/** What the merge says of requests cut off (`attributed`: the summaries counted calls as they went, so the methods' figures hold them). */
function cutOffNote(n: number, attributed: boolean): string {
  const [they, them, their] = n === 1 ? ['it', 'it', 'its'] : ['they', 'them', 'their'];
  const calls = attributed ? `${their} calls unanswered` : `${their} calls left out of the methods' figures (summaries written before calls were counted as they went do not say which methods ${they} carried)`;
  return `${n} request${n === 1 ? '' : 's'} of the measured window cut off at the end of the run (k6 stopped ${them} before any answer): counted as sent and failed, among the transport failures, ${calls}`;
}

/** The merged run's schedule: the open model's target over the window, what ended per second, what was sent (cut off included) and dropped. */
function mergedSchedule(summaries: readonly K6Summary[], model: ArrivalModel, durationMs: number, cutOff: number): LoadRun['schedule'] {
  const ended = summaries.reduce((n, s) => n + s.requests.count, 0);
  // Exchanges that failed whole: no JSON-RPC answer at all (they exclude each other, as in the engine).
  const failed = summaries.reduce((n, s) => n + s.failures.timeouts + s.failures.transport + s.failures.malformed + Object.values(s.failures.httpStatus).reduce((a, b) => a + b, 0), 0);
  // Summaries that count the requests served (every one written since 2026-11-28) give the Node engine's figure
  // exactly (since 2026-11-29 with the warm-up's requests served inside the window, `servedBefore`); older ones,
  // the requests that ended less those whose exchange failed whole.
  const served = summaries.every((s) => s.requests.served !== undefined)
    ? summaries.reduce((n, s) => n + (s.requests.served ?? 0) + (s.requests.servedBefore ?? 0), 0)
    : Math.max(0, ended - failed);
  const started = summaries.reduce((n, s) => n + s.schedule.started, 0);
  const dropped = summaries.reduce((n, s) => n + s.schedule.dropped, 0);
  return {
    targetRate: modelRate(model),
    // As runEngine defines it: requests the node served (answered as JSON-RPC, a result or an error) per second
    // of the measured window, as the runtime counted them when each exchange ended (requests.served).
    achievedRate: durationMs > 0 ? served / (durationMs / 1000) : 0,
    scheduled: started + dropped,
    sent: ended + cutOff,
    dropped,
    // k6 queues nothing: an iteration with no free VU is dropped.
    queuedMax: 0,
    // k6 does not expose how late it started each iteration.
    lagUs: EMPTY(),
  };
}

/** What the merge of one k6 test gives: the run, the thresholds left out of its judging and why, and what a reader must be told. */
export interface K6Merge {
  run: LoadRun;
  notJudged: K6NotJudged[];
  notes: string[];
}

/**
 * One LoadRun out of the summaries of one k6 test: every instance (execution segment) of it, or one whole run.
 * `sources` names the summaries in messages (their files); without it they are "summary 1", "summary 2", ...
 * Throws K6SummaryError when they are not the parts of one test.
 */
export function mergeK6(summaries: readonly K6Summary[], sources?: readonly string[]): K6Merge {
  const name = (i: number): string => sources?.[i] ?? `summary ${i + 1}`;
  const [first] = summaries;
  if (first === undefined) throw new K6SummaryError('no summary to merge');
  checkSameRun(summaries, name);
  checkSegments(summaries, name);
  const { judged, notJudged } = judgedThresholds(first, name(0));
  const { durationMs, warmupMs, model } = first;
  const cutOff = summaries.reduce((n, s) => n + cutOffOf(s), 0);
  const window = runWindow(summaries, warmupMs, durationMs);
  const unsent = laneProblems(summaries);
  const invalid = [...window.invalid, ...summaries.flatMap((s, i) => ranProblems(s, name(i))), ...unsent];
  const { perOctave } = k6BucketsOf(first.format);
  const latency = histogramOf(summaries.map((s) => s.requests), perOctave);
  const cutNote = cutOffNote(cutOff, summaries.every((s) => s.schedule.sent !== undefined));
  const run: LoadRun = {
    url: baseUrl(first.url),
    scenario: first.scenario.name,
    model,
    startedAt: window.startedAt,
    endedAt: window.endedAt,
    warmupMs,
    durationMs,
    valid: invalid.length === 0,
    invalid,
    schedule: mergedSchedule(summaries, model, durationMs, cutOff),
    failures: mergedFailures(summaries, cutOff),
    // k6 times a request from its write (http_req_duration), a replay from its time: one figure, no service time apart (docs/load.md, k6 runs).
    latency,
    service: EMPTY(),
    methods: mergedMethods(summaries, perOctave),
    batchSizes: mergedBatchSizes(summaries, perOctave),
    // k6 summaries are totals: no timeline.
    timeline: [],
    thresholds: [],
    stop: { reason: 'completed', atMs: durationMs, ...(cutOff > 0 ? { message: cutNote } : {}) },
  };
  const wire = first.profile?.wire ?? {};
  run.thresholds = evaluateThresholds(judgingRun(run), judged, (m) => wire[m] ?? m);
  return { run, notJudged, notes: [...(cutOff > 0 ? [cutNote] : []), ...unsent, ...(first.format === K6_SUMMARY_FORMAT_V1 ? [FORMAT_V1_NOTE] : [])] };
}

/**
 * Summaries of format 1 merge at their own resolution, said: an outside tester's old summaries of a 187 ms node were
 * merged FAILED "p50 < 191ms (actual 194 ms)" where k6 had kept it, without a word of why.
 */
const FORMAT_V1_NOTE = `the summaries are of format ${K6_SUMMARY_FORMAT_V1} (written by chainrpc before 2026-11-29): latency in buckets 9% wide, its percentiles, mean, min and max the buckets' middles (within about 4.5%), and the warm-up's requests served inside the window not counted (the achieved rate short by about latency / window): a threshold near its limit may be judged otherwise than k6 judged it; a test made again with this version merges exactly`;

/**
 * Iterations of the window that sent nothing for want of a sender's lane (a VU beyond the corpus's lanes) or because
 * the lane was spent: the generator's doing, so the run is not the node's (an outside tester's node was reported
 * FAILED at an achieved 20% when k6 had 32 VUs over a corpus of 6 senders, and nothing said why).
 */
function laneProblems(summaries: readonly K6Summary[]): string[] {
  const noLane = summaries.reduce((n, s) => n + (s.schedule.noLane ?? 0), 0);
  const spent = summaries.reduce((n, s) => n + (s.schedule.laneSpent ?? 0), 0);
  const out: string[] = [];
  if (noLane > 0) out.push(`${noLane} iteration${noLane === 1 ? '' : 's'} of the measured window sent nothing: k6 ran them on VUs that had no sender's lane in the corpus (more VUs than lanes; make the test again with chainrpc load k6, which gives k6 no more VUs than the corpus has lanes), so the generator, not the node, fell short of the schedule`);
  if (spent > 0) out.push(`${spent} iteration${spent === 1 ? '' : 's'} of the measured window sent nothing: their VU had sent every transaction of its sender's lane (the corpus is too small for the run; give a corpus of more transactions per sender), so the generator, not the node, fell short of the schedule`);
  return out;
}

/**
 * The run as its thresholds see it: k6 times each request from its write, which is where the service time
 * starts, so service-p50 and service-p99 (judged by k6 on the same Trend) are judged on that latency.
 */
function judgingRun(run: LoadRun): LoadRun {
  return { ...run, service: run.latency, methods: run.methods.map((m) => ({ ...m, service: m.latency })) };
}

/** The merged run alone (mergeK6 also says what it left out). */
export function mergeK6Summaries(summaries: readonly K6Summary[], sources?: readonly string[]): LoadRun {
  return mergeK6(summaries, sources).run;
}
