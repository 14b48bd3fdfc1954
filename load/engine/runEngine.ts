/**
 * The load engine: runs one scenario's load against one endpoint and measures it (docs/load.md, "The engine").
 * The work runs in this thread, or split between worker threads (`threads`) whose figures merge exactly.
 */
import type { ArrivalModel, GeneratorCpu, LaneLedger, LoadProgress, LoadRun, RateStage, RunStop, TimelinePoint } from '../model.js';
import { cpuShares } from '../metrics/generatorCpu.js';
import { mergeReadRegressions } from '../health/ReadWatch.js';
import { mergeOutagesCounted } from '../metrics/OutageLog.js';
import { Histogram } from '../metrics/Histogram.js';
import { LoadRecorder, type TickReport } from '../metrics/LoadRecorder.js';
import { TimelineBuilder } from '../metrics/TimelineBuilder.js';
import { parseTarget } from './HttpConnection.js';
import type { SourceSpec, TrackedOutcome } from './RequestSource.js';
import { prepareThread } from './runThread.js';
import type { ThreadHooks, ThreadPlan, ThreadResult, ThreadStop } from './ThreadPlan.js';
import { Schedule } from './Schedule.js';
import { warmHistograms } from '../metrics/Histogram.js';
import { diffOf } from '../replay/diffCounts.js';
import type { WorkerMessage, WorkerCommand } from './engineWorker.js';
import { startWorker } from '../../core/process/startWorker.js';
import { setFlagsFromString } from 'node:v8';
import { epochNow, monotonicMs } from '../../core/epochNow.js';
import { fellBehind, lateBeyond } from './lateBeyond.js';

export interface EngineOptions {
  /** The full endpoint URL (http: only), e.g. http://127.0.0.1:8545/rpc. */
  url: string;
  model: ArrivalModel;
  /** Load before the measured window, excluded from every figure but the timeline (open: at the first stage's starting rate). */
  warmupMs: number;
  /** The measured window. Open model: must equal the sum of the stages' durations. */
  durationMs: number;
  /** Open model: a request due while this many are in flight (or waiting for a connection) is dropped. */
  maxInFlight: number;
  /** Open model: connections to use, opened as needed (default: maxInFlight, so nothing ever waits for one). */
  connections?: number;
  /** A request not answered in this time is a timeout (its socket is destroyed). */
  timeoutMs: number;
  source: SourceSpec;
  /** Threads to split the work between (default 1). */
  threads?: number;
  /**
   * Send from worker threads even when there is one (default false: one thread's work runs in this one). A
   * worker's event loop and heap are its own, so the sends never wait on this thread's work (an inclusion
   * tracker, progress output, its garbage collection): `chainrpc load` always runs its generator there.
   */
  worker?: boolean;
  /** Seeds the Poisson arrivals (default 1). */
  seed?: number;
  /** The timeline's and the progress's tick (default 1000). */
  tickMs?: number;
  /** Abort: stop sending, give in-flight requests up to a second, and return what ran (stop.reason 'interrupted'). */
  signal?: AbortSignal;
  onProgress?(p: Omit<LoadProgress, 'url' | 'included' | 'pending'>): void;
  /** Outcomes of calls marked `track`, in batches, in this thread. */
  onTracked?(outcomes: TrackedOutcome[]): void;
  /** The run is invalid when the generator's send lag p99, or its read lag p99, exceeds this (default 5,000 µs). */
  maxLagP99Us?: number;
  /** Every connection attempt failing for this long stops the run as 'target-unreachable' (default 2,000 ms). */
  unreachableMs?: number;
}

export type EngineResult = Omit<LoadRun, 'url' | 'scenario' | 'thresholds' | 'inclusion'> & {
  /** What the source's transaction lanes did after failed sends, summed over the threads (the run's inclusion figures take it). */
  lanes?: LaneLedger;
};

