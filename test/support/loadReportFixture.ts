/**
 * Realistic LoadReport values for the load reports' tests (and anything else that consumes a load report):
 * a plain open-model run, signed-transaction load with inclusion, two nodes compared, a sweep with a knee,
 * a baseline with a regression, an interrupted run, an empty run (the node never answered), a long run
 * (10 minutes at 1 s ticks, two nodes) and a run with faults (a devnet of 2 MN + 1 LN loaded together while
 * one MN is killed and brought back, the LN paused, and a step that could not be done).
 *
 * The runs are simulated, deterministically (a seeded generator): per tick, a sample of latencies from a
 * log-normal distribution (a node that slows down as it nears its capacity, a stall where asked) is
 * recorded, weighted, into real HDR histograms (hdr-histogram-js), which are summarized and encoded as the
 * engine would (HdrHistogram's compressed V2 base64). Counts agree with each other: requests, calls per
 * method, errors by code, batches, the timeline and the totals.
 *
 * What users and nodes write is hostile where it can be: the scenario's description and a method name try
 * to close the report's script, and an interrupted run's message holds markup and a terminal escape.
 */
import * as hdr from 'hdr-histogram-js';
import type {
  ArrivalModel,
  BaselineDelta,
  ChaosReport,
  FigureUnit,
  BatchSizeStats,
  HeadHealth,
  HistogramData,
  InclusionStats,
  LoadReport,
  LoadRun,
  MethodStats,
  NodeResources,
  ResourcePoint,
  RunChaos,
  RunStop,
  SweepResult,
  SweepStep,
  TimelinePoint,
} from '../../load/model.js';
import { loadVerdict } from '../../load/loadVerdict.js';
import { evaluateThresholds, parseThreshold, type Threshold } from '../../load/scenario/Threshold.js';

export const LOAD_NODE_A = 'http://127.0.0.1:8545';
export const LOAD_NODE_B = 'http://10.0.0.7:8545';
/** What a hostile user or node put in a text the report shows: it must show as text, never run. */
export const LOAD_HOSTILE = '</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> \u001b[31mrot\u001b[0m 日本語';

const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const iso = (ms: number): string => new Date(T0 + ms).toISOString();

/** mulberry32: small, fast, deterministic. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

const newHistogram = (): hdr.Histogram => hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });

/** A histogram summarized as the model carries it (HistogramData), the whole of it encoded. */
export function histogramData(h: hdr.Histogram): HistogramData {
  if (h.totalCount === 0) return { count: 0, min: 0, max: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, encoded: '' };
  return {
    count: h.totalCount,
    min: h.minNonZeroValue,
    max: h.maxValue,
    mean: Math.round(h.mean * 10) / 10,
    p50: h.getValueAtPercentile(50),
    p90: h.getValueAtPercentile(90),
    p99: h.getValueAtPercentile(99),
    p999: h.getValueAtPercentile(99.9),
    encoded: hdr.encodeIntoCompressedBase64(h),
  };
}

/** A histogram of the given values (each recorded once), as HistogramData. */
export function histogramOf(values: readonly number[]): HistogramData {
  const h = newHistogram();
  for (const v of values) h.recordValue(Math.max(0, Math.round(v)));
  return histogramData(h);
}

/** One kind of request of a scenario: its method, its share of requests, batch size, errors, how slow. */
interface Shape {
  method: string;
  weight: number;
  /** Calls per request; 1 is a single call. */
  batch?: number;
  errorRate?: number;
  /** Error codes, chosen in turn, as the node answered them. */
  codes?: string[];
  /** Latency factor against the run's median. */
  factor?: number;
  /** Calls per request missing from the batch answer, as a fraction. */
  missingRate?: number;
  validated?: number;
}

interface RunSpec {
  url: string;
  seed: number;
  rate: number;
  durationS: number;
  warmupS: number;
  /** Median latency at low load, µs. */
  medianUs: number;
  /** The node's capacity in requests/s: beyond it, latency grows and sends are dropped. */
  capacity: number;
  sigma?: number;
  shapes: Shape[];
  /** A stall: from..to seconds of the measured window, latency multiplied. */
  stall?: { fromS: number; toS: number; factor: number };
  /** The node down: from..to seconds of the measured window, every request refused (a transport failure, its calls unanswered). */
  outage?: { fromS: number; toS: number };
  /** Signed-transaction load (inclusion tracked). */
  inclusion?: boolean;
  /** Where the run stopped early. */
  stop?: RunStop;
  /** The generator fell behind (lag of several ms, the run invalid). */
  generatorBehind?: boolean;
  thresholds?: Threshold[];
  model?: ArrivalModel;
}

