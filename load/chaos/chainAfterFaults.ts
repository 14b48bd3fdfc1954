/**
 * The chain's side of a run with faults (docs/chaos.md), worked out after the run from what the head followers
 * saw (every node's head at 20 Hz, on the run's clock, each height dated when its answer came: headPoints) and
 * from the blocks themselves:
 * - the head before an event: the highest height any node had served by then;
 * - the next block: from the event to the first higher height any node still running served (when the leader
 *   was hit, the failover time; the followers' interval bounds its error), past any block the node taken down
 *   made just before it fell (not yet seen at the event, but made before it), not past one it made once it was
 *   back (first seen after its resume, restart or heal: a leader paused for 800 ms makes the next block);
 * - the leader before and after: the proposers of the last block before and of that next block;
 * - a node brought back (restart, resume): from the event until its head reached the highest any other node
 *   served at that moment (its catch-up);
 * - consistency: the blocks from the lowest head before an event to the lowest head now, compared by hash on
 *   every node that answers; a height served with two blocks is a fork.
 */
import type { ChaosEvent, ChaosReport, ChaosStep } from '../model.js';
import type { HeadSample } from '../health/headHealth.js';
import type { BlockView, ChainView } from './ChainView.js';
import { RETURN_OF } from './chaosPlan.js';
import type { ActedEvent } from './runChaos.js';

/** A node's head as its follower saw it: `tMs` from the start of measurement. */
export interface HeadPoint {
  tMs: number;
  height: number;
}

/**
 * A head follower's samples on the faults' clock, each dated when its answer came, as head health dates them
 * (load/health/headHealth.ts): a node has served a height once the answer holding it has arrived. Dated at the
 * middle of the call instead, a call held by a paused node and answered just after its resume fell before the
 * resume, where the catch-up does not look, and the catch-up waited for the next height the follower kept (the
 * next block: a block time too long).
 */
export function headPoints(samples: readonly Pick<HeadSample, 'answeredMs' | 'height'>[], originEpochMs: number, measureStartMs: number): HeadPoint[] {
  return samples.map((x) => ({ tMs: originEpochMs + x.answeredMs - measureStartMs, height: x.height }));
}

/** Heights compared across nodes at most (the latest ones of the range). */
const CONSISTENCY_HEIGHTS = 300;

/** Actions that bring a node back (its catch-up is measured); delay leaves a node in the network, slowed. */
const BRINGS_BACK = new Set(['restart', 'resume', 'heal']);
const SLOWS = new Set(['delay', 'exec']);

/** The highest height any node in `heads` (but `except`) had served at `t`. */
function highestAt(heads: ReadonlyMap<string, readonly HeadPoint[]>, t: number, except?: string): number | null {
  let top: number | null = null;
  for (const [node, points] of heads) {
    if (node === except) continue;
    for (const p of points) {
      if (p.tMs > t) break;
      if (top === null || p.height > top) top = p.height;
    }
  }
  return top;
}

/** The first time after `t` that any node (but `except`) served a height above `height`. */
function firstAbove(heads: ReadonlyMap<string, readonly HeadPoint[]>, t: number, height: number, except?: string): number | null {
  let first: number | null = null;
  for (const [node, points] of heads) {
    if (node === except) continue;
    const p = points.find((q) => q.tMs > t && q.height > height);
    if (p !== undefined && (first === null || p.tMs < first)) first = p.tMs;
  }
  return first;
}

/** From `t` until `node` served a height at least the others' highest at that moment; null: not by the end. */
function catchUp(heads: ReadonlyMap<string, readonly HeadPoint[]>, node: string, t: number): number | null {
  const points = heads.get(node) ?? [];
  for (const p of points) {
    if (p.tMs < t) continue;
    const others = highestAt(heads, p.tMs, node);
    if (others === null || p.height >= others) return Math.max(0, p.tMs - t);
  }
  return null;
}