/** How every reason a run is invalid because of the load generator (not the node) begins. */
const GENERATOR_REASON = 'the generator';

/** Whether a reason of `LoadRun.invalid` blames the generator (its schedule lag), not the node. */
export const isGeneratorReason = (reason: string): boolean => reason.startsWith(GENERATOR_REASON);

/** The default bound of the generator's send lag p99 and read lag p99: beyond it the figures carry the generator's delays. */
export const DEFAULT_MAX_LAG_P99_US = 5_000;
/** A generator that took up one due request this late stalled: the run is invalid whatever its p99. */
export const MAX_LAG_STALL_US = 200_000;
/** How long after the measured window (and the timeout) a run may go on before it is cut. */
const DEADLINE_MARGIN_MS = 5_000;

export async function runEngine(options: EngineOptions): Promise<EngineResult> {
  const plans = planThreads(options);
  const tickMs = options.tickMs ?? 1_000;
  const timeline = new TimelineBuilder(plans.length, tickMs);
  const startedAt = new Date();
  let origin = 0;
  let okCalls = 0;
  let failedCalls = 0;
  let dropped = 0;
  const warmStages = warmedStages(options);

  const emit = (point: TimelinePoint): void => {
    const end = point.tMs + tickMs;
    options.onProgress?.({
      phase: end <= 0 ? 'warmup' : point.tMs < options.durationMs ? 'measure' : 'drain',
      elapsedMs: end,
      durationMs: options.durationMs,
      achievedRate: (point.completed * 1000) / tickMs,
      targetRate: warmStages === undefined ? null : Schedule.rateAt(warmStages, Math.max(0, point.tMs + options.warmupMs)),
      p50Us: point.p50Us,
      p99Us: point.p99Us,
      okCalls,
      failedCalls,
      dropped,
      inFlight: point.inFlight,
    });
  };
  // Every request written, the warm-up's included: the generator's CPU per request.
  let sentAll = 0;
  const onTick = (report: TickReport): void => {
    sentAll += report.sent;
    // The measured window's own counts (as the run's figures count them), not every call that ended in a tick of it.
    okCalls += report.measured.okCalls;
    failedCalls += report.measured.failedCalls;
    dropped += report.measured.dropped;
    const point = timeline.add(report);
    if (point !== undefined) emit(point);
  };
  const onTracked = (outcomes: TrackedOutcome[]): void => options.onTracked?.(outcomes);

  const inline = plans.length === 1 && (options.threads ?? 1) === 1 && options.worker !== true;
  const handles = inline ? [await localThread(plans[0] as ThreadPlan, onTick, onTracked)] : await workerThreads(plans, onTick, onTracked);
  const stopAll = (stop: ThreadStop, graceMs: number): void => handles.forEach((h) => h.stop(stop, graceMs));
  for (const h of handles) h.onStopping = (stop) => stopAll(stop, Math.min(options.timeoutMs, 1_000));
  const onAbort = (): void => {
    const atMs = Math.round(epochNow() - origin - options.warmupMs);
    stopAll({ reason: 'interrupted', atMs, message: atMs < 0 ? `interrupted ${-atMs} ms before the measured window opened, in the warm-up` : `interrupted at ${atMs} ms of the measured window` }, Math.min(options.timeoutMs, 1_000));
  };
  let results: ThreadResult[];
  let cpu: { seconds: number; wallSeconds: number };
  try {
    // The ticks' histograms are decoded and merged here: compiled now, not at the first tick of the schedule.
    warmHistograms();
    // Start a moment ahead, so every thread begins at the same instant.
    const ahead = handles.length > 1 ? 50 : 1;
    origin = epochNow() + ahead;
    startedAt.setTime(origin);
    // The threads are told the same instant on the clock they share (their epochs may differ).
    const originMono = monotonicMs() + ahead;
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    for (const h of handles) h.start(originMono);
    if (options.signal?.aborted === true) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    results = await Promise.all(handles.map((h) => h.result));
    const used = process.cpuUsage(cpu0);
    cpu = { seconds: (used.user + used.system) / 1e6, wallSeconds: (performance.now() - wall0) / 1000 };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await Promise.all(handles.map((h) => h.dispose()));
  }
  for (const point of timeline.flush()) emit(point);
  return assemble(options, results, timeline.points(), startedAt, cpuShares(cpu.seconds, cpu.wallSeconds, sentAll));
}

