/**
 * The load loop of one thread: makes the source, then sends on its own connections, on the open model's
 * schedule or in the closed model's loops, and records everything. runEngine runs one of these in the main
 * thread, or one per worker thread (engineWorker.ts) and merges them.
 *
 * Open model: request i is due at t_i; the generator takes it up as soon as it can (the lag is how late that
 * was). Over the in-flight cap, or when the source is busy, the request is dropped; with every connection busy
 * (fewer connections than the cap) it waits for one, in order. Latency runs from t_i, service time from the
 * first byte written. Closed model: each connection sends its next request when the last one is answered.
 */
import { pathToFileURL } from 'node:url';
import type { ArrivalModel, RunStop } from '../model.js';
import { classifyExchange, type Classification, type Exchange } from '../metrics/classifyExchange.js';
import { LoadRecorder, type RecordedFigures, type TickReport } from '../metrics/LoadRecorder.js';
import { HttpConnection, parseTarget, RequestEncoder } from './HttpConnection.js';
import type { CreateSource, PlannedRequest, RequestSource, SourceShare, SourceSpec, TrackedOutcome } from './RequestSource.js';
import { Schedule } from './Schedule.js';

/** One thread's part of a run (plain data: it crosses to worker threads). */
export interface ThreadPlan {
  url: string;
  /** Open: the whole run's stages (the thread takes its share of the arrivals); closed: this thread's connections. */
  model: ArrivalModel;
  warmupMs: number;
  durationMs: number;
  /** This thread's in-flight cap and connections. */
  maxInFlight: number;
  connections: number;
  timeoutMs: number;
  source: SourceSpec;
  share: SourceShare;
  seed: number;
  tickMs: number;
  /** Every connection attempt failing for this long stops the run as 'target-unreachable'. */
  unreachableMs: number;
  /** The hard deadline, ms after the start of the warm-up. */
  deadlineMs: number;
}

export interface ThreadHooks {
  tick(report: TickReport): void;
  tracked(outcomes: TrackedOutcome[]): void;
  /** The thread stopped early (unreachable target, deadline), so the others can stop too. */
  stopping?(stop: ThreadStop): void;
}

export type ThreadStop = RunStop;

export interface ThreadResult {
  figures: RecordedFigures;
  stop: ThreadStop;
  /** ms from the start of measurement when sending stopped. */
  sendingEndedMs: number;
  /** Requests still queued or in flight when the run stopped without waiting for them (not counted anywhere else). */
  abandoned: number;
}

export interface ThreadRun {
  result: Promise<ThreadResult>;
  /** Stops sending; in-flight requests get `graceMs` to end before they are abandoned. */
  stop(stop: ThreadStop, graceMs: number): void;
}

export interface PreparedThread {
  /** Starts the warm-up at `originEpochMs` (wall clock, the same instant in every thread). */
  start(originEpochMs: number): ThreadRun;
}

/** Makes a source from its spec: `import(spec.module)`, then its `createSource`. */
export async function makeSource(spec: SourceSpec, share: SourceShare): Promise<RequestSource> {
  const url = spec.module.startsWith('/') ? pathToFileURL(spec.module).href : spec.module;
  let mod: { createSource?: unknown };
  try {
    mod = (await import(url)) as { createSource?: unknown };
  } catch (error) {
    throw new Error(`the request source module ${spec.module} could not be loaded: ${(error as Error).message}`, { cause: error });
  }
  if (typeof mod.createSource !== 'function') throw new Error(`the request source module ${spec.module} has no createSource export (see load/engine/RequestSource.ts)`);
  return await (mod.createSource as CreateSource)(spec.options, share);
}

export async function prepareThread(plan: ThreadPlan, hooks: ThreadHooks): Promise<PreparedThread> {
  const target = parseTarget(plan.url);
  const source = await makeSource(plan.source, plan.share);
  return { start: (origin) => startThread(plan, hooks, source, target, origin) };
}

interface Context {
  request: PlannedRequest;
  /** performance.now() of its scheduled send (closed model: when the loop began it). */
  scheduledMs: number;
  measured: boolean;
}

/** A FIFO of requests waiting for a connection. */
class Queue {
  #items: (Context | undefined)[] = [];
  #head = 0;
  get length(): number {
    return this.#items.length - this.#head;
  }
  push(c: Context): void {
    this.#items.push(c);
  }
  shift(): Context | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const c = this.#items[this.#head];
    this.#items[this.#head++] = undefined;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return c;
  }
  clear(): number {
    const n = this.length;
    this.#items = [];
    this.#head = 0;
    return n;
  }
}

