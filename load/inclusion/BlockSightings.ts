/**
 * What the chain's blocks showed of each transaction hash, kept true through reorganisations: every sighting of a
 * hash (a block at a height listing it, read at a time), and the recent blocks themselves (their own hash, their
 * parent's and the hashes they list), so that blocks the chain replaced can be taken back. The inclusion tracker
 * (InclusionTracker.ts) reads its transactions' inclusion, time to inclusion and duplicates from here.
 */

/** One block listing a hash: its height, and when the tracker first saw that height's block. */
export interface Sighting {
  readonly height: number;
  readonly at: number;
}

/** A block as the tracker read it: its hash and its parent's (normalised; undefined where the node shows none), the hashes it lists. */
export interface ReadBlock {
  readonly hash: string | undefined;
  readonly parent: string | undefined;
  readonly txs: readonly string[];
}

/**
 * Recent heights held for reorganisations (a chain replacing more is past what a load run can undo: its older
 * blocks stay as read, and the tracker says how deep the deepest reorganisation it saw went).
 */
export const HELD_HEIGHTS = 64;

/** Hashes no transaction of the run claimed are kept this long (an answer may come after its block). */
const FOREIGN_KEEP_MS = 60_000;

/**
 * What a block is known by, to tell it from another at its height: its hash; a node that shows none (the spec shows
 * only transaction_count and proposer) by the hashes it lists, so that a replaced block holding other transactions is
 * told apart (one holding the same is the same to the tracker).
 */
export function blockKey(block: ReadBlock): string {
  return block.hash ?? `listing ${block.txs.join(',')}`;
}

/** Hashes in results and in blocks are compared as lower-case hex without a `0x` (a profile's hashPrefix and hexCase). */
export function normalHash(hash: string): string {
  const lower = hash.toLowerCase();
  return lower.startsWith('0x') ? lower.slice(2) : lower;
}

export class BlockSightings {
  private readonly byHash = new Map<string, Sighting[]>();
  private readonly held = new Map<number, ReadBlock>();
  /** First sightings in the order read, to forget other clients' hashes after FOREIGN_KEEP_MS. */
  private readonly firstSeen: { hash: string; at: number }[] = [];
  private firstSeenFrom = 0;
  /** Reorganisations seen, the most heights one took back, and those that went below the heights held. */
  reorgs = 0;
  deepestReorg = 0;
  beyondHeld = 0;

  /** Every sighting of `hash`, first first. */
  of(hash: string): readonly Sighting[] {
    return this.byHash.get(hash) ?? [];
  }

  /** The hash of the block held at `height`, if it is held and shows one. */
  heldHash(height: number): string | undefined {
    return this.held.get(height)?.hash;
  }

  holds(height: number): boolean {
    return this.held.has(height);
  }

  /** What the block held at `height` is known by: its hash, or (a node that shows none) the hashes it lists. */
  heldKey(height: number): string | undefined {
    const block = this.held.get(height);
    return block === undefined ? undefined : blockKey(block);
  }

  /** A block read at `height` (first seen at `at`): its hashes' sightings, and the block held for reorganisations. */
  add(height: number, at: number, block: ReadBlock): void {
    this.held.set(height, block);
    this.held.delete(height - HELD_HEIGHTS);
    for (const hash of block.txs) {
      const list = this.byHash.get(hash);
      if (list === undefined) {
        this.byHash.set(hash, [{ height, at }]);
        this.firstSeen.push({ hash, at });
      } else {
        list.push({ height, at });
      }
    }
  }

  /**
   * The chain replaced the blocks from `height` up (a reorganisation, or a tip gone back): their sightings are taken
   * back. Returns the hashes whose sightings changed.
   */
  orphan(height: number, tip: number): string[] {
    const touched = new Set<string>();
    const heights = [...this.held.keys()].filter((h) => h >= height);
    for (const h of heights) {
      for (const hash of this.held.get(h)?.txs ?? []) {
        const list = this.byHash.get(hash);
        if (list === undefined) continue;
        const left = list.filter((s) => s.height !== h);
        if (left.length === 0) this.byHash.delete(hash);
        else this.byHash.set(hash, left);
        touched.add(hash);
      }
      this.held.delete(h);
    }
    this.reorgs++;
    this.deepestReorg = Math.max(this.deepestReorg, tip - height + 1);
    return [...touched];
  }

  /** Forgets hashes first seen over FOREIGN_KEEP_MS before `now` that `keep` does not claim (other clients' transactions). */
  forgetForeign(now: number, keep: (hash: string) => boolean): void {
    const queue = this.firstSeen;
    while (this.firstSeenFrom < queue.length) {
      const first = queue[this.firstSeenFrom] as { hash: string; at: number };
      if (now - first.at < FOREIGN_KEEP_MS) break;
      this.firstSeenFrom++;
      if (!keep(first.hash)) this.byHash.delete(first.hash);
    }
    if (this.firstSeenFrom > 4096 && this.firstSeenFrom * 2 > queue.length) {
      queue.splice(0, this.firstSeenFrom);
      this.firstSeenFrom = 0;
    }
  }
}