/** The open model's stages with the warm-up in front (the rate at any moment from the start of the warm-up). */
function warmedStages(o: EngineOptions): RateStage[] | undefined {
  if (o.model.kind !== 'open') return undefined;
  const first = o.model.stages[0];
  return [...(o.warmupMs > 0 && first !== undefined ? [{ from: first.from, to: first.from, durationMs: o.warmupMs }] : []), ...o.model.stages];
}

function assemble(o: EngineOptions, results: ThreadResult[], timeline: TimelinePoint[], startedAt: Date, cpu: GeneratorCpu): EngineResult {
  const merged = new LoadRecorder();
  for (const r of results) merged.addFigures(r.figures);
  const f = merged.figures();
  const stop = mergedStop(results);
  const natural = stop.reason === 'completed' && stop.message === undefined;
  const ranMs = Math.max(0, ...results.map((r) => r.sendingEndedMs));
  const durationMs = natural ? o.durationMs : Math.round(Math.min(o.durationMs, ranMs));
  const seconds = durationMs / 1000;
  const abandoned = results.reduce((n, r) => n + r.abandoned, 0);
  if (abandoned > 0) stop.message = `${stop.message ?? stop.reason}; ${abandoned} requests still queued or in flight then are not counted`;
  stop.atMs = Math.max(0, stop.atMs);

  const invalid: string[] = [];
  const lag = f.schedule.lagUs;
  const maxLag = o.maxLagP99Us ?? DEFAULT_MAX_LAG_P99_US;
  const ms = (us: number): string => `${(us / 1000).toFixed(1)} ms`;
  if (o.model.kind === 'open' && lag.count > 0) {
    if (fellBehind(lag, maxLag)) invalid.push(`${GENERATOR_REASON} fell behind its schedule: send lag p99 ${ms(lag.p99)}, over the ${ms(maxLag)} bound (${lateBeyond(lag, maxLag)} of ${lag.count} sends later than it); lower the rate, add threads, or run the generator on a less busy machine`);
    // Both when both are true: a stall is its own news (one send 200 ms late), whatever the p99 says.
    if (lag.max > MAX_LAG_STALL_US) invalid.push(`${GENERATOR_REASON} stalled: one send went ${ms(lag.max)} late (bound ${ms(MAX_LAG_STALL_US)}); run the generator on a less busy machine`);
  }
  // The reading side of the same delay, in either model: answers that waited unread carry the generator's time in their latency.
  const readLag = f.schedule.readLagUs;
  if (readLag !== undefined && fellBehind(readLag, maxLag)) {
    invalid.push(`${GENERATOR_REASON} fell behind its answers: read lag p99 ${ms(readLag.p99)} (how long answers may have waited unread before they were stamped), over the ${ms(maxLag)} bound (${lateBeyond(readLag, maxLag)} of ${readLag.count} answers); lower the rate or connections, add threads, or run the generator on a less busy machine`);
  }
  if (stop.reason === 'target-unreachable') invalid.push(`the target became unreachable: ${stop.message ?? ''}`);
  if (stop.reason === 'deadline') invalid.push(`the run was cut at its hard deadline: ${stop.message ?? ''}`);

  return {
    model: o.model,
    startedAt: startedAt.toISOString(),
    // On the clock of startedAt (the schedule's origin), so that the run's window ends before it does.
    endedAt: new Date(epochNow()).toISOString(),
    warmupMs: o.warmupMs,
    durationMs,
    valid: invalid.length === 0,
    invalid,
    schedule: {
      targetRate: targetRate(o.model, f.schedule.scheduled, durationMs),
      achievedRate: seconds > 0 ? f.schedule.completed / seconds : 0,
      scheduled: f.schedule.scheduled,
      sent: f.schedule.sent,
      dropped: f.schedule.dropped,
      queuedMax: f.schedule.queuedMax,
      lagUs: o.model.kind === 'open' ? lag : new Histogram().toData(),
      ...(readLag === undefined ? {} : { readLagUs: readLag }),
      generatorCpu: cpu,
    },
    failures: f.failures,
    latency: f.latency,
    service: f.service,
    methods: f.methods,
    batchSizes: f.batchSizes,
    timeline,
    stop,
    ...readsOf(results),
    ...outagesOf(results),
    ...lanesOf(results),
    ...diffsOf(results),
  };
}

