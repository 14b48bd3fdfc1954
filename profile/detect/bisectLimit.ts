/** What one probe of size n found; 'stop' ends the search where it is (the deadline came, the node went away). */
export type Verdict = 'served' | 'refused' | 'stop';

export interface BisectOptions {
  /** The first size tried. */
  readonly start: number;
  /** The largest size tried: served there means "no limit found up to cap". */
  readonly cap: number;
  /** A size known to be served (the search never goes below it); 0 when none is known. */
  readonly floor?: number;
  /** Most probes in all (the doubling and the bisection together). */
  readonly maxProbes: number;
  probe(n: number): Promise<Verdict>;
}

export interface BisectResult {
  /** The largest size served with a refusal at the next size: the exact limit; undefined when not pinned down. */
  readonly limit: number | undefined;
  /** The largest size seen served (the floor when none was). */
  readonly servedUpTo: number;
  /** The smallest size seen refused; undefined when every size up to the cap was served. */
  readonly refusedAt: number | undefined;
  readonly probes: number;
  /** A probe said 'stop': the bounds are what was known then. */
  readonly stopped: boolean;
}

/**
 * A node's size limit by bounded search: sizes double from `start` until one is refused or `cap` is
 * served, then the gap between the largest served and the smallest refused size is halved until they
 * are one apart. At most `maxProbes` probes; when they run out first, `limit` stays undefined and
 * servedUpTo / refusedAt bound it. Assumes the node's verdict is monotonic (served below its limit,
 * refused above).
 */
export async function bisectLimit(options: BisectOptions): Promise<BisectResult> {
  let lo = options.floor ?? 0;
  let hi: number | undefined;
  let probes = 0;
  let n = Math.max(options.start, lo + 1);
  let stopped = false;
  while (probes < options.maxProbes && n <= options.cap) {
    probes++;
    const verdict = await options.probe(n);
    if (verdict === 'stop') {
      stopped = true;
      break;
    }
    if (verdict === 'served') {
      lo = n;
      if (n === options.cap) break;
      n = Math.min(n * 2, options.cap);
    } else {
      hi = n;
      break;
    }
  }
  if (hi !== undefined && !stopped) {
    let top: number = hi;
    while (top - lo > 1 && probes < options.maxProbes) {
      const mid: number = lo + Math.floor((top - lo) / 2);
      probes++;
      const verdict = await options.probe(mid);
      if (verdict === 'stop') {
        stopped = true;
        break;
      }
      if (verdict === 'served') lo = mid;
      else top = mid;
    }
    hi = top;
  }
  const exact = hi !== undefined && hi - lo === 1;
  return { limit: exact ? lo : undefined, servedUpTo: lo, refusedAt: hi, probes, stopped };
}
