/**
 * What a run with faults reads of the chain itself, from whichever node answers: the head, and blocks by height
 * with their proposer and hash (through the profile's names). The leader of the moment is the proposer of the
 * latest block: portable, since every block shows its proposer (docs/interface.md), and right within a block time.
 */
import { createClient, type RpcClient } from '../../core/client/index.js';
import type { JsonValue } from '../../core/json/index.js';
import type { Profile } from '../../profile/Profile.js';
import { wireMethod } from '../../profile/Profile.js';
import { asInteger, readField } from '../../profile/readWire.js';
import type { ChaosNetwork } from './ChaosNetwork.js';
import { blockTimestampMs } from '../inclusion/blockTimestampMs.js';

export interface BlockView {
  height: number;
  hash: string | null;
  proposer: string | null;
  /** Its timestamp, epoch ms, where the block shows one. */
  timestampMs: number | null;
}

export class ChainView {
  readonly #clients = new Map<string, RpcClient>();

  constructor(
    readonly network: ChaosNetwork,
    readonly profile: Profile,
  ) {
    for (const n of network.nodes) this.#clients.set(n.name, createClient({ baseUrl: n.url, rpcPath: profile.rpcPath, timeoutMs: 2_000, connections: 2 }));
  }

  /** The head of `node`, or undefined when it does not answer with one. */
  async head(node: string): Promise<number | undefined> {
    try {
      const result = await this.#client(node).call<JsonValue>(wireMethod(this.profile, 'chain_blockNumber'), []);
      const h = asInteger(result);
      return h === undefined ? undefined : Number(h);
    } catch {
      return undefined;
    }
  }

  /** Block `height` as `node` serves it, or undefined. */
  async block(node: string, height: number): Promise<BlockView | undefined> {
    try {
      const block = await this.#client(node).call<JsonValue>(wireMethod(this.profile, 'chain_getBlockByHeight'), [height]);
      const hash = readField(this.profile, block, 'hash');
      const proposer = readField(this.profile, block, 'proposer');
      return { height, hash: typeof hash === 'string' ? hash.toLowerCase() : null, proposer: typeof proposer === 'string' ? proposer.toLowerCase() : null, timestampMs: blockTimestampMs(this.profile, block) ?? null };
    } catch {
      return undefined;
    }
  }

  /** Block `height` from the first running node that serves it. */
  async anyBlock(height: number): Promise<BlockView | undefined> {
    for (const n of this.network.nodes) {
      if (!this.network.isUp(n.name)) continue;
      const b = await this.block(n.name, height);
      if (b !== undefined) return b;
    }
    return undefined;
  }

  /**
   * The node that proposed the latest block a running node serves (the leader now), if chainrpc knows its id: the
   * tip of the highest head among the running nodes, as headBefore reads it. Until 2026-11-29 it was the tip of the
   * first node in list order that answered: a partitioned or stale node named a leader killed long before (an
   * outside tester's `8s:kill:leader` chose the mn5 killed at 3 s while mn4 led).
   */
  async leader(): Promise<string | undefined> {
    const up = this.network.nodes.filter((n) => this.network.isUp(n.name)).map((n) => n.name);
    const heads = await Promise.all(up.map(async (name) => ({ name, tip: await this.head(name) })));
    const byHeight = heads.filter((h): h is { name: string; tip: number } => h.tip !== undefined).sort((a, b) => b.tip - a.tip);
    for (const { name, tip } of byHeight) {
      const block = await this.block(name, tip);
      if (block?.proposer === null || block === undefined) continue;
      return this.network.nameOfProposer(block.proposer);
    }
    return undefined;
  }

  /** A proposer by node name where the network knows it, else as the chain shows it. */
  nameOf(proposer: string | null): string | null {
    return proposer === null ? null : (this.network.nameOfProposer(proposer) ?? proposer);
  }

  #client(node: string): RpcClient {
    const c = this.#clients.get(node);
    if (c === undefined) throw new Error(`no node ${node}`);
    return c;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#clients.values()].map((c) => c.close()));
  }
}
