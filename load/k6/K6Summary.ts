/**
 * What one k6 instance of a chainrpc scenario writes at its end (`handleSummary` of the generated script,
 * load/k6/chainrpc.k6.js): its counts and its latency histograms in a mergeable form, so `chainrpc load merge`
 * adds any number of instances (execution segments, k6-operator pods) up exactly and turns them into one
 * LoadRun of the load harness (load/model.ts), with the same reports and baseline comparison.
 *
 * Histograms are counts per logarithmic bucket: bucket i holds the values v (in µs) with
 * floor(log2(v) * K6_BUCKETS_PER_OCTAVE) = i, clamped to [K6_BUCKET_MIN, K6_BUCKET_MAX]. A bucket spans a
 * factor 2^(1/70) (0.995%); a merged percentile is the bucket's geometric middle, within 0.5% of the truth,
 * and never outside the exact least and greatest values, which travel beside the buckets with the exact sum
 * (`latencyExact`): the merged min, max and mean are exact. Counts add across instances exactly, so the merge is
 * exact to the bucket resolution. Format 1 (before 2026-11-29) had buckets 2^(1/8) wide (9.05%) and no exact
 * figures: still read, and merged at its own resolution, never with a format 2 summary.
 */
import type { ArrivalModel, ReplayReport } from '../model.js';
import { METRIC_NAMES, THRESHOLD_METRICS, type ThresholdMetric } from '../scenario/Threshold.js';

export const K6_SUMMARY_FORMAT = 'chainrpc-k6-summary/2';
/** The format written before 2026-11-29: coarser buckets (K6_V1_BUCKETS), no exact figures, no lane or early-served counts. */
export const K6_SUMMARY_FORMAT_V1 = 'chainrpc-k6-summary/1';
export type K6SummaryFormat = typeof K6_SUMMARY_FORMAT | typeof K6_SUMMARY_FORMAT_V1;

/**
 * Threshold metrics k6 does not measure (only the Node engine does): no schedule lag, no result validation,
 * no inclusion tracking. The one list: `chainrpc load k6` leaves them out of k6's thresholds (writeK6Script.ts,
 * `notJudged`), and `chainrpc load merge` leaves them out of the merged run's (mergeK6Summaries.ts).
 */
export const K6_UNMEASURED_METRICS: ReadonlySet<ThresholdMetric> = new Set(METRIC_NAMES.filter((m) => !THRESHOLD_METRICS[m].k6));
/**
 * Threshold metrics a k6 replay does not judge, beyond what no k6 test measures (K6_UNMEASURED_METRICS): it sends
 * every request (late rather than dropped: `dropped`, `achieved`), and its one latency is from each request's time
 * (no service time apart). The one list: the writer leaves them out of k6's thresholds, the merge out of its judging.
 */
export const K6_REPLAY_UNMEASURED: ReadonlySet<string> = new Set(['dropped', 'achieved', 'service-p50', 'service-p99']);

/** Whether a k6 replay judges a threshold of this metric. */
export const k6ReplayJudges = (metric: ThresholdMetric): boolean => !K6_UNMEASURED_METRICS.has(metric) && !K6_REPLAY_UNMEASURED.has(metric);

/**
 * 70 buckets per octave: each 2^(1/70) = 0.995% wide, so a bucket's middle is within 0.5% of any value in it (an
 * outside tester found 9%-wide ones put a merged p50 of a server answering in exactly 200 ms at 193.66 ms, below
 * every value, and the merge's verdict against k6's). The runtime counts only the buckets met (k6 checks), so
 * finer buckets cost nothing for those never met.
 */
export const K6_BUCKETS_PER_OCTAVE = 70;
/** The lowest bucket: 2^(227/70) µs = 9.5 µs (anything faster counts here). */
export const K6_BUCKET_MIN = 227;
/** The highest bucket: 2^(1864/70) µs = 103 s (anything slower counts here). */
export const K6_BUCKET_MAX = 1864;

/** A bucket layout: buckets per octave of µs, and the lowest and highest index. */
export interface K6BucketLayout {
  perOctave: number;
  min: number;
  max: number;
}
/** The layout of format 2 summaries (what the runtime writes now). */
export const K6_BUCKETS: K6BucketLayout = { perOctave: K6_BUCKETS_PER_OCTAVE, min: K6_BUCKET_MIN, max: K6_BUCKET_MAX };
/** The layout of format 1 summaries: 8 per octave, 2^(26/8) = 9.5 µs to 2^(213/8) = 101 s. */
export const K6_V1_BUCKETS: K6BucketLayout = { perOctave: 8, min: 26, max: 213 };
/** The bucket layout of a summary of `format`. */
export const k6BucketsOf = (format: K6SummaryFormat): K6BucketLayout => (format === K6_SUMMARY_FORMAT_V1 ? K6_V1_BUCKETS : K6_BUCKETS);

/** A histogram's exact figures beside its buckets (µs): the sum of its values, its least and its greatest. */
export interface K6Exact {
  sumUs: number;
  minUs: number;
  maxUs: number;
}

/** Counts per bucket index (as a string key); absent buckets hold 0. */
export type K6Buckets = Record<string, number>;

