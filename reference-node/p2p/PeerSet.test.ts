import { describe, expect, it } from 'vitest';
import { AwakeClock } from './AwakeClock.js';
import type { Hello } from './hello.js';
import { HELLO_MAX_AGE_MS, HELLO_MAX_AHEAD_MS, MAX_FOLLOWERS, PeerSet } from './PeerSet.js';
import { thrownRefusal } from '../../test/support/peerClient.js';

const SELF = 'f'.repeat(64);
const SELF_URL = 'http://127.0.0.1:30000';
const M1 = 'a'.repeat(64);
const M2 = 'b'.repeat(64);
const LIVENESS_MS = 2_000;
const NOW = 1_700_000_000_000;

/** A follower's id: not a member. */
const follower = (i: number): string => i.toString(16).padStart(64, '0');
const urlOf = (i: number): string => `http://10.0.${i >> 8}.${i & 255}:30545`;

/** Distinct signatures: PeerSet takes verified hellos, so any 128 hex will do. */
let sigCounter = 0;
const freshSig = (): string => (++sigCounter).toString(16).padStart(128, '0');

function hello(id: string, timestamp: number, over: Partial<Hello> = {}): Hello {
  return { id, kind: 'MN', url: `http://${id.slice(0, 8)}.example:30545`, score: 1n, height: 1n, chainId: 1n, genesisHash: '00'.repeat(32), peers: [], timestamp: BigInt(timestamp), ...over };
}

function peerSet(): PeerSet {
  return new PeerSet(SELF, SELF_URL, LIVENESS_MS, new Set([M1, M2]));
}


