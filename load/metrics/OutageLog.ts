/**
 * The stretches of a run in which the node's clients saw calls fail, kept exactly (not per tick): what a fault
 * under load is judged by from the client's side (load/chaos/recovery.ts, docs/chaos.md).
 *
 * An outage opens with the first request that fails (a call not answered with a result: an error object, no
 * answer, a timeout, a refused connection) and is timed from that request's scheduled send. It closes with the
 * first request scheduled at or after its opening whose every call succeeded, at the moment that answer ended:
 * the client's "first successful call again". A request sent before the outage opened that still ends well
 * (it was in flight when the node fell) closes nothing. Requests are seen in the order they end.
 */
import type { Outage } from '../model.js';

/** Outages kept per log; past it, a new one is merged into the last (the count still says how many there were). */
export const OUTAGES_KEPT = 200;

export class OutageLog {
  readonly #kept: Outage[] = [];
  #open: Outage | undefined;
  #count = 0;

  /**
   * One request ended. Times on one clock (the engine's epoch ms); `failedMethods`: the method of each call of
   * the request that failed (empty: the request succeeded whole).
   */
  ended(scheduledMs: number, endedMs: number, failedMethods: readonly string[]): void {
    const open = this.#open;
    if (failedMethods.length === 0) {
      if (open !== undefined && scheduledMs >= open.fromMs) {
        open.toMs = endedMs;
        this.#open = undefined;
      }
      return;
    }
    const outage = open ?? this.#opened(scheduledMs);
    outage.fromMs = Math.min(outage.fromMs, scheduledMs);
    outage.lastFailedMs = Math.max(outage.lastFailedMs, endedMs);
    outage.failedCalls += failedMethods.length;
    for (const m of failedMethods) outage.byMethod[m] = (outage.byMethod[m] ?? 0) + 1;
  }

  #opened(fromMs: number): Outage {
    this.#count++;
    const last = this.#kept.at(-1);
    if (this.#kept.length >= OUTAGES_KEPT && last !== undefined) {
      // Bounded: the new outage continues the last one kept (its end reopened).
      last.toMs = null;
      this.#open = last;
      return last;
    }
    const outage: Outage = { fromMs, lastFailedMs: fromMs, toMs: null, failedCalls: 0, byMethod: {} };
    this.#kept.push(outage);
    this.#open = outage;
    return outage;
  }

  /** The outages in the order they opened, and how many there were (more than kept when merged). */
  outages(): { kept: Outage[]; count: number } {
    return { kept: this.#kept.map((o) => ({ ...o, byMethod: { ...o.byMethod } })), count: this.#count };
  }
}

/**
 * Several logs' outages as one client would have seen them (the threads of one run, the segments of one
 * node): overlapping stretches joined, in time order. An outage still open in any part is open in the union.
 */
export function mergeOutages(parts: readonly (readonly Outage[])[]): Outage[] {
  const all = parts.flat().map((o) => ({ ...o, byMethod: { ...o.byMethod } }));
  all.sort((a, b) => a.fromMs - b.fromMs);
  const out: Outage[] = [];
  for (const o of all) {
    const last = out.at(-1);
    const lastEnd = last === undefined ? -Infinity : (last.toMs ?? Infinity);
    if (last === undefined || o.fromMs > lastEnd) {
      out.push(o);
      continue;
    }
    last.lastFailedMs = Math.max(last.lastFailedMs, o.lastFailedMs);
    last.toMs = last.toMs === null || o.toMs === null ? null : Math.max(last.toMs, o.toMs);
    last.failedCalls += o.failedCalls;
    for (const [m, n] of Object.entries(o.byMethod)) last.byMethod[m] = (last.byMethod[m] ?? 0) + n;
  }
  return out.slice(0, OUTAGES_KEPT);
}