export interface K6MethodCounts {
  /** Calls of the method (each element of a batch is a call). */
  calls: number;
  /** Calls answered with a JSON-RPC result. */
  ok: number;
  /** Calls answered with a JSON-RPC error, by code ("-32602": 3): every code, whether or not the script listed it. */
  errors: Record<string, number>;
  /** Calls with no answer: the request failed, timed out, or its batch answer lacked the id. */
  unanswered: number;
  /** Latency of the requests that carried the method's calls, µs buckets. */
  latency: K6Buckets;
  /** Its exact sum, min and max (format 2; absent when no call ended, and in format 1). */
  latencyExact?: K6Exact;
}

export interface K6Summary {
  format: K6SummaryFormat;
  tool: { name: 'chainrpc'; version: string };
  /** The scenario as it ran (its name and the definition after overrides: the thresholds come from it). */
  scenario: { name: string; definition: unknown };
  /** The node's base URL. */
  url: string;
  /** k6's --execution-segment of this instance ("0:1/3"), or null for a whole run. */
  segment: string | null;
  /** When handleSummary ran (the end), ISO 8601. */
  endedAt: string;
  /** The measured window and the warm-up before it, as the scenario gives them (ms). */
  durationMs: number;
  warmupMs: number;
  /** The arrival model of the whole test (not of this segment). */
  model: ArrivalModel;
  /**
   * Iterations k6 started in the measured window, and those it dropped there (no free VU): scheduled = started +
   * dropped. `sent` (absent in summaries written before it): requests sent in the window, counted as each went;
   * those that never ended (requests.count counts the ended) were cut off by k6 at the end of the run.
   * Absent, every started iteration counts as sent. `dropped` is the measured scenario's own, unless k6 ran
   * without thresholds (`k6.windowDrops` false): then the whole test's, warm-up included. `noLane`, `laneSpent`
   * (format 2): started iterations that sent nothing because the VU had no sender's lane, or had spent it: the
   * generator's doing, which the merge reports and marks the run invalid for (an outside tester's node was blamed
   * for an achieved 20% when k6 ran 32 VUs over a corpus of 6 senders).
   */
  schedule: { started: number; dropped: number; sent?: number; noLane?: number; laneSpent?: number };
  /**
   * Requests that ended in the measured window (answered or failed) and their latency (k6's http_req_duration: from
   * the write to the whole answer), µs buckets. `served` (absent in summaries written before it): those of them the
   * node served by the end of the measured window, as the Node engine counts them (at least one call answered with a
   * result or a JSON-RPC error). `servedBefore` (format 2): requests begun before the window (the warm-up's) that the
   * node served and that ended inside it; the achieved rate counts them too, as the Node engine does. `latencyExact`
   * (format 2): the exact sum, min and max of `latency`.
   */
  requests: { count: number; served?: number; servedBefore?: number; latency: K6Buckets; latencyExact?: K6Exact };
  /** Per wire method name. `calls` are counted as their requests went: those neither ok, errors nor unanswered were cut off. */
  methods: Record<string, K6MethodCounts>;
  /** Per batch size ("1" for single calls): requests and their latency. */
  batchSizes: Record<string, { requests: number; latency: K6Buckets; latencyExact?: K6Exact }>;
  /** Whole exchanges that went wrong, as the Node engine counts them; `httpStatus` by status, every status. */
  failures: { timeouts: number; transport: number; httpStatus: Record<string, number>; malformed: number; extraElements: number; missingElements: number };
  /** Thresholds as k6 judged them for this instance (name -> kept); the merge judges again on the merged figures. */
  thresholds: Record<string, boolean>;
  /**
   * Optional (added for the merge): the profile the script was made with. `name` goes into the report; `wire`
   * maps each spec method of the mix to the name it was sent as (the profile's prefix and renames), so a
   * method-scoped threshold ("chain_getAccount:p99 < 50ms") finds its method among `methods`. Absent: the
   * reference profile, whose wire names are the spec's.
   */
  profile?: { name: string; wire: Record<string, string> };
  /** Optional: the test replays a capture (chainrpc load replay --k6): the report's replay section, as the plan made it. */
  replay?: ReplayReport;
  /** Optional (absent in summaries written before it): what k6 actually ran, for the merge to check against the script's schedule. */
  k6?: K6RunFacts;
}

/** What one k6 instance actually ran, from handleSummary's data and k6/execution's test options. */
export interface K6RunFacts {
  /** k6's test run duration (handleSummary's state.testRunDurationMs), ms: the warm-up, the measured window and the drain after it. Null if k6 did not give it. */
  testRunDurationMs: number | null;
  /** The scenarios the script asks for (its data.json's). */
  planned: unknown;
  /** The scenarios k6 ran (exec.test.options.scenarios): the script's, unless a command-line option (--vus, --duration, --iterations, --stages) replaced them. */
  ran: unknown;
  /** When the measured window began on this instance (its measured scenario's start, plus a closed model's warm-up), ISO 8601; null if no measured iteration began. */
  windowStartedAt: string | null;
  /** k6's dropped_iterations over the whole test, warm-up included. */
  droppedInTest: number;
  /** Whether k6 counted the measured scenario's drops apart (false when it ran with --no-thresholds). */
  windowDrops: boolean;
  /** k6's --rps (a cap on requests per second over the whole test), or null; absent in summaries written before it was kept. */
  rps?: number | null;
}
