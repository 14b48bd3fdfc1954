/**
 * One engine thread under way: its connections' answers are classified and recorded, ticks closed, tracked
 * outcomes handed on, timeouts swept, an unreachable target told, and the stop kept: sending stops (the schedule
 * or the source is over, the deadline, a stop from outside), in-flight requests get their grace, then the thread
 * finishes once and resolves its result. When each request goes is its arrival model's (OpenPump, ClosedLoops).
 */
import type { RunStop } from '../model.js';
import { classifyExchange, isOk, isServed, type Classification, type Exchange } from '../metrics/classifyExchange.js';
import { OutageLog } from '../metrics/OutageLog.js';
import { LoadRecorder } from '../metrics/LoadRecorder.js';
import { ClosedLoops } from './ClosedLoops.js';
import { HttpConnection, RequestEncoder, type ConnectionEvents, type HttpTarget } from './HttpConnection.js';
import { OpenPump } from './OpenPump.js';
import { readTurn } from './ReadTurn.js';
import type { PlannedRequest, RequestSource, TrackedOutcome } from './RequestSource.js';
import type { InFlight, Sender, SenderHost } from './Sender.js';
import type { ThreadHooks, ThreadPlan, ThreadResult, ThreadRun } from './ThreadPlan.js';
import { monotonicMs } from '../../core/epochNow.js';

const now = (): number => performance.now();
const NONE: readonly string[] = [];

export class EngineThread implements SenderHost, ConnectionEvents<InFlight> {
  readonly recorder = new LoadRecorder();
  /** Where the clients saw calls fail, exactly (a run with faults is judged by it). */
  readonly outages = new OutageLog();
  readonly origin: number;
  readonly measureStart: number;
  readonly measureEnd: number;
  sending = true;
  inFlight = 0;
  readonly #plan: ThreadPlan;
  readonly #hooks: ThreadHooks;
  readonly #source: RequestSource;
  readonly #observe: RequestSource['observe'];
  readonly #target: HttpTarget;
  readonly #encoder: RequestEncoder;
  readonly #checkResult: RequestSource['checkResult'];
  readonly #sender: Sender;
  readonly #connections: HttpConnection<InFlight>[] = [];
  /** The measured window's end as it runs: the planned end, or the moment the run stopped early. */
  #windowEnd: number;
  #tick: number;
  #tracked: TrackedOutcome[] = [];
  #unreachableSince: number | undefined;
  #lastConnectError = '';
  /** The first error of the source: it ends the run with it (a bug to fix, not a figure to report). */
  #sourceError: unknown;
  #stopped: RunStop | undefined;
  #sendingEnded = 0;
  #abandoning = false;
  #abandoned = 0;
  #finished = false;
  readonly #timers: { start?: NodeJS.Timeout; tick?: NodeJS.Timeout; grace?: NodeJS.Timeout; sweeper?: NodeJS.Timeout; deadline?: NodeJS.Timeout } = {};
  #settle!: { resolve: (r: ThreadResult) => void; reject: (e: unknown) => void };
  readonly #result = new Promise<ThreadResult>((resolve, reject) => (this.#settle = { resolve, reject }));

  constructor(plan: ThreadPlan, hooks: ThreadHooks, source: RequestSource, target: HttpTarget, originMonoMs: number) {
    this.#plan = plan;
    this.#hooks = hooks;
    this.#source = source;
    this.#target = target;
    this.#encoder = new RequestEncoder(target);
    this.#checkResult = source.checkResult?.bind(source);
    this.#observe = source.observe?.bind(source);
    // On this thread's performance clock: the same monotonic clock as `originMonoMs`, from another point.
    this.origin = performance.now() + (originMonoMs - monotonicMs());
    this.measureStart = this.origin + plan.warmupMs;
    this.measureEnd = this.measureStart + plan.durationMs;
    this.#windowEnd = this.measureEnd;
    this.#tick = this.#tickIndex(this.origin);
    this.#sender = plan.model.kind === 'open' ? new OpenPump(this, { ...plan, model: plan.model }) : new ClosedLoops(this, plan.connections);
  }