describe('PeerSet.accept', () => {
  it('refuses (409) a hello carrying this node\'s own id', () => {
    const peers = peerSet();
    const err = thrownRefusal(() => peers.accept(hello(SELF, NOW), freshSig(), NOW));
    expect(err.status).toBe(409);
    expect(err.message).toMatch(/own identity/);
    expect(peers.all()).toEqual([]);
  });

  it('refuses (409) a stale hello and one from the future, adding no peer', () => {
    const peers = peerSet();
    const stale = thrownRefusal(() => peers.accept(hello(M1, NOW - HELLO_MAX_AGE_MS - 1), freshSig(), NOW));
    expect(stale.status).toBe(409);
    expect(stale.message).toMatch(new RegExp(`stale \\(signed ${HELLO_MAX_AGE_MS + 1} ms ago`));
    const ahead = thrownRefusal(() => peers.accept(hello(M1, NOW + HELLO_MAX_AHEAD_MS + 1), freshSig(), NOW));
    expect(ahead.status).toBe(409);
    expect(ahead.message).toMatch(new RegExp(`from the future \\(signed ${HELLO_MAX_AHEAD_MS + 1} ms ahead`));
    expect(peers.all()).toEqual([]);
    expect(peers.knownUrls()).toEqual([]);
    // The bounds themselves are within reach.
    expect(peers.accept(hello(M1, NOW - HELLO_MAX_AGE_MS), freshSig(), NOW)).toBe(true);
    expect(peers.accept(hello(M2, NOW + HELLO_MAX_AHEAD_MS), freshSig(), NOW)).toBe(true);
  });

  it('refuses (409) the same signed hello the second time: a replay', () => {
    const peers = peerSet();
    const sig = freshSig();
    expect(peers.accept(hello(M1, NOW), sig, NOW)).toBe(true);
    const err = thrownRefusal(() => peers.accept(hello(M1, NOW), sig, NOW + 100));
    expect(err.status).toBe(409);
    expect(err.message).toMatch(new RegExp(`a replay of a hello already taken from ${M1}`));
    // Also after a newer hello was taken.
    expect(peers.accept(hello(M1, NOW + 200), freshSig(), NOW + 200)).toBe(true);
    expect(thrownRefusal(() => peers.accept(hello(M1, NOW), sig, NOW + 300)).status).toBe(409);
  });

  it('takes an older hello not seen before (hellos cross on the wire) without changing anything', () => {
    const peers = peerSet();
    expect(peers.accept(hello(M1, NOW, { score: 9n, height: 5n, url: 'http://new.example:1' }), freshSig(), NOW)).toBe(true);
    const before = { ...peers.get(M1) };
    expect(peers.accept(hello(M1, NOW - 500, { score: 3n, height: 2n, url: 'http://old.example:1', kind: 'LN' }), freshSig(), NOW + 10)).toBe(false);
    expect(peers.get(M1)).toEqual(before);
    expect(peers.get(M1)).toMatchObject({ score: 9n, height: 5n, url: 'http://new.example:1', kind: 'MN', lastSeen: NOW });
    expect(peers.knownUrls()).toEqual(['http://new.example:1']);
  });

  it('a newer hello updates the peer', () => {
    const peers = peerSet();
    peers.accept(hello(M1, NOW, { score: 3n, height: 2n }), freshSig(), NOW);
    expect(peers.accept(hello(M1, NOW + 1_000, { score: 9n, height: 5n, kind: 'LN' }), freshSig(), NOW + 1_000)).toBe(true);
    expect(peers.get(M1)).toMatchObject({ score: 9n, height: 5n, kind: 'LN', lastSeen: NOW + 1_000 });
  });

  it('runs liveness from the hello\'s own timestamp, capped at our clock', () => {
    const peers = peerSet();
    // Signed 3 s ago: fresh enough to take (10 s), too old to count as live (2 s), though received just now.
    expect(peers.accept(hello(M1, NOW - 3_000), freshSig(), NOW)).toBe(true);
    expect(peers.get(M1)?.lastSeen).toBe(NOW - 3_000);
    expect(peers.live(NOW).map((p) => p.id)).toEqual([]);
    // Signed slightly ahead of our clock: seen now, not later.
    expect(peers.accept(hello(M2, NOW + 500), freshSig(), NOW)).toBe(true);
    expect(peers.get(M2)?.lastSeen).toBe(NOW);
    expect(peers.live(NOW + LIVENESS_MS).map((p) => p.id)).toEqual([M2]);
    expect(peers.live(NOW + LIVENESS_MS + 1)).toEqual([]);
  });

  it('with an awake clock, counts a peer\'s silence only in the time this node was awake: its own pause is not the peer\'s silence', () => {
    let t = 0;
    const awake = new AwakeClock(500, { monotonic: () => t, wall: () => NOW + t }, false);
    const peers = new PeerSet(SELF, SELF_URL, LIVENESS_MS, new Set([M1, M2]), awake);
    peers.accept(hello(M1, NOW), freshSig(), NOW);
    const step = (ms: number): void => {
      for (let left = ms; left > 0; left -= 125) {
        t += Math.min(125, left);
        awake.probe();
      }
    };
    step(1_000);
    t += 5_000; // this node held: M1's hellos wait unread
    expect(peers.live().map((p) => p.id), 'just after the pause').toEqual([M1]);
    step(875);
    expect(peers.live().map((p) => p.id), 'awake 2,000 ms since its hello').toEqual([M1]);
    step(125);
    expect(peers.live(), 'awake longer than the liveness window: silent for real').toEqual([]);
    // Without the clock, the same times make M1 dead on waking.
    const plain = new PeerSet(SELF, SELF_URL, LIVENESS_MS, new Set([M1, M2]));
    plain.accept(hello(M1, NOW), freshSig(), NOW);
    expect(plain.live(NOW + 6_000)).toEqual([]);
  });

  it('follows a member\'s peer list, but takes only a non-member\'s own URL', () => {
    const peers = peerSet();
    const f = follower(1);
    peers.accept(hello(f, NOW, { url: 'http://follower.example:1', peers: ['http://attacker-pick.example:1'] }), freshSig(), NOW);
    expect(peers.knownUrls()).toEqual(['http://follower.example:1']);
    peers.accept(hello(M1, NOW, { url: 'http://m1.example:1', peers: ['http://m2.example:1', SELF_URL] }), freshSig(), NOW);
    expect(peers.knownUrls().sort()).toEqual(['http://follower.example:1', 'http://m1.example:1', 'http://m2.example:1']);
  });

  it('marks the members named at construction', () => {
    const peers = peerSet();
    peers.accept(hello(M1, NOW), freshSig(), NOW);
    peers.accept(hello(follower(1), NOW), freshSig(), NOW);
    expect(peers.get(M1)?.member).toBe(true);
    expect(peers.get(follower(1))?.member).toBe(false);
    expect(peers.isMember(M2)).toBe(true);
    expect(peers.isMember(follower(1))).toBe(false);
  });

  it(`refuses (429) a new follower once ${MAX_FOLLOWERS} live ones are known, but still takes a member`, () => {
    const peers = peerSet();
    for (let i = 1; i <= MAX_FOLLOWERS; i++) expect(peers.accept(hello(follower(i), NOW, { kind: 'LN', url: urlOf(i) }), freshSig(), NOW)).toBe(true);
    const err = thrownRefusal(() => peers.accept(hello(follower(MAX_FOLLOWERS + 1), NOW, { kind: 'LN' }), freshSig(), NOW));
    expect(err.status).toBe(429);
    expect(err.message).toMatch(new RegExp(`already follows ${MAX_FOLLOWERS} live peers that are not members`));
    expect(peers.get(follower(MAX_FOLLOWERS + 1))).toBeUndefined();
    expect(peers.accept(hello(M1, NOW), freshSig(), NOW)).toBe(true);
    // A follower already known still speaks.
    expect(peers.accept(hello(follower(1), NOW + 1, { kind: 'LN', url: urlOf(1) }), freshSig(), NOW + 1)).toBe(true);
    expect(peers.all()).toHaveLength(MAX_FOLLOWERS + 1);
  });

  it('evicts a dead follower to make room, forgetting its URL', () => {
    const peers = peerSet();
    for (let i = 1; i <= MAX_FOLLOWERS; i++) peers.accept(hello(follower(i), NOW, { kind: 'LN', url: urlOf(i) }), freshSig(), NOW);
    // Later, every follower but the 7th speaks again; the 7th goes quiet past the liveness window.
    const later = NOW + LIVENESS_MS + 1;
    for (let i = 1; i <= MAX_FOLLOWERS; i++) if (i !== 7) peers.accept(hello(follower(i), later, { kind: 'LN', url: urlOf(i) }), freshSig(), later);
    expect(peers.knownUrls()).toContain(urlOf(7));
    const newcomer = MAX_FOLLOWERS + 1;
    expect(peers.accept(hello(follower(newcomer), later, { kind: 'LN', url: urlOf(newcomer) }), freshSig(), later)).toBe(true);
    expect(peers.get(follower(7))).toBeUndefined();
    expect(peers.knownUrls()).not.toContain(urlOf(7));
    expect(peers.knownUrls()).toContain(urlOf(newcomer));
    expect(peers.all()).toHaveLength(MAX_FOLLOWERS);
  });

  it('forgets a peer\'s old URL when it comes back on another', () => {
    const peers = peerSet();
    peers.accept(hello(M1, NOW, { url: 'http://127.0.0.1:30545' }), freshSig(), NOW);
    peers.accept(hello(M1, NOW + 1, { url: 'http://127.0.0.1:31545' }), freshSig(), NOW + 1);
    expect(peers.knownUrls()).toEqual(['http://127.0.0.1:31545']);
    expect(peers.get(M1)?.url).toBe('http://127.0.0.1:31545');
  });
});

describe('PeerSet.addUrl', () => {
  it('drops trailing slashes and never lists this node\'s own URL', () => {
    const peers = peerSet();
    peers.addUrl('http://127.0.0.1:30546//');
    peers.addUrl(`${SELF_URL}/`);
    expect(peers.knownUrls()).toEqual(['http://127.0.0.1:30546']);
  });
});