/**
 * The open model's target over the window as it ran: uniform arrivals, the rate the stages ask for over it (the
 * arrivals expected, Λ(durationMs), per second; counting the arrivals instead gave a 1 ms window at 5/s, holding
 * the one arrival at its start, a target of 1000/s); Poisson and recorded arrivals, the arrivals due per second
 * (the rate the draw, or the recording, gave). Null in the closed model.
 */
function targetRate(model: ArrivalModel, scheduled: number, durationMs: number): number | null {
  if (model.kind !== 'open') return null;
  if (durationMs <= 0) return 0;
  if (model.distribution !== 'uniform') return scheduled / (durationMs / 1000);
  let expected = 0;
  let start = 0;
  for (const s of model.stages) {
    const ms = Math.min(s.durationMs, Math.max(0, durationMs - start));
    // A linear stage: the mean of its rates at the two ends of the part that ran.
    if (ms > 0) expected += ((s.from + s.from + ((s.to - s.from) * ms) / s.durationMs) / 2) * (ms / 1000);
    start += s.durationMs;
  }
  return expected / (durationMs / 1000);
}

/** The threads' diffs added up (each thread compared its own share of the calls); absent when none compared. */
function diffsOf(results: readonly ThreadResult[]): Pick<LoadRun, 'diff'> {
  const parts = results.flatMap((r) => (r.diff === undefined ? [] : [r.diff]));
  const [first] = parts;
  return first === undefined ? {} : { diff: diffOf(first.url, parts.flatMap((p) => p.byMethod), parts.flatMap((p) => p.examples)) };
}

/** The threads' lanes' ledgers added up; absent when no lane ever stopped. */
function lanesOf(results: readonly ThreadResult[]): Pick<EngineResult, 'lanes'> {
  const parts = results.flatMap((r) => (r.lanes === undefined ? [] : [r.lanes]));
  const lanes = { resyncs: 0, resent: 0, skipped: 0 };
  for (const p of parts) {
    lanes.resyncs += p.resyncs;
    lanes.resent += p.resent;
    lanes.skipped += p.skipped;
  }
  return lanes.resyncs === 0 ? {} : { lanes };
}

/** The threads' outages as the node's clients saw them together; absent when no call failed. */
function outagesOf(results: readonly ThreadResult[]): Pick<EngineResult, 'outages'> {
  const count = results.reduce((n, r) => n + r.outages.count, 0);
  if (count === 0) return {};
  const merged = mergeOutagesCounted(results.map((r) => r.outages.kept));
  // Overlapping outages of several threads are one for the clients: their union is counted.
  return { outages: { count: results.length === 1 ? count : merged.count, kept: merged.kept } };
}

/** The threads' reads gone backwards as one (each thread judges its own answers). */
function readsOf(results: readonly ThreadResult[]): Pick<EngineResult, 'health'> {
  const parts = results.flatMap((r) => (r.reads === undefined ? [] : [r.reads]));
  return parts.length === 0 ? {} : { health: { reads: mergeReadRegressions(parts) } };
}

