/**
 * The load harness's data model: what a run measured, as the engine, the CLI and the reports speak it.
 * reports/load/load-report.schema.json describes its JSON form (format "chainrpc-load/2"); docs/load.md defines
 * every metric. Times are microseconds (`Us`) unless a name says otherwise; wall-clock instants are ISO 8601.
 *
 * Latency is measured from the request's *scheduled* send time (so a generator or a node that falls behind
 * shows in the figures: no coordinated omission); service time from the moment its first byte was written.
 * In the closed model the two are the same instant, and both are kept anyway.
 */

/** A distribution of microsecond values, summarized for people and encoded whole for machines. */
export interface HistogramData {
  count: number;
  /** Microseconds. All 0 when count is 0. */
  min: number;
  max: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  /**
   * The whole HDR histogram, in HdrHistogram's compressed V2 encoding (base64), so runs can be merged and
   * compared later with any HdrHistogram library. Empty string when count is 0.
   */
  encoded: string;
}

/** How requests arrive. */
export type ArrivalModel =
  /**
   * Open: sends are scheduled at a rate, whatever the node does; a request that cannot go (in-flight cap) is dropped.
   * `recorded`: each request at the time its source gives (RequestSource.due: a replayed capture); the stages
   * then only say the rate the source keeps, for the report.
   */
  | { kind: 'open'; distribution: 'uniform' | 'poisson' | 'recorded'; stages: RateStage[] }
  /** Closed: `connections` loops, each sending its next request when the last one is answered. */
  | { kind: 'closed'; connections: number };

/** A stretch of an open-model run: the rate goes linearly from `from` to `to` requests/s over `durationMs`. */
export interface RateStage {
  from: number;
  to: number;
  durationMs: number;
}

/** The schedule's own health: did the generator keep to it? */
export interface ScheduleStats {
  /** Requests/s the schedule asked for over the measured window (open model); null in the closed model. */
  targetRate: number | null;
  /**
   * Requests the node served per second of the measured window: those that ended in it with at least one call
   * answered as JSON-RPC (a result or a JSON-RPC error), whenever they were scheduled. Timeouts, transport
   * failures, HTTP statuses other than 200 and malformed answers are not served (docs/load.md, `schedule`).
   */
  achievedRate: number;
  /** Requests due in the measured window. */
  scheduled: number;
  /** Requests written to a socket. */
  sent: number;
  /** Requests not sent because the in-flight cap was reached at their time (open model). */
  dropped: number;
  /** The most requests that waited at once for a free connection. */
  queuedMax: number;
  /** How late each send was against its scheduled time (generator lag). */
  lagUs: HistogramData;
  /**
   * How long each answer may have waited unread in the generator before its arrival was stamped (an upper
   * bound, load/engine/ReadTurn.ts): the generator's lag on the reading side. The Node engine's runs have it;
   * k6's and reports written before it do not.
   */
  readLagUs?: HistogramData;
  /**
   * What chainrpc's own process took of the machine while the run ran: the Node engine's runs have it; k6's, merged
   * ones and reports written before it do not.
   */
  generatorCpu?: GeneratorCpu;
}

/**
 * The generator's CPU over one run, from the warm-up's start to the last answer: user + system time of the whole
 * chainrpc process (every thread: the engine's, their alarms, the head followers, the inclusion tracker), so on a
 * machine it shares with the node, what it took from the node.
 */
export interface GeneratorCpu {
  /** CPU seconds over the run. */
  seconds: number;
  /** The run's wall time, s, and the requests written in it (the warm-up's included): what the shares below are of, and what merging runs adds up. */
  wallSeconds: number;
  requests: number;
  /** The same as a share of one core over the run's wall time (100 is a whole core). */
  percentOfCore: number;
  /** The same per request written in the run (the warm-up's included), µs; null when none was. */
  perRequestUs: number | null;
}

/** Per-method accounting, one call at a time (a batch of 100 is 100 calls). */
export interface MethodStats {
  /** The method's wire name as sent (after the profile's renames). */
  method: string;
  calls: number;
  /** Answered with a JSON-RPC `result` (and, when sampled, valid against the method's result schema). */
  ok: number;
  /** Answered with a JSON-RPC `error`: count by error code (as a string, "-32005"). */
  errors: Record<string, number>;
  /** Calls whose answer never came: no element with its id in the batch answer, an HTTP failure, a timeout. */
  unanswered: number;
  /** Results sampled for schema validation, and how many of them failed it. */
  validated: number;
  invalid: number;
  /** From the scheduled time to the full answer of the request that carried the call. */
  latency: HistogramData;
  /** From the first byte written to the full answer. */
  service: HistogramData;
}

