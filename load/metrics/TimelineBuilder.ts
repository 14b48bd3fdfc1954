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

/**
 * Points a timeline keeps (an hour of 1 s ticks): past it, adjacent points merge in pairs and the resolution
 * halves, again as often as needed, so a run of any length (a soak of a day) holds at most this many. The run's
 * figures come from its whole-run histograms, not from the timeline: only the charts get coarser.
 */
export const MAX_TIMELINE_POINTS = 3_600;

/**
 * Two adjacent points as one (a earlier): counts add; in flight is the later's (a level, not a count); p50 the
 * mean of the two weighted by the served requests that ended in each; p99 the larger (a chart must not hide a bad second).
 */
export function mergePoints(a: TimelinePoint, b: TimelinePoint): TimelinePoint {
  // The percentiles are of the served requests (answers); a point written before `served` existed holds every ended one.
  const weightA = a.served ?? a.completed;
  const weightB = b.served ?? b.completed;
  const ended = weightA + weightB;
  return {
    tMs: Math.min(a.tMs, b.tMs),
    sent: a.sent + b.sent,
    completed: a.completed + b.completed,
    ...(a.served === undefined && b.served === undefined ? {} : { served: (a.served ?? 0) + (b.served ?? 0) }),
    okCalls: a.okCalls + b.okCalls,
    failedCalls: a.failedCalls + b.failedCalls,
    dropped: a.dropped + b.dropped,
    inFlight: b.tMs >= a.tMs ? b.inFlight : a.inFlight,
    p50Us: ended === 0 ? Math.max(a.p50Us, b.p50Us) : Math.round((a.p50Us * weightA + b.p50Us * weightB) / ended),
    p99Us: Math.max(a.p99Us, b.p99Us),
  };
}

export class TimelineBuilder {
  readonly #pending = new Map<number, Pending>();
  /** Kept points by slot: a slot is `factor` ticks long. */
  #done = new Map<number, TimelinePoint>();
  #factor = 1;

  /** `parts`: how many threads report each tick; `tickMs`: the tick's length; `maxPoints`: what the timeline keeps. */
  constructor(
    readonly parts: number,
    readonly tickMs: number,
    readonly maxPoints: number = MAX_TIMELINE_POINTS,
  ) {}

  /** The kept points' spacing, ms: the tick, doubled each time the timeline was made coarser. */
  get pointMs(): number {
    return this.tickMs * this.#factor;
  }

  /** Adds one thread's tick; returns the merged point once every thread has reported that tick. */
  add(report: TickReport): TimelinePoint | undefined {
    let p = this.#pending.get(report.index);
    if (p === undefined) {
      p = { reports: 0, point: { tMs: report.index * this.tickMs, sent: 0, completed: 0, served: 0, okCalls: 0, failedCalls: 0, dropped: 0, inFlight: 0 }, latency: new Histogram() };
      this.#pending.set(report.index, p);
    }
    p.reports++;
    const q = p.point;
    q.sent += report.sent;
    q.completed += report.completed;
    q.served = (q.served ?? 0) + report.served;
    q.okCalls += report.okCalls;
    q.failedCalls += report.failedCalls;
    q.dropped += report.dropped;
    q.inFlight += report.inFlight;
    p.latency.add(report.latency);
    return p.reports >= this.parts ? this.#complete(report.index) : undefined;
  }

  /** The tick's point (what progress shows), kept in its slot. */
  #complete(index: number): TimelinePoint {
    const p = this.#pending.get(index) as Pending;
    this.#pending.delete(index);
    const point: TimelinePoint = { ...p.point, p50Us: p.latency.percentile(50), p99Us: p.latency.percentile(99) };
    this.#keep(Math.floor(index / this.#factor), point);
    while (this.#done.size > this.maxPoints) this.#coarsen();
    return point;
  }

  #keep(slot: number, point: TimelinePoint): void {
    const there = this.#done.get(slot);
    const at = { ...point, tMs: slot * this.pointMs };
    this.#done.set(slot, there === undefined ? at : there.tMs <= point.tMs ? mergePoints(there, at) : mergePoints(at, there));
  }

  /** Halves the resolution: each pair of adjacent slots becomes one. */
  #coarsen(): void {
    const before = [...this.#done.entries()].sort((a, b) => a[0] - b[0]);
    this.#done = new Map();
    this.#factor *= 2;
    for (const [slot, point] of before) this.#keep(Math.floor(slot / 2), point);
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