/**
 * How the open model wakes for its next send. A wait of at least this long goes to a timer: libuv's timers
 * count whole milliseconds and fire from 1 ms early to a fraction of a ms late, so floor(wait) never
 * oversleeps by much. A shorter wait is polled (setImmediate: I/O is still served between polls), and every
 * answer also looks whether a send has come due. Polling costs a core at rates above ~1,000/s; leaving short
 * waits to the millisecond timers instead (tried: a 1 ms timer and the answers) put the sends 0.5 ms late on
 * average and 1 to 3 ms at p99, and since latency runs from the scheduled time, a node answering in 60 µs
 * measured 600 µs (docs/load.md, "The engine"). A load generator's core is its own; its figures must be right.
 */
const TIMER_MIN_MS = 1;

function startThread(plan: ThreadPlan, hooks: ThreadHooks, source: RequestSource, target: ReturnType<typeof parseTarget>, originEpochMs: number): ThreadRun {
  const origin = originEpochMs - performance.timeOrigin;
  const measureStart = origin + plan.warmupMs;
  const measureEnd = measureStart + plan.durationMs;
  // The measured window's end as it runs: the planned end, or the moment the run stopped early.
  let windowEnd = measureEnd;
  const recorder = new LoadRecorder();
  const encoder = new RequestEncoder(target);
  const checkResult = source.checkResult?.bind(source);
  const closed = plan.model.kind === 'closed';
  const idle: HttpConnection<Context>[] = [];
  const connections: HttpConnection<Context>[] = [];
  const queue = new Queue();
  let inFlight = 0; // on the wire or queued
  let sending = true;
  let abandoning = false;
  let abandoned = 0;
  let stopped: ThreadStop | undefined;
  let sendingEnded = 0;
  let finished = false;
  let tracked: TrackedOutcome[] = [];
  let unreachableSince: number | undefined;
  let lastConnectError = '';
  let resolve!: (r: ThreadResult) => void;
  let reject!: (e: unknown) => void;
  const result = new Promise<ThreadResult>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A source that throws ends the run with its error (a bug to fix, not a figure to report).
  let sourceError: unknown;
  const next = (): PlannedRequest | null | undefined => {
    try {
      return source.next();
    } catch (error) {
      sourceError ??= error;
      stopSending({ reason: 'completed', atMs: Math.round(now() - measureStart), message: 'the request source failed' }, 0);
      return null;
    }
  };
  const timers: { pump?: NodeJS.Timeout | NodeJS.Immediate | undefined; tick?: NodeJS.Timeout; grace?: NodeJS.Timeout; end?: NodeJS.Timeout } = {};
  const now = (): number => performance.now();
  const tickIndex = (t: number): number => Math.floor((t - measureStart) / plan.tickMs);
  let tick = tickIndex(origin);

  const events = {
    ended(connection: HttpConnection<Context>, ctx: Context, exchange: Exchange, writtenMs: number | undefined, endedMs: number): void {
      inFlight--;
      if (abandoning) {
        abandoned++;
      } else {
        if (exchange.kind === 'answer') unreachableSince = undefined;
        const c = classifyExchange(ctx.request, exchange, checkResult);
        recorder.ended(ctx.request, c, { scheduledMs: ctx.scheduledMs, writtenMs, endedMs }, ctx.measured, ctx.measured && endedMs < windowEnd);
        track(ctx, c, endedMs);
      }
      try {
        source.onEnded?.(ctx.request);
      } catch (error) {
        sourceError ??= error;
        stopSending({ reason: 'completed', atMs: Math.round(now() - measureStart), message: 'the request source failed' }, 0);
      }
      if (closed) {
        // After a transport failure a closed loop pauses, rather than spinning on a refused port.
        if (exchange.kind === 'transport') setTimeout(() => loop(connection), 5);
        else loop(connection);
      } else {
        const waiting = queue.shift();
        if (waiting !== undefined) connection.send(encoder.wire(waiting.request.body), waiting);
        else idle.push(connection);
        // Sends that came due since the last look go now, on the connection just freed if need be.
        if (sending && due !== undefined && origin + due <= now()) pump();
      }
      if (!sending) maybeFinish();
    },
    written(ctx: Context): void {
      recorder.sent(ctx.measured);
    },
    connected(ok: boolean, error?: Error): void {
      if (ok) {
        unreachableSince = undefined;
        return;
      }
      lastConnectError = (error as NodeJS.ErrnoException | undefined)?.code ?? error?.message ?? 'connection failed';
      const t = now();
      unreachableSince ??= t;
      checkUnreachable(t);
    },
  };

  const newConnection = (): HttpConnection<Context> => {
    const c = new HttpConnection<Context>(target, events);
    connections.push(c);
    return c;
  };

  function track(ctx: Context, c: Classification, endedMs: number): void {
    const calls = ctx.request.calls;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i];
      if (call?.track === undefined) continue;
      const outcome = c.calls[i];
      if (outcome === undefined) continue;
      tracked.push({
        tag: call.track,
        scheduledAtMs: performance.timeOrigin + ctx.scheduledMs,
        endedAtMs: performance.timeOrigin + endedMs,
        outcome: outcome.kind === 'result' ? { kind: 'result', result: outcome.result } : outcome,
      });
    }
  }

  function flushTracked(): void {
    if (tracked.length === 0) return;
    const batch = tracked;
    tracked = [];
    hooks.tracked(batch);
  }

  function checkUnreachable(t: number): void {
    if (unreachableSince === undefined || t - unreachableSince < plan.unreachableMs || stopped !== undefined) return;
    const since = Math.round(unreachableSince - measureStart);
    const stop: ThreadStop = {
      reason: 'target-unreachable',
      atMs: Math.round(t - measureStart),
      message: `every connection to ${target.host}:${target.port} failed (${lastConnectError}) from ${since} ms to ${Math.round(t - measureStart)} ms of the measured window; the run stopped there`,
    };
    hooks.stopping?.(stop);
    stopSending(stop, Math.min(plan.timeoutMs, 1_000));
  }

  // Open model: the schedule (the warm-up at the first stage's starting rate, then the stages).
  let schedule: Schedule | undefined;
  let due: number | undefined;
  if (plan.model.kind === 'open') {
    const first = plan.model.stages[0];
    const warm = plan.warmupMs > 0 && first !== undefined ? [{ from: first.from, to: first.from, durationMs: plan.warmupMs }] : [];
    schedule = new Schedule([...warm, ...plan.model.stages], plan.model.distribution, plan.seed, plan.share);
    due = schedule.next();
  }

  // The next wake-up of the pump: a timer, or a poll (setImmediate); `at` is when it is due.
  let wake: { immediate: boolean; at: number } | undefined;
  const clearWake = (): void => {
    if (timers.pump !== undefined) {
      clearTimeout(timers.pump as NodeJS.Timeout);
      clearImmediate(timers.pump as NodeJS.Immediate);
    }
    timers.pump = undefined;
    wake = undefined;
  };
  const onWake = (): void => {
    timers.pump = undefined;
    wake = undefined;
    pump();
  };

  /** Sends every request that has come due, then arranges to be woken for the next one. */
  function pump(): void {
    if (!sending || schedule === undefined) return;
    let t = now();
    while (due !== undefined && origin + due <= t) {
      dispatch(origin + due, due >= plan.warmupMs, t);
      if (!sending) return;
      due = schedule.next();
      t = now();
    }
    if (due === undefined) {
      stopSending({ reason: 'completed', atMs: Math.round(t - measureStart) }, Infinity);
      return;
    }
    const target = origin + due;
    const wait = target - t;
    if (wait >= TIMER_MIN_MS) {
      if (wake !== undefined && wake.at <= target) return; // an earlier wake-up comes first and looks again
      clearWake();
      wake = { immediate: false, at: t + Math.floor(wait) };
      timers.pump = setTimeout(onWake, Math.floor(wait));
    } else {
      if (wake?.immediate === true) return;
      clearWake();
      wake = { immediate: true, at: t };
      timers.pump = setImmediate(onWake);
    }
  }

  function dispatch(scheduledMs: number, measured: boolean, t: number): void {
    recorder.scheduled(measured);
    recorder.lag((t - scheduledMs) * 1000, measured);
    if (inFlight >= plan.maxInFlight) {
      recorder.dropped(measured);
      return;
    }
    const request = next();
    if (sourceError !== undefined) return;
    if (request === null) {
      recorder.dropped(measured);
      return;
    }
    if (request === undefined) {
      stopSending({ reason: 'completed', atMs: Math.round(t - measureStart), message: `the request source had no more requests at ${Math.round(t - measureStart)} ms` }, Infinity);
      return;
    }
    inFlight++;
    const ctx: Context = { request, scheduledMs, measured };
    const connection = idle.pop() ?? (connections.length < plan.connections ? newConnection() : undefined);
    if (connection !== undefined) connection.send(encoder.wire(request.body), ctx);
    else {
      queue.push(ctx);
      recorder.queued(queue.length, measured);
    }
  }

  // Closed model: each connection sends its next request when the last one ends.
  function loop(connection: HttpConnection<Context>): void {
    if (!sending || connection.busy) return;
    const t = now();
    if (t >= measureEnd) {
      stopSending({ reason: 'completed', atMs: Math.round(t - measureStart) }, Infinity);
      return;
    }
    const request = next();
    if (sourceError !== undefined) return;
    if (request === null) {
      // The source is busy: try again shortly (nothing was due, so nothing is dropped).
      setTimeout(() => loop(connection), 1);
      return;
    }
    if (request === undefined) {
      stopSending({ reason: 'completed', atMs: Math.round(t - measureStart), message: `the request source had no more requests at ${Math.round(t - measureStart)} ms` }, Infinity);
      return;
    }
    const measured = t >= measureStart;
    recorder.scheduled(measured);
    inFlight++;
    connection.send(encoder.wire(request.body), { request, scheduledMs: t, measured });
  }

  function onTick(): void {
    const t = now();
    const index = tickIndex(t);
    // Close every tick that has passed (a late timer closes more than one).
    while (tick < index) hooks.tick(recorder.closeTick(tick++, inFlight));
    checkUnreachable(t);
    if (!finished) timers.tick = setTimeout(onTick, Math.max(1, measureStart + (tick + 1) * plan.tickMs - now()));
  }

  // Housekeeping: timeouts and tracked outcomes.
  const sweeper = setInterval(
    () => {
      const before = now() - plan.timeoutMs;
      for (const c of connections) c.expire(before);
      flushTracked();
    },
    Math.max(5, Math.min(100, plan.timeoutMs / 10)),
  );
  const deadline = setTimeout(
    () => {
      const t = now();
      const stop: ThreadStop = { reason: 'deadline', atMs: Math.round(t - measureStart), message: `the run reached its hard deadline (${plan.deadlineMs} ms after the start of the warm-up) with ${inFlight} requests unfinished` };
      hooks.stopping?.(stop);
      stopSending(stop, 0);
    },
    Math.max(0, origin + plan.deadlineMs - now()),
  );

  function stopSending(stop: ThreadStop, graceMs: number): void {
    if (stopped === undefined || (stopped.reason === 'completed' && stop.reason !== 'completed')) stopped = stop;
    if (sending) {
      sending = false;
      sendingEnded = now();
      const natural = stop.reason === 'completed' && stop.message === undefined;
      if (!natural) windowEnd = Math.min(windowEnd, sendingEnded);
      clearWake();
      if (timers.end !== undefined) clearTimeout(timers.end);
    }
    if (graceMs === Infinity) {
      maybeFinish();
      return;
    }
    // Not waiting for the schedule's end: what waits for a connection will not go, what is in flight gets the grace.
    const n = queue.clear();
    abandoned += n;
    inFlight -= n;
    if (timers.grace !== undefined) clearTimeout(timers.grace);
    const abandonAll = (): void => {
      abandoning = true;
      for (const c of connections) c.close();
      maybeFinish();
    };
    if (graceMs <= 0) abandonAll();
    else timers.grace = setTimeout(abandonAll, graceMs);
    maybeFinish();
  }

  function maybeFinish(): void {
    if (sending || inFlight > 0 || finished) return;
    finished = true;
    clearInterval(sweeper);
    clearTimeout(deadline);
    for (const key of ['tick', 'grace', 'end'] as const) if (timers[key] !== undefined) clearTimeout(timers[key]);
    for (const c of connections) c.close();
    const t = now();
    while (tick <= tickIndex(t)) hooks.tick(recorder.closeTick(tick++, 0));
    flushTracked();
    const stop = stopped ?? { reason: 'completed', atMs: Math.round(sendingEnded - measureStart) };
    Promise.resolve(source.close?.())
      .catch(() => undefined)
      .then(() => {
        if (sourceError === undefined) resolve({ figures: recorder.figures(), stop, sendingEndedMs: sendingEnded - measureStart, abandoned });
        else reject(new Error(`the request source ${plan.source.module} failed: ${sourceError instanceof Error ? sourceError.message : typeof sourceError === 'string' ? sourceError : `a thrown ${typeof sourceError}`}`, { cause: sourceError }));
      })
      .catch(() => undefined);
  }

  // Start: at the origin (the warm-up's start), which the caller set a moment ahead.
  const begin = (): void => {
    tick = tickIndex(now());
    timers.tick = setTimeout(onTick, Math.max(1, measureStart + (tick + 1) * plan.tickMs - now()));
    if (plan.model.kind === 'open') pump();
    else {
      timers.end = setTimeout(() => stopSending({ reason: 'completed', atMs: Math.round(now() - measureStart) }, Infinity), Math.max(0, measureEnd - now()));
      for (let i = 0; i < plan.connections; i++) loop(newConnection());
    }
  };
  const startIn = origin - now();
  if (startIn > 0) timers.pump = setTimeout(begin, startIn);
  else begin();

  return {
    result,
    stop: (stop, graceMs) => stopSending(stop, graceMs),
  };
}
