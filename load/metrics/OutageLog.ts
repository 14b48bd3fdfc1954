/**
 * The stretches of a run in which the node's clients saw calls fail, kept exactly (not per tick): what a fault
 * under load is judged by from the client's side (load/chaos/clientsAtFaults.ts, docs/chaos.md).
 *
 * An outage opens with the first request that fails (a call not answered with a result: an error object, no
 * answer, a timeout, a refused connection) and is timed from that request's scheduled send. It closes with the
 * first request scheduled at or after its opening whose every call succeeded, at the moment that answer ended:
 * the client's "first successful call again". A request sent before the outage opened that still ends well
 * (it was in flight when the node fell) closes nothing; a failed request scheduled before that end is the
 * outage's.
 *
 * Requests are seen in the order they END, which is not the order they were sent: a node that hangs answers its
 * new requests (they end at once) while the ones it holds time out seconds later. So the log keeps the recent
 * successes (the first to end of those scheduled after any moment) and a late failure is placed by its scheduled
 * send: the success that ended first among those scheduled after it closes its outage, whenever the failure is
 * told. Until 2026-11-29 a late failure opened a new outage that the next success closed (an outside tester's
 * 1 s hang measured 4.3 s, or never recovered with 10 s timeouts).
 */
import type { Outage } from '../model.js';

/** Outages kept in a report's run (the ones nearest the faults: outagesForReport). */
export const OUTAGES_KEPT = 200;
/**
 * Outages a log holds exactly (a few MB at most): every figure at a fault is computed from them. Past it a new
 * outage is joined to the last one held (counted), a bound no run of a sane length and rate reaches (20,000
 * outages is a call failing alone every 3 ms for a minute).
 */
export const OUTAGES_HELD = 20_000;
/**
 * How long after its scheduled send a failed request may be told and still be placed exactly: the successes of
 * this long are kept, at most one per ms of their end (two numbers each: 2 MB at most). Far longer than a call's
 * timeout (10 s by default); a request that failed still later is closed by the first success kept after it, so
 * its outage's end can only be late, never early.
 */
export const LATE_MS = 120_000;

export class OutageLog {
  readonly #held: Outage[] = [];
  /** Successes in the order they ended, each scheduled after every one before it: scheduled and ended ms. */
  readonly #sent: number[] = [];
  readonly #end: number[] = [];
  #first = 0;
  #count = 0;
  #lastEndMs = -Infinity;

  /**
   * One request ended. Times on one clock (the engine's epoch ms); `failedMethods`: the method of each call of
   * the request that failed (empty: the request succeeded whole).
   */
  ended(scheduledMs: number, endedMs: number, failedMethods: readonly string[]): void {
    this.#lastEndMs = Math.max(this.#lastEndMs, endedMs);
    if (failedMethods.length === 0) {
      this.#succeeded(scheduledMs, endedMs);
      return;
    }
    const outage = this.#containing(scheduledMs) ?? this.#opened(scheduledMs);
    outage.lastFailedMs = Math.max(outage.lastFailedMs, endedMs);
    outage.failedCalls += failedMethods.length;
    for (const m of failedMethods) outage.byMethod[m] = (outage.byMethod[m] ?? 0) + 1;
  }

  #succeeded(scheduledMs: number, endedMs: number): void {
    const open = this.#held.at(-1);
    if (open !== undefined && open.toMs === null && scheduledMs >= open.fromMs) {
      open.toMs = endedMs;
    }
    const [sent, end] = [this.#sent, this.#end];
    const last = sent.length - 1;
    if (last >= 0 && (sent[last] ?? 0) >= scheduledMs) return; // one ended before it, sent as late or later
    // Within the same ms of end, one entry (the later send): a late failure's end is placed within 1 ms.
    if (last >= this.#first && endedMs - (end[last] ?? 0) < 1) sent[last] = scheduledMs;
    else {
      sent.push(scheduledMs);
      end.push(endedMs);
    }
    while (this.#first < sent.length && (sent[this.#first] ?? Infinity) < this.#lastEndMs - LATE_MS) this.#first++;
    if (this.#first > 4_096 && this.#first * 2 > sent.length) {
      sent.splice(0, this.#first);
      end.splice(0, this.#first);
      this.#first = 0;
    }
  }

  /** The outage a failed request scheduled at `t` belongs to: opened at or before it, not yet recovered when it was sent. */
  #containing(t: number): Outage | undefined {
    for (let i = this.#held.length - 1; i >= 0; i--) {
      const o = this.#held[i];
      if (o !== undefined && o.fromMs <= t) return o.toMs === null || t <= o.toMs ? o : undefined;
    }
    return undefined;
  }

  /**
   * A new outage from `fromMs`: closed by the first success already seen that was scheduled at or after it (a late
   * failure), else open. Outages after it that opened before its end are its own (joined).
   */
  #opened(fromMs: number): Outage {
    this.#count++;
    const closer = this.#closerAfter(fromMs);
    const outage: Outage = { fromMs, lastFailedMs: fromMs, toMs: closer?.ended ?? null, failedCalls: 0, byMethod: {} };
    // Usually the latest: a failure told late is rare.
    const at = (this.#held.at(-1)?.fromMs ?? -Infinity) <= fromMs ? -1 : this.#held.findIndex((o) => o.fromMs > fromMs);
    const later = at === -1 ? [] : this.#held.splice(at);
    let k = 0;
    for (; k < later.length && (outage.toMs === null || (later[k]?.fromMs ?? Infinity) <= outage.toMs); k++) join(outage, later[k] as Outage);
    this.#count -= k;
    const last = this.#held.at(-1);
    const full = this.#held.length >= OUTAGES_HELD && last !== undefined;
    if (full) join(last, outage);
    else this.#held.push(outage);
    this.#held.push(...later.slice(k));
    return full ? last : outage;
  }

  /** The success that ended first of those scheduled at or after `t` (binary search: both times rise along the list). */
  #closerAfter(t: number): { sent: number; ended: number } | undefined {
    const sent = this.#sent;
    let lo = this.#first;
    let hi = sent.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sent[mid] ?? Infinity) >= t) hi = mid;
      else lo = mid + 1;
    }
    const [s, e] = [sent[lo], this.#end[lo]];
    return s === undefined || e === undefined ? undefined : { sent: s, ended: e };
  }