/** Per request shape: single calls (size 1, not a batch) and batches by size. */
export interface BatchSizeStats {
  /** "single", or the batch's length as a string ("100"). */
  size: string;
  requests: number;
  latency: HistogramData;
  service: HistogramData;
}

/** What went wrong at the request level (a whole HTTP exchange). */
export interface RequestFailures {
  /** No answer within the scenario's timeout. */
  timeouts: number;
  /** Connection refused, reset or closed before the answer. */
  transport: number;
  /**
   * The transport failures by cause, in a few words ("connection reset", "an answer over 16 MiB", ...): they add
   * up to `transport`. Absent in a k6 run's merge (k6 does not say) and in reports made before it was counted.
   */
  transportCauses?: Record<string, number>;
  /** An HTTP status other than 200 (by status, as a string). */
  httpStatus: Record<string, number>;
  /** A 200 whose body is not JSON, or not a JSON-RPC response (or array of them) at all. */
  malformed: number;
  /** Batch answers holding an element whose id matches no call of the batch, or a second answer to one. */
  extraElements: number;
  /** Batch answers missing one or more calls. */
  missingElements: number;
}

/** One second (or the run's tick) of the run, for charts over time. t is ms from the start of measurement (negative in warm-up). */
export interface TimelinePoint {
  tMs: number;
  sent: number;
  /** Requests that ended in this tick (served or failed), and how many calls of them were ok / failed. */
  completed: number;
  /**
   * Of `completed`, the requests the node served (answered at least one call as JSON-RPC, a result or an error
   * object), as the achieved rate counts them; `completed` − `served` failed with no answer (timeout, transport,
   * HTTP status, malformed). Absent in reports written before 2026-11-28.
   */
  served?: number;
  okCalls: number;
  failedCalls: number;
  dropped: number;
  inFlight: number;
  /**
   * The latency p50 and p99 of the served requests that ended in the tick (0 when none); before 2026-11-28, of
   * every request that ended in it, failures too (when `served` is absent).
   */
  p50Us: number;
  p99Us: number;
  /** Signed-transaction load only. */
  pending?: number;
  included?: number;
}

/** Signed-transaction load: what became of the transactions sent. */
export interface InclusionStats {
  /** How inclusion was seen: transaction hashes in blocks, or each sender's nonce (portable). */
  method: 'block-hashes' | 'sender-nonce';
  pollIntervalMs: number;
  /** Transactions the node answered with a hash. */
  accepted: number;
  /** Refused by the node, by error code. */
  refused: Record<string, number>;
  included: number;
  /** Accepted but not included when tracking ended. */
  pending: number;
  /** included / accepted (0 when nothing was accepted). */
  ratio: number;
  /** From the send's scheduled time to the first poll that saw it included, in milliseconds (stored as ms in the histogram). */
  timeToInclusionMs: HistogramData;
  /** Chain side: included transactions per second between the first and the last including block. */
  chainTps: number;
  /** Transactions per block over the blocks that included the run's transactions. */
  perBlock: { blocks: number; mean: number; max: number };
  /** What the senders' lanes did after failed sends (docs/chaos.md, "Lanes after a fault"); absent when none failed. */
  lanes?: LaneLedger;
  /**
   * The warm-up's transactions, followed like the others (a sender's later nonces wait for them) but counted apart:
   * every other figure here is of the transactions scheduled in the measured window (until 2026-11-28 they held the
   * warm-up's too). Absent when the warm-up sent none, and in older reports.
   */
  warmup?: { accepted: number; included: number; refused: number };
  /**
   * How long after the measured window ended the chain was still followed for pending transactions, in ms: `pending`
   * is what was pending then. Absent in older reports.
   */
  followedAfterMs?: number;
  /** How the following went, over the whole run (the warm-up's transactions too). Absent in older reports. */
  tracking?: InclusionTracking;
}

