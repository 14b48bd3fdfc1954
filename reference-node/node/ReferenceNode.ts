import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { schemasDir } from '../../core/paths.js';
import type { NodeKind } from '../../core/schema/types.generated.js';
import { Chain, devnetFaucetKeypair, devnetGenesis, encodeBlockWire, REFERENCE_CHAIN_RULES } from '../chain/index.js';
import type { Block, ChainLimits } from '../chain/index.js';
import { createMethodTable } from '../methods/createMethodTable.js';
import type { NodeContext } from '../methods/NodeContext.js';
import { toRpc } from '../methods/rpcError.js';
import { encodeHello, parseHello } from '../p2p/hello.js';
import type { Hello } from '../p2p/hello.js';
import { PeerLink } from '../p2p/PeerLink.js';
import { servePeer } from '../p2p/PeerServer.js';
import { PeerSet } from '../p2p/PeerSet.js';
import { createRpcServer } from '../rpc/createRpcServer.js';
import type { RpcServer } from '../rpc/createRpcServer.js';
import { REFERENCE_TRANSPORT_RULES } from '../rpc/TransportRules.js';
import { BlockProducer } from './BlockProducer.js';
import { BlockSync } from './BlockSync.js';
import { electLeader } from './electLeader.js';
import { FaucetForwarder } from './FaucetForwarder.js';
import { loadOrCreateIdentity } from './NodeIdentity.js';
import type { NodeIdentity } from './NodeIdentity.js';
import type { NodeHooks, NodeVariant } from './NodeVariant.js';
import { UsageMeter } from './UsageMeter.js';

export interface NodeOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  kind: NodeKind;
  dataDir: string;
  blockTimeMs: number;
  /** Base URLs of peers to greet; more are learned from them. */
  peers: string[];
  chainId: bigint;
  /** Faucet amount and claims per address; false for a node without a faucet. */
  faucet: { amount: bigint; limit: number } | false;
  maxBodyBytes: number;
  maxBatch: number;
  requestTimeoutMs: number;
  chain: Partial<ChainLimits>;
  log: (line: string) => void;
  /**
   * A deliberate variant of the node (NodeVariant: bent rules, wrapped methods and hooks); absent for
   * the reference node itself. Only the fault layer above the node makes one (ARCHITECTURE.md).
   */
  variant?: NodeVariant;
}

/**
 * A running reference node: the chain (state, mempool, store), the JSON-RPC server, its peers, block
 * production and sync. This class is the wiring and the lifecycle; each part lives in a file of its
 * own: the RPC server (rpc/), the method handlers (methods/), the peer protocol's two sides
 * (p2p/PeerServer.ts, p2p/PeerLink.ts), BlockSync, BlockProducer, FaucetForwarder.
 */
export class ReferenceNode {
  readonly id: string;
  readonly url: string;
  readonly chain: Chain;
  readonly peers: PeerSet;
  readonly meter = new UsageMeter();
  private readonly links = new Map<string, PeerLink>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly sync: BlockSync;
  private readonly producer: BlockProducer;
  private readonly faucet: FaucetForwarder;
  private hooks: NodeHooks;
  private greeted = false;
  private stopping = false;
  private openrpcDoc: JsonValue | undefined;

  private constructor(
    private readonly options: NodeOptions,
    identity: NodeIdentity,
    chain: Chain,
    private readonly server: RpcServer,
    url: string,
  ) {
    this.id = identity.id;
    this.chain = chain;
    this.url = url;
    this.peers = new PeerSet(this.id, url, Math.max(4 * options.blockTimeMs, 2_000));
    for (const p of options.peers) this.peers.addUrl(p);
    const log = options.log;
    const stopping = (): boolean => this.stopping;
    const link = (u: string): PeerLink => this.link(u);
    this.sync = new BlockSync(chain, link, log, stopping);
    this.faucet = new FaucetForwarder({
      id: this.id,
      chain,
      peers: this.peers,
      blockTimeMs: options.blockTimeMs,
      leader: () => this.leader(),
      link,
      relay: (wires) => this.relay(wires),
      stopping,
    });
    this.hooks = {
      proposes: () => true,
      admitTransaction: async (hex) => {
        const { hash, wire } = await chain.submit(hex, 'client');
        return { hash, wire };
      },
      relayTransactions: (wires) => this.relay(wires),
      claimFaucet: (address) => this.faucet.claim(address),
    };
    this.producer = new BlockProducer({
      chain,
      identity,
      meter: this.meter,
      peers: this.peers,
      log,
      mayPropose: () => !this.stopping && options.kind === 'MN' && this.greeted && this.leader() === this.id && !this.isBehind(0n) && !this.sync.syncing,
      proposes: () => this.hooks.proposes(),
      broadcast: (block) => this.broadcastBlock(block),
    });
  }