// Thresholds as a scenario writes them, evaluated by the harness's own code (load/scenario/Threshold.ts).
export const P99_UNDER_50MS = parseThreshold('p99 < 50ms');
export const P50_UNDER_10MS = parseThreshold('p50 < 10ms');
export const ERRORS_UNDER_1PCT = parseThreshold('errors < 1%');
const INCLUSION_OVER_99PCT = parseThreshold('inclusion >= 99%');
const INCLUSION_P99_UNDER_5S = parseThreshold('tti-p99 < 5s');

function pickShape(shapes: readonly Shape[], at: number): Shape {
  let left = at;
  for (const shape of shapes) if ((left -= shape.weight) < 0) return shape;
  const last = shapes[shapes.length - 1];
  if (last === undefined) throw new Error('a scenario without requests');
  return last;
}

/** Simulates one run of a scenario against one node. */
export function simulateRun(spec: RunSpec): LoadRun {
  const rand = random(spec.seed);
  const sigma = spec.sigma ?? 0.45;
  const tickMs = 1000;
  const stopAtMs = spec.stop?.atMs ?? spec.durationS * 1000;
  const latency = newHistogram();
  const service = newHistogram();
  const lag = newHistogram();
  const readLag = newHistogram();
  const perMethod = new Map<string, { stats: Omit<MethodStats, 'latency' | 'service'>; latency: hdr.Histogram; service: hdr.Histogram }>();
  const perBatch = new Map<string, { requests: number; latency: hdr.Histogram; service: hdr.Histogram }>();
  const timeline: TimelinePoint[] = [];
  const failures = { timeouts: 0, transport: 0, httpStatus: {} as Record<string, number>, malformed: 0, extraElements: 0, missingElements: 0 };
  const totalWeight = spec.shapes.reduce((n, s) => n + s.weight, 0);
  const tti = newHistogram();
  let scheduled = 0;
  let sent = 0;
  let dropped = 0;
  let queuedMax = 0;
  let completedMeasured = 0;
  let accepted = 0;
  let included = 0;
  /** Transactions accepted, by the tick they will be included in. */
  const inclusionDue = new Map<number, number>();
  const load = Math.min(spec.rate / spec.capacity, 0.995);
  const queueing = 1 / (1 - load * 0.9);
  let errorTurn = 0;
  /** Requests a stall holds back: they end in the tick after it. */
  let backlog = 0;

  for (let tMs = -spec.warmupS * 1000; tMs < stopAtMs; tMs += tickMs) {
    const measured = tMs >= 0;
    const tickLen = Math.min(tickMs, stopAtMs - tMs);
    const due = Math.round((spec.rate * tickLen) / 1000);
    const canSend = Math.round((Math.max(spec.capacity * 1.02, 1) * tickLen) / 1000);
    const tickSent = Math.min(due, canSend);
    const tickDropped = due - tickSent;
    const stalled = spec.stall !== undefined && tMs >= spec.stall.fromS * 1000 && tMs < spec.stall.toS * 1000;
    const down = spec.outage !== undefined && tMs >= spec.outage.fromS * 1000 && tMs < spec.outage.toS * 1000;
    const median = spec.medianUs * queueing * (stalled ? (spec.stall?.factor ?? 1) : 1);
    const tick = newHistogram();
    let okCalls = 0;
    let failed = 0;
    const samples = Math.min(tickSent, 120);
    for (let i = 0; i < samples; i++) {
      const weight = Math.floor(tickSent / samples) + (i < tickSent % samples ? 1 : 0);
      if (weight === 0) continue;
      const shape = pickShape(spec.shapes, rand() * totalWeight);
      const size = shape.batch ?? 1;
      const lagUs = spec.generatorBehind ? 2000 + rand() * 30_000 : 20 + rand() * 180;
      const serviceUs = Math.max(50, median * (shape.factor ?? 1) * Math.exp(sigma * normal(rand)) * (size > 1 ? 1 + size / 40 : 1));
      const latencyUs = serviceUs + lagUs;
      tick.recordValueWithCount(Math.round(latencyUs), weight);
      const n = weight * size;
      const bad = down ? 0 : Math.min(n, Math.round(n * (shape.errorRate ?? 0) + (rand() < ((n * (shape.errorRate ?? 0)) % 1) ? 1 : 0)));
      const missing = down ? n : Math.min(n - bad, Math.round(n * (shape.missingRate ?? 0)));
      okCalls += n - bad - missing;
      failed += bad + missing;
      if (!measured) continue;
      latency.recordValueWithCount(Math.round(latencyUs), weight);
      service.recordValueWithCount(Math.round(serviceUs), weight);
      lag.recordValueWithCount(Math.round(lagUs), weight);
      // The reading side of the same generator (no draw of its own: the fixtures' other figures stay as they were).
      readLag.recordValueWithCount(Math.round(lagUs / 4), weight);
      const m = perMethod.get(shape.method) ?? {
        stats: { method: shape.method, calls: 0, ok: 0, errors: {}, unanswered: 0, validated: 0, invalid: 0 },
        latency: newHistogram(),
        service: newHistogram(),
      };
      perMethod.set(shape.method, m);
      m.stats.calls += n;
      m.stats.ok += n - bad - missing;
      m.stats.unanswered += missing;
      if (down) failures.transport += weight;
      else if (missing > 0) failures.missingElements += Math.max(1, Math.round(missing / 2));
      if (bad > 0) {
        const codes = shape.codes ?? ['-32603'];
        const code = codes[errorTurn++ % codes.length] ?? '-32603';
        m.stats.errors[code] = (m.stats.errors[code] ?? 0) + bad;
      }
      const validated = Math.round((n - bad - missing) * (shape.validated ?? 0.01));
      m.stats.validated += validated;
      m.latency.recordValueWithCount(Math.round(latencyUs), n);
      m.service.recordValueWithCount(Math.round(serviceUs), n);
      const key = size === 1 ? 'single' : String(size);
      const b = perBatch.get(key) ?? { requests: 0, latency: newHistogram(), service: newHistogram() };
      perBatch.set(key, b);
      b.requests += weight;
      b.latency.recordValueWithCount(Math.round(latencyUs), weight);
      b.service.recordValueWithCount(Math.round(serviceUs), weight);
    }
    const held = stalled ? Math.round(tickSent * 0.6) : 0;
    const completed = tickSent - held + (stalled ? 0 : backlog);
    backlog = stalled ? backlog + held : 0;
    const point: TimelinePoint = {
      tMs,
      sent: tickSent,
      completed,
      okCalls,
      failedCalls: failed,
      dropped: tickDropped,
      inFlight: Math.max(0, Math.round((spec.rate * median) / 1e6 + rand() * 3)) + backlog,
      p50Us: tick.totalCount === 0 ? 0 : tick.getValueAtPercentile(50),
      p99Us: tick.totalCount === 0 ? 0 : tick.getValueAtPercentile(99),
    };
    if (spec.inclusion && measured) {
      // A tick's accepted transactions (its ok calls) are included 1 to 4 blocks later (1 s blocks), later in
      // a stall; those due after the run's end stay pending.
      accepted += okCalls;
      const groups = Math.min(okCalls, 40);
      for (let k = 0; k < groups; k++) {
        const share = Math.floor(okCalls / groups) + (k < okCalls % groups ? 1 : 0);
        const blocks = 1 + Math.floor(rand() * rand() * 4) + (stalled ? 3 : 0);
        const at = tMs + blocks * 1000;
        inclusionDue.set(at, (inclusionDue.get(at) ?? 0) + share);
        if (at < stopAtMs) tti.recordValueWithCount(Math.round(blocks * 1000 - 500 + rand() * 900), share);
      }
      included += inclusionDue.get(tMs) ?? 0;
      point.included = included;
      point.pending = accepted - included;
    }
    timeline.push(point);
    if (!measured) continue;
    scheduled += due;
    sent += tickSent;
    dropped += tickDropped;
    queuedMax = Math.max(queuedMax, tickDropped > 0 ? 64 : Math.round(rand() * 3));
    completedMeasured += tickSent;
  }

  const durationMs = stopAtMs;
  const windowS = durationMs / 1000;
  const run: LoadRun = {
    url: spec.url,
    scenario: 'reads-mixed',
    model: spec.model ?? { kind: 'open', distribution: 'poisson', stages: [{ from: spec.rate, to: spec.rate, durationMs: spec.durationS * 1000 }] },
    startedAt: iso(spec.seed * 100_000),
    endedAt: iso(spec.seed * 100_000 + spec.warmupS * 1000 + durationMs + 1200),
    warmupMs: spec.warmupS * 1000,
    durationMs,
    valid: !spec.generatorBehind,
    invalid: spec.generatorBehind ? ['the generator fell behind its schedule: lag p99 above 10 ms (the machine running chainrpc is saturated)'] : [],
    schedule: {
      targetRate: spec.model?.kind === 'closed' ? null : spec.rate,
      achievedRate: windowS === 0 ? 0 : Math.round((completedMeasured / windowS) * 10) / 10,
      scheduled,
      sent,
      dropped,
      queuedMax,
      lagUs: histogramData(lag),
      readLagUs: histogramData(readLag),
    },
    failures,
    latency: histogramData(latency),
    service: histogramData(service),
    methods: [...perMethod.values()].map((m) => ({ ...m.stats, latency: histogramData(m.latency), service: histogramData(m.service) })),
    batchSizes: [...perBatch.entries()]
      .sort(([a], [b]) => (a === 'single' ? -1 : b === 'single' ? 1 : Number(a) - Number(b)))
      .map(([size, b]): BatchSizeStats => ({ size, requests: b.requests, latency: histogramData(b.latency), service: histogramData(b.service) })),
    timeline,
    thresholds: [],
    stop: spec.stop ?? { reason: 'completed', atMs: durationMs },
  };
  if (spec.inclusion) {
    const refused = run.methods[0]?.errors ?? {};
    const inclusion: InclusionStats = {
      method: 'sender-nonce',
      pollIntervalMs: 250,
      accepted,
      refused,
      included,
      pending: accepted - included,
      ratio: accepted === 0 ? 0 : Math.round((included / accepted) * 10_000) / 10_000,
      timeToInclusionMs: histogramData(tti),
      chainTps: Math.round((included / Math.max(windowS, 1)) * 10) / 10,
      perBlock: { blocks: Math.max(1, Math.round(windowS)), mean: Math.round((included / Math.max(windowS, 1)) * 10) / 10, max: Math.round((included / Math.max(windowS, 1)) * 1.8) },
    };
    run.inclusion = inclusion;
  }
  run.thresholds = evaluateThresholds(run, spec.thresholds ?? []);
  return run;
}