/** Why inclusion tracking ended, and what it could not see plainly (load/inclusion/InclusionTracker.ts). */
export interface InclusionTracking {
  endedBy: 'all-included' | 'grace' | 'stopped';
  /** Sends with no answer that the chain never showed included: neither accepted nor refused. */
  unanswered: number;
  /** Accepted transactions answered with another hash than their own (followed by both). */
  hashMismatches: number;
  /** Times the chain replaced blocks already read, and the most blocks one took back. */
  reorgs: number;
  deepestReorg: number;
  /** Reorganisations whose fork lay below the blocks held (the last 64 read): the blocks below stay counted as read. */
  reorgsBeyondHeld: number;
  pollErrors: number;
  lastPollError: string | null;
}

/** A lane stopped after a failed send to read its sender's nonce (resyncs); transactions it sent again, or skipped, from that nonce. */
export interface LaneLedger {
  resyncs: number;
  resent: number;
  skipped: number;
}

/** The unit of a threshold's or a baseline figure's numbers: milliseconds, percent, a count, per second. */
export type FigureUnit = 'ms' | '%' | 'count' | '/s' | 'MB/h' | 'ms/h';

/** A threshold of the scenario's SLO, and whether the run kept it. */
export interface ThresholdResult {
  /** The threshold as written in the scenario ("p99 < 250ms", "errors < 1%"). */
  name: string;
  /** The metric, scoped by method where the threshold names one ("chain_getAccount:p99"). */
  metric: string;
  /** The unit of `limit` and `actual`: ms for times, % for rates and ratios, a count for `dropped`. */
  unit: FigureUnit;
  limit: number;
  /** null when nothing was measured (no call of the method, no transaction): the threshold is then broken. */
  actual: number | null;
  ok: boolean;
}

/** Why and when a run stopped. */
export interface RunStop {
  reason: 'completed' | 'interrupted' | 'target-unreachable' | 'deadline';
  /** ms from the start of measurement. */
  atMs: number;
  message?: string;
}

/** A live snapshot of a run, every tick, for the console's progress line. */
export interface LoadProgress {
  url: string;
  phase: 'warmup' | 'measure' | 'drain';
  /** ms since the measured window began (negative in warm-up). */
  elapsedMs: number;
  /** Of the measured window (warm-up excluded). */
  durationMs: number;
  /** Over the last tick. */
  achievedRate: number;
  targetRate: number | null;
  p50Us: number;
  p99Us: number;
  /** Since the measured window began. */
  okCalls: number;
  failedCalls: number;
  dropped: number;
  inFlight: number;
  /** Signed-transaction load only. */
  included?: number;
  pending?: number;
}

/** The result of one scenario against one node. */
export interface LoadRun {
  /** The node's base URL. */
  url: string;
  scenario: string;
  model: ArrivalModel;
  startedAt: string;
  endedAt: string;
  warmupMs: number;
  /** The measured window (warm-up excluded), as it ran. */
  durationMs: number;
  /** False when the figures cannot be trusted (the generator fell behind its schedule, ...): `invalid` says why. */
  valid: boolean;
  invalid: string[];
  schedule: ScheduleStats;
  failures: RequestFailures;
  /** Every request, from its scheduled time. */
  latency: HistogramData;
  service: HistogramData;
  methods: MethodStats[];
  batchSizes: BatchSizeStats[];
  timeline: TimelinePoint[];
  inclusion?: InclusionStats;
  /** The node's health over the whole run (every node followed at once, also while another was loaded). */
  health?: NodeHealth;
  thresholds: ThresholdResult[];
  stop: RunStop;
  /**
   * Where the node's clients saw calls fail (load/metrics/OutageLog.ts), exactly: absent when no call failed.
   * Times are ms from the start of measurement. At most 200 are kept; `count` says how many there were.
   */
  outages?: { count: number; kept: Outage[] };
  /** A run with faults injected (--chaos): what this node's clients saw around each fault, and the transactions' ledger. */
  chaos?: RunChaos;
  /** A replay with --diff-url: the second node's answers against this node's. */
  diff?: ReplayDiff;
}

/** A stretch in which calls failed: from the first failed request's scheduled send to the end of the first request sent after it that succeeded. */
export interface Outage {
  fromMs: number;
  /** When the last failed request of the stretch ended. */
  lastFailedMs: number;
  /** When the first request scheduled after `fromMs` that succeeded ended; null: none did by the end of the run. */
  toMs: number | null;
  failedCalls: number;
  /** Failed calls by method (wire names). */
  byMethod: Record<string, number>;
}