const SEVERITY: Record<RunStop['reason'], number> = { completed: 0, interrupted: 1, deadline: 2, 'target-unreachable': 3 };

function mergedStop(results: ThreadResult[]): RunStop {
  let best: RunStop | undefined;
  for (const { stop } of results) {
    if (best === undefined || SEVERITY[stop.reason] > SEVERITY[best.reason] || (stop.reason === best.reason && best.message === undefined && stop.message !== undefined)) best = stop;
  }
  return { ...(best as RunStop) };
}

/** Checks the options (clear errors) and splits the work into one plan per thread. */
export function planThreads(o: EngineOptions): ThreadPlan[] {
  parseTarget(o.url);
  const positive = (name: string, v: number | undefined, integer = false): void => {
    if (v !== undefined && !(Number.isFinite(v) && v > 0 && (!integer || Number.isInteger(v)))) throw new Error(`load engine: ${name} must be a positive ${integer ? 'integer' : 'number'} (got ${String(v)})`);
  };
  positive('durationMs', o.durationMs);
  positive('maxInFlight', o.maxInFlight, true);
  positive('timeoutMs', o.timeoutMs);
  positive('threads', o.threads, true);
  positive('connections', o.connections, true);
  positive('tickMs', o.tickMs);
  if (!(Number.isFinite(o.warmupMs) && o.warmupMs >= 0)) throw new Error(`load engine: warmupMs must be 0 or more (got ${o.warmupMs})`);
  const model = o.model;
  if (model.kind === 'open') {
    if (model.stages.length === 0) throw new Error('load engine: an open model needs at least one stage');
    for (const [i, s] of model.stages.entries()) {
      if (![s.from, s.to].every((r) => Number.isFinite(r) && r >= 0)) throw new Error(`load engine: stage ${i}: rates must be 0 or more requests/s`);
      if (!(Number.isFinite(s.durationMs) && s.durationMs > 0)) throw new Error(`load engine: stage ${i}: durationMs must be positive`);
    }
    const sum = model.stages.reduce((n, s) => n + s.durationMs, 0);
    if (Math.abs(sum - o.durationMs) > 1e-6) throw new Error(`load engine: durationMs (${o.durationMs}) must equal the sum of the stages' durations (${sum})`);
  } else positive('closed model connections', model.connections, true);

  const requested = o.threads ?? 1;
  // Each thread needs at least one connection (closed) or one slot in flight (open).
  const budget = model.kind === 'closed' ? model.connections : Math.min(o.maxInFlight, o.connections ?? o.maxInFlight);
  const count = Math.min(requested, budget);
  const split = (total: number, k: number): number => Math.floor(total / count) + (k < total % count ? 1 : 0);
  const deadlineMs = o.warmupMs + o.durationMs + o.timeoutMs + DEADLINE_MARGIN_MS;
  return Array.from({ length: count }, (_, k) => ({
    url: o.url,
    model: model.kind === 'closed' ? { kind: 'closed', connections: split(model.connections, k) } : model,
    warmupMs: o.warmupMs,
    durationMs: o.durationMs,
    maxInFlight: model.kind === 'closed' ? split(model.connections, k) : split(o.maxInFlight, k),
    connections: model.kind === 'closed' ? split(model.connections, k) : split(o.connections ?? o.maxInFlight, k),
    timeoutMs: o.timeoutMs,
    source: o.source,
    share: { index: k, count },
    seed: o.seed ?? 1,
    tickMs: o.tickMs ?? 1_000,
    unreachableMs: o.unreachableMs ?? 2_000,
    deadlineMs,
  }));
}

/** A thread of the run, local or a worker, as runEngine drives it. */
interface ThreadHandle {
  start(originMonoMs: number): void;
  stop(stop: ThreadStop, graceMs: number): void;
  result: Promise<ThreadResult>;
  onStopping?: (stop: ThreadStop) => void;
  dispose(): Promise<void>;
}

