/**
 * The open model's pump: request i is due at t_i (the Schedule, or the source's own times: a replay); the pump takes it up as soon as it can, and
 * how late that was is the send lag. Over the in-flight cap, or when the source is busy, the request is dropped;
 * with every connection busy (fewer connections than the cap) it waits for one, in order. Latency runs from t_i,
 * so a late generator cannot hide a slow node (no coordinated omission; docs/load.md, "The engine").
 */
import type { ArrivalModel } from '../model.js';
import { Alarm } from './Alarm.js';
import type { HttpConnection } from './HttpConnection.js';
import { readTurn } from './ReadTurn.js';
import { RequestQueue } from './RequestQueue.js';
import type { SourceShare } from './RequestSource.js';
import { Schedule } from './Schedule.js';
import type { InFlight, Sender, SenderHost } from './Sender.js';

/**
 * How the pump wakes for its next send. libuv's timers count whole milliseconds from a loop time read at the
 * start of the loop's turn, so a timer fires from about 1 ms early to most of a ms late: a wait goes to a timer
 * TIMER_EARLY_MS before it is due (never late by the timer's own rounding), and the last stretch is waited out
 * precisely. With nothing in flight nothing can arrive, so the thread sleeps (Atomics.wait: the kernel's own
 * timer, no CPU) until SPIN_MS before the time (less when sends come faster than 400/s: SPIN_SHARE), then
 * watches the clock for the rest. With requests in flight answers must be read as they come, so the thread stays
 * in its event loop: it waits there (the kernel's epoll) until the Alarm, a thread of its own, wakes it for the
 * same last stretch, which it then polls (setImmediate; every answer also looks whether a send has come due).
 * Polling the whole wait, as until 2026-11-29, took the whole of a core at any rate from about 1,000/s.
 *
 * Measured at 289 requests/s (a replay at --speed 2, 2026-11-28): leaving the last millisecond to the timers put
 * 1 send in 10 about 0.45 ms late and p99 at 0.7 to 0.8 ms; polling the last stretch after a sleep (a turn of
 * the loop per look) was no better at p99 (0.6 to 1.0 ms); sleeping then watching the clock gives p90 1 µs and
 * p99 0.08 to 0.57 ms. Since latency runs from the scheduled time, a late send is a slower node in the figures
 * (docs/load.md, "The engine").
 */
const TIMER_EARLY_MS = 1;
/** Below this wait no timer is set: the wait is slept (nothing in flight) or polled. */
const TIMER_MIN_MS = 1 + TIMER_EARLY_MS;
/** The end of a slept wait that is watched on the clock instead: the kernel wakes a sleeping thread 0.08 ms late at the median, 0.17 ms at p99 (here). */
const SPIN_MS = 0.25;
/**
 * The most of the time between two sends the clock is watched: watching is a core's work, so at 10% the
 * generator never spends more than a tenth of a core on it, whatever the rate. Up to 400 sends/s the whole
 * SPIN_MS is watched; faster, less of it, and a send may be as late as the kernel's wake-up. Measured against a
 * bare server (2026-11-29, docs/load.md "The engine"): at 5,000/s, 72 to 85 µs of CPU per request against 203
 * (SPIN_MS at every rate: the whole core), the send lag p99 0.5 ms against 2 to 14 µs.
 */
const SPIN_SHARE = 0.1;
/**
 * With requests in flight, a wait longer than the end to be polled (the watch's share above) by at least this much
 * is waited in the event loop, woken by the Alarm (its own thread) when only that end is left: polling costs the
 * whole core whatever the rate; an alarm costs two wake-ups (about 50 µs of CPU here). Shorter waits are polled.
 */
const ALARM_MIN_MS = 0.1;
/** What Atomics.wait sleeps on: a word nobody ever changes. */
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

/** The monotonic clock in nanoseconds: reading it allocates nothing (performance.now() does, in the interpreter). */
const hrtimeNs = (): bigint => process.hrtime.bigint();

/**
 * Watches the clock until `at` (performance.now() ms): the end of a sleep that ends up to SPIN_MS early by design.
 * On hrtime's nanoseconds, not performance.now(): each reading of that was a new heap number (99 MB in 6 s at 300
 * sends/s, so a young-generation collection every 250 ms, each landing just before a send: 0.5 ms late).
 */
