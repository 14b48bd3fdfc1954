/**
 * What one k6 instance of a chainrpc scenario writes at its end (`handleSummary` of the generated script,
 * load/k6/chainrpc.k6.js): its counts and its latency histograms in a mergeable form, so `chainrpc load merge`
 * adds any number of instances (execution segments, k6-operator pods) up exactly and turns them into one
 * LoadRun of the load harness (load/model.ts), with the same reports and baseline comparison.
 *
 * Histograms are counters per logarithmic bucket: bucket i holds the values v (in µs) with
 * floor(log2(v) * K6_BUCKETS_PER_OCTAVE) = i, clamped to [K6_BUCKET_MIN, K6_BUCKET_MAX]. A bucket spans a
 * factor 2^(1/8) (9.05%); a merged percentile is the bucket's geometric middle, within 4.4% of the truth.
 * Counts add across instances exactly, so the merge is exact to the bucket resolution.
 */
import type { ArrivalModel, ReplayReport } from '../model.js';
import { METRIC_NAMES, THRESHOLD_METRICS, type ThresholdMetric } from '../scenario/Threshold.js';

export const K6_SUMMARY_FORMAT = 'chainrpc-k6-summary/1';

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

export const K6_BUCKETS_PER_OCTAVE = 8;
/** The lowest bucket: 2^(26/8) µs = 9.5 µs (anything faster counts here). */
export const K6_BUCKET_MIN = 26;
/** The highest bucket: 2^(213/8) µs = 101 s (anything slower counts here). */
export const K6_BUCKET_MAX = 213;

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
}

export interface K6Summary {
  format: typeof K6_SUMMARY_FORMAT;
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
   * without thresholds (`k6.windowDrops` false): then the whole test's, warm-up included.
   */
  schedule: { started: number; dropped: number; sent?: number };
  /**
   * Requests that ended in the measured window (answered or failed) and their latency (k6's http_req_duration: from
   * the write to the whole answer), µs buckets. `served` (absent in summaries written before it): those of them the
   * node served by the end of the measured window, as the Node engine counts them (at least one call answered with a
   * result or a JSON-RPC error).
   */
  requests: { count: number; served?: number; latency: K6Buckets };
  /** Per wire method name. `calls` are counted as their requests went: those neither ok, errors nor unanswered were cut off. */
  methods: Record<string, K6MethodCounts>;
  /** Per batch size ("1" for single calls): requests and their latency. */
  batchSizes: Record<string, { requests: number; latency: K6Buckets }>;
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
}
