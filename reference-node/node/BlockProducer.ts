import type { Block, Chain } from '../chain/index.js';
import type { NodeIdentity } from './NodeIdentity.js';
import type { UsageMeter } from './UsageMeter.js';

interface ProducerDeps {
  readonly chain: Chain;
  readonly identity: NodeIdentity;
  readonly meter: UsageMeter;
  readonly log: (line: string) => void;
  /** Members that must hold a block, this node included, before it commits it (quorumOf). */
  readonly quorum: number;
  /** Whether this node may propose now: an MN, the leader, caught up, greeted, not stopping. */
  mayPropose(): boolean;
  /** The variant's say (NodeHooks.proposes); honest: always. */
  proposes(): boolean;
  /** The PoU snapshot to record on a parent (proposalRules.buildSnapshot). */
  snapshot(parent: Block): Record<string, bigint>;
  /** Sends a drafted block to the other members; resolves with how many of them hold it (by `needed`, or when all have answered or the wait ran out). */
  propose(block: Block, needed: number): Promise<number>;
  /** Sends a committed block to the peers (`followersOnly`: those the proposal did not reach: followers, members not yet greeted). */
  broadcast(block: Block, followersOnly: boolean): void;
}

/**
 * The members a block needs before its proposer commits it, the proposer included: a majority when the network
 * has three members or more, so that a member cut off from the others (a partition) cannot commit blocks the
 * rest never see, and the chain goes on with the majority. A network of one or two commits on the proposer alone:
 * with two, a majority is both, and one member's stop would stop the chain (docs/reference-node.md, "Quorum").
 */
export function quorumOf(members: number): number {
  return members >= 3 ? Math.floor(members / 2) + 1 : 1;
}

/**
 * Block production: at every block time the leader proposes a block (empty ones too: the height is
 * the network's clock), with the members' usage scores as the block's PoU snapshot (bounded by the
 * network's rules, proposalRules.ts), signs it, and, when the network needs a majority (quorumOf), sends it
 * to the other members first: it commits it only once a majority holds it, then sends it to its followers.
 * A block no majority took is dropped (its transactions stay pending) and said once per streak.
 */
export class BlockProducer {
  private busy = false;
  /** Blocks in a row that no majority took (said on the first, and when it ends). */
  private unheld = 0;

  constructor(private readonly deps: ProducerDeps) {}

  /** True while a block is being produced (stop() waits for it to commit). */
  get producing(): boolean {
    return this.busy;
  }

  async tick(): Promise<void> {
    const { deps } = this;
    if (this.busy || !deps.mayPropose() || !deps.proposes()) return;
    this.busy = true;
    try {
      const options = { proposer: deps.identity.id, sign: (hash: Uint8Array) => deps.identity.sign(hash), timestamp: BigInt(Date.now()), pou: (parent: Block) => deps.snapshot(parent) };
      if (deps.quorum <= 1) {
        const block = await deps.chain.produceBlock(options);
        deps.meter.recordProposed();
        deps.broadcast(block, false);
        return;
      }
      const draft = await deps.chain.draftBlock(options);
      const needed = deps.quorum - 1;
      const held = await deps.propose(draft.block, needed);
      if (held < needed) {
        if (this.unheld++ === 0) deps.log(`block ${draft.block.height} not committed: ${held} of the ${needed} other member(s) a majority needs took it (cut off from them, or they are too busy to answer in time); no block is committed until a majority takes one`);
        return;
      }
      if (this.unheld > 0) deps.log(`a majority takes this node's blocks again (block ${draft.block.height}, after ${this.unheld} not taken)`);
      this.unheld = 0;
      const outcome = await deps.chain.commitDraft(draft);
      if (outcome === 'stale') {
        deps.log(`block ${draft.block.height} not committed: the chain moved on to another block meanwhile`);
        return;
      }
      deps.meter.recordProposed();
      deps.broadcast(draft.block, true);
    } catch (err) {
      deps.log(`block production failed: ${(err as Error).message}`);
    } finally {
      this.busy = false;
    }
  }
}