async function localThread(plan: ThreadPlan, tick: (r: TickReport) => void, tracked: (o: TrackedOutcome[]) => void): Promise<ThreadHandle> {
  let started: ReturnType<Awaited<ReturnType<typeof prepareThread>>['start']> | undefined;
  let resolve!: (r: ThreadResult) => void;
  let reject!: (e: unknown) => void;
  const handle: ThreadHandle = {
    start: (origin) => {
      started = prepared.start(origin);
      started.result.then(resolve, reject);
    },
    stop: (stop, grace) => started?.stop(stop, grace),
    result: new Promise<ThreadResult>((res, rej) => {
      resolve = res;
      reject = rej;
    }),
    dispose: () => Promise.resolve(),
  };
  const hooks: ThreadHooks = { tick, tracked, stopping: (s) => handle.onStopping?.(s) };
  const prepared = await prepareThread(plan, hooks);
  return handle;
}

/** The worker's entry: compiled JavaScript beside this file, or the TypeScript source (run through tsx). */
const workerEntry = (): string => new URL(`./engineWorker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href;

/**
 * V8's memory reducer collects a heap that allocates little (a sending thread that allocates nothing per wait is
 * one) about 8 s after it grew: three full collections 500 ms apart, 5 to 7 ms each, each a send that much late
 * (seen in every 10 s run at 300 requests/s, 2026-11-28). A sending thread's heap is small and short-lived, so it
 * goes without: the flag is read when an isolate is made, so it is set before the first worker (the process's
 * other threads, made later, go without it too; the main thread, made before, keeps it).
 */
let reducerOff = false;
function withoutMemoryReducer(): void {
  if (reducerOff) return;
  reducerOff = true;
  setFlagsFromString('--no-memory-reducer');
}

async function workerThreads(plans: ThreadPlan[], tick: (r: TickReport) => void, tracked: (o: TrackedOutcome[]) => void): Promise<ThreadHandle[]> {
  const entry = workerEntry();
  withoutMemoryReducer();
  const handles = plans.map((plan) => {
    const worker = startWorker(entry, { workerData: plan });
    let settle!: { resolve: (r: ThreadResult) => void; reject: (e: unknown) => void };
    const result = new Promise<ThreadResult>((resolve, reject) => (settle = { resolve, reject }));
    // Awaited later, or never when another worker failed first: never an unhandled rejection.
    result.catch(() => undefined);
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    let done = false;
    const send = (command: WorkerCommand): void => worker.postMessage(command);
    const handle: ThreadHandle = {
      start: (origin) => send({ type: 'start', originMonoMs: origin }),
      stop: (stop, graceMs) => {
        if (!done) send({ type: 'stop', stop, graceMs });
      },
      result,
      dispose: async () => {
        await worker.terminate();
      },
    };
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'ready') ready();
      else if (m.type === 'tick') tick({ ...m.report, latency: Histogram.fromCounts(m.report.latency) });
      else if (m.type === 'tracked') tracked(m.outcomes);
      else if (m.type === 'stopping') handle.onStopping?.(m.stop);
      else if (m.type === 'done') {
        done = true;
        settle.resolve(m.result);
      } else if (m.type === 'error') settle.reject(new Error(m.message));
    });
    worker.on('error', (e) => settle.reject(e));
    worker.on('exit', (code) => {
      if (!done) settle.reject(new Error(`a load worker thread exited (code ${code}) before it finished`));
      ready();
    });
    return { handle, isReady, result };
  });
  try {
    // Every worker ready (its source made), or the first failure (a source that cannot be loaded).
    await Promise.all(handles.map((h) => Promise.race([h.isReady, h.result.then(() => undefined)])));
  } catch (error) {
    await Promise.all(handles.map((h) => h.handle.dispose()));
    throw error;
  }
  return handles.map((h) => h.handle);
}