/** What a load run saw of the node itself, beside what its clients saw (load/health/, docs/load.md). */
export interface NodeHealth {
  /** Its head, followed through the run (unless --head-hz 0). */
  head?: HeadHealth;
  /** Its process on this machine (--pid). */
  resources?: NodeResources;
  /** The load's own reads that went backwards (load/health/ReadWatch.ts): heights, blocks, nonces. */
  reads?: ReadRegressions;
}

export type ReadKind = 'height' | 'block' | 'nonce';

/** One read of the load that went backwards: what was served (`value`) after what (`previous`); epoch ms until the run's health origin is known, then ms from it. */
export interface ReadRegression {
  kind: ReadKind;
  /** The height (block), the account (nonce); empty for the head's height. */
  key: string;
  atMs: number;
  value: string;
  previous: { atMs: number; value: string };
}

/** Reads observed and gone backwards by kind (heights of chain_blockNumber, blocks of chain_getBlockByHeight, nonces of chain_getAccount), and the first 20. */
export interface ReadRegressions {
  observed: Record<ReadKind, number>;
  counts: Record<ReadKind, number>;
  examples: ReadRegression[];
}

/** A node's process read through the run (load/health/ResourceSampler.ts): from /proc (--pid) or its metrics (--metrics-url). */
export interface NodeResources {
  /** Where: `pid 123`, or the metrics URL. */
  source: string;
  /** Between samples, ms. */
  intervalMs: number;
  samples: number;
  /** Samples that found no such process (it exited). */
  missed: number;
  /** The node's CPU (user + system) over the measured windows (warm-ups and other nodes' turns left out); null when the samples did not cover them. */
  cpuSeconds: number | null;
  /** Calls answered in those windows (a result or an error object). */
  answeredCalls: number;
  /**
   * Times the CPU counter went down (the process restarted: process_cpu_seconds_total back at 0): each counts from 0
   * again, as Prometheus's rate() reads a reset; the CPU between the reading before and the restart is not seen.
   * Absent when none.
   */
  cpuResets?: number;
  /** µs of the node's CPU per answered call: the figure to compare two nodes by. */
  cpuPerCallUs: number | null;
  /** The most RSS any sample saw; 0 when none read it (a metrics page without process_resident_memory_bytes: then `last` is absent too). */
  peakRssBytes: number;
  /** At the last sample. */
  last?: { rssBytes: number; openFds?: number; threads?: number };
  /**
   * RSS over time after the warm-up (from `fromMs`: the first measured window's start, or a tenth of the run if
   * later), fitted by least squares: MB (MiB) per hour, the slope's interval at `confidence`, the fitted line's
   * ends for drawing (ms from the health origin, MiB); null with fewer than 10 samples after the warm-up. The
   * `rss-growth` threshold judges the lower of `low` and `lastHalf.low` (TrendHalf): growth that is sure and lasts.
   * `endedMs`: the process was gone from then (ms from the origin), before the measured run ended: the trend covers
   * the run until then only, and `rss-growth` is not judged on it (an outside tester's node, killed at 12 s of 32,
   * was judged kept on its first 12 s).
   */
  rssTrend: { mbPerHour: number; low: number; high: number; confidence: number; points: number; fromMs: number; line: [{ tMs: number; mb: number }, { tMs: number; mb: number }]; lastHalf?: TrendHalf | null; endedMs?: number } | null;
  /** At most 1,000 points, ms from the run's health origin. */
  series: ResourcePoint[];
  /**
   * Other metrics read by name (--metric, from --metrics-url), each summed over its label sets: its first and
   * last values, least and most, a counter's rate over the run (names ending _total, _count or _sum; else null),
   * and its series (at most 1,000 points, averaged per stretch). Absent when none was asked for or found.
   */
  metrics?: { name: string; samples: number; first: number; last: number; min: number; max: number; perSecond: number | null; series: { tMs: number; value: number }[] }[];
}

/**
 * A trend's fit over the last half of its points by time (leakFit.ts, lastingTrend): a trend that lasts to the
 * end of the run shows in it too, and the threshold on the trend judges the lower of the two low ends (so a
 * step followed by a plateau, a heap grown into its size, is no leak). null with fewer than 10 points there;
 * absent from reports written before it was kept. Per hour, in the trend's unit.
 */