  /** The outages in the order they opened, and how many there were (more than held when joined past the bound). */
  outages(): { kept: Outage[]; count: number } {
    return { kept: this.#held.map((o) => ({ ...o, byMethod: { ...o.byMethod } })), count: this.#count };
  }
}

/** `b` into `a`: its calls, and its end when later (open when either is). */
function join(a: Outage, b: Outage): void {
  a.fromMs = Math.min(a.fromMs, b.fromMs);
  a.lastFailedMs = Math.max(a.lastFailedMs, b.lastFailedMs);
  a.toMs = a.toMs === null || b.toMs === null ? null : Math.max(a.toMs, b.toMs);
  a.failedCalls += b.failedCalls;
  for (const [m, n] of Object.entries(b.byMethod)) a.byMethod[m] = (a.byMethod[m] ?? 0) + n;
}

/**
 * Several logs' outages as one client would have seen them (the threads of one run, the segments of one
 * node): overlapping stretches joined, in time order. An outage still open in any part is open in the union.
 */
export function mergeOutages(parts: readonly (readonly Outage[])[]): Outage[] {
  return mergeOutagesCounted(parts).kept;
}

/**
 * mergeOutages, and how many outages the clients saw in all (overlapping ones are one). Past OUTAGES_HELD a new one is
 * joined to the last held, as a log does, never dropped: two threads' 15,000 each kept the first 20,000 and lost the
 * rest, the last one (never recovered) too, and counted 20,000 (an outside tester's).
 */
export function mergeOutagesCounted(parts: readonly (readonly Outage[])[]): { kept: Outage[]; count: number } {
  const all = parts.flat().map((o) => ({ ...o, byMethod: { ...o.byMethod } }));
  all.sort((a, b) => a.fromMs - b.fromMs);
  const out: Outage[] = [];
  let count = 0;
  for (const o of all) {
    const last = out.at(-1);
    const lastEnd = last === undefined ? -Infinity : (last.toMs ?? Infinity);
    if (last !== undefined && o.fromMs <= lastEnd) {
      join(last, o);
      continue;
    }
    count++;
    if (last !== undefined && out.length >= OUTAGES_HELD) join(last, o);
    else out.push(o);
  }
  return { kept: out, count };
}

/**
 * The outages a report keeps (OUTAGES_KEPT), once every figure at the faults was computed from all of them: those
 * nearest the events (`atMs`, on the outages' clock), in time order, and the last one (a run's verdict reads
 * whether its clients ever recovered). Without events, the first ones and the last. `count` is unchanged.
 */
export function outagesForReport(outages: { count: number; kept: Outage[] }, atMs: readonly number[]): { count: number; kept: Outage[] } {
  const kept = outages.kept;
  if (kept.length <= OUTAGES_KEPT) return outages;
  const distance = (o: Outage): number => Math.min(...atMs.map((t) => (t < o.fromMs ? o.fromMs - t : o.toMs !== null && t > o.toMs ? t - o.toMs : 0)));
  const rank = kept.slice(0, -1).map((o, i) => ({ i, d: atMs.length === 0 ? i : distance(o) }));
  rank.sort((a, b) => a.d - b.d || a.i - b.i);
  const chosen = new Set(rank.slice(0, OUTAGES_KEPT - 1).map((r) => r.i));
  chosen.add(kept.length - 1);
  return { count: outages.count, kept: kept.filter((_, i) => chosen.has(i)) };
}
