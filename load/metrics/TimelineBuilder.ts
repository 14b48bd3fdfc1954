/**
 * The run's timeline from the ticks of one or more threads: the same tick of every thread merges into one
 * point (counters add, latency histograms add, so the tick's p50 and p99 are exact across threads).
 */
import type { TimelinePoint } from '../model.js';
import { Histogram } from './Histogram.js';
import type { TickReport } from './LoadRecorder.js';

interface Pending {
  reports: number;
  point: Omit<TimelinePoint, 'p50Us' | 'p99Us'>;
  latency: Histogram;
}

export class TimelineBuilder {
  readonly #pending = new Map<number, Pending>();
  readonly #done = new Map<number, TimelinePoint>();

  /** `parts`: how many threads report each tick; `tickMs`: the tick's length. */
  constructor(
    readonly parts: number,
    readonly tickMs: number,
  ) {}

  /** Adds one thread's tick; returns the merged point once every thread has reported that tick. */
  add(report: TickReport): TimelinePoint | undefined {
    let p = this.#pending.get(report.index);
    if (p === undefined) {
      p = { reports: 0, point: { tMs: report.index * this.tickMs, sent: 0, completed: 0, okCalls: 0, failedCalls: 0, dropped: 0, inFlight: 0 }, latency: new Histogram() };
      this.#pending.set(report.index, p);
    }
    p.reports++;
    const q = p.point;
    q.sent += report.sent;
    q.completed += report.completed;
    q.okCalls += report.okCalls;
    q.failedCalls += report.failedCalls;
    q.dropped += report.dropped;
    q.inFlight += report.inFlight;
    p.latency.add(report.latency);
    return p.reports >= this.parts ? this.#complete(report.index) : undefined;
  }

  #complete(index: number): TimelinePoint {
    const p = this.#pending.get(index) as Pending;
    this.#pending.delete(index);
    const point: TimelinePoint = { ...p.point, p50Us: p.latency.percentile(50), p99Us: p.latency.percentile(99) };
    this.#done.set(index, point);
    return point;
  }

  /**
   * Completes the ticks some thread never reported (a thread that finished a tick earlier than another) as
   * they are, and returns them in time order.
   */
  flush(): TimelinePoint[] {
    return [...this.#pending.keys()].sort((a, b) => a - b).map((index) => this.#complete(index));
  }

  /** Every point, in time order (after `flush`, or the pending ticks are left out). */
  points(): TimelinePoint[] {
    return [...this.#done.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p);
  }
}