export interface TrendHalf {
  perHour: number;
  low: number;
  high: number;
  points: number;
  fromMs: number;
}

export interface ResourcePoint {
  tMs: number;
  /** CPU since the previous sample, % of one core (null for the first). */
  cpuPercent: number | null;
  rssBytes: number;
  openFds?: number;
  /** Where the source tells them (/proc does; Prometheus process metrics do not). */
  threads?: number;
}

/** A node's head, followed at `intervalMs` during the run (load/health/headHealth.ts says how each figure is made). */
export interface HeadHealth {
  /** t = 0 of every time below (ms). */
  startedAt: string;
  /** Between the follower's calls, as asked, and the median achieved. */
  intervalMs: number;
  medianIntervalMs: number;
  /** Heights read, and calls that read none (no answer, an error). */
  samples: number;
  failed: number;
  lastFailure?: string;
  /** The --head-reference followed beside the nodes, when one was given. */
  reference?: string;
  /** The median time between successive heights' first sightings (null: fewer than two new heights). */
  blockTimeMs: number | null;
  /** Heights judged: those that appeared while the run followed them. */
  blocks: number;
  /**
   * Followed alone: no other node and no --head-reference to compare its heights with, so its head lag and
   * stalls cannot be measured (lagMs null, no worst, series, lagTrend or stalls; the thresholds on them are
   * refused or left out before the run). A second --url or --head-reference gives them.
   */
  alone?: true;
  /** The node's head lag over those heights (ms; null when none appeared). */
  lagMs: { p50: number; p90: number; p99: number; max: number } | null;
  /** The heights it reached latest. */
  worst: { height: number; lagMs: number }[];
  /** Lag per height at that height's first sighting anywhere (at most 1,000 points: the largest of each stretch). */
  series: { tMs: number; lagMs: number }[];
  /**
   * Head-lag drift: the lag per height after the warm-up, fitted by least squares (ms per hour, the slope's
   * interval, the line's ends); null with fewer than 10 heights after the warm-up. A node falling further behind
   * over the run has a slope whose interval is above 0; the head-lag-drift threshold judges `low`.
   */
  lagTrend?: { msPerHour: number; low: number; high: number; confidence: number; points: number; fromMs: number; line: [{ tMs: number; lagMs: number }, { tMs: number; lagMs: number }]; lastHalf?: TrendHalf | null } | null;
  stalls: HeadStall[];
  /** The first 20 heights that went backwards; `regressionCount` counts them all. */
  regressions: HeadRegression[];
  regressionCount: number;
}

/**
 * The node's own head held at `height` for more than 3 block times after another source had the next one: from
 * `startMs`, the later of the node reaching `height` and another source having the next (before both it is lag,
 * not a stall), until it rose (`endMs`; null: not by the end).
 */
export interface HeadStall {
  startMs: number;
  endMs: number | null;
  height: number;
  /** How many heights behind it was when the stall ended (or at the end). */
  behindBlocks: number;
}

/** A move backwards: the node served `height` at `atMs` right after `previous.height` (first served at `previous.atMs`), a higher one. */
export interface HeadRegression {
  kind: 'height';
  atMs: number;
  height: number;
  previous: { atMs: number; height: number };
}

/**
 * What a fault does to a node (docs/chaos.md): SIGKILL, start again on its data, SIGTERM, SIGSTOP, SIGCONT; cut
 * its peer links both ways, slow them (and lose some), open them again; or the user's own command (exec).
 */
export type ChaosAction = 'kill' | 'restart' | 'stop' | 'pause' | 'resume' | 'partition' | 'delay' | 'heal' | 'exec';

/** One fault of a run's schedule (--chaos <at>:<action>:<target>[:<for>], or the scenario's `chaos`). */
export interface ChaosStep {
  /** As written. */
  text: string;
  /** ms from the start of measurement. */
  atMs: number;
  action: ChaosAction;
  /** A node's name (mn2, ln1) or a role at that moment: leader, follower (an MN not leading), any-mn, any-ln. */
  target: string;
  /** kill, stop, pause: the node is brought back (restart, resume) this long after; null: it stays so. */
  forMs: number | null;
  /** exec (--chaos-exec): the shell command run at `atMs` (`target` is then empty). */
  command?: string;
  /** delay: how long each peer message waits, and the share lost (0 to 1). */
  delayMs?: number;
  loss?: number;
}

