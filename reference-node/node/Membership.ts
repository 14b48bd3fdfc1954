/**
 * A node's membership in its network, as the peer protocol keeps it: the node's own signed hello, the hellos
 * it takes from others (same network, a member only when the genesis names it, fresh), and the heartbeat that
 * keeps each pair of nodes heard from (docs/reference-node.md, "Peers"). What a hello tells of the chain (a
 * member ahead) goes to the node through `onMemberAhead`; the node decides whether to follow.
 */
import type { JsonValue } from '../../core/json/index.js';
import type { NodeKind } from '../../core/schema/types.generated.js';
import type { Chain } from '../chain/index.js';
import { encodeHello, parseHello, verifyHello } from '../p2p/hello.js';
import type { Hello } from '../p2p/hello.js';
import type { PeerLink } from '../p2p/PeerLink.js';
import { PeerRefusal } from '../p2p/PeerRefusal.js';
import type { PeerSet } from '../p2p/PeerSet.js';
import type { NodeIdentity } from './NodeIdentity.js';
import type { RefusalLog } from './RefusalLog.js';

export interface MembershipOptions {
  readonly identity: NodeIdentity;
  readonly kind: NodeKind;
  /** The peer URL this node announces. */
  readonly p2pUrl: string;
  readonly chain: Chain;
  readonly peers: PeerSet;
  /** This node's PoU score now, as its hello states it. */
  readonly score: () => bigint;
  /** The connection to a peer URL (one per URL, shared with the node's other senders). */
  readonly link: (url: string) => PeerLink;
  readonly refusals: RefusalLog;
  readonly stopping: () => boolean;
  /** A member's newer hello claims a higher chain than this node's. */
  readonly onMemberAhead: (hello: Hello) => void;
  /** A peer that was not live (never heard from, gone silent, restarted) is heard from again. */
  readonly onPeerBack?: (hello: Hello) => void;
}

/**
 * How often a node greets its peers: four times per liveness window (a block time, at least 500 ms), so a
 * live peer is heard from about four times before it would count as gone, and an idle network exchanges a
 * few small messages a second rather than several per block (docs/reference-node.md, "Peers").
 */
export function heartbeatMs(livenessMs: number): number {
  return livenessMs / 4;
}

export class Membership {
  /** Whether this node has greeted its peers once (a node back from a stop first hears where the chain is). */
  greeted = false;
  /** The heartbeat's next greeting round (a timer re-armed each round, with jitter). */
  private heartbeat: NodeJS.Timeout | undefined;
  /**
   * When each peer (by id) last gave this node a hello of its own accord (a greeting, or the answer to a block
   * this node proposed): a pair needs one exchange of hellos per heartbeat, not one each way, and none while
   * the blocks between them carry them.
   */
  private readonly heardFrom = new Map<string, number>();
  private lastHello = 0n;
  /** When a block this node proposed last carried its hello (Date.now()). */
  private lastBlockHello = 0;

  constructor(private readonly o: MembershipOptions) {}

  /** Greets every peer now, then once per heartbeat until stop(). */
  start(): void {
    void this.greetAll();
    this.scheduleHeartbeat();
  }

  stop(): void {
    clearTimeout(this.heartbeat);
  }

  /** This node's hello, signed, its timestamp strictly above the last one's. */
  hello(): JsonValue {
    const { chain, peers } = this.o;
    const now = BigInt(Date.now());
    this.lastHello = now > this.lastHello ? now : this.lastHello + 1n;
    return encodeHello(
      {
        id: this.o.identity.id,
        // A node that is not a member can only follow: it says so.
        kind: peers.isMember(this.o.identity.id) ? this.o.kind : 'LN',
        url: this.o.p2pUrl,
        score: this.o.score(),
        height: chain.height(),
        chainId: chain.chainId,
        genesisHash: chain.genesisHash,
        peers: peers.knownUrls().slice(0, 256),
        timestamp: this.lastHello,
      },
      (message) => this.o.identity.sign(message),
    );
  }