  /** Starts at the origin (the warm-up's start), which the caller set a moment ahead. */
  run(): ThreadRun {
    const plan = this.#plan;
    this.#timers.sweeper = setInterval(() => this.#sweep(), Math.max(5, Math.min(100, plan.timeoutMs / 10)));
    this.#timers.deadline = setTimeout(() => this.#reachDeadline(), Math.max(0, this.origin + plan.deadlineMs - now()));
    const startIn = this.origin - now();
    if (startIn > 0) this.#timers.start = setTimeout(() => this.#begin(), startIn);
    else this.#begin();
    return { result: this.#result, stop: (stop, graceMs) => this.stopSending(stop, graceMs) };
  }

  #begin(): void {
    this.#tick = this.#tickIndex(now());
    this.#scheduleTick();
    this.#sender.begin();
  }

  // ---- what the arrival model uses (SenderHost)

  get failed(): boolean {
    return this.#sourceError !== undefined;
  }

  next(): PlannedRequest | null | undefined {
    try {
      return this.#source.next();
    } catch (error) {
      this.#sourceFailed(error);
      return null;
    }
  }

  due(): number | undefined {
    const source = this.#source;
    if (source.due === undefined) {
      this.#sourceFailed(new Error('the run plays recorded times, but its request source keeps none (RequestSource.due)'));
      return undefined;
    }
    try {
      return source.due();
    } catch (error) {
      this.#sourceFailed(error);
      return undefined;
    }
  }

  sourceRanOut(t: number): void {
    const at = Math.round(t - this.measureStart);
    // A source spent in the warm-up (a corpus too small for its rate) measured nothing: said so, not "at -1530 ms".
    const when = at < 0 ? `${-at} ms before the measured window opened, in the warm-up: nothing was measured (give it more requests, a larger corpus, or a shorter warm-up)` : `at ${at} ms of the measured window`;
    this.stopSending({ reason: 'completed', atMs: at, message: `the request source had no more requests ${when}` }, Infinity);
  }

  newConnection(): HttpConnection<InFlight> {
    const c = new HttpConnection<InFlight>(this.#target, this, this.#plan.timeoutMs);
    this.#connections.push(c);
    return c;
  }

  write(connection: HttpConnection<InFlight>, request: InFlight): void {
    connection.send(this.#encoder.wire(request.request.body), request);
  }

  // ---- what the connections tell (ConnectionEvents)

  ended(connection: HttpConnection<InFlight>, ctx: InFlight, exchange: Exchange, writtenMs: number | undefined, endedMs: number, readLagMs?: number): void {
    this.inFlight--;
    let outcomes: Classification['calls'] | undefined;
    if (this.#abandoning) {
      this.#abandoned++;
    } else {
      if (exchange.kind === 'answer') this.#unreachableSince = undefined;
      const c = classifyExchange(ctx.request, exchange, this.#checkResult);
      outcomes = c.calls;
      // Achieved throughput counts every request the node served (answered as JSON-RPC) inside the measured
      // window, warm-up ones included: in steady state that is the rate served. Counting only the window's own
      // requests left out those still in flight at its end and had nothing from the warm-up to stand for them at
      // its start: short by the latency over the window (1.5% at 150 ms over 10 s), whatever the node's capacity.
      // Failures are not served: a node resetting every connection had an achieved rate of 100% and passed its SLO.
      this.recorder.ended(ctx.request, c, { scheduledMs: ctx.scheduledMs, writtenMs, endedMs }, ctx.measured, endedMs >= this.measureStart && endedMs < this.#windowEnd && isServed(c));
      if (readLagMs !== undefined) this.recorder.readLag(readLagMs * 1000, ctx.measured);
      this.#outage(ctx, c, endedMs);
      this.#track(ctx, c, endedMs);
      if (this.#observe !== undefined) this.#observed(ctx, c, writtenMs ?? ctx.scheduledMs, endedMs);
    }
    try {
      this.#source.onEnded?.(ctx.request, outcomes);
    } catch (error) {
      this.#sourceFailed(error);
    }
    this.#sender.freed(connection, exchange);
    if (!this.sending) this.#maybeFinish();
  }

  written(ctx: InFlight): void {
    this.recorder.sent(ctx.measured);
  }

  connected(ok: boolean, error?: Error): void {
    if (ok) {
      this.#unreachableSince = undefined;
      return;
    }
    this.#lastConnectError = (error as NodeJS.ErrnoException | undefined)?.code ?? error?.message ?? 'connection failed';
    const t = now();
    this.#unreachableSince ??= t;
    this.#checkUnreachable(t);
  }

  // ---- figures and housekeeping

  #track(ctx: InFlight, c: Classification, endedMs: number): void {
    const calls = ctx.request.calls;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i];
      if (call?.track === undefined) continue;
      const outcome = c.calls[i];
      if (outcome === undefined) continue;
      this.#tracked.push({
        tag: call.track,
        scheduledAtMs: performance.timeOrigin + ctx.scheduledMs,
        endedAtMs: performance.timeOrigin + endedMs,
        measured: ctx.measured,
        outcome: outcome.kind === 'result' ? { kind: 'result', result: outcome.result } : outcome,
      });
    }
  }