  static async start(options: NodeOptions): Promise<ReferenceNode> {
    const variant = options.variant ?? {};
    const identity = loadOrCreateIdentity(options.dataDir);
    const faucet = options.faucet === false || options.kind !== 'MN' ? undefined : { keypair: devnetFaucetKeypair(), amount: options.faucet.amount, limit: options.faucet.limit };
    const rules = variant.chain ? variant.chain(REFERENCE_CHAIN_RULES) : REFERENCE_CHAIN_RULES;
    const chain = await Chain.open({ dataDir: join(options.dataDir, 'chain'), genesis: devnetGenesis(options.chainId), limits: options.chain, rules, ...(faucet ? { faucet } : {}) });
    const holder: { node?: ReferenceNode } = {};
    const server = createRpcServer({
      methods: {},
      maxBodyBytes: options.maxBodyBytes,
      maxBatch: options.maxBatch,
      requestTimeoutMs: options.requestTimeoutMs,
      onCall: () => holder.node?.meter.recordServed(),
      routes: (req, res) => (holder.node ? servePeer(holder.node.peerHost(), req, res) : false),
      ...(variant.transport ? { rules: variant.transport(REFERENCE_TRANSPORT_RULES) } : {}),
    });
    let url: string;
    try {
      ({ url } = await server.listen(options.port, options.host));
    } catch (err) {
      await chain.close();
      throw err;
    }
    const node = new ReferenceNode(options, identity, chain, server, url);
    holder.node = node;
    const context = node.context();
    if (variant.node) node.hooks = variant.node(node.hooks, context);
    const table = createMethodTable(context);
    server.setMethods(variant.methods ? variant.methods(table, context) : table);
    node.begin();
    return node;
  }

  private context(): NodeContext {
    return {
      kind: this.options.kind,
      id: this.id,
      chain: this.chain,
      peers: this.peers,
      score: () => this.meter.score(),
      leader: () => this.leader(),
      isSyncing: () => this.isBehind(2n),
      submitTransaction: (hex) => this.submitTransaction(hex),
      claimFaucet: (address) => this.hooks.claimFaucet(address),
      openrpc: () => (this.openrpcDoc ??= parseJson(readFileSync(join(schemasDir, 'openrpc.json'), 'utf8'))),
    };
  }

  private peerHost(): Parameters<typeof servePeer>[0] {
    return {
      id: this.id,
      chain: this.chain,
      peers: this.peers,
      hello: () => this.hello(),
      acceptHello: (h) => this.acceptHello(h),
      syncFrom: (u) => void this.sync.syncFrom(u),
      reportFork: (u) => this.sync.reportFork(u),
      leader: () => this.leader(),
      claimFaucetHere: (address) => this.faucet.claimHere(address),
    };
  }

  private begin(): void {
    const heartbeatMs = Math.max(100, Math.min(500, Math.floor(this.options.blockTimeMs / 2)));
    this.timers.push(setInterval(() => void this.greetAll(), heartbeatMs));
    this.timers.push(setInterval(() => void this.producer.tick(), this.options.blockTimeMs));
    void this.greetAll();
  }

  /** The leader: the live MN ranked first by the latest block's score snapshot (electLeader). */
  leader(): string | null {
    const now = Date.now();
    const candidates = this.options.kind === 'MN' ? [{ id: this.id, live: true }] : [];
    for (const peer of this.peers.all()) if (peer.kind === 'MN') candidates.push({ id: peer.id, live: this.peers.isLive(peer, now) });
    return electLeader(candidates, this.chain.tip().pou);
  }

  private isBehind(margin: bigint): boolean {
    const height = this.chain.height();
    return this.peers.live().some((p) => p.height > height + margin);
  }

  private hello(): Hello {
    return {
      id: this.id,
      kind: this.options.kind,
      url: this.url,
      score: this.meter.score(),
      height: this.chain.height(),
      chainId: this.chain.chainId,
      genesisHash: this.chain.genesisHash,
      peers: this.peers.knownUrls(),
    };
  }

  private link(url: string): PeerLink {
    let link = this.links.get(url);
    if (!link) {
      link = new PeerLink(url, this.id, Math.max(2_000, this.options.blockTimeMs * 2));
      this.links.set(url, link);
    }
    return link;
  }

  /** Accepts a hello (ours answered or theirs received); false when the peer is on another chain. */
  private acceptHello(h: Hello): boolean {
    if (h.chainId !== this.chain.chainId || h.genesisHash !== this.chain.genesisHash) return false;
    this.peers.upsert({ id: h.id, kind: h.kind, url: h.url, score: h.score, height: h.height });
    for (const url of h.peers) this.peers.addUrl(url);
    if (h.height > this.chain.height()) void this.sync.syncFrom(h.url);
    return true;
  }

  private async greetAll(): Promise<void> {
    if (this.stopping) return;
    const body = encodeHello(this.hello());
    await Promise.all(
      this.peers.knownUrls().map(async (url) => {
        try {
          this.acceptHello(parseHello(await this.link(url).request('/p2p/hello', body)));
        } catch {
          // Unreachable or not a node: it stops counting as live once its liveness window passes.
        }
      }),
    );
    this.greeted = true;
  }

  private broadcastBlock(block: Block): void {
    const body = { from: this.id, block: encodeBlockWire(block) };
    for (const url of this.peers.knownUrls()) this.link(url).send('/p2p/block', body);
  }

  /** chain_sendRawTransaction: admission (NodeHooks), then the relay to peers; a refusal is the profile's error. */
  private async submitTransaction(hex: string): Promise<string> {
    let admitted;
    try {
      admitted = await this.hooks.admitTransaction(hex);
    } catch (err) {
      throw toRpc(err);
    }
    if (admitted.wire !== null) {
      this.meter.recordRelayed();
      this.hooks.relayTransactions([admitted.wire]);
    }
    return admitted.hash;
  }

  private relay(wires: string[]): void {
    for (const url of this.peers.knownUrls()) this.link(url).sendTransactions(wires);
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const t of this.timers) clearInterval(t);
    await this.server.close();
    await Promise.all([...this.links.values()].map((l) => l.close()));
    // Wait for a block being produced to finish committing before the store closes.
    while (this.producer.producing) await new Promise((r) => setTimeout(r, 10));
    await this.chain.close();
  }
}