  /**
   * Takes a hello (received, or the answer to ours): parsed, signature checked, same network, fresh. Throws
   * PeerRefusal. `inbound`: the peer greeted this node (so this node need not greet it this heartbeat).
   */
  acceptHello(message: JsonValue, inbound = false): void {
    const { chain, peers } = this.o;
    const signed = parseHello(message);
    const h = verifyHello(signed);
    if (h.chainId !== chain.chainId || h.genesisHash !== chain.genesisHash) {
      throw new PeerRefusal(409, `hello refused: another network (chain id ${h.chainId}, genesis ${h.genesisHash}; this node: chain id ${chain.chainId}, genesis ${chain.genesisHash})`);
    }
    if (h.kind === 'MN' && !peers.isMember(h.id)) {
      throw new PeerRefusal(403, `hello refused: ${h.id} greets as an MN but is not a member of this network (the genesis names its members); a node that is not a member greets as an LN`);
    }
    const known = peers.get(h.id);
    const wasLive = known !== undefined && peers.isLive(known);
    const newer = peers.accept(h, signed.signature);
    if (inbound) this.heardFrom.set(h.id, Date.now());
    if (newer && !wasLive) this.o.onPeerBack?.(h);
    // Only a member is followed up to a higher chain: anyone else could claim any height.
    if (newer && peers.isMember(h.id) && h.height > chain.height()) this.o.onMemberAhead(h);
  }

  /**
   * The message that sends a block this node proposed to its peers: with this node's signed hello (one for all:
   * each peer sees it once) at most every three quarters of a heartbeat. At block times shorter than a
   * heartbeat, every other block or so carries one: enough to be heard from within a heartbeat and a half
   * (greetAll), without a signature and four verifications on every block.
   */
  blockMessage(block: JsonValue): JsonValue {
    const now = Date.now();
    const withHello = now - this.lastBlockHello >= 0.75 * heartbeatMs(this.o.peers.livenessMs);
    if (withHello) this.lastBlockHello = now;
    return { from: this.o.identity.id, block, ...(withHello ? { hello: this.hello() } : {}) };
  }

  /**
   * A peer's answer to a block: a hello in it counts as hearing from that peer, so while blocks flow the
   * proposer and its peers exchange hellos through them and greet each other no more.
   */
  takeBlockAnswer(answer: JsonValue): void {
    const hello = typeof answer === 'object' && answer !== null && !Array.isArray(answer) ? answer.hello : undefined;
    if (hello === undefined) return;
    try {
      this.acceptHello(hello, true);
    } catch {
      // A hello this node refuses counts for nothing: that peer is greeted as before.
    }
  }

  /**
   * The next greeting round, one heartbeat from now (heartbeatMs), jittered by ±10% so that the nodes of a
   * network, started together, do not all wake together.
   */
  private scheduleHeartbeat(): void {
    if (this.o.stopping()) return;
    const ms = heartbeatMs(this.o.peers.livenessMs) * (0.9 + 0.2 * Math.random());
    this.heartbeat = setTimeout(() => {
      void this.greetAll().finally(() => this.scheduleHeartbeat());
    }, ms);
  }

  /**
   * Greets every known peer URL, but for the peers heard from within the last one and a half heartbeats (they
   * greeted this node, or answered a block it proposed with their hello): a greeting is answered with the
   * receiver's hello, so one exchange per pair and heartbeat keeps both sides informed (and, should that peer
   * fall silent, this node greets it again next round).
   */
  private async greetAll(): Promise<void> {
    if (this.o.stopping()) return;
    const { peers } = this.o;
    this.o.refusals.tick();
    const recent = Date.now() - 1.5 * heartbeatMs(peers.livenessMs);
    for (const [id, at] of this.heardFrom) if (at <= recent) this.heardFrom.delete(id);
    const heard = new Set<string>();
    for (const p of peers.all()) if (this.heardFrom.has(p.id)) heard.add(p.url);
    const body = this.hello();
    await Promise.all(
      peers
        .knownUrls()
        .filter((url) => !heard.has(url))
        .map(async (url) => {
          try {
            this.acceptHello(await this.o.link(url).request('/p2p/hello', body));
          } catch {
            // Unreachable, not a node, or refused: it stops counting as live once its liveness window passes.
          }
        }),
    );
    this.greeted = true;
  }
}
