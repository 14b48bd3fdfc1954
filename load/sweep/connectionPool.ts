/**
 * A sweep step held back by the generator's own connection pool, not by the node: requests waited for one of the
 * pool's connections while the node's service time stayed where it was at a lower rate. An outside tester's node
 * of a fixed 100 ms and unlimited concurrency "kneed" at 400/s: 64 connections carry at most 64 / 0.1 s = 640/s,
 * and with --connections 256 it held at 1,200/s. The step's reason says so (runSweep.ts), and the verdict's knee
 * line (loadVerdict.ts) points at --connections.
 */
import { formatMs } from '../figures.js';
import type { LoadRun, SweepResult } from '../model.js';

/** How every such reason begins, for the verdict to find it among a step's reasons. */
const POOL_REASON = "requests waited for the generator's connections";

export const isPoolReason = (reason: string): boolean => reason.startsWith(POOL_REASON);

/** The node's service time at a lower rate of the same sweep, to tell whether it rose. */
export interface ServiceReference {
  rate: number;
  serviceP50Us: number;
}

/** A service p50 up to this much over the lower rate's is "did not rise" (room for a busy machine's jitter). */
const SAME_SERVICE = 1.25;
/** The pool counts as full when the rate asked for needs this share of its connections at the step's service time. */
const FULL_POOL = 0.9;

/**
 * The reason to give when the step's requests queued for the pool's `connections`, the rate asked for needed about
 * all of them at the node's service time (rate × mean service time, Little's law), and that service time did not
 * rise against the reference; undefined otherwise, or with no lower rate to compare with (then a rising service
 * time, a node queueing inside, cannot be told from a steady one).
 */
export function connectionPoolReason(run: LoadRun, rate: number, connections: number, reference: ServiceReference | undefined): string | undefined {
  if (reference === undefined || run.schedule.queuedMax === 0 || run.service.count === 0 || run.service.mean <= 0) return undefined;
  const serviceS = run.service.mean / 1e6;
  if (rate * serviceS < FULL_POOL * connections || run.service.p50 > SAME_SERVICE * reference.serviceP50Us) return undefined;
  const carried = Math.floor(connections / serviceS);
  return `${POOL_REASON} (${connections}, up to ${run.schedule.queuedMax} requests waiting at once) while the node's service time did not rise (p50 ${formatMs(run.service.p50 / 1000)}, ${formatMs(reference.serviceP50Us / 1000)} at ${reference.rate}/s): ${connections} connections carry about ${carried} requests/s at that service time, so this step measured the generator's connection pool, not the node; give --connections ${Math.ceil(rate * serviceS * 1.5)} or more to measure the node at ${rate}/s`;
}

/** The verdict's word on a knee found below a step the pool held back: the node's knee may lie above it. */
export function poolKneeNote(s: SweepResult): string {
  const knee = s.knee;
  const step = knee === null ? undefined : s.steps.find((st) => st.rate > knee && !st.sloHeld && st.reasons.some(isPoolReason));
  return step === undefined ? '' : ` (at ${step.rate} requests/s the generator's connection pool was the limit, not the node, whose service time did not rise: give more --connections to measure past it)`;
}