/** Each acted event with the chain's figures (the proposers read from whichever node serves the blocks). */
export async function chainAfterFaults(acted: readonly ActedEvent[], heads: ReadonlyMap<string, readonly HeadPoint[]>, chain: ChainView): Promise<ChaosEvent[]> {
  const out: ChaosEvent[] = [];
  for (const e of acted) {
    const headBefore = highestAt(heads, e.atMs);
    // A node taken down is not where the next block is looked for; a node brought back is, as any other.
    const down = e.error === undefined && !BRINGS_BACK.has(e.action) && !SLOWS.has(e.action) ? (e.node ?? undefined) : undefined;
    const before = headBefore === null ? undefined : await chain.anyBlock(headBefore);
    // The next block is the first one the fault did not stop: blocks the node taken down made just before it fell
    // (served after the event, not seen before it) are history, not the network's answer to the fault.
    // A block the node made once it was back (first served at or after its return) is the next block.
    const backAt = down === undefined ? null : returnOf(e, acted);
    const madeBefore = (b: BlockView): boolean => {
      const served = backAt === null ? null : firstAbove(heads, e.atMs, b.height - 1);
      return chain.nameOf(b.proposer) === down && (served === null || backAt === null || served < backAt);
    };
    let nextHeight = headBefore === null ? null : headBefore + 1;
    let after = nextHeight === null ? undefined : await chain.anyBlock(nextHeight);
    for (let skipped = 0; after !== undefined && nextHeight !== null && madeBefore(after) && skipped < MAX_SKIPPED; skipped++) {
      nextHeight++;
      after = await chain.anyBlock(nextHeight);
    }
    const next = nextHeight === null ? null : firstAbove(heads, e.atMs, nextHeight - 1, down);
    out.push({
      ...e,
      leaderBefore: chain.nameOf(before?.proposer ?? null),
      leaderAfter: chain.nameOf(after?.proposer ?? null),
      headBefore,
      nextBlockMs: next === null ? null : Math.round(next - e.atMs),
      nextBlockAt: after?.timestampMs === null || after?.timestampMs === undefined ? null : new Date(after.timestampMs).toISOString(),
      ...(BRINGS_BACK.has(e.action) && e.node !== null && e.error === undefined ? { catchUpMs: roundOrNull(catchUp(heads, e.node, e.atMs)) } : {}),
    });
  }
  return out;
}

/** When the node `e` took down was brought back (its restart, resume or heal done after it), or null: not in the run. */
function returnOf(e: ActedEvent, acted: readonly ActedEvent[]): number | null {
  const back = RETURN_OF[e.action];
  return acted.find((r) => r.node === e.node && r.action === back && r.atMs > e.atMs && r.error === undefined)?.atMs ?? null;
}

/** Blocks of a node taken down, made just before it fell, looked past at most. */
const MAX_SKIPPED = 8;

const roundOrNull = (v: number | null): number | null => (v === null ? null : Math.round(v));

/** The blocks every answering node serves, compared by hash over the heights the faults could have touched. */
export async function consistencyAfter(events: readonly ChaosEvent[], chain: ChainView): Promise<ChaosReport['consistency']> {
  const nodes = chain.network.nodes.filter((n) => chain.network.isUp(n.name)).map((n) => n.name);
  const heads = await Promise.all(nodes.map((n) => chain.head(n)));
  const answering = nodes.filter((_, i) => heads[i] !== undefined);
  const known = heads.filter((h): h is number => h !== undefined);
  if (answering.length === 0 || known.length === 0) return { fromHeight: 0, toHeight: 0, nodes: [], forks: [], error: 'no node answered after the run' };
  const toHeight = Math.min(...known);
  const befores = events.flatMap((e) => (e.headBefore === null ? [] : [e.headBefore]));
  const lowest = befores.length === 0 ? toHeight : Math.min(...befores);
  const fromHeight = Math.max(1, lowest, toHeight - CONSISTENCY_HEIGHTS + 1);
  const forks: { height: number; hashes: Record<string, string> }[] = [];
  for (let h = fromHeight; h <= toHeight; h++) {
    const blocks = await Promise.all(answering.map((n) => chain.block(n, h)));
    const hashes: Record<string, string> = {};
    answering.forEach((n, i) => {
      const hash = blocks[i]?.hash;
      if (hash !== null && hash !== undefined) hashes[n] = hash;
    });
    if (new Set(Object.values(hashes)).size > 1) forks.push({ height: h, hashes });
  }
  return { fromHeight, toHeight, nodes: answering, forks };
}

/** The schedule's steps as the report keeps them. */
export const stepsOf = (steps: readonly ChaosStep[]): ChaosStep[] => steps.map((s) => ({ ...s }));
