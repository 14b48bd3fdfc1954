import type { NodeKind } from '../../core/schema/types.generated.js';

/** What a node knows of another: announced in hello messages, refreshed by each one. */
export interface PeerInfo {
  id: string;
  kind: NodeKind;
  url: string;
  score: bigint;
  height: bigint;
  /** Date.now() when we last heard from it (a hello, or a message it sent us). */
  lastSeen: number;
}

/**
 * The peers a node knows, by identifier, and the URLs it should greet. A peer is live while it has
 * been heard from within `livenessMs`; only live peers count for chain_pouPeers, net_peerCount and
 * leader election.
 */
export class PeerSet {
  private readonly byId = new Map<string, PeerInfo>();
  /** URLs to greet: the --peers list plus every URL learned from other peers. */
  private readonly urls = new Set<string>();

  constructor(
    private readonly selfId: string,
    private readonly selfUrl: string,
    readonly livenessMs: number,
  ) {}

  addUrl(url: string): void {
    const normalized = url.replace(/\/+$/, '');
    if (normalized !== this.selfUrl) this.urls.add(normalized);
  }

  knownUrls(): string[] {
    return [...this.urls];
  }

  /** Records a hello; returns false for ourselves (a node listed among its own peers). */
  upsert(info: Omit<PeerInfo, 'lastSeen'>, now = Date.now()): boolean {
    if (info.id === this.selfId) return false;
    // One identifier, one entry: a peer restarted on another port replaces its old URL.
    const previous = this.byId.get(info.id);
    if (previous && previous.url !== info.url) this.urls.delete(previous.url);
    this.byId.set(info.id, { ...info, lastSeen: now });
    this.addUrl(info.url);
    return true;
  }

  touch(id: string, now = Date.now()): void {
    const peer = this.byId.get(id);
    if (peer) peer.lastSeen = now;
  }

  isLive(peer: PeerInfo, now = Date.now()): boolean {
    return now - peer.lastSeen <= this.livenessMs;
  }

  live(now = Date.now()): PeerInfo[] {
    return [...this.byId.values()].filter((p) => this.isLive(p, now)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Every peer ever heard from, live or not (leader election needs the dead ones too). */
  all(): PeerInfo[] {
    return [...this.byId.values()];
  }

  get(id: string): PeerInfo | undefined {
    return this.byId.get(id);
  }
}
