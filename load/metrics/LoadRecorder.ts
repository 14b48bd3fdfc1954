/**
 * Accumulates everything a run measured, in one thread: the figures of the measured window (per method, per
 * batch size, request failures, the schedule's counters, latency and service histograms) and the current
 * tick of the timeline (warm-up included). Recorders of several threads merge exactly: counters add, and
 * histograms add bucket by bucket.
 */
import type { BatchSizeStats, HistogramData, MethodStats, RequestFailures, ScheduleStats, TimelinePoint } from '../model.js';
import type { PlannedCall, PlannedRequest } from '../engine/RequestSource.js';
import { isServed, type CallOutcome, type Classification } from './classifyExchange.js';
import { Histogram } from './Histogram.js';

/** The schedule's counters, as one thread or a merge of threads counted them. */
export interface ScheduleCounts extends Omit<ScheduleStats, 'targetRate' | 'achievedRate'> {
  /**
   * Requests the node served (answered at least one call as JSON-RPC: a result or a JSON-RPC error) that ended
   * inside the measured window, whenever they were scheduled: the achieved rate's numerator, so a node that cannot
   * keep up shows a lower rate even when nothing is dropped, and failures (timeouts, transport, HTTP statuses,
   * malformed answers) are not service.
   */
  completed: number;
}

/** What a recorder holds, as data (histograms encoded): what a worker thread hands to the main thread. */
export interface RecordedFigures {
  schedule: ScheduleCounts;
  failures: RequestFailures;
  latency: HistogramData;
  service: HistogramData;
  methods: MethodStats[];
  batchSizes: BatchSizeStats[];
}

/** One tick of the timeline as one thread saw it; `index` counts ticks from the start of measurement (negative in warm-up). */
export interface TickReport extends Pick<TimelinePoint, 'sent' | 'completed' | 'okCalls' | 'failedCalls' | 'dropped' | 'inFlight'> {
  index: number;
  /** Requests that ended in the tick that the node served (answered at least one call as JSON-RPC: `isServed`). */
  served: number;
  /**
   * Latency (from the scheduled time) of the served requests that ended in the tick: the node's answers. A refused
   * connection fails in a millisecond, so with failures in it a dead node's tick would look the fastest.
   */
  latency: Histogram;
  /**
   * Of the calls and requests counted in the tick, those of the measured window (scheduled in it): the run's own
   * totals add up these, so a progress line that sums them says what the report will (a request of the warm-up that
   * ends in the window is in the tick's counts, not in these).
   */
  measured: { okCalls: number; failedCalls: number; dropped: number };
}

/** The timing of one request, in milliseconds of one clock (performance.now()). */
export interface RequestTiming {
  scheduledMs: number;
  /** When its first byte was written; undefined when it never was (no connection). */
  writtenMs: number | undefined;
  endedMs: number;
}

class MethodAccount {
  calls = 0;
  ok = 0;
  errors: Record<string, number> = {};
  unanswered = 0;
  validated = 0;
  invalid = 0;
  readonly latency = new Histogram();
  readonly service = new Histogram();
  constructor(readonly method: string) {}
}

class SizeAccount {
  requests = 0;
  readonly latency = new Histogram();
  readonly service = new Histogram();
  constructor(readonly size: string) {}
}

const zeroFailures = (): RequestFailures & { transportCauses: Record<string, number> } => ({ timeouts: 0, transport: 0, transportCauses: {}, httpStatus: {}, malformed: 0, extraElements: 0, missingElements: 0 });

