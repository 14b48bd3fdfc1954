import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { schemasDir } from '../../core/paths.js';
import type { NodeKind } from '../../core/schema/types.generated.js';
import { Chain, devnetFaucetKeypair, encodeBlockWire, REFERENCE_CHAIN_RULES } from '../chain/index.js';
import type { Block, ChainLimits } from '../chain/index.js';
import { createMethodTable } from '../methods/createMethodTable.js';
import type { NodeContext } from '../methods/NodeContext.js';
import { toRpc } from '../methods/rpcError.js';
import { PeerLink } from '../p2p/PeerLink.js';
import { createPeerServer } from '../p2p/PeerServer.js';
import type { PeerGate } from '../p2p/PeerGate.js';
import type { PeerHost, PeerServer } from '../p2p/PeerServer.js';
import { AwakeClock } from '../p2p/AwakeClock.js';
import { PeerSet } from '../p2p/PeerSet.js';
import { createRpcServer } from '../rpc/createRpcServer.js';
import type { RpcServer } from '../rpc/createRpcServer.js';
import { REFERENCE_TRANSPORT_RULES } from '../rpc/TransportRules.js';
import { BlockProducer, quorumOf } from './BlockProducer.js';
import { BlockSync } from './BlockSync.js';
import { electLeader, rankMembers } from './electLeader.js';
import { FaucetForwarder } from './FaucetForwarder.js';
import { heartbeatMs, Membership } from './Membership.js';
import { NodeMetrics } from './NodeMetrics.js';
import { loadOrCreateIdentity } from './NodeIdentity.js';
import type { NodeIdentity } from './NodeIdentity.js';
import { GENESIS_FILE, genesisConfig, keptNetworkGenesis, networkGenesis, writeNetworkGenesis } from './NetworkGenesis.js';
import type { NetworkGenesis } from './NetworkGenesis.js';
import type { NodeHooks, NodeVariant } from './NodeVariant.js';
import { buildSnapshot, proposalRule, slotDelay } from './proposalRules.js';
import { RefusalLog } from './RefusalLog.js';
import { UsageMeter } from './UsageMeter.js';
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';

