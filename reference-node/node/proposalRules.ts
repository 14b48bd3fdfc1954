import { U64_MAX } from '../../core/codec/index.js';
import type { Block, ProposalRule } from '../chain/index.js';
import { rankMembers } from './electLeader.js';

/**
 * Who may propose a block, and what its PoU snapshot may say (docs/reference-node.md, "Membership
 * and election"). The chain applies the rule to every block it imports or produces (ProposalRule).
 *
 * Deterministic, the same on every node and for every block, old or new (snapshotProblem):
 * - the proposer is a member (named in the genesis);
 * - the snapshot lists exactly the members;
 * - no score falls (a member that restarts keeps its recorded score);
 * - no member's score rises by more than the proposer's own score rises in that block.
 * A member can therefore never climb past the leader in the snapshot, whatever it claims about
 * itself; with ties going to the incumbent, a live leader is never outranked by a lie.
 *
 * - the slot: the member ranked r-th (from 0) on the parent's snapshot may propose only r liveness
 *   windows after the parent (its timestamp at least parent + r x livenessMs): the first in rank at
 *   once, the next only once the first has been silent long enough to be dead everywhere. No
 *   member can step ahead of one ranked above it by dating its block back.
 *
 * Depending on this node's view:
 * - it is not from the future (more than MAX_BLOCK_AHEAD_MS ahead of our clock);
 * - for a fresh block (timestamped within the liveness window), its proposer is the leader this
 *   node elects for its height, or a member ranked above that leader (a contested slot: the block
 *   shows that member is alive). Older blocks are history, taken while catching up, and checked by
 *   the rules above only.
 * The slot depends on the liveness window, max(4 block times, 2 s): the nodes of one network run
 * the same block time (a devnet does).
 */

/** How far a block's timestamp may be ahead of this node's clock. */
export const MAX_BLOCK_AHEAD_MS = 1_000;

/** The deterministic part: a reason to refuse, or null. */
export function snapshotProblem(members: readonly string[], block: Block, parent: Block): string | null {
  const listed = new Set(members);
  if (!listed.has(block.proposer)) return `its proposer ${block.proposer} is not a member of this network`;
  for (const id of Object.keys(block.pou)) if (!listed.has(id)) return `its PoU snapshot lists ${id}, which is not a member`;
  for (const id of members) if (block.pou[id] === undefined) return `its PoU snapshot leaves out the member ${id}`;
  const rise = (id: string): bigint => (block.pou[id] ?? 0n) - (parent.pou[id] ?? 0n);
  for (const id of members) {
    if (rise(id) < 0n) return `its PoU snapshot lowers ${id}'s score from ${parent.pou[id] ?? 0n} to ${block.pou[id] ?? 0n}; recorded scores never fall`;
  }
  const cap = rise(block.proposer);
  for (const id of members) {
    if (id !== block.proposer && rise(id) > cap) return `its PoU snapshot raises ${id}'s score by ${rise(id)}, more than its proposer's own rise (${cap})`;
  }
  return null;
}

/**
 * The snapshot an honest proposer writes on `parent`: its own score (never below its recorded one),
 * and each other member's announced score, never below its recorded one and risen by at most the
 * proposer's own rise.
 */
export function buildSnapshot(members: readonly string[], parent: Block, self: string, ownScore: bigint, announced: (id: string) => bigint | undefined): Record<string, bigint> {
  const recorded = (id: string): bigint => parent.pou[id] ?? 0n;
  const own = ownScore > recorded(self) ? (ownScore > U64_MAX ? U64_MAX : ownScore) : recorded(self);
  const cap = own - recorded(self);
  const pou: Record<string, bigint> = {};
  for (const id of members) {
    if (id === self) {
      pou[id] = own;
      continue;
    }
    const claim = announced(id) ?? recorded(id);
    const gain = claim > recorded(id) ? claim - recorded(id) : 0n;
    pou[id] = recorded(id) + (gain < cap ? gain : cap);
  }
  return pou;
}

export interface LeaderView {
  /** Whether this node sees the member live (itself: when it runs as an MN). */
  live(id: string): boolean;
  /** The liveness window, ms: blocks older than it are history. */
  readonly livenessMs: number;
  readonly now?: () => number;
}

/** How long after the parent block a member may propose: its place in rank (from 0) times the liveness window. */
export function slotDelay(ranked: readonly string[], proposer: string, livenessMs: number): number {
  return Math.max(0, ranked.indexOf(proposer)) * livenessMs;
}

/** The whole rule for a node: the deterministic part, then the leader check for fresh blocks. */
export function proposalRule(members: readonly string[], view: LeaderView): ProposalRule {
  const now = view.now ?? Date.now;
  return (block, parent) => {
    const problem = snapshotProblem(members, block, parent);
    if (problem) return problem;
    const ranked = rankMembers(members, parent.pou, parent.proposer);
    const wait = slotDelay(ranked, block.proposer, view.livenessMs);
    if (block.timestamp < parent.timestamp + BigInt(wait)) {
      return `its proposer ${block.proposer} ranks ${wait / view.livenessMs + 1} for height ${block.height} and may propose only ${wait} ms after the parent block; this block is dated ${block.timestamp - parent.timestamp} ms after it`;
    }
    const t = now();
    const ts = Number(block.timestamp);
    if (ts > t + MAX_BLOCK_AHEAD_MS) return `its timestamp is ${ts - t} ms ahead of this node's clock (at most ${MAX_BLOCK_AHEAD_MS} ms)`;
    if (ts < t - view.livenessMs) return null;
    for (const id of ranked) {
      if (id === block.proposer) return null;
      if (view.live(id)) return `its proposer ${block.proposer} is not the leader for height ${block.height}: ${id} ranks above it and is live`;
    }
    return null;
  };
}