const READS: Shape[] = [
  { method: 'chain_getAccount', weight: 50, factor: 1, errorRate: 0.0004, codes: ['-32005'], validated: 0.01 },
  { method: 'chain_getBlockByHeight', weight: 25, factor: 1.6, errorRate: 0.002, codes: ['-32001', '-32603'], validated: 0.01 },
  { method: 'chain_blockNumber', weight: 15, factor: 0.6 },
  { method: 'chain_getAccount', weight: 10, batch: 20, factor: 1, errorRate: 0.0004, codes: ['-32005'], missingRate: 0.0005 },
];

const SCENARIO_DEFINITION = {
  name: 'reads-mixed',
  description: `Account and block reads, a batch of 20 in ten requests. ${LOAD_HOSTILE}`,
  model: { kind: 'open', distribution: 'poisson', rate: 2000, duration: '60s', warmup: '10s' },
  requests: [
    { method: 'chain_getAccount', weight: 50, params: ['$account'] },
    { method: 'chain_getBlockByHeight', weight: 25, params: ['$recentHeight'] },
    { method: 'chain_blockNumber', weight: 15 },
    { batch: 20, method: 'chain_getAccount', weight: 10, params: ['$account'] },
  ],
  thresholds: ['p99 < 50ms', 'p50 < 10ms', 'errors < 1%'],
  maxInFlight: 512,
  timeout: '10s',
};