/** One action taken on a node during the run (a step, or the return that ends a step's `forMs`). */
export interface ChaosEvent {
  /** The step's text; a return is "<step> (end)". */
  text: string;
  action: ChaosAction;
  /** The node acted on, once the target was resolved; null when none could be (no such role at that moment). */
  node: string | null;
  /** When it was done, ms from the start of measurement. */
  atMs: number;
  /** Why it could not be done, if it could not (the event is then only marked); for exec, a command that failed. */
  error?: string;
  /** exec: the command's exit code (null: ended by a signal, or cut at its time limit), and the end of its output. */
  exitCode?: number | null;
  output?: string;
  /** The leader the chain showed before and after (the proposer of the last block before, and of the first after), by node name where chainrpc knows it. */
  leaderBefore: string | null;
  leaderAfter: string | null;
  /** The highest height any node served before the event. */
  headBefore: number | null;
  /** From the event to the first higher height served by any node still running (failover time when the leader was hit); null: none by the end. */
  nextBlockMs: number | null;
  /** That next block's own timestamp (its proposer's clock), ISO 8601: the chain's record of the gap; null where it shows none. */
  nextBlockAt: string | null;
  /** restart, resume: from the event until the node's head reached the highest any other node served at that moment; null: not by the end. */
  catchUpMs?: number | null;
}

/** A run with faults: the schedule, what was done, and whether the nodes agree on the chain afterwards. */
export interface ChaosReport {
  /** t = 0 of every time of the schedule and the events: the start of measurement, ISO 8601 with milliseconds. */
  originAt: string;
  /** The network's nodes: the names the steps and events use, and the URL each run of the report loaded. */
  nodes: { name: string; kind: 'MN' | 'LN' | 'node'; url: string }[];
  steps: ChaosStep[];
  events: ChaosEvent[];
  /**
   * After the run, the blocks from the lowest head before an event to the lowest head now, read on every node
   * that answers and compared by hash: `forks` lists heights served with different blocks (empty: consistent).
   */
  consistency: { fromHeight: number; toHeight: number; nodes: string[]; forks: { height: number; hashes: Record<string, string> }[]; error?: string } | null;
}

/** One node's view of a run with faults: what its clients saw at each event, and its transactions' ledger. */
export interface RunChaos {
  events: { text: string; atMs: number; failedCalls: number; byMethod: Record<string, number>; firstFailureMs: number | null; recoveryMs: number | null }[];
  /** The longest recovery over the events (0: the clients never saw a call fail); null: not recovered by the end. */
  recoveryMs: number | null;
  /** The longest time from an event to the chain's next block, over the events (the network's, the same for every node). */
  failoverMs: number | null;
  /** Heights the nodes served with different blocks after the run (the network's, the same for every node); null: not compared. */
  forks: number | null;
  /** From the inclusion tracker: accepted and never included, included twice (load/inclusion/InclusionTracker.ts, TransactionLedger). */
  lostTx: number | null;
  duplicateTx: number | null;
  lostExamples: string[];
  duplicateExamples: string[];
}

/** One step of a sweep: the scenario at one open-model rate, and whether its SLO held there. */
export interface SweepStep {
  /** The target rate, requests/s. */
  rate: number;
  run: LoadRun;
  /** Achieved >= 99% of target, nothing dropped, the run valid, and every threshold kept. */
  sloHeld: boolean;
  /** Why not, one sentence each (empty when it held). */
  reasons: string[];
  /**
   * The generator, not the node, fell behind its schedule at this rate, on every try: the step says nothing
   * about the node, the search stopped there, and the knee is the highest rate measured below it.
   */
  generatorLimited: boolean;
}

/** `chainrpc load sweep`: the scenario at rising rates, and the knee. */
export interface SweepResult {
  url: string;
  scenario: string;
  /** How the rates were chosen: given by the user, or searched (ramp, then bisect). */
  search: 'given' | 'ramp-bisect';
  steps: SweepStep[];
  /** The highest rate at which the SLO held; null when it held at none. */
  knee: number | null;
  /** Why the search ended before it was done (the node stopped answering between steps); absent when it was done. */
  stopped?: string;
}

