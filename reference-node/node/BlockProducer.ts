import type { Block, Chain } from '../chain/index.js';
import type { PeerSet } from '../p2p/PeerSet.js';
import type { NodeIdentity } from './NodeIdentity.js';
import type { UsageMeter } from './UsageMeter.js';

interface ProducerDeps {
  readonly chain: Chain;
  readonly identity: NodeIdentity;
  readonly meter: UsageMeter;
  readonly peers: PeerSet;
  readonly log: (line: string) => void;
  /** Whether this node may propose now: an MN, the leader, caught up, greeted, not stopping. */
  mayPropose(): boolean;
  /** The variant's say (NodeHooks.proposes); honest: always. */
  proposes(): boolean;
  broadcast(block: Block): void;
}

/**
 * Block production: at every block time the leader proposes a block (empty ones too: the height is
 * the network's clock), with the usage scores it knows as the block's PoU snapshot, signs it, commits
 * it and sends it to its peers.
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
      const pou: Record<string, bigint> = { [deps.identity.id]: deps.meter.score() };
      for (const p of deps.peers.live()) if (p.kind === 'MN') pou[p.id] = p.score;
      const block = await deps.chain.produceBlock({ proposer: deps.identity.id, sign: (hash) => deps.identity.sign(hash), timestamp: BigInt(Date.now()), pou });
      deps.meter.recordProposed();
      deps.broadcast(block);
    } catch (err) {
      deps.log(`block production failed: ${(err as Error).message}`);
    } finally {
      this.busy = false;
    }
  }
}
