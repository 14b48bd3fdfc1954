import { decodeBlockWire } from '../chain/index.js';
import type { Chain } from '../chain/index.js';
import type { PeerLink } from '../p2p/PeerLink.js';
import { SYNC_BATCH } from '../p2p/PeerServer.js';

/**
 * Catching up: blocks are fetched from a peer that is ahead, SYNC_BATCH at a time, and imported (each
 * re-executed and checked) until the peer has no more. One sync runs at a time. A block that conflicts
 * with ours is a fork: ours is kept and the fork is logged.
 */
export class BlockSync {
  private running = false;
  private forks = 0;

  constructor(
    private readonly chain: Chain,
    private readonly link: (url: string) => PeerLink,
    private readonly log: (line: string) => void,
    private readonly stopping: () => boolean,
  ) {}

  get syncing(): boolean {
    return this.running;
  }

  /** Catches up from the peer at `url`; false when it did not run (another sync was running, or the node is stopping). */
  async syncFrom(url: string): Promise<boolean> {
    if (this.running || this.stopping()) return false;
    this.running = true;
    try {
      for (;;) {
        const from = this.chain.height() + 1n;
        const answer = await this.link(url).request(`/p2p/blocks?from=${from}&max=${SYNC_BATCH}`);
        const blocks = typeof answer === 'object' && answer !== null && !Array.isArray(answer) && Array.isArray(answer.blocks) ? answer.blocks : [];
        if (blocks.length === 0) break;
        for (const wire of blocks) {
          const outcome = await this.chain.importBlock(decodeBlockWire(wire));
          if (outcome === 'conflict') {
            this.reportFork(url);
            return true;
          }
        }
        if (blocks.length < SYNC_BATCH) break;
      }
    } catch (err) {
      this.log(`sync from ${url} failed: ${(err as Error).message}`);
    } finally {
      this.running = false;
    }
    return true;
  }

  reportFork(url: string): void {
    this.forks++;
    this.log(`fork: ${url} has a block that conflicts with ours at height ${this.chain.height()}; keeping our chain (forks seen: ${this.forks})`);
  }
}
