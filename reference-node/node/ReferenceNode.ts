import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { schemasDir } from '../../core/paths.js';
import type { NodeKind } from '../../core/schema/types.generated.js';
import { Chain, DEFAULT_FAUCET_AMOUNT, decodeBlockWire, isChainError, devnetFaucetKeypair, devnetGenesis, encodeBlockWire } from '../chain/index.js';
import type { Block, ChainLimits } from '../chain/index.js';
import { FaultSet, faultWarning } from '../faults/faultCatalogue.js';
import { ADMITTED_BY_FAULT, phantomClaimHash, wireHash } from '../faults/faultHooks.js';
import { createMethodTable } from '../methods/createMethodTable.js';
import type { NodeContext } from '../methods/NodeContext.js';
import { PeerLink } from '../p2p/PeerLink.js';
import { PeerSet } from '../p2p/PeerSet.js';
import { readJsonBody } from '../p2p/readJsonBody.js';
import { createRpcServer } from '../rpc/createRpcServer.js';
import type { RpcServer } from '../rpc/createRpcServer.js';
import { electLeader } from './electLeader.js';
import { loadOrCreateIdentity } from './NodeIdentity.js';
import type { NodeIdentity } from './NodeIdentity.js';
import { rpcError } from './toRpcError.js';
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
   * Fault injection, TEST-ONLY: fault names (docs/faults.md) that make this node deliberately wrong.
   * An unknown name makes start() throw UnknownFaultError. Default: none.
   */
  faults?: readonly string[] | FaultSet;
}

/** Peer messages may carry a batch of full blocks. */
const P2P_MAX_BODY_BYTES = 64 * 1024 * 1024;
const SYNC_BATCH = 200;

interface Hello {
  id: string;
  kind: NodeKind;
  url: string;
  score: bigint;
  height: bigint;
  chainId: bigint;
  genesisHash: string;
  peers: string[];
}

function parseHello(v: JsonValue): Hello {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('hello must be an object');
  const { id, kind, url, score, height, chain_id, genesis_hash, peers } = v;
  if (typeof id !== 'string' || !/^[0-9a-f]{64}$/.test(id)) throw new Error('hello.id must be 64 lower-case hex');
  if (kind !== 'MN' && kind !== 'LN') throw new Error('hello.kind must be MN or LN');
  if (typeof url !== 'string' || !/^https?:\/\/[^/]+$/.test(url)) throw new Error('hello.url must be a base URL');
  for (const [name, n] of [['score', score], ['height', height], ['chain_id', chain_id]] as const) {
    if (typeof n !== 'string' || !/^\d{1,20}$/.test(n)) throw new Error(`hello.${name} must be a decimal string`);
  }
  if (typeof genesis_hash !== 'string') throw new Error('hello.genesis_hash must be a string');
  const list = Array.isArray(peers) ? peers.filter((p): p is string => typeof p === 'string' && /^https?:\/\/[^/]+$/.test(p)).slice(0, 256) : [];
  return { id, kind, url, score: BigInt(score as string), height: BigInt(height as string), chainId: BigInt(chain_id as string), genesisHash: genesis_hash, peers: list };
}

/**
 * A running reference node: the chain (state, mempool, store), the JSON-RPC server, its peers and
 * the block production loop. Peer messages travel over plain HTTP under /p2p/ on the same port:
 * hello (identity, kind, score, height, known peers), txs (relayed transactions), block (a new
 * block), blocks (sync) and faucet (a claim run by the leader). Blocks are signed by their
 * proposer and re-executed by every node; the p2p endpoints themselves are unauthenticated, for
 * devnets on trusted networks.
 */
export class ReferenceNode {
  readonly id: string;
  readonly url: string;
  readonly chain: Chain;
  readonly peers: PeerSet;
  readonly meter = new UsageMeter();
  private readonly links = new Map<string, PeerLink>();
  private readonly timers: NodeJS.Timeout[] = [];
  private syncing = false;
  private greeted = false;
  private stopping = false;
  private producing = false;
  private openrpcDoc: JsonValue | undefined;
  private forks = 0;
  /** Fault injection, TEST-ONLY (docs/faults.md); empty unless asked for. */
  readonly faults: FaultSet;
  private phantomClaims = 0;

  private constructor(
    private readonly options: NodeOptions,
    private readonly identity: NodeIdentity,
    chain: Chain,
    private readonly server: RpcServer,
    url: string,
    faults: FaultSet,
  ) {
    this.faults = faults;
    this.id = identity.id;
    this.chain = chain;
    this.url = url;
    this.peers = new PeerSet(this.id, url, Math.max(4 * options.blockTimeMs, 2_000));
    for (const p of options.peers) this.peers.addUrl(p);
  }

