/**
 * Proof of usage: the node's local score, measured from the work it does for the network.
 * The spec leaves the scoring rules unshown; the reference profile counts
 *
 *   served      1 point per JSON-RPC call the node answered (notifications included),
 *   relayed    10 points per transaction a client submitted here and the node accepted,
 *   proposed   50 points per block the node proposed.
 *
 * Scores only grow while the process runs (a restart starts from 0). Leader election ranks MNs by
 * the scores recorded in the latest block (see LeaderElection), so every node ranks alike.
 */
export const SCORE_WEIGHTS = { served: 1n, relayed: 10n, proposed: 50n } as const;

export class UsageMeter {
  // Plain numbers (exact to 2^53, centuries at any request rate): counting a call allocates nothing.
  private served = 0;
  private relayed = 0;
  private proposed = 0;

  recordServed(): void {
    this.served++;
  }

  recordRelayed(): void {
    this.relayed++;
  }

  recordProposed(): void {
    this.proposed++;
  }

  score(): bigint {
    return BigInt(this.served) * SCORE_WEIGHTS.served + BigInt(this.relayed) * SCORE_WEIGHTS.relayed + BigInt(this.proposed) * SCORE_WEIGHTS.proposed;
  }

  counts(): { served: bigint; relayed: bigint; proposed: bigint } {
    return { served: BigInt(this.served), relayed: BigInt(this.relayed), proposed: BigInt(this.proposed) };
  }
}