function watchClockUntil(at: number): void {
  const left = at - performance.now();
  if (!(left > 0)) return;
  const end = hrtimeNs() + BigInt(Math.ceil(left * 1e6));
  while (hrtimeNs() < end) {
    // the clock is watched
  }
}

/** Connections a `recorded` schedule opens at the start (the rest as they are needed). */
const PRECONNECT = 32;

export interface OpenPumpPlan {
  model: Extract<ArrivalModel, { kind: 'open' }>;
  warmupMs: number;
  /** The measured window: a source with its own times (a replay in a loop) is not sent past its end. */
  durationMs: number;
  seed: number;
  share: SourceShare;
  /** This thread's in-flight cap and connections. */
  maxInFlight: number;
  connections: number;
}

/** A due time within the run, else undefined (the schedule is over). */
const atMost = (due: number | undefined, endMs: number): number | undefined => (due === undefined || due > endMs ? undefined : due);

export class OpenPump implements Sender {
  readonly #host: SenderHost;
  readonly #plan: OpenPumpPlan;
  /** The send times: the Schedule of the stages, or the source's own (the `recorded` distribution). */
  readonly #schedule: { next(): number | undefined };
  readonly #recorded: boolean;
  /** ms after the origin of the next send; undefined once the schedule is over. */
  #due: number | undefined;
  readonly #idle: HttpConnection<InFlight>[] = [];
  #opened = 0;
  readonly #waiting = new RequestQueue<InFlight>();
  /** The next wake-up: a timer, a poll (setImmediate) or the alarm; `at` is when it is due. */
  #wake: { kind: 'timer'; at: number; handle: NodeJS.Timeout } | { kind: 'immediate'; at: number; handle: NodeJS.Immediate } | { kind: 'alarm'; at: number } | undefined;
  /** The wake-up to the microsecond while requests are in flight; closed when sending stops. */
  readonly #alarm: Alarm;
  /** Within a pump that slept for its send (at most one sleep per callback). */
  #sleeping = false;
  /** When the last request was due (ms, performance.now()): the gap to the next one bounds the clock's watch. */
  #lastAt = Number.NEGATIVE_INFINITY;
  readonly #onWake = (): void => {
    // Woken by an immediate, the pump runs just after libuv polled: the reads' lag is measured from there.
    if (this.#wake?.kind === 'immediate') readTurn.polled();
    this.#wake = undefined;
    this.pump();
  };

  constructor(host: SenderHost, plan: OpenPumpPlan) {
    this.#host = host;
    this.#plan = plan;
    // The warm-up at the first stage's starting rate, then the stages.
    const first = plan.model.stages[0];
    const warm = plan.warmupMs > 0 && first !== undefined ? [{ from: first.from, to: first.from, durationMs: plan.warmupMs }] : [];
    const { distribution } = plan.model;
    this.#recorded = distribution === 'recorded';
    const endMs = plan.warmupMs + plan.durationMs;
    this.#schedule = distribution === 'recorded' ? { next: () => atMost(host.due(), endMs) } : new Schedule([...warm, ...plan.model.stages], distribution, plan.seed, plan.share);
    // Made with the thread, so that it runs by the first send (until it does, short waits are polled).
    this.#alarm = new Alarm(this.#onWake);
  }