  /** The request into the outage log, on the run's clock (ms from the start of measurement). */
  #outage(ctx: InFlight, c: Classification, endedMs: number): void {
    const calls = ctx.request.calls;
    let failed: string[] | undefined;
    for (let i = 0; i < calls.length; i++) {
      const outcome = c.calls[i];
      if (outcome !== undefined && isOk(outcome)) continue;
      (failed ??= []).push(calls[i]?.method ?? '?');
    }
    this.outages.ended(ctx.scheduledMs - this.measureStart, endedMs - this.measureStart, failed ?? NONE);
  }

  /** Results of calls the source asked to see (its reads that must not go backwards), on the epoch clock. */
  #observed(ctx: InFlight, c: Classification, writtenMs: number, endedMs: number): void {
    const calls = ctx.request.calls;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i];
      const outcome = c.calls[i];
      if (call?.observe === undefined || outcome?.kind !== 'result') continue;
      try {
        this.#observe?.(call, outcome.result, performance.timeOrigin + writtenMs, performance.timeOrigin + endedMs);
      } catch (error) {
        this.#sourceFailed(error);
      }
    }
  }

  #flushTracked(): void {
    if (this.#tracked.length === 0) return;
    const batch = this.#tracked;
    this.#tracked = [];
    this.#hooks.tracked(batch);
  }

  /** Timeouts and tracked outcomes. */
  #sweep(): void {
    const t = now();
    readTurn.working(t);
    const before = t - this.#plan.timeoutMs;
    for (const c of this.#connections) c.expire(before);
    this.#flushTracked();
  }

  #tickIndex(t: number): number {
    return Math.floor((t - this.measureStart) / this.#plan.tickMs);
  }

  #scheduleTick(): void {
    this.#timers.tick = setTimeout(() => this.#onTick(), Math.max(1, this.measureStart + (this.#tick + 1) * this.#plan.tickMs - now()));
  }

  #onTick(): void {
    const t = now();
    readTurn.working(t);
    const index = this.#tickIndex(t);
    // Close every tick that has passed (a late timer closes more than one).
    while (this.#tick < index) this.#hooks.tick(this.recorder.closeTick(this.#tick++, this.inFlight));
    this.#checkUnreachable(t);
    if (!this.#finished) this.#scheduleTick();
  }

  #checkUnreachable(t: number): void {
    if (this.#unreachableSince === undefined || t - this.#unreachableSince < this.#plan.unreachableMs || this.#stopped !== undefined) return;
    const since = Math.round(this.#unreachableSince - this.measureStart);
    const at = Math.round(t - this.measureStart);
    const stop: RunStop = {
      reason: 'target-unreachable',
      atMs: at,
      message: `every connection to ${this.#target.host}:${this.#target.port} failed (${this.#lastConnectError}) from ${since} ms to ${at} ms of the measured window; the run stopped there`,
    };
    this.#hooks.stopping?.(stop);
    this.stopSending(stop, Math.min(this.#plan.timeoutMs, 1_000));
  }

  #reachDeadline(): void {
    const stop: RunStop = {
      reason: 'deadline',
      atMs: Math.round(now() - this.measureStart),
      message: `the run reached its hard deadline (${this.#plan.deadlineMs} ms after the start of the warm-up) with ${this.inFlight} requests unfinished`,
    };
    this.#hooks.stopping?.(stop);
    this.stopSending(stop, 0);
  }

  #sourceFailed(error: unknown): void {
    this.#sourceError ??= error;
    this.stopSending({ reason: 'completed', atMs: Math.round(now() - this.measureStart), message: 'the request source failed' }, 0);
  }

  // ---- the stop

  /**
   * Stops sending (the first reason that is not a natural end is the one kept). With `graceMs` Infinity the
   * thread waits for every request in flight; otherwise what waits for a connection is dropped and what is in
   * flight gets `graceMs` to end before it is abandoned (counted apart, never as a figure).
   */
  stopSending(stop: RunStop, graceMs: number): void {
    if (this.#stopped === undefined || (this.#stopped.reason === 'completed' && stop.reason !== 'completed')) this.#stopped = stop;
    if (this.sending) {
      this.sending = false;
      this.#sendingEnded = now();
      const natural = stop.reason === 'completed' && stop.message === undefined;
      if (!natural) this.#windowEnd = Math.min(this.#windowEnd, this.#sendingEnded);
      clearTimeout(this.#timers.start);
      this.#sender.halt();
    }
    if (graceMs === Infinity) {
      this.#maybeFinish();
      return;
    }
    const n = this.#sender.dropWaiting();
    this.#abandoned += n;
    this.inFlight -= n;
    clearTimeout(this.#timers.grace);
    const abandonAll = (): void => {
      this.#abandoning = true;
      for (const c of this.#connections) c.close();
      this.#maybeFinish();
    };
    if (graceMs <= 0) abandonAll();
    else this.#timers.grace = setTimeout(abandonAll, graceMs);
    this.#maybeFinish();
  }

  #maybeFinish(): void {
    if (this.sending || this.inFlight > 0 || this.#finished) return;
    this.#finished = true;
    clearInterval(this.#timers.sweeper);
    for (const key of ['deadline', 'tick', 'grace'] as const) clearTimeout(this.#timers[key]);
    for (const c of this.#connections) c.close();
    const t = now();
    while (this.#tick <= this.#tickIndex(t)) this.#hooks.tick(this.recorder.closeTick(this.#tick++, 0));
    this.#flushTracked();
    const stop = this.#stopped ?? { reason: 'completed', atMs: Math.round(this.#sendingEnded - this.measureStart) };
    Promise.resolve(this.#source.close?.())
      .catch(() => undefined)
      .then(() => {
        if (this.#sourceError !== undefined) this.#settle.reject(this.#sourceFailure());
        else {
          const reads = this.#source.reads?.();
          const lanes = this.#source.lanes?.();
          const diff = this.#source.diff?.();
          this.#settle.resolve({ figures: this.recorder.figures(), stop, sendingEndedMs: this.#sendingEnded - this.measureStart, abandoned: this.#abandoned, outages: this.outages.outages(), ...(reads === undefined ? {} : { reads }), ...(lanes === undefined ? {} : { lanes }), ...(diff === undefined ? {} : { diff }) });
        }
      })
      .catch(() => undefined);
  }

  #sourceFailure(): Error {
    const e = this.#sourceError;
    return new Error(`the request source ${this.#plan.source.module} failed: ${e instanceof Error ? e.message : typeof e === 'string' ? e : `a thrown ${typeof e}`}`, { cause: e });
  }
}