const STANDARD = [P99_UNDER_50MS, P50_UNDER_10MS, ERRORS_UNDER_1PCT];

/**
 * A report of these runs, judged as the command judges it: the verdict is load/loadVerdict.ts's, so every
 * headline a report test sees is one `chainrpc load` prints.
 */
function report(runs: LoadRun[], extra: Partial<Omit<LoadReport, 'verdict'>> & { command: string }, interrupted = false): LoadReport {
  const sweeps = extra.sweeps ?? [];
  return {
    format: 'chainrpc-load/2',
    tool: { name: 'chainrpc', version: '0.1.0' },
    createdAt: iso(3_600_000),
    scenario: { name: 'reads-mixed', definition: SCENARIO_DEFINITION },
    profile: 'reference',
    runs,
    sweeps,
    ...extra,
    verdict: loadVerdict(runs, sweeps, extra.baseline, interrupted),
  };
}

const plainRun = (seed = 1, url = LOAD_NODE_A): LoadRun =>
  simulateRun({ url, seed, rate: 2000, durationS: 60, warmupS: 10, medianUs: 1800, capacity: 5200, shapes: READS, thresholds: STANDARD });

function sweep(): SweepResult {
  const rates = [500, 1000, 2000, 4000, 3000, 2500, 2750];
  const steps = rates.map((rate, i): SweepStep => {
    const run = simulateRun({ url: LOAD_NODE_A, seed: 40 + i, rate, durationS: 15, warmupS: 3, medianUs: 1800, capacity: 3100, shapes: READS, thresholds: STANDARD });
    const reasons: string[] = [];
    if (run.schedule.achievedRate < rate * 0.99) reasons.push(`achieved ${run.schedule.achievedRate} req/s, under 99% of ${rate}`);
    if (run.schedule.dropped > 0) reasons.push(`${run.schedule.dropped} requests dropped`);
    for (const t of run.thresholds) if (!t.ok) reasons.push(`threshold ${t.name} broken`);
    return { rate, run, sloHeld: reasons.length === 0, reasons, generatorLimited: false };
  });
  const held = steps.filter((s) => s.sloHeld).map((s) => s.rate);
  return { url: LOAD_NODE_A, scenario: 'reads-mixed', search: 'ramp-bisect', steps, knee: held.length === 0 ? null : Math.max(...held) };
}

