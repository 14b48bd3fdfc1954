import type { NodeKind } from '../../core/schema/types.generated.js';
import type { AwakeClock } from './AwakeClock.js';
import type { Hello } from './hello.js';
import { PeerRefusal } from './PeerRefusal.js';

/** What a node knows of another, from the newest hello it signed. */
export interface PeerInfo {
  id: string;
  kind: NodeKind;
  /** Its peer (p2p) base URL. */
  url: string;
  score: bigint;
  height: bigint;
  /** A member of the network (named in the genesis): only members are leader candidates. */
  member: boolean;
  /** When it last spoke: its newest hello's timestamp, capped at our clock (Date.now() scale). */
  lastSeen: number;
}

/** How far a hello's timestamp may lie behind our clock, and ahead of it. */
export const HELLO_MAX_AGE_MS = 10_000;
export const HELLO_MAX_AHEAD_MS = 1_000;
/** Peers that are not members (followers: LNs, or any key) a node keeps at once. */
export const MAX_FOLLOWERS = 64;
/** URLs a node greets at most. */
const MAX_URLS = 512;

interface Entry extends PeerInfo {
  /** Timestamp of the newest hello taken. */
  newest: bigint;
  /** Signatures of hellos taken within HELLO_MAX_AGE_MS, to refuse a replay of any of them. */
  seen: Map<string, bigint>;
}

/**
 * The peers a node knows, by identifier, and the URLs it greets. A peer exists here only through a
 * hello signed by its key (hello.ts), and is live while its newest hello is within `livenessMs` of
 * now; only live peers count for chain_pouPeers, net_peerCount and leader election. Because
 * liveness runs from the hello's own (signed) timestamp, a replayed hello can never make a peer
 * look alive for longer than the hello it copies. With an `awake` clock, a peer's silence counts
 * only the time this node was awake (AwakeClock): a pause of its own is not the peer's silence.
 */
export class PeerSet {
  private readonly byId = new Map<string, Entry>();
  /**
   * URLs to greet besides the followers' own: the --peers list and what members announce. Only a
   * member's change of its own URL removes one; a follower's URL lives with its entry, so no key
   * that is not a member can remove an address this node greets.
   */
  private readonly urls = new Set<string>();

  constructor(
    private readonly selfId: string,
    private readonly selfUrl: string,
    readonly livenessMs: number,
    private readonly members: ReadonlySet<string>,
    private readonly awake: AwakeClock | null = null,
  ) {}

  addUrl(url: string): void {
    const normalized = url.replace(/\/+$/, '');
    if (normalized !== this.selfUrl && this.urls.size < MAX_URLS) this.urls.add(normalized);
  }

  /** Every URL this node greets: configured, announced by members, and its followers' own. */
  knownUrls(): string[] {
    const all = new Set(this.urls);
    for (const p of this.byId.values()) if (!p.member && p.url !== this.selfUrl) all.add(p.url);
    return [...all];
  }

  isMember(id: string): boolean {
    return this.members.has(id);
  }

  /**
   * Takes a verified hello (its signature already checked). Refuses (PeerRefusal) one from this
   * node's own key, one whose timestamp is stale or ahead of our clock, a replay of one already
   * taken, and a new follower when MAX_FOLLOWERS live ones are known. Returns false for an older
   * hello not seen before (hellos cross on the wire): it changes nothing.
   */
  accept(h: Hello, signature: string, now = Date.now()): boolean {
    if (h.id === this.selfId) throw new PeerRefusal(409, 'hello refused: it carries this node\'s own identity');
    const ts = Number(h.timestamp);
    if (ts < now - HELLO_MAX_AGE_MS) throw new PeerRefusal(409, `hello refused: stale (signed ${now - ts} ms ago; at most ${HELLO_MAX_AGE_MS} ms)`);
    if (ts > now + HELLO_MAX_AHEAD_MS) throw new PeerRefusal(409, `hello refused: from the future (signed ${ts - now} ms ahead of this node's clock; at most ${HELLO_MAX_AHEAD_MS} ms)`);
    const member = this.members.has(h.id);
    let entry = this.byId.get(h.id);
    if (entry?.seen.has(signature)) throw new PeerRefusal(409, `hello refused: a replay of a hello already taken from ${h.id}`);
    if (!entry) {
      if (!member) this.makeRoomForFollower(now);
      entry = { id: h.id, kind: h.kind, url: h.url, score: h.score, height: h.height, member, lastSeen: Math.min(now, ts), newest: h.timestamp, seen: new Map() };
      this.byId.set(h.id, entry);
    }
    for (const [sig, at] of entry.seen) if (Number(at) < now - HELLO_MAX_AGE_MS) entry.seen.delete(sig);
    entry.seen.set(signature, h.timestamp);
    if (h.timestamp < entry.newest) return false;
    // One identifier, one entry: a member restarted on another port replaces its old URL.
    if (member && entry.url !== h.url) this.urls.delete(entry.url);
    Object.assign(entry, { kind: h.kind, url: h.url, score: h.score, height: h.height, lastSeen: Math.min(now, ts), newest: h.timestamp });
    // Only members' URLs and lists are kept: anyone else could point this node at any address.
    if (member) {
      this.addUrl(h.url);
      for (const url of h.peers) this.addUrl(url);
    }
    return true;
  }

  private makeRoomForFollower(now: number): void {
    const followers = [...this.byId.values()].filter((p) => !p.member);
    if (followers.length < MAX_FOLLOWERS) return;
    const gone = followers.find((p) => !this.isLive(p, now));
    if (!gone) throw new PeerRefusal(429, `hello refused: this node already follows ${MAX_FOLLOWERS} live peers that are not members`);
    this.byId.delete(gone.id);
  }

  isLive(peer: PeerInfo, now = this.awake?.probe() ?? Date.now()): boolean {
    const silent = this.awake ? this.awake.awakeBetween(peer.lastSeen, now) : now - peer.lastSeen;
    return silent <= this.livenessMs;
  }

  /** Live peers, by identifier. */
  live(now = this.awake?.probe() ?? Date.now()): PeerInfo[] {
    return [...this.byId.values()].filter((p) => this.isLive(p, now)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Every peer heard from, live or not. */
  all(): PeerInfo[] {
    return [...this.byId.values()];
  }

  get(id: string): PeerInfo | undefined {
    return this.byId.get(id);
  }
}