export interface NodeOptions {
  /** The JSON-RPC listener. 0 picks a free port. */
  host: string;
  port: number;
  /** The peer listener (/p2p/), apart from JSON-RPC. 0 picks a free port. */
  p2pHost: string;
  p2pPort: number;
  /** The peer URL this node announces (default: the one it listens on); set it when peers reach it through another address. */
  p2pUrl?: string | undefined;
  kind: NodeKind;
  dataDir: string;
  blockTimeMs: number;
  /** Peer (p2p) base URLs to greet; more are learned from members. */
  peers: string[];
  /** The gate every peer message passes, both ways (p2p/PeerGate.ts); absent: none (as good as always open). */
  peerGate?: PeerGate | undefined;
  /**
   * The network: chain id and members (NetworkGenesis). Absent: the genesis kept in the data dir
   * (genesis.json), else, for an MN, a one-member network of its own, written there.
   */
  genesis?: NetworkGenesis | undefined;
  /** The chain id of a network of its own (ignored when a genesis is given or kept). */
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

/** Thrown when a node cannot start from its settings (no network for an LN, a data dir of another network). */
export class NodeConfigError extends ChainrpcError {
  override readonly name = 'NodeConfigError';
  readonly kind = 'configuration';
}

/**
 * The network a node runs in: the genesis it was given, else the one kept in its data dir, else
 * (an MN) a one-member network of its own, written to the data dir so that others can join it.
 * A genesis that names a block time must be the node's own (--block-time).
 */
function networkOf(options: NodeOptions, id: string): NetworkGenesis {
  const kept = join(options.dataDir, GENESIS_FILE);
  let genesis = options.genesis;
  if (genesis === undefined) {
    try {
      genesis = keptNetworkGenesis(options.dataDir);
    } catch (err) {
      throw new NodeConfigError((err as Error).message, { cause: err });
    }
    if (genesis !== undefined && genesis.chainId !== options.chainId) throw new NodeConfigError(`${options.dataDir} holds a network of chain id ${genesis.chainId} (${kept}), not ${options.chainId}; use another data dir to start another network`);
  }
  if (genesis === undefined) {
    if (options.kind !== 'MN') throw new NodeConfigError(`an LN follows a network and needs its genesis: give it the network's genesis file (chainrpc node --genesis FILE; a devnet writes ${GENESIS_FILE} in its data dir, a lone MN in its own)`);
    genesis = networkGenesis(options.chainId, [id], options.blockTimeMs);
    writeNetworkGenesis(kept, genesis);
  }
  if (genesis.blockTimeMs !== undefined && genesis.blockTimeMs !== options.blockTimeMs) {
    throw new NodeConfigError(`the network's block time is ${genesis.blockTimeMs} ms (its genesis${options.genesis === undefined ? `, ${kept}` : ''}), not ${options.blockTimeMs}: its slots are counted in it; give --block-time ${genesis.blockTimeMs}, or leave --block-time out`);
  }
  return genesis;
}

/**
 * A running reference node: the chain (state, mempool, store), the JSON-RPC server, the peer
 * server and its peers, block production and sync. This class is the wiring and the lifecycle, and
 * the judgements that need several parts at once (who leads, whether this node is behind, whose
 * height claims it believes); each part lives in a file of its own: the RPC server (rpc/), the method
 * handlers (methods/), the peer protocol's two sides (p2p/PeerServer.ts, p2p/PeerLink.ts), the
 * node's membership in its network (Membership: hellos and the heartbeat), the network's rules
 * (NetworkGenesis, proposalRules, electLeader), BlockSync, BlockProducer, FaucetForwarder.
 */
export class ReferenceNode {
  readonly id: string;
  /** The JSON-RPC base URL. */
  readonly url: string;
  /** The peer base URL this node announces. */
  readonly p2pUrl: string;
  readonly chain: Chain;
  readonly peers: PeerSet;
  readonly network: NetworkGenesis;
  readonly meter = new UsageMeter();
  /** When this node was made (Date.now()): a member not first in rank leads only a liveness window later (settledIn). */
  private readonly startedAtMs = Date.now();
  private readonly links = new Map<string, PeerLink>();
  /** This process's time awake (its own pauses left out): a peer's silence is counted in it (PeerSet). */
  private readonly awake: AwakeClock;
  private readonly timers: NodeJS.Timeout[] = [];
  /** The pending transactions seen at the last look of relayStale, by hash. */
  private pendingLastRound = new Set<string>();
  private readonly membership: Membership;
  private readonly sync: BlockSync;
  /**
   * Members that claimed a height and could not serve it: not believed ahead (isBehind) and not synced
   * from until `until`, a wait that doubles with each claim they fail (from one liveness window up to a
   * minute). Without it, a member announcing a height it does not have (or serving it slowly) would hold
   * the leader in "behind" for as long as it kept saying so; with it, for one sync in each wait.
   */
  private readonly unserved = new Map<string, { failures: number; until: number }>();
  private readonly producer: BlockProducer;
  private readonly faucet: FaucetForwarder;
  private readonly refusals: RefusalLog;
  /** The lines saying this node was paused, bounded (RefusalLog). */
  private readonly pauses: RefusalLog;
  private hooks: NodeHooks;
  private stopping = false;
  private openrpcDoc: JsonValue | undefined;