  begin(): void {
    // The first send time is asked for here, not while the thread is being made: a source that fails to give
    // one stops the run, and the run must exist to be stopped.
    this.#due = this.#schedule.next();
    // Recorded times often begin with a burst: connections are opened before the first is due (a replay's
    // lead-in, its warm-up, sends nothing), so the first requests do not wait for a handshake.
    if (this.#recorded) {
      for (let i = Math.min(this.#plan.connections, PRECONNECT); i > 0; i--) {
        const connection = this.#open();
        connection.open();
        this.#idle.push(connection);
      }
    }
    this.pump();
  }

  /** Sends every request that has come due, then arranges to be woken for the next one. */
  pump(): void {
    const host = this.#host;
    if (!host.sending) return;
    let t = performance.now();
    while (this.#due !== undefined && host.origin + this.#due <= t) {
      this.#lastAt = host.origin + this.#due;
      this.#dispatch(this.#lastAt, this.#due >= this.#plan.warmupMs, t);
      if (!host.sending) return;
      this.#due = this.#schedule.next();
      t = performance.now();
    }
    if (this.#due === undefined) {
      host.stopSending({ reason: 'completed', atMs: Math.round(t - host.measureStart) }, Infinity);
      return;
    }
    const at = host.origin + this.#due;
    const wait = at - t;
    if (wait >= TIMER_MIN_MS) {
      if (this.#wake !== undefined && this.#wake.at <= at) return; // an earlier wake-up comes first and looks again
      this.#cancelWake();
      const ms = Math.floor(wait - TIMER_EARLY_MS);
      this.#wake = { kind: 'timer', at: t + ms, handle: setTimeout(this.#onWake, ms) };
      return;
    }
    // The end of the wait taken precisely (the clock watched, or the loop polled): at most a tenth of the time between sends.
    const watched = Math.min(SPIN_MS, SPIN_SHARE * (at - this.#lastAt));
    if (host.inFlight === 0 && !this.#sleeping) {
      // Nothing in flight, nothing to read: sleep to just before the time, wait out the rest on the clock, and send.
      // Once per callback: if nothing is in flight after that send either (dropped, refused), the next wait is
      // polled, so the thread goes back to its event loop.
      this.#cancelWake();
      if (wait > watched) Atomics.wait(SLEEPER, 0, 0, wait - watched);
      watchClockUntil(at);
      this.#sleeping = true;
      try {
        this.pump();
      } finally {
        this.#sleeping = false;
      }
      return;
    }
    // Requests in flight: answers must be read as they come, so the thread stays in its event loop. Woken by the
    // alarm when only the watched end is left, if the wait is longer than that; that end is polled.
    if (wait > watched + ALARM_MIN_MS && this.#alarm.ready) {
      if (this.#wake !== undefined && this.#wake.at <= at - watched) return; // an earlier wake-up comes first
      this.#cancelWake();
      this.#alarm.set(at - watched);
      this.#wake = { kind: 'alarm', at: at - watched };
      return;
    }
    if (this.#wake?.kind === 'immediate') return;
    this.#cancelWake();
    this.#wake = { kind: 'immediate', at: t, handle: setImmediate(this.#onWake) };
  }

  #dispatch(scheduledMs: number, measured: boolean, t: number): void {
    const host = this.#host;
    host.recorder.scheduled(measured);
    host.recorder.lag((t - scheduledMs) * 1000, measured);
    if (host.inFlight >= this.#plan.maxInFlight) {
      // A source with its own times moves on past the request that could not go.
      if (this.#recorded) host.next();
      host.recorder.dropped(measured);
      return;
    }
    const request = host.next();
    if (host.failed) return;
    if (request === null) {
      host.recorder.dropped(measured);
      return;
    }
    if (request === undefined) {
      host.sourceRanOut(t);
      return;
    }
    host.inFlight++;
    const ctx: InFlight = { request, scheduledMs, measured };
    const connection = this.#idle.pop() ?? (this.#opened < this.#plan.connections ? this.#open() : undefined);
    if (connection !== undefined) host.write(connection, ctx);
    else {
      this.#waiting.push(ctx);
      host.recorder.queued(this.#waiting.length, measured);
    }
  }

  #open(): HttpConnection<InFlight> {
    this.#opened++;
    return this.#host.newConnection();
  }

  freed(connection: HttpConnection<InFlight>): void {
    const waiting = this.#waiting.shift();
    if (waiting !== undefined) this.#host.write(connection, waiting);
    else this.#idle.push(connection);
    // Sends that came due since the last look go now, on the connection just freed if need be.
    if (this.#host.sending && this.#due !== undefined && this.#host.origin + this.#due <= performance.now()) this.pump();
  }

  halt(): void {
    this.#cancelWake();
    this.#alarm.close();
  }

  /** Cancels the next wake-up, if one is set. */
  #cancelWake(): void {
    const wake = this.#wake;
    if (wake === undefined) return;
    if (wake.kind === 'immediate') clearImmediate(wake.handle);
    else if (wake.kind === 'timer') clearTimeout(wake.handle);
    else this.#alarm.cancel();
    this.#wake = undefined;
  }

  dropWaiting(): number {
    return this.#waiting.clear();
  }
}
