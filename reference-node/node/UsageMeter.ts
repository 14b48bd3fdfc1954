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
  private served = 0n;
  private relayed = 0n;
  private proposed = 0n;

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
    return this.served * SCORE_WEIGHTS.served + this.relayed * SCORE_WEIGHTS.relayed + this.proposed * SCORE_WEIGHTS.proposed;
  }

  counts(): { served: bigint; relayed: bigint; proposed: bigint } {
    return { served: this.served, relayed: this.relayed, proposed: this.proposed };
  }
}
