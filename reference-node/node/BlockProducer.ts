import type { Block, Chain } from '../chain/index.js';
import type { NodeIdentity } from './NodeIdentity.js';
import type { UsageMeter } from './UsageMeter.js';

interface ProducerDeps {
  readonly chain: Chain;
  readonly identity: NodeIdentity;
  readonly meter: UsageMeter;
  readonly log: (line: string) => void;
  /** Whether this node may propose now: an MN, the leader, caught up, greeted, not stopping. */
  mayPropose(): boolean;
  /** The variant's say (NodeHooks.proposes); honest: always. */
  proposes(): boolean;
  /** The PoU snapshot to record on a parent (proposalRules.buildSnapshot). */
  snapshot(parent: Block): Record<string, bigint>;
  broadcast(block: Block): void;
}

/**
 * Block production: at every block time the leader proposes a block (empty ones too: the height is
 * the network's clock), with the members' usage scores as the block's PoU snapshot (bounded by the
 * network's rules, proposalRules.ts), signs it, commits it and sends it to its peers.
 */
export class BlockProducer {
  private busy = false;

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
      const block = await deps.chain.produceBlock({ proposer: deps.identity.id, sign: (hash) => deps.identity.sign(hash), timestamp: BigInt(Date.now()), pou: (parent) => deps.snapshot(parent) });
      deps.meter.recordProposed();
      deps.broadcast(block);
    } catch (err) {
      deps.log(`block production failed: ${(err as Error).message}`);
    } finally {
      this.busy = false;
    }
  }
}