  static async start(options: NodeOptions): Promise<ReferenceNode> {
    // Validated first: an unknown fault name is refused before anything is created.
    const faults = options.faults instanceof FaultSet ? options.faults : FaultSet.parse(options.faults ?? []);
    const identity = loadOrCreateIdentity(options.dataDir);
    const faucet = options.faucet === false || options.kind !== 'MN' ? undefined : { keypair: devnetFaucetKeypair(), amount: options.faucet.amount, limit: options.faucet.limit };
    const chain = await Chain.open({ dataDir: join(options.dataDir, 'chain'), genesis: devnetGenesis(options.chainId), limits: options.chain, faults, ...(faucet ? { faucet } : {}) });
    const holder: { node?: ReferenceNode } = {};
    const server = createRpcServer({
      methods: {},
      maxBodyBytes: options.maxBodyBytes,
      maxBatch: options.maxBatch,
      requestTimeoutMs: options.requestTimeoutMs,
      onCall: () => holder.node?.meter.recordServed(),
      routes: (req, res) => (holder.node ? holder.node.route(req, res) : false),
      faults,
    });
    let url: string;
    try {
      ({ url } = await server.listen(options.port, options.host));
    } catch (err) {
      await chain.close();
      throw err;
    }
    const node = new ReferenceNode(options, identity, chain, server, url, faults);
    holder.node = node;
    if (faults.size > 0) options.log(faultWarning(faults));
    server.setMethods(createMethodTable(node.context()));
    node.begin();
    return node;
  }

  private context(): NodeContext {
    return {
      kind: this.options.kind,
      id: this.id,
      chain: this.chain,
      peers: this.peers,
      meter: this.meter,
      faults: this.faults,
      leader: () => this.leader(),
      isSyncing: () => this.isBehind(2n),
      submitTransaction: (hex) => this.submitTransaction(hex),
      claimFaucet: (address) => this.claimFaucet(address),
      openrpc: () => (this.openrpcDoc ??= parseJson(readFileSync(join(schemasDir, 'openrpc.json'), 'utf8'))),
    };
  }

