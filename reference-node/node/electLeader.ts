/**
 * Leader election, the same on every node: the leader is the live MN with the highest score, ties
 * broken by the lowest identifier (string order). Scores come from the snapshot recorded in the
 * latest block (the `pou` field its proposer signed), not from each node's own live view, so all
 * nodes that share the chain rank the MNs alike; an MN missing from the snapshot ranks with score 0.
 * Liveness is each node's own observation (heard from within the liveness window), the only input
 * that can differ between nodes, and only while a leader is dying.
 */
export interface Candidate {
  id: string;
  live: boolean;
}

export function rankCandidates(candidates: readonly Candidate[], snapshot: Readonly<Record<string, bigint>>): Candidate[] {
  return [...candidates].sort((a, b) => {
    const sa = snapshot[a.id] ?? 0n;
    const sb = snapshot[b.id] ?? 0n;
    if (sa !== sb) return sa > sb ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

/** The leader's identifier, or null when no MN is live. */
export function electLeader(candidates: readonly Candidate[], snapshot: Readonly<Record<string, bigint>>): string | null {
  return rankCandidates(candidates, snapshot).find((c) => c.live)?.id ?? null;
}