/** The devnet of the run with faults: its nodes by name, as `chainrpc load --devnet 2:1` starts them. */
export const CHAOS_NODES = [
  { name: 'mn1', kind: 'MN', url: 'http://127.0.0.1:40101' },
  { name: 'mn2', kind: 'MN', url: 'http://127.0.0.1:40102' },
  { name: 'ln1', kind: 'LN', url: 'http://127.0.0.1:40103' },
] as const satisfies ChaosReport['nodes'];

/** A round to one decimal, as the health figures are kept. */
const tenth = (v: number): number => Math.round(v * 10) / 10;

/**
 * A devnet node's head, followed from `startedAt` (the health origin) until `endMs`: a height every second
 * from 0.3 s on, each served a few ms after it appeared; while the node was `away` (killed, paused) it served
 * none, and every height that appeared meanwhile it reached at once when it came back.
 */
function devnetHead(startedAt: string, seed: number, endMs: number, away?: { fromMs: number; toMs: number }): HeadHealth {
  const rand = random(seed);
  const series: { tMs: number; lagMs: number }[] = [];
  for (let t = 300; t < endMs; t += 1000) series.push({ tMs: t, lagMs: away !== undefined && t >= away.fromMs && t < away.toMs ? away.toMs - t : tenth(1 + rand() * 30) });
  const lags = series.map((p) => p.lagMs).sort((a, b) => a - b);
  const at = (q: number): number => lags[Math.min(lags.length - 1, Math.ceil(q * lags.length) - 1)] ?? 0;
  const firstHeight = 12;
  const stalled = away !== undefined && away.toMs - away.fromMs > 3000;
  return {
    startedAt,
    intervalMs: 100,
    medianIntervalMs: 101,
    samples: Math.round(endMs / 100),
    failed: away === undefined ? 0 : Math.round((away.toMs - away.fromMs) / 100),
    ...(away === undefined ? {} : { lastFailure: 'connect ECONNREFUSED' }),
    blockTimeMs: 1000,
    blocks: series.length,
    lagMs: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: lags[lags.length - 1] ?? 0 },
    worst: series
      .map((p, i) => ({ height: firstHeight + i + 1, lagMs: p.lagMs }))
      .sort((a, b) => b.lagMs - a.lagMs)
      .slice(0, 5),
    series,
    lagTrend: null,
    stalls: away !== undefined && stalled ? [{ startMs: away.fromMs + 3000, endMs: away.toMs, height: firstHeight + Math.ceil((away.fromMs - 300) / 1000), behindBlocks: Math.ceil((away.toMs - away.fromMs) / 1000) }] : [],
    regressions: [],
    regressionCount: 0,
  };
}

/**
 * A devnet node's process, read every 500 ms over the health clock until `endMs`: its CPU and a slowly growing
 * RSS; while it was `away` nothing was read, and the process that came back started smaller.
 */
function devnetResources(source: string, seed: number, endMs: number, answeredCalls: number, away?: { fromMs: number; toMs: number }): NodeResources {
  const rand = random(seed);
  const series: ResourcePoint[] = [];
  let missed = 0;
  let previousMissed = true;
  for (let t = 250; t < endMs; t += 500) {
    if (away !== undefined && t >= away.fromMs && t < away.toMs) {
      missed++;
      previousMissed = true;
      continue;
    }
    const after = away !== undefined && t >= away.toMs;
    const rss = (after ? 70 + (t - (away?.toMs ?? 0)) / 1000 : 88 + t / 4000) * 1_048_576;
    series.push({ tMs: t, cpuPercent: previousMissed ? null : tenth(18 + rand() * 14 + (after && t < (away?.toMs ?? 0) + 2000 ? 40 : 0)), rssBytes: Math.round(rss), openFds: 42, threads: 11 });
    previousMissed = false;
  }
  const last = series[series.length - 1];
  const cpuSeconds = tenth(series.reduce((n, p) => n + (p.cpuPercent ?? 0), 0) / 200);
  return {
    source,
    intervalMs: 500,
    samples: series.length + missed,
    missed,
    cpuSeconds,
    answeredCalls,
    cpuPerCallUs: answeredCalls === 0 ? null : Math.round((cpuSeconds * 1e6) / answeredCalls),
    peakRssBytes: Math.max(...series.map((p) => p.rssBytes)),
    ...(last === undefined ? {} : { last: { rssBytes: last.rssBytes, openFds: 42, threads: 11 } }),
    rssTrend: null,
    series,
  };
}