  private constructor(
    private readonly options: NodeOptions,
    identity: NodeIdentity,
    network: NetworkGenesis,
    chain: Chain,
    private readonly server: RpcServer,
    private readonly peerServer: PeerServer,
    urls: { url: string; p2pUrl: string },
  ) {
    this.id = identity.id;
    this.network = network;
    this.chain = chain;
    this.url = urls.url;
    this.p2pUrl = urls.p2pUrl;
    const log = options.log;
    this.refusals = new RefusalLog(log);
    const liveness = livenessMs(options.blockTimeMs);
    // A machine that starves the node pauses it often: a few lines a minute say so, the rest are counted.
    this.pauses = new RefusalLog(log, 5, 60_000, Date.now, '{n} more pauses of this node');
    this.awake = new AwakeClock(heartbeatMs(liveness), undefined, true, (ms) => this.pauses.write(`this node was paused ${Math.round(ms)} ms (its event loop held): its peers' silence meanwhile is not counted against them`));
    this.peers = new PeerSet(this.id, this.p2pUrl, liveness, new Set(network.members), this.awake);
    for (const p of options.peers) this.peers.addUrl(p);
    const stopping = (): boolean => this.stopping;
    const link = (u: string): PeerLink => this.link(u);
    this.membership = new Membership({
      identity,
      kind: options.kind,
      p2pUrl: this.p2pUrl,
      chain,
      peers: this.peers,
      score: () => this.meter.score(),
      link,
      refusals: this.refusals,
      stopping,
      onMemberAhead: (h) => {
        if (!this.distrusted(h.id)) void this.catchUp(h.id, h.url, h.height);
      },
      // A peer back from a restart (its mempool empty) or a silence gets what this node holds: a transaction
      // accepted here must not depend on the leader of the moment having heard its one relay (docs/chain.md).
      onPeerBack: (h) => this.handOverMempool(h.url),
    });
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
      log,
      mayPropose: () => !this.stopping && options.kind === 'MN' && this.membership.greeted && this.leader() === this.id && this.slotOpen() && this.settledIn() && this.listenedSincePause() && !this.isBehind(0n) && !this.sync.syncing,
      proposes: () => this.hooks.proposes(),
      snapshot: (parent) => buildSnapshot(network.members, parent, this.id, this.meter.score(), (m) => this.peers.get(m)?.score),
      quorum: quorumOf(network.members.length),
      propose: (block, needed) => this.proposeToMembers(block, needed),
      broadcast: (block, followersOnly) => this.broadcastBlock(block, followersOnly),
    });
  }

  static async start(options: NodeOptions): Promise<ReferenceNode> {
    const variant = options.variant ?? {};
    const identity = loadOrCreateIdentity(options.dataDir);
    const network = networkOf(options, identity.id);
    if (options.kind === 'MN' && !network.members.includes(identity.id)) {
      options.log(`warning: this MN (${identity.id}) is not a member of its network; it follows like an LN and is never elected`);
    }
    const faucet = options.faucet === false || options.kind !== 'MN' ? undefined : { keypair: devnetFaucetKeypair(), amount: options.faucet.amount, limit: options.faucet.limit };
    const rules = variant.chain ? variant.chain(REFERENCE_CHAIN_RULES) : REFERENCE_CHAIN_RULES;
    const holder: { node?: ReferenceNode } = {};
    // The network's rules see the node once it exists; a block cannot arrive before the peer server listens.
    const proposals = proposalRule(network.members, {
      livenessMs: livenessMs(options.blockTimeMs),
      live: (id) => holder.node?.isLiveCandidate(id, true) ?? false,
    });
    const chain = await Chain.open({ dataDir: join(options.dataDir, 'chain'), genesis: genesisConfig(network), limits: options.chain, rules, proposals, ...(faucet ? { faucet } : {}) });
    const metrics = new NodeMetrics({
      height: () => chain.height(),
      pending: () => chain.pendingCount(),
      held: () => chain.heldCount(),
      peers: () => holder.node?.peers.live().length ?? 0,
    });
    const server = createRpcServer({
      methods: {},
      maxBodyBytes: options.maxBodyBytes,
      maxBatch: options.maxBatch,
      requestTimeoutMs: options.requestTimeoutMs,
      onCall: () => holder.node?.meter.recordServed(),
      onSettled: metrics.settled,
      metrics,
      ...(variant.transport ? { rules: variant.transport(REFERENCE_TRANSPORT_RULES) } : {}),
    });
    const peerServer = createPeerServer(() => holder.node?.peerHost(), options.peerGate);
    let urls: { url: string; p2pUrl: string };
    try {
      const { url } = await server.listen(options.port, options.host);
      const { url: bound } = await peerServer.listen(options.p2pPort, options.p2pHost);
      urls = { url, p2pUrl: (options.p2pUrl ?? bound).replace(/\/+$/, '') };
    } catch (err) {
      await Promise.all([server.close(), peerServer.close()]);
      await chain.close();
      throw err;
    }
    const node = new ReferenceNode(options, identity, network, chain, server, peerServer, urls);
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
      // Deep-frozen: the same document answers every rpc.discover, so its text is written once (handleRpcBody).
      openrpc: () => (this.openrpcDoc ??= deepFreeze(parseJson(readFileSync(join(schemasDir, 'openrpc.json'), 'utf8')))),
    };
  }

  private peerHost(): PeerHost {
    return {
      id: this.id,
      chain: this.chain,
      peers: this.peers,
      hello: () => this.membership.hello(),
      acceptHello: (message) => this.membership.acceptHello(message, true),
      syncFrom: (u) => void this.sync.syncFrom(u),
      reportFork: (u) => this.sync.reportFork(u),
      leader: () => this.leader(),
      claimFaucetHere: (address) => this.faucet.claimHere(address),
      refused: (line) => this.refusals.write(line),
    };
  }

  private begin(): void {
    this.timers.push(
      setInterval(() => {
        this.pauses.tick();
        void this.producer.tick();
      }, this.options.blockTimeMs),
      setInterval(() => this.relayStale(), RELAY_AGAIN_BLOCKS * this.options.blockTimeMs),
    );
    this.membership.start();
  }

  /**
   * Transactions still pending here a whole round after the last (RELAY_AGAIN_BLOCKS block times: a leader that had
   * them would have included them) go to every peer again. A relay is sent once and dropped when it fails (a peer
   * slow to answer on a loaded machine): a transaction admitted here and never heard by the leader stayed here for
   * good, and the client that was given its hash saw it lost (an outside tester's demo, a SHOULD failure).
   * Peers take a transaction they already know as a no-op, before its signature.
   */
  private relayStale(): void {
    if (this.stopping) return;
    const pending = this.chain.pendingTransactions(MEMPOOL_HAND_OVER);
    const stale = pending.filter((tx) => this.pendingLastRound.has(tx.hash));
    this.pendingLastRound = new Set(pending.map((tx) => tx.hash));
    if (stale.length > 0) this.hooks.relayTransactions(stale.map((tx) => tx.wire));
  }

  /**
   * Whether a member can lead now: an MN member heard within the liveness window (itself: when it
   * runs as an MN; for judging others' blocks, only once it has greeted its peers and is not
   * catching up, so that a node back from a stop takes the blocks made while it was away).
   */
  private isLiveCandidate(id: string, judging = false): boolean {
    if (!this.peers.isMember(id)) return false;
    if (id === this.id) return this.options.kind === 'MN' && (!judging || (this.membership.greeted && !this.sync.syncing));
    const peer = this.peers.get(id);
    return peer !== undefined && peer.kind === 'MN' && this.peers.isLive(peer);
  }

  /** The leader: the live member ranked first by the latest block's PoU snapshot (electLeader). */
  leader(): string | null {
    const tip = this.chain.tip();
    return electLeader(this.network.members, tip.pou, tip.proposer, (id) => this.isLiveCandidate(id));
  }

  /**
   * A member that is not first in rank on the tip leads only once it has run a liveness window: started beside a
   * member ranked above it whose hello is still on its way (a busy machine, a network starting), it would otherwise
   * propose the same height as that member, and the network would fork (a fork keeps each side's chain:
   * BlockSync). The same patience the slot rule asks of it, counted from its own start; purely local, so no
   * block is judged by it.
   */
  private settledIn(): boolean {
    const tip = this.chain.tip();
    if (rankMembers(this.network.members, tip.pou, tip.proposer)[0] === this.id) return true;
    return Date.now() - this.startedAtMs >= this.peers.livenessMs;
  }

  /**
   * Whether this node has listened since its latest long pause (AwakeClock): one long enough that the other
   * members may have found it silent for their liveness window and taken over. Their blocks and hellos then wait
   * unread in its sockets, and its timers run first: proposing at once, on the chain it held before the pause,
   * would put a second block at a height they built on (where a proposer commits alone, in a network of two
   * members, a fork). Two heartbeats after the pause, their hellos have said whether it is behind. A shorter
   * pause cannot have made it silent for a liveness window (it greets every heartbeat), and costs no block.
   */
  private listenedSincePause(): boolean {
    const pause = this.awake.latestPause();
    const heartbeat = heartbeatMs(this.peers.livenessMs);
    return pause === undefined || pause.to - pause.from < this.peers.livenessMs - heartbeat || Date.now() - pause.to >= 2 * heartbeat;
  }

  /** Whether this node's slot on the tip has come (proposalRules.slotDelay): at once for the first in rank. */
  private slotOpen(): boolean {
    const tip = this.chain.tip();
    const wait = slotDelay(rankMembers(this.network.members, tip.pou, tip.proposer), this.id, this.peers.livenessMs);
    return BigInt(Date.now()) >= tip.timestamp + BigInt(wait);
  }

  /** Whether a live member reports a chain more than `margin` blocks higher than ours. */
  private isBehind(margin: bigint): boolean {
    const height = this.chain.height();
    return this.peers.live().some((p) => p.member && p.height > height + margin && !this.distrusted(p.id));
  }

  private link(url: string): PeerLink {
    let link = this.links.get(url);
    if (!link) {
      link = new PeerLink(url, this.id, Math.max(2_000, this.options.blockTimeMs * 2), this.options.peerGate);
      this.links.set(url, link);
    }
    return link;
  }

  /** Whether a member's claims of height are set aside for now: it failed to serve one lately. */
  private distrusted(id: string): boolean {
    return (this.unserved.get(id)?.until ?? 0) > Date.now();
  }

  /** Syncs from a member that claims `claimed`. A claim it does not serve sets its claims aside for a while, twice as long each time. */
  private async catchUp(id: string, url: string, claimed: bigint): Promise<void> {
    if (!(await this.sync.syncFrom(url)) || this.stopping) return;
    const height = this.chain.height();
    if (height >= claimed) {
      this.unserved.delete(id);
      return;
    }
    const failures = (this.unserved.get(id)?.failures ?? 0) + 1;
    const waitMs = Math.min(60_000, this.peers.livenessMs * 2 ** Math.min(failures - 1, 10));
    this.unserved.set(id, { failures, until: Date.now() + waitMs });
    this.refusals.write(`member ${id} claimed height ${claimed} but served up to ${height}: its height is not believed for ${waitMs} ms`);
  }

  /**
   * Sends a block this node committed to its peers (Membership.blockMessage: with its hello now and then);
   * `followersOnly`: not to the members it was proposed to (proposeToMembers), which hold it already.
   */
  private broadcastBlock(block: Block, followersOnly: boolean): void {
    const body = this.membership.blockMessage(encodeBlockWire(block));
    const proposedTo = new Set(followersOnly ? this.memberPeers().map((p) => p.url) : []);
    for (const url of this.peers.knownUrls()) if (!proposedTo.has(url)) this.link(url).send('/p2p/block', body, (answer) => this.membership.takeBlockAnswer(answer));
  }

  /** The other members this node knows (by a hello), with their peer URLs. */
  private memberPeers(): { id: string; url: string }[] {
    return this.peers.all().filter((p) => p.member && p.id !== this.id);
  }

  /**
   * A drafted block to every other member this node knows: resolves with how many of them hold it (imported, or
   * had it) once `needed` do, once all have answered, or after two block times (at least 1 s), whichever is first.
   */
  private proposeToMembers(block: Block, needed: number): Promise<number> {
    const members = this.memberPeers();
    const body = this.membership.blockMessage(encodeBlockWire(block));
    return new Promise<number>((resolve) => {
      let held = 0;
      let answered = 0;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(held);
      };
      // Members verify the block's transactions before they answer: on a busy machine a big block takes a while.
      // Half the liveness window at most, so that a leader cut off still says so well before it is given up.
      const waitMs = Math.max(1_000, 2 * this.options.blockTimeMs);
      const timer = setTimeout(finish, waitMs);
      const answer = (holds: boolean): void => {
        answered++;
        if (holds) held++;
        if (held >= needed || answered >= members.length) finish();
      };
      if (members.length === 0) return finish();
      for (const m of members) {
        // Not queued behind the link's relayed transactions (a relay of thousands under load would hold the
        // proposal past its wait): a block carries its transactions, so it may overtake them.
        this.link(m.url)
          .request('/p2p/block', body, waitMs)
          .then(
            (reply) => {
              this.membership.takeBlockAnswer(reply);
              const status = typeof reply === 'object' && reply !== null && !Array.isArray(reply) ? reply.status : undefined;
              answer(status === 'imported' || status === 'known');
            },
            () => answer(false),
          );
      }
    });
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

  /** This node's pending transactions, in arrival order, to one peer (its link queues them behind what it sends already). */
  private handOverMempool(url: string): void {
    const pending = this.chain.pendingTransactions(MEMPOOL_HAND_OVER);
    if (pending.length > 0) this.link(url).sendTransactions(pending.map((tx) => tx.wire));
  }

  private relay(wires: string[]): void {
    for (const url of this.peers.knownUrls()) this.link(url).sendTransactions(wires);
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const t of this.timers) clearInterval(t);
    this.awake.stop();
    this.membership.stop();
    await Promise.all([this.server.close(), this.peerServer.close()]);
    await Promise.all([...this.links.values()].map((l) => l.close()));
    // Wait for a block being produced to finish committing before the store closes.
    while (this.producer.producing) await new Promise((r) => setTimeout(r, 10));
    this.refusals.flush();
    this.pauses.flush();
    await this.chain.close();
  }
}

/** Pending transactions handed to a peer that is back, at most (a full mempool's worth of relays is the peer's limit anyway). */
const MEMPOOL_HAND_OVER = 10_000;

/** Block times between two looks for transactions still pending since the last look, relayed again (relayStale). */
const RELAY_AGAIN_BLOCKS = 5;

/** A peer is live while heard from within max(4 block times, 2 s). */
function livenessMs(blockTimeMs: number): number {
  return Math.max(4 * blockTimeMs, 2_000);
}

/** The value with every object and array in it frozen. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
