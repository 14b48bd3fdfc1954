/**
 * Leader election, the same on every node (docs/reference-node.md, "Membership and election"): the
 * network's members ranked by the latest block's PoU snapshot (the `pou` its proposer signed and
 * every importer checked, proposalRules.ts), highest score first; a tie goes to the member that
 * proposed that block (the incumbent), then to the lowest identifier. The leader is the first
 * member in rank that is live. Liveness is each node's own observation (a signed hello within its
 * liveness window), the only input that can differ between nodes, and only while a leader is dying.
 */
export function rankMembers(members: readonly string[], snapshot: Readonly<Record<string, bigint>>, incumbent: string): string[] {
  return [...members].sort((a, b) => {
    const sa = snapshot[a] ?? 0n;
    const sb = snapshot[b] ?? 0n;
    if (sa !== sb) return sa > sb ? -1 : 1;
    if (a === incumbent || b === incumbent) return a === incumbent ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

/** The leader's identifier, or null when no member is live. */
export function electLeader(members: readonly string[], snapshot: Readonly<Record<string, bigint>>, incumbent: string, live: (id: string) => boolean): string | null {
  return rankMembers(members, snapshot, incumbent).find(live) ?? null;
}