/**
 * A run with faults as `chainrpc load transfers --devnet 2:1 --chaos 20s:kill:mn2:10s --chaos 30.5s:pause:ln1:2s
 * --chaos 36s:restart:any-mn` reports it. Its clocks are those of a real run: the health origin first, the
 * schedule's t = 0 (the planned start of measurement) 5.06 s later, and each node's engine a few hundred ms after
 * that (workers starting). mn2 refuses every call while it is down; ln1's answers are held while it is paused;
 * the last step finds no MN down, so it is not done.
 */
function chaosReport(): LoadReport {
  const healthOrigin = T0 + 7_200_000;
  const warmupMs = 5000;
  const originMs = healthOrigin + 60 + warmupMs;
  // The schedule's times as the health clock counts them.
  const health = (chaosMs: number): number => chaosMs + originMs - healthOrigin;
  const endMs = health(41_500);
  const [mn1, mn2, ln1] = CHAOS_NODES;
  const runs = CHAOS_NODES.map((node, i): LoadRun => {
    // Each node's engine started its warm-up 280 to 320 ms after the schedule's; `late` moves a schedule time to its clock.
    const late = 280 + 20 * i;
    const run = simulateRun({
      url: node.url,
      seed: 60 + i,
      rate: 100,
      durationS: 40,
      warmupS: warmupMs / 1000,
      medianUs: 2500,
      capacity: 1500,
      shapes: [{ method: 'chain_sendRawTransaction', weight: 1, errorRate: 0.001, codes: ['-32010'] }],
      inclusion: true,
      thresholds: [P99_UNDER_50MS, ERRORS_UNDER_1PCT],
      ...(node === mn2 ? { outage: { fromS: 20, toS: 31 } } : {}),
      ...(node === ln1 ? { stall: { fromS: 30, toS: 33, factor: 40 } } : {}),
    });
    run.scenario = 'transfers';
    run.model = { kind: 'open', distribution: 'uniform', stages: [{ from: 100, to: 100, durationMs: 40_000 }] };
    run.startedAt = new Date(originMs - warmupMs + late).toISOString();
    run.endedAt = new Date(originMs + late + 40_000 + 900).toISOString();
    const failed = node === mn2 ? run.timeline.reduce((n, p) => n + (p.tMs >= 0 ? p.failedCalls : 0), 0) : 0;
    const chaos: RunChaos = {
      events: [
        { text: '20s:kill:mn2:10s', atMs: 20_003, failedCalls: failed, byMethod: failed === 0 ? {} : { chain_sendRawTransaction: failed }, firstFailureMs: failed === 0 ? null : 4, recoveryMs: failed === 0 ? 0 : 10_640 },
        { text: '20s:kill:mn2:10s (end)', atMs: 30_001, failedCalls: 0, byMethod: {}, firstFailureMs: null, recoveryMs: node === mn2 ? 642 : 0 },
        { text: '30.5s:pause:ln1:2s', atMs: 30_620, failedCalls: 0, byMethod: {}, firstFailureMs: null, recoveryMs: 0 },
        { text: '30.5s:pause:ln1:2s (end)', atMs: 32_501, failedCalls: 0, byMethod: {}, firstFailureMs: null, recoveryMs: 0 },
        { text: '36s:restart:any-mn', atMs: 36_001, failedCalls: 0, byMethod: {}, firstFailureMs: null, recoveryMs: 0 },
      ],
      recoveryMs: node === mn2 ? 10_640 : 0,
      failoverMs: 2_140,
      forks: 0,
      lostTx: node === mn2 ? 3 : 0,
      duplicateTx: 0,
      lostExamples: node === mn2 ? ['0x5f1c0e7a93d24b8e0c6a1f4e2b7d9a3c5e8f0a1b2c3d4e5f60718293a4b5c6d7', '0x0b9e2d4c6a8f1e3d5c7b9a0e2f4d6c8b1a3e5d7c9f0b2a4c6e8d0f1a3b5c7d9e', '0xc4a2e6f8b0d1c3e5a7f9b1d3e5c7a9f0b2d4e6a8c0f1b3d5e7a9c1e3f5b7d9a0'] : [],
      duplicateExamples: [],
    };
    run.chaos = chaos;
    const away = node === mn2 ? { fromMs: health(20_003), toMs: health(30_001 + 565) } : node === ln1 ? { fromMs: health(30_620), toMs: health(32_501 + 80) } : undefined;
    const answered = run.methods.reduce((n, m) => n + m.calls - m.unanswered, 0);
    run.health = {
      head: devnetHead(new Date(healthOrigin).toISOString(), 70 + i, endMs, away),
      // mn2's process is read from its metrics (the one that came back too); the others' by pid.
      resources: devnetResources(node === mn2 ? `${node.url}/metrics` : `pid ${31_000 + i}`, 80 + i, endMs, answered, node === mn2 ? away : undefined),
    };
    return run;
  });
  const event = (e: Omit<ChaosReport['events'][number], 'leaderBefore' | 'leaderAfter' | 'headBefore' | 'nextBlockMs' | 'nextBlockAt'>, leader: [string, string], head: number, nextMs: number | null): ChaosReport['events'][number] => ({
    ...e,
    leaderBefore: leader[0],
    leaderAfter: leader[1],
    headBefore: head,
    nextBlockMs: nextMs,
    nextBlockAt: nextMs === null ? null : new Date(originMs + e.atMs + nextMs).toISOString(),
  });
  const chaos: ChaosReport = {
    originAt: new Date(originMs).toISOString(),
    nodes: CHAOS_NODES.map((n) => ({ ...n })),
    steps: [
      { text: '20s:kill:mn2:10s', atMs: 20_000, action: 'kill', target: mn2.name, forMs: 10_000 },
      { text: '30.5s:pause:ln1:2s', atMs: 30_500, action: 'pause', target: ln1.name, forMs: 2_000 },
      { text: '36s:restart:any-mn', atMs: 36_000, action: 'restart', target: 'any-mn', forMs: null },
    ],
    events: [
      event({ text: '20s:kill:mn2:10s', action: 'kill', node: mn2.name, atMs: 20_003 }, [mn2.name, mn1.name], 37, 2_140),
      event({ text: '20s:kill:mn2:10s (end)', action: 'restart', node: mn2.name, atMs: 30_001, catchUpMs: 565 }, [mn1.name, mn1.name], 45, 410),
      event({ text: '30.5s:pause:ln1:2s', action: 'pause', node: ln1.name, atMs: 30_620 }, [mn1.name, mn1.name], 46, 380),
      event({ text: '30.5s:pause:ln1:2s (end)', action: 'resume', node: ln1.name, atMs: 32_501, catchUpMs: 80 }, [mn1.name, mn1.name], 48, 500),
      event({ text: '36s:restart:any-mn', action: 'restart', node: null, atMs: 36_001, error: 'no MN is down' }, [mn1.name, mn1.name], 51, 1_000),
    ],
    consistency: { fromHeight: 37, toHeight: 56, nodes: CHAOS_NODES.map((n) => n.name), forks: [] },
  };
  return report(runs, {
    command: `chainrpc load transfers --devnet 2:1 --chaos 20s:kill:mn2:10s --chaos 30.5s:pause:ln1:2s --chaos 36s:restart:any-mn --rate 300 --duration 40s --warmup 5s`,
    scenario: { name: 'transfers', definition: { name: 'transfers', model: { kind: 'open', distribution: 'uniform', rate: 300, duration: '40s', warmup: '5s' }, inclusion: { method: 'sender-nonce', pollInterval: '250ms' } } },
    chaos,
  });
}

