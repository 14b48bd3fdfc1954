/**
 * The slow oracle's time bound: how long an answer may take before it is a finding. A node's own median call
 * is its yardstick (a node that is slow at everything is not slow at one thing), with a floor so that a fast
 * node's jitter is never a finding: max(1 s, 50 x the median) by default (fuzz/model.ts, OracleName 'slow').
 */

/** The default floor, ms: no answer faster than this is slow, however fast the median. */
export const SLOW_FLOOR_MS = 1000;
/** The default factor over the median call. */
export const SLOW_FACTOR = 50;

/** max(floorMs, factor x medianMs): an answer slower than this is 'slow'. A median that is not a finite, non-negative number counts as 0. */
export function slowBoundMs(medianMs: number, options: { floorMs?: number; factor?: number } = {}): number {
  const floor = options.floorMs ?? SLOW_FLOOR_MS;
  const factor = options.factor ?? SLOW_FACTOR;
  const median = Number.isFinite(medianMs) && medianMs > 0 ? medianMs : 0;
  return Math.max(floor, factor * median);
}