  private begin(): void {
    const heartbeatMs = Math.max(100, Math.min(500, Math.floor(this.options.blockTimeMs / 2)));
    this.timers.push(setInterval(() => void this.greetAll(), heartbeatMs));
    this.timers.push(setInterval(() => void this.tick(), this.options.blockTimeMs));
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

  private hello(): JsonValue {
    return {
      id: this.id,
      kind: this.options.kind,
      url: this.url,
      score: this.meter.score().toString(),
      height: this.chain.height().toString(),
      chain_id: this.chain.chainId.toString(),
      genesis_hash: this.chain.genesisHash,
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
    if (h.height > this.chain.height()) void this.syncFrom(h.url);
    return true;
  }

  private async greetAll(): Promise<void> {
    if (this.stopping) return;
    const body = this.hello();
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

  /** One block time: the leader proposes a block (empty ones too: the height is the network's clock). */
  private async tick(): Promise<void> {
    if (this.stopping || this.producing || this.options.kind !== 'MN' || !this.greeted) return;
    if (this.leader() !== this.id || this.isBehind(0n) || this.syncing) return;
    // Fault chain-stalled (TEST-ONLY, docs/faults.md): the leader never proposes.
    if (this.faults.has('chain-stalled')) return;
    this.producing = true;
    try {
      const pou: Record<string, bigint> = { [this.id]: this.meter.score() };
      for (const p of this.peers.live()) if (p.kind === 'MN') pou[p.id] = p.score;
      const block = await this.chain.produceBlock({ proposer: this.id, sign: (hash) => this.identity.sign(hash), timestamp: BigInt(Date.now()), pou });
      this.meter.recordProposed();
      this.broadcastBlock(block);
    } catch (err) {
      this.options.log(`block production failed: ${(err as Error).message}`);
    } finally {
      this.producing = false;
    }
  }

  private broadcastBlock(block: Block): void {
    const body = { from: this.id, block: encodeBlockWire(block) };
    for (const url of this.peers.knownUrls()) this.link(url).send('/p2p/block', body);
  }

  private async syncFrom(url: string): Promise<void> {
    if (this.syncing || this.stopping) return;
    this.syncing = true;
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
            return;
          }
        }
        if (blocks.length < SYNC_BATCH) break;
      }
    } catch (err) {
      this.options.log(`sync from ${url} failed: ${(err as Error).message}`);
    } finally {
      this.syncing = false;
    }
  }

  private reportFork(url: string): void {
    this.forks++;
    this.options.log(`fork: ${url} has a block that conflicts with ours at height ${this.chain.height()}; keeping our chain (forks seen: ${this.forks})`);
  }

  private async submitTransaction(hex: string): Promise<string> {
    const faults = this.faults;
    let outcome;
    try {
      // Fault nonce-gap-accepted (TEST-ONLY): a client's future transaction is held, as a relayed one would be.
      outcome = await this.chain.submit(hex, faults.has('nonce-gap-accepted') ? 'relay' : 'client');
    } catch (err) {
      if (faults.size > 0 && isChainError(err)) {
        // Faults nonce-reuse-accepted, overspend-accepted, overflow-accepted, duplicate-accepted (TEST-ONLY): a hash, and nothing queued.
        const admittedBy = ADMITTED_BY_FAULT[err.name];
        if (admittedBy !== undefined && faults.has(admittedBy)) return wireHash(hex);
        // Fault malformed-internal-error (TEST-ONLY): a failure instead of the refusal, so -32603.
        if (err.name === 'TxMalformed' && faults.has('malformed-internal-error')) throw new Error(`fault malformed-internal-error: ${err.data.reason}`, { cause: err });
      }
      throw toRpc(err);
    }
    this.meter.recordRelayed();
    // Fault no-relay (TEST-ONLY): peers never hear of it.
    if (!faults.has('no-relay')) this.relay([outcome.wire]);
    return outcome.hash;
  }

  private relay(wires: string[]): void {
    for (const url of this.peers.knownUrls()) this.link(url).sendTransactions(wires);
  }

  private async claimFaucet(address: string): Promise<{ transaction_hash: string; amount: string }> {
    // Fault faucet-no-credit (TEST-ONLY): a hash and the amount, and no transfer at all.
    if (this.faults.has('faucet-no-credit')) return { transaction_hash: phantomClaimHash(address, ++this.phantomClaims), amount: (this.options.faucet ? this.options.faucet.amount : DEFAULT_FAUCET_AMOUNT).toString() };
    // The leader can change at a block boundary, so nodes may briefly disagree on it. A claim that
    // finds no leader, or reaches a node that says it no longer leads, is tried again on the leader
    // as this node then sees it, for up to three block times (at least 1 s). An unreachable leader is
    // not retried: the claim may have run there.
    const deadline = Date.now() + Math.max(1_000, 3 * this.options.blockTimeMs);
    for (;;) {
      const attempt = await this.tryFaucetClaim(address);
      if ('claim' in attempt) return attempt.claim;
      if (Date.now() >= deadline || this.stopping) throw rpcError('NodeUnavailable', { reason: attempt.retry });
      await new Promise((r) => setTimeout(r, Math.max(50, Math.min(250, Math.floor(this.options.blockTimeMs / 2)))));
    }
  }

  /** One try: run the claim here if this node leads, else forward it to the leader. */
  private async tryFaucetClaim(address: string): Promise<{ claim: { transaction_hash: string; amount: string } } | { retry: string }> {
    const leader = this.leader();
    if (leader === this.id) {
      try {
        return { claim: await this.claimFaucetHere(address) };
      } catch (err) {
        throw toRpc(err);
      }
    }
    const peer = leader === null ? undefined : this.peers.get(leader);
    if (!peer) return { retry: 'no live MN leader is known to run the faucet claim; retry shortly' };
    let answer: JsonValue;
    try {
      answer = await this.link(peer.url).request('/p2p/faucet', { address });
    } catch (err) {
      throw rpcError('NodeUnavailable', { reason: `the leader ${peer.url} could not be reached for the faucet claim: ${(err as Error).message}` });
    }
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw rpcError('NodeUnavailable', { reason: 'the leader gave no faucet answer' });
    if (answer.ok === true && typeof answer.transaction_hash === 'string' && typeof answer.amount === 'string') {
      return { claim: { transaction_hash: answer.transaction_hash, amount: answer.amount } };
    }
    const error = answer.error;
    if (typeof error === 'object' && error !== null && !Array.isArray(error) && typeof error.name === 'string' && typeof error.data === 'object' && error.data !== null && !Array.isArray(error.data)) {
      const data = error.data;
      const reason = typeof data.reason === 'string' ? data.reason : 'refused by the leader';
      if (error.name === 'NodeUnavailable') return { retry: `${peer.url}: ${reason}` };
      throw rpcError(error.name, { ...data, reason });
    }
    throw rpcError('NodeUnavailable', { reason: 'the leader gave no faucet answer' });
  }

  /** Runs a claim on this node (the leader) and relays its transaction; throws ChainError when refused. */
  private async claimFaucetHere(address: string): Promise<{ transaction_hash: string; amount: string }> {
    // Fault faucet-no-limit (TEST-ONLY): claims run here are not limited per address.
    const claim = await this.chain.claimFaucet(address, this.faults.has('faucet-no-limit') ? { limit: Number.MAX_SAFE_INTEGER } : {});
    this.relay([claim.wire]);
    return { transaction_hash: claim.transaction_hash, amount: claim.amount };
  }

  /** The /p2p/ endpoints; false for any other path (the RPC server answers 404). */
  private async route(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://node');
    if (!url.pathname.startsWith('/p2p/')) return false;
    const send = (status: number, body: JsonValue): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(stringifyJson(body));
    };
    try {
      if (req.method === 'GET' && url.pathname === '/p2p/blocks') {
        const from = BigInt(/^\d{1,20}$/.test(url.searchParams.get('from') ?? '') ? (url.searchParams.get('from') as string) : '0');
        const max = Math.min(SYNC_BATCH, Math.max(1, Number(url.searchParams.get('max') ?? SYNC_BATCH) || SYNC_BATCH));
        send(200, { blocks: this.chain.blocksFrom(from, max).map(encodeBlockWire) });
        return true;
      }
      if (req.method !== 'POST') {
        send(405, { error: 'use POST' });
        return true;
      }
      const body = await readJsonBody(req, P2P_MAX_BODY_BYTES);
      const msg = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
      switch (url.pathname) {
        case '/p2p/hello': {
          const accepted = this.acceptHello(parseHello(body));
          send(accepted ? 200 : 409, accepted ? this.hello() : { error: 'another chain (chain id or genesis differs)' });
          return true;
        }
        case '/p2p/txs': {
          if (typeof msg.from === 'string') this.peers.touch(msg.from);
          const txs = Array.isArray(msg.txs) ? msg.txs : [];
          let accepted = 0;
          for (const tx of txs) {
            if (typeof tx !== 'string') continue;
            try {
              await this.chain.submit(tx, 'relay');
              accepted++;
            } catch {
              // Already known, already confirmed, or invalid here: relays are best effort.
            }
          }
          send(200, { accepted });
          return true;
        }
        case '/p2p/block': {
          if (typeof msg.from === 'string') this.peers.touch(msg.from);
          const block = decodeBlockWire(msg.block ?? null);
          const outcome = await this.chain.importBlock(block);
          const sender = typeof msg.from === 'string' ? this.peers.get(msg.from) : undefined;
          if (outcome === 'gap' && sender) void this.syncFrom(sender.url);
          if (outcome === 'conflict') this.reportFork(sender?.url ?? 'a peer');
          send(200, { status: outcome });
          return true;
        }
        case '/p2p/faucet': {
          if (this.leader() !== this.id) {
            send(200, { ok: false, error: { name: 'NodeUnavailable', data: { reason: 'this node is not the leader' } } });
            return true;
          }
          const address = typeof msg.address === 'string' ? msg.address : '';
          try {
            send(200, { ok: true, ...(await this.claimFaucetHere(address)) });
          } catch (err) {
            if (!isChainError(err)) throw err;
            send(200, { ok: false, error: { name: err.name, data: err.data } });
          }
          return true;
        }
        default:
          send(404, { error: `no peer endpoint ${url.pathname}` });
          return true;
      }
    } catch (err) {
      if (!res.headersSent) send(400, { error: (err as Error).message });
      return true;
    }
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const t of this.timers) clearInterval(t);
    await this.server.close();
    await Promise.all([...this.links.values()].map((l) => l.close()));
    // Wait for a block being produced to finish committing before the store closes.
    while (this.producing) await new Promise((r) => setTimeout(r, 10));
    await this.chain.close();
  }
}

/** A chain refusal as the profile's JSON-RPC error; anything else is a bug (internal error). */
function toRpc(err: unknown): unknown {
  // isChainError, not instanceof: instanceof on the generic class would type the data as any.
  return isChainError(err) ? rpcError(err.name, err.data) : err;
}