export type LoadFixtureKind = 'plain' | 'inclusion' | 'compared' | 'sweep' | 'baseline' | 'interrupted' | 'empty' | 'long' | 'chaos';

/** A LoadReport of the given kind (see the file's comment); each call builds a new value. */
export function loadReportFixture(kind: LoadFixtureKind): LoadReport {
  const base = `chainrpc load --scenario scenarios/reads-mixed.json --rate 2000 --duration 60s --warmup 10s`;
  switch (kind) {
    case 'plain':
      return report([plainRun()], { command: `${base} --url ${LOAD_NODE_A}` });
    case 'inclusion': {
      const run = simulateRun({
        url: LOAD_NODE_A,
        seed: 7,
        rate: 400,
        durationS: 60,
        warmupS: 5,
        medianUs: 3500,
        capacity: 2000,
        shapes: [{ method: 'chain_sendRawTransaction', weight: 1, errorRate: 0.004, codes: ['-32010', '-32003'] }],
        stall: { fromS: 30, toS: 34, factor: 6 },
        inclusion: true,
        thresholds: [P99_UNDER_50MS, ERRORS_UNDER_1PCT, INCLUSION_OVER_99PCT, INCLUSION_P99_UNDER_5S],
      });
      run.scenario = 'transfers';
      return report([run], {
        command: `chainrpc load --scenario transfers --corpus .chainrpc/corpus/transfers-24k.ndjson --rate 400 --duration 60s --url ${LOAD_NODE_A}`,
        scenario: { name: 'transfers', definition: { name: 'transfers', corpus: 'transfers-24k', model: { kind: 'open', rate: 400 }, inclusion: { method: 'sender-nonce', pollInterval: '250ms' } } },
      });
    }
    case 'compared': {
      const b = simulateRun({ url: LOAD_NODE_B, seed: 2, rate: 2000, durationS: 60, warmupS: 10, medianUs: 2900, capacity: 3400, shapes: READS, thresholds: STANDARD, stall: { fromS: 20, toS: 26, factor: 9 } });
      return report([plainRun(), b], { command: `${base} --url ${LOAD_NODE_A} --url ${LOAD_NODE_B}` });
    }
    case 'sweep':
      return report([], { command: `chainrpc load sweep --scenario scenarios/reads-mixed.json --url ${LOAD_NODE_A} --from 500 --to 4000`, sweeps: [sweep()] });
    case 'baseline': {
      const run = simulateRun({ url: LOAD_NODE_A, seed: 3, rate: 2000, durationS: 60, warmupS: 10, medianUs: 2400, capacity: 5000, shapes: READS, thresholds: STANDARD });
      const delta = (metric: string, unit: FigureUnit, baseline: number, current: number, allowed: number, higherIsWorse = true): BaselineDelta => {
        const change = baseline === 0 ? 0 : Math.round(((current - baseline) / baseline) * 10_000) / 10_000;
        return { metric: `${LOAD_NODE_A} reads-mixed ${metric}`, unit, baseline, current, change, allowed, regression: higherIsWorse ? change > allowed : -change > allowed };
      };
      return report([run], {
        command: `${base} --url ${LOAD_NODE_A} --baseline .chainrpc/reports/load-2026-11-30T09-00-00-000Z/report.json`,
        baseline: {
          file: '.chainrpc/reports/load-2026-11-30T09-00-00-000Z/report.json',
          createdAt: '2026-11-30T09:01:12.000Z',
          deltas: [
            delta('p50', 'ms', 1.84, run.latency.p50 / 1000, 0.1),
            delta('p99', 'ms', 5.1, run.latency.p99 / 1000, 0.15),
            delta('achievedRate', '/s', 2000, run.schedule.achievedRate, 0.02, false),
            delta('errors%', '%', 0.06, 0.07, 0.5),
          ],
        },
      });
    }
    case 'interrupted': {
      const run = simulateRun({
        url: LOAD_NODE_A,
        seed: 4,
        rate: 2000,
        durationS: 60,
        warmupS: 10,
        medianUs: 1800,
        capacity: 5200,
        shapes: READS,
        thresholds: STANDARD,
        generatorBehind: true,
        stop: { reason: 'interrupted', atMs: 12_400, message: `SIGINT: stopped by the user ${LOAD_HOSTILE}` },
      });
      run.invalid.push('interrupted after 12.4 s of 60 s: the figures cover a part of the run');
      return report([run], { command: `${base} --url ${LOAD_NODE_A}` }, true);
    }
    case 'empty': {
      const run = simulateRun({ url: 'http://127.0.0.1:9', seed: 5, rate: 2000, durationS: 60, warmupS: 10, medianUs: 1800, capacity: 5200, shapes: READS, thresholds: STANDARD, stop: { reason: 'target-unreachable', atMs: 0, message: 'connect ECONNREFUSED 127.0.0.1:9' } });
      run.timeline = [];
      run.warmupMs = 0;
      run.valid = false;
      run.invalid = ['no request was answered: the node could not be reached'];
      run.failures.transport = 3;
      run.thresholds = [];
      return report([run], { command: `${base} --url http://127.0.0.1:9` });
    }
    case 'long': {
      const a = simulateRun({ url: LOAD_NODE_A, seed: 8, rate: 1500, durationS: 600, warmupS: 30, medianUs: 1800, capacity: 5200, shapes: READS, thresholds: STANDARD, stall: { fromS: 300, toS: 320, factor: 5 } });
      const b = simulateRun({ url: LOAD_NODE_B, seed: 9, rate: 1500, durationS: 600, warmupS: 30, medianUs: 2600, capacity: 4000, shapes: READS, thresholds: STANDARD });
      return report([a, b], { command: `chainrpc load --scenario scenarios/reads-mixed.json --rate 1500 --duration 10m --warmup 30s --url ${LOAD_NODE_A} --url ${LOAD_NODE_B}` });
    }
    case 'chaos':
      return chaosReport();
  }
}

/** Every fixture kind, for tests that render them all. */
export const LOAD_FIXTURE_KINDS: readonly LoadFixtureKind[] = ['plain', 'inclusion', 'compared', 'sweep', 'baseline', 'interrupted', 'empty', 'long', 'chaos'];