function addCounts(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

export class LoadRecorder {
  readonly #methods = new Map<string, MethodAccount>();
  readonly #sizes = new Map<string, SizeAccount>();
  readonly #failures = zeroFailures();
  readonly #latency = new Histogram();
  readonly #service = new Histogram();
  readonly #lag = new Histogram();
  readonly #readLag = new Histogram();
  #scheduled = 0;
  #sent = 0;
  #dropped = 0;
  #queuedMax = 0;
  #completed = 0;
  // The current tick (warm-up included).
  #tick = LoadRecorder.#emptyTick();

  static #emptyTick(): { sent: number; completed: number; served: number; okCalls: number; failedCalls: number; dropped: number; latency: Histogram; measured: TickReport['measured'] } {
    return { sent: 0, completed: 0, served: 0, okCalls: 0, failedCalls: 0, dropped: 0, latency: new Histogram(), measured: { okCalls: 0, failedCalls: 0, dropped: 0 } };
  }

  /** A request came due (open model), or a closed-model loop began one. */
  scheduled(measured: boolean): void {
    if (measured) this.#scheduled++;
  }

  /** How late the generator took up a due request, in microseconds. */
  lag(us: number, measured: boolean): void {
    if (measured) this.#lag.record(us);
  }

  /** How long an answer may have waited unread before its stamp, in microseconds (ReadTurn.ts). */
  readLag(us: number, measured: boolean): void {
    if (measured) this.#readLag.record(us);
  }

  sent(measured: boolean): void {
    this.#tick.sent++;
    if (measured) this.#sent++;
  }

  dropped(measured: boolean): void {
    this.#tick.dropped++;
    if (!measured) return;
    this.#dropped++;
    this.#tick.measured.dropped++;
  }

  /** `waiting` requests wait for a free connection right now. */
  queued(waiting: number, measured: boolean): void {
    if (measured && waiting > this.#queuedMax) this.#queuedMax = waiting;
  }

  /**
   * A request ended: its calls' outcomes, its timing. Only `measured` requests (scheduled in the measured
   * window) count in the figures, every one in the tick; `endedInWindow`: it was served and ended within the
   * measured window, whenever it was scheduled (the achieved throughput: what the node served in the window).
   */
  ended(request: PlannedRequest, c: Classification, t: RequestTiming, measured: boolean, endedInWindow = measured): void {
    const latencyUs = (t.endedMs - t.scheduledMs) * 1000;
    const serviceUs = t.writtenMs === undefined ? undefined : (t.endedMs - t.writtenMs) * 1000;
    const tick = this.#tick;
    tick.completed++;
    if (isServed(c)) {
      tick.served++;
      tick.latency.record(latencyUs);
    }
    let ok = 0;
    for (const call of c.calls) if (call.kind === 'result' && call.valid !== false) ok++;
    tick.okCalls += ok;
    tick.failedCalls += c.calls.length - ok;
    if (endedInWindow) this.#completed++;
    if (!measured) return;
    tick.measured.okCalls += ok;
    tick.measured.failedCalls += c.calls.length - ok;

    this.#latency.record(latencyUs);
    if (serviceUs !== undefined) this.#service.record(serviceUs);
    const size = request.batch ? String(request.calls.length) : 'single';
    let sizeAccount = this.#sizes.get(size);
    if (sizeAccount === undefined) this.#sizes.set(size, (sizeAccount = new SizeAccount(size)));
    sizeAccount.requests++;
    sizeAccount.latency.record(latencyUs);
    if (serviceUs !== undefined) sizeAccount.service.record(serviceUs);

    const f = c.failure;
    if (f !== null) {
      if (f.kind === 'timeout') this.#failures.timeouts++;
      else if (f.kind === 'transport') {
        this.#failures.transport++;
        this.#failures.transportCauses[f.cause] = (this.#failures.transportCauses[f.cause] ?? 0) + 1;
      }
      else if (f.kind === 'malformed') this.#failures.malformed++;
      else this.#failures.httpStatus[f.status] = (this.#failures.httpStatus[f.status] ?? 0) + 1;
    }
    if (c.extraElements) this.#failures.extraElements++;
    if (c.missingElements) this.#failures.missingElements++;

    // Per method: each call counts, and each call's latency is its request's (a batch of 100 records 100 times:
    // one record with a count per method).
    const calls = request.calls;
    if (calls.length === 1) {
      const account = this.#countCall((calls[0] as PlannedCall).method, c.calls[0]);
      account.latency.record(latencyUs);
      if (serviceUs !== undefined) account.service.record(serviceUs);
      return;
    }
    const perAccount = new Map<MethodAccount, number>();
    for (let i = 0; i < calls.length; i++) {
      const account = this.#countCall((calls[i] as PlannedCall).method, c.calls[i]);
      perAccount.set(account, (perAccount.get(account) ?? 0) + 1);
    }
    for (const [account, n] of perAccount) {
      account.latency.record(latencyUs, n);
      if (serviceUs !== undefined) account.service.record(serviceUs, n);
    }
  }

  #countCall(method: string, outcome: CallOutcome | undefined): MethodAccount {
    let account = this.#methods.get(method);
    if (account === undefined) this.#methods.set(method, (account = new MethodAccount(method)));
    account.calls++;
    if (outcome === undefined || outcome.kind === 'unanswered') account.unanswered++;
    else if (outcome.kind === 'error') account.errors[outcome.code] = (account.errors[outcome.code] ?? 0) + 1;
    else {
      if (outcome.valid !== undefined) account.validated++;
      if (outcome.valid === false) account.invalid++;
      else account.ok++;
    }
    return account;
  }

  /** Ends the current tick: its counters (with the in-flight count given) and its latency histogram; the next tick starts empty. */
  closeTick(index: number, inFlight: number): TickReport {
    const t = this.#tick;
    this.#tick = LoadRecorder.#emptyTick();
    return { index, sent: t.sent, completed: t.completed, served: t.served, okCalls: t.okCalls, failedCalls: t.failedCalls, dropped: t.dropped, inFlight, latency: t.latency, measured: t.measured };
  }

  /** Calls of the measured window so far: ok, and failed (error, unanswered, invalid). */
  callTotals(): { ok: number; failed: number } {
    let ok = 0;
    let calls = 0;
    for (const m of this.#methods.values()) {
      ok += m.ok;
      calls += m.calls;
    }
    return { ok, failed: calls - ok };
  }

  figures(): RecordedFigures {
    return {
      schedule: { scheduled: this.#scheduled, sent: this.#sent, dropped: this.#dropped, queuedMax: this.#queuedMax, completed: this.#completed, lagUs: this.#lag.toData(), readLagUs: this.#readLag.toData() },
      failures: { ...this.#failures, httpStatus: { ...this.#failures.httpStatus }, transportCauses: { ...this.#failures.transportCauses } },
      latency: this.#latency.toData(),
      service: this.#service.toData(),
      methods: [...this.#methods.values()]
        .sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0))
        .map((m) => ({
          method: m.method,
          calls: m.calls,
          ok: m.ok,
          errors: { ...m.errors },
          unanswered: m.unanswered,
          validated: m.validated,
          invalid: m.invalid,
          latency: m.latency.toData(),
          service: m.service.toData(),
        })),
      // "single" first, then batches by size.
      batchSizes: [...this.#sizes.values()]
        .sort((a, b) => (a.size === 'single' ? -1 : b.size === 'single' ? 1 : Number(a.size) - Number(b.size)))
        .map((s) => ({ size: s.size, requests: s.requests, latency: s.latency.toData(), service: s.service.toData() })),
    };
  }

  /** Adds another thread's figures to this recorder's (exact: counters add, histograms add bucket by bucket). */
  addFigures(f: RecordedFigures): void {
    this.#scheduled += f.schedule.scheduled;
    this.#sent += f.schedule.sent;
    this.#dropped += f.schedule.dropped;
    // Each thread waits for its own connections: the sum of the threads' most is the most that could wait at once.
    this.#queuedMax += f.schedule.queuedMax;
    this.#completed += f.schedule.completed;
    this.#lag.add(Histogram.decode(f.schedule.lagUs.encoded));
    if (f.schedule.readLagUs !== undefined) this.#readLag.add(Histogram.decode(f.schedule.readLagUs.encoded));
    const fl = this.#failures;
    fl.timeouts += f.failures.timeouts;
    fl.transport += f.failures.transport;
    addCounts(fl.transportCauses, f.failures.transportCauses ?? {});
    fl.malformed += f.failures.malformed;
    fl.extraElements += f.failures.extraElements;
    fl.missingElements += f.failures.missingElements;
    addCounts(fl.httpStatus, f.failures.httpStatus);
    this.#latency.add(Histogram.decode(f.latency.encoded));
    this.#service.add(Histogram.decode(f.service.encoded));
    for (const m of f.methods) {
      let a = this.#methods.get(m.method);
      if (a === undefined) this.#methods.set(m.method, (a = new MethodAccount(m.method)));
      a.calls += m.calls;
      a.ok += m.ok;
      a.unanswered += m.unanswered;
      a.validated += m.validated;
      a.invalid += m.invalid;
      addCounts(a.errors, m.errors);
      a.latency.add(Histogram.decode(m.latency.encoded));
      a.service.add(Histogram.decode(m.service.encoded));
    }
    for (const s of f.batchSizes) {
      let a = this.#sizes.get(s.size);
      if (a === undefined) this.#sizes.set(s.size, (a = new SizeAccount(s.size)));
      a.requests += s.requests;
      a.latency.add(Histogram.decode(s.latency.encoded));
      a.service.add(Histogram.decode(s.service.encoded));
    }
  }

  /** Adds another recorder's figures (its current tick is not taken: ticks are merged by the timeline). */
  add(other: LoadRecorder): void {
    this.addFigures(other.figures());
  }

  static fromFigures(f: RecordedFigures): LoadRecorder {
    const r = new LoadRecorder();
    r.addFigures(f);
    return r;
  }
}