/** One figure compared with the baseline report's. */
export interface BaselineDelta {
  /** "<url> <scenario> p99", "<url> <scenario> achievedRate", ... */
  metric: string;
  /** The unit of `baseline` and `current`: ms for latencies, /s for the achieved rate, % for failed calls. */
  unit: FigureUnit;
  baseline: number;
  current: number;
  /** (current - baseline) / baseline, signed; positive is worse for latencies and errors, better for rates. */
  change: number;
  /** The change allowed before it counts as a regression (the threshold, widened by the noise seen in both runs). */
  allowed: number;
  regression: boolean;
}

export interface BaselineComparison {
  /** The baseline report's path as given. */
  file: string;
  createdAt: string;
  deltas: BaselineDelta[];
}

/**
 * What `chainrpc load` writes: one report for one command. Several `--url` give several runs of the same
 * scenario (interleaved in time); a sweep gives its steps.
 */
export interface LoadReport {
  format: 'chainrpc-load/2';
  tool: { name: 'chainrpc'; version: string };
  createdAt: string;
  /** The command as run, for the report's header (secrets never appear in it). */
  command: string;
  /** The scenario as it ran, resolved (defaults filled in, overrides applied). */
  scenario: { name: string; definition: unknown };
  profile: string;
  runs: LoadRun[];
  sweeps: SweepResult[];
  baseline?: BaselineComparison;
  /** A run with faults injected (--chaos): the schedule, what was done, and the chain's consistency. */
  chaos?: ChaosReport;
  /** A capture replayed (chainrpc load replay): what of it was sent, how, and what was left out. */
  replay?: ReplayReport;
  verdict: LoadVerdict;
}

/** One method's calls in a replay's diff. */
export interface DiffCounts {
  method: string;
  compared: number;
  mismatches: number;
  setAside: number;
  notCompared: number;
}

/** A replay's diff (--diff-url): each call also sent to a second node at the same instant, the answers compared. */
export interface ReplayDiff {
  /** The second node's base URL. */
  url: string;
  /**
   * Calls compared (both answered), found different, set aside (what two honest nodes may answer differently at one
   * instant, compared not at all: profile/compareAnswers.ts), and not compared (a side gave no answer).
   */
  compared: number;
  mismatches: number;
  setAside: number;
  notCompared: number;
  /** The same, per method (the spec's method names). */
  byMethod: DiffCounts[];
  /** The first mismatches, the two answers side by side (each cut at 2 KiB). */
  examples: { method: string; request: string; answer: string; other: string; why: string }[];
}

/** How a replay is paced: the recorded offsets divided by `speed`, or the recorded order at `rate` requests/s. */
export type ReplayPace = { speed: number } | { rate: number };

/** Why an exchange of a capture is not replayed (each counted in the report). */
export type LeftOutReason =
  | 'not a JSON-RPC POST'
  | 'not JSON-RPC'
  | 'notifications only'
  | 'ids the engine cannot match'
  | 'methods not chosen'
  | 'signed for another chain'
  | 'chain not known'
  /** The capture's last line, cut short (a recording killed while it wrote): read up to the line before. */
  | 'cut short';

/** A capture replayed (docs/replay.md): what of it went, how, and what was left out. */
export interface ReplayReport {
  /** The capture's path as given. */
  capture: string;
  /** Exchanges in the capture, and those replayed (once per pass). */
  exchanges: number;
  replayed: number;
  pace: ReplayPace;
  loop: boolean;
  /** ms one pass lasts at this pace (from the first request kept to the last). */
  spanMs: number;
  /** The rate one pass keeps on average, requests/s. */
  rate: number;
  leftOut: { reason: LeftOutReason; count: number }[];
  /** What was done to what was sent, in words. */
  transformations: string[];
}

export type LoadVerdictWord = 'PASSED' | 'FAILED' | 'NOT TRUSTED' | 'INTERRUPTED';

/** The verdict of a load command, reached once by load/loadVerdict.ts; the console and every report only say it. */
export interface LoadVerdict {
  word: LoadVerdictWord;
  /** 0 passed; 99 a threshold broken, a regression, a sweep without a knee; 1 the figures cannot be trusted; 130 interrupted. */
  exitCode: 0 | 1 | 99 | 130;
  /** What decided it, most serious first (for PASSED: the thresholds kept, then the knees). */
  reasons: string[];
  /** One sentence per sweep: its knee, or that it has none. */
  knees: string[];
  /** The line the command prints: "FAILED: thresholds broken: ...". */
  summary: string;
}
