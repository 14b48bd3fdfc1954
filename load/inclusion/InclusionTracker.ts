/**
 * Follows the chain while signed transactions are sent, and after: which of them were included, when
 * (time to inclusion, from each send's scheduled time, bounded by the poll interval), what stayed pending,
 * what the node refused, and the chain-side throughput. docs/load-transactions.md defines every figure.
 *
 * Two ways to see inclusion, chosen from what the node serves:
 * - block-hashes: blocks list their transactions' hashes (the reference profile's `transactions`): each
 *   new block is read and its hashes matched against the transactions sent (under the hash the node answered and
 *   the transaction's own, where they differ). A block whose parent is not the block held below it, or a tip gone
 *   back, is a reorganisation: the replaced blocks' sightings are taken back and their heights read again.
 * - sender-nonce: blocks show only `transaction_count` and `proposer` (all the spec shows); a sender's
 *   nonce counts its confirmed transactions, so when it passes a transaction's nonce that transaction is
 *   included. Any conforming node serves it. Only senders with transactions outstanding are polled.
 */
import type { JsonValue } from '../../core/json/index.js';
import type { Profile } from '../../profile/Profile.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { isObject, readField } from '../../profile/readWire.js';
import type { TrackedOutcome } from '../engine/RequestSource.js';
import { Histogram } from '../metrics/Histogram.js';

/** Points of the pending/included series kept (two hours of the default 1 s); older ones are thinned past it. */
const SERIES_KEPT = 7_200;
import type { InclusionStats } from '../model.js';
import { blockTimestampMs } from './blockTimestampMs.js';
import { BlockSightings, blockKey, normalHash } from './BlockSightings.js';
import type { ReadBlock, Sighting } from './BlockSightings.js';
import { ChainReader } from './ChainReader.js';
import { epochNow } from '../../core/epochNow.js';

export type InclusionMethod = InclusionStats['method'];

export interface InclusionTrackerOptions {
  /** The node to follow (the one sent to, or any node of its network). */
  url: string;
  /** Other nodes of its network, read in turn when it stops answering (a run with faults: docs/chaos.md). */
  fallbackUrls?: readonly string[];
  /** Method names, field names, timestamps, genesis height; the reference profile by default. */
  profile?: Profile;
  /** 'auto' (default): block-hashes when the node's blocks list transaction hashes, else sender-nonce. */
  method?: InclusionMethod | 'auto';
  /** Default: the measured block time / 10, at least 20 ms. */
  pollIntervalMs?: number;
  /**
   * How long finish() keeps following for transactions still pending. Default: 5 block times, or twice the longest
   * time to inclusion seen so far where that is longer, and on while the run's transactions are still being included
   * (each inclusion gives 5 block times more), at most GRACE_CAP_MS in all.
   */
  graceMs?: number;
  /** Epoch ms that is t = 0 of the series (the start of measurement); default: when tracking started. */
  originMs?: number;
  /** One series point per this many ms; default 1000 (the run's timeline tick). */
  seriesIntervalMs?: number;
  /** Reads at once when a poll needs several requests; default 4. */
  concurrency?: number;
  /** Reads per JSON-RPC batch; default the profile's maxBatch, at most 100. */
  perRequest?: number;
}

/** The tracker's view at one moment, for the run's timeline (t is ms from `originMs`). */
export interface InclusionPoint {
  tMs: number;
  pending: number;
  included: number;
}

export interface InclusionResult {
  stats: InclusionStats;
  series: InclusionPoint[];
  /**
   * Sends with no answer (timeout, transport failure, missing from a batch answer) that the chain never
   * showed included. Neither accepted nor refused: the node may or may not have taken them. One the chain
   * shows included counts as accepted and included instead.
   */
  unanswered: number;
  /** Accepted transactions whose answered hash differs from the corpus's (followed by both: either in a block includes it). */
  hashMismatches: number;
  /** Outcomes that could not be followed: a tag that is not { hash, sender, nonce }, or no hash to look for in blocks. */
  untracked: number;
  /** Measured from the timestamps of recent blocks at start (the profile's blockTimeMs when they could not be read). */
  blockTimeMs: number;
  /** Polls that failed (the node stopped answering, say) and the last failure's message. */
  pollErrors: number;
  lastPollError: string | null;
  /** Why tracking ended. */
  endedBy: 'all-included' | 'grace' | 'stopped';
  /** The ledger of a run through faults (docs/chaos.md): what was accepted and never included, and what the chain took twice. */
  ledger: TransactionLedger;
}

/** Exact counts, with the first hashes (or `sender/nonce` where a hash is unknown). */
export interface TransactionLedger {
  /** Accepted (answered with a hash, or shown by the chain) and not included when tracking ended. */
  lost: { count: number; examples: string[] };
  /**
   * Included more than once: a hash in two blocks (block-hashes), or a sender's nonce on the chain past the last
   * nonce the run sent from it (sender-nonce: only the run sends from its senders, so each extra step of the nonce
   * is a transaction the chain took twice).
   */
  duplicated: { count: number; examples: string[] };
}

/** Examples kept of each kind in a ledger. */
const LEDGER_EXAMPLES = 20;

interface SentTx {
  hash: string | null;
  /** The transaction's own hash (the corpus's) where the node answered another: a block listing either includes it. */
  ownHash?: string;
  sender: string;
  nonce: number;
  scheduledAtMs: number;
  /** The engine's verdict: scheduled in a measured window (TrackedOutcome.measured); undefined from other senders. */
  measured?: boolean | undefined;
  /** False for an unanswered send: counted as accepted only if the chain shows it. */
  answered: boolean;
  /** When it was accepted (its answer ended, or the chain showed it), epoch ms; undefined while it is not. */
  acceptedAtMs?: number | undefined;
  /** Accepted because the chain showed it (its send got no answer): a reorganisation taking that block back takes that back too. */
  shownOnly?: boolean;
  /** When a poll first saw it included, and at which height. */
  includedAtMs?: number | undefined;
  height?: number | undefined;
}

/** The measured windows, epoch ms [fromMs, toMs): a transaction scheduled in one is the run's; before, the warm-up's. */
export interface TrackedWindow {
  fromMs: number;
  toMs: number;
}

/** Epoch milliseconds with sub-millisecond resolution (the engine's TrackedOutcome clock). */
const now = epochNow;

/** The most finish() follows the chain by its default grace, however long inclusions take or keep coming. */
const GRACE_CAP_MS = 60_000;

export class InclusionTracker {
  readonly method: InclusionMethod;
  readonly pollIntervalMs: number;
  /** The grace given (GRACE_CAP_MS in all at most), or undefined for the default that follows the chain. */
  private readonly fixedGraceMs: number | undefined;
  readonly blockTimeMs: number;
  private readonly origin: number;
  private readonly seriesIntervalMs: number;
  private accepted = 0;
  private included = 0;
  private unanswered = 0;
  private hashMismatches = 0;
  private untracked = 0;
  private readonly refused: Record<string, number> = {};
  /** Every refusal with its send's scheduled time, to count the measured window's apart from the warm-up's. */
  private readonly refusals: { code: string; scheduledAtMs: number; measured?: boolean | undefined }[] = [];
  /**
   * block-hashes: the run's transactions by every hash they go by, kept once included (a block listing one again is a
   * duplicate); what the blocks showed of each hash, reorganisations taken back.
   */
  private readonly ourHashes = new Map<string, SentTx>();
  private readonly sightings = new BlockSightings();
  /** sender-nonce: per sender, the highest nonce sent. */
  private readonly maxNonceSent = new Map<string, number>();
  /** Every send tracked, by `sender/nonce`: a transaction sent again is the same one. */
  private readonly sends = new Map<string, SentTx>();
  /** sender-nonce: outstanding sends by sender; each polled sender's last nonce. */
  private readonly bySender = new Map<string, SentTx[]>();
  private readonly senderNonce = new Map<string, { nonce: number; at: number; height: number }>();
  /** What is known of blocks: timestamps, and when the tracker first saw each height. */
  private readonly timestamps: Map<number, number>;
  private readonly seenAt = new Map<number, number>();
  private lastHeight: number;
  /** sender-nonce: polls since the tip last moved (accounts are read on the 0th, 1st, 2nd, 4th, 8th, ... of them). */
  private pollsSinceTip = 0;
  /** The longest time to inclusion seen, and when the last inclusion was seen (epoch ms): the default grace follows them. */
  private longestInclusionMs = 0;
  private lastInclusionAt = -Infinity;
  private finishedAt = Infinity;

  private readonly series: InclusionPoint[] = [];
  private lastPoint = -Infinity;
  private pollErrors = 0;
  private lastPollError: string | null = null;
  private finishing = false;
  private stopped = false;
  private wake: (() => void) | undefined;
  private readonly loop: Promise<InclusionResult['endedBy']>;

  private constructor(
    private readonly reader: ChainReader,
    options: InclusionTrackerOptions,
    start: { method: InclusionMethod; blockTimeMs: number; tip: number; timestamps: Map<number, number> },
  ) {
    this.method = start.method;
    this.blockTimeMs = start.blockTimeMs;
    this.pollIntervalMs = options.pollIntervalMs ?? Math.max(20, Math.round(start.blockTimeMs / 10));
    this.fixedGraceMs = options.graceMs;
    this.origin = options.originMs ?? now();
    this.seriesIntervalMs = options.seriesIntervalMs ?? 1000;
    this.lastHeight = start.tip;
    this.timestamps = start.timestamps;
    this.loop = this.run();
  }

  /**
   * Reads the chain's tip and recent blocks (their timestamps give the block time; the tip block says
   * whether blocks list hashes), then follows the chain until finish() or stop(). Start it before sending.
   */
  static async start(options: InclusionTrackerOptions): Promise<InclusionTracker> {
    const profile = options.profile ?? referenceProfile();
    const perRequest = options.perRequest ?? Math.min(profile.maxBatch ?? 100, 100);
    const reader = new ChainReader([options.url, ...(options.fallbackUrls ?? [])], profile, Math.max(2_000, 2 * profile.blockTimeMs), perRequest, options.concurrency ?? 4);
    try {
      const tip = await reader.tip();
      const from = Math.max(profile.genesisHeight + 1, tip - 10);
      const heights = tip < from ? [tip] : Array.from({ length: tip - from + 1 }, (_, i) => from + i);
      const blocks = await reader.blocks(heights);
      const timestamps = new Map<number, number>();
      blocks.forEach((b, i) => {
        const ts = b === undefined ? undefined : blockTimestampMs(profile, b);
        if (ts !== undefined) timestamps.set(heights[i] ?? 0, ts);
      });
      // The highest block served (a replica behind a balancer may not have the tip another gave: an outside tester's
      // node then lost its block-hashes tracking for sender nonces, without a word).
      const tipBlock = [...blocks].reverse().find((b) => b !== undefined);
      const listsHashes = tipBlock !== undefined && Array.isArray(readField(profile, tipBlock, 'transactions'));
      const method = options.method === undefined || options.method === 'auto' ? (listsHashes ? 'block-hashes' : 'sender-nonce') : options.method;
      if (method === 'block-hashes' && !listsHashes) {
        throw new Error(`inclusion by block hashes: the node's blocks list no transaction hashes (no "transactions" array in block ${tip}); follow sender nonces instead`);
      }
      return new InclusionTracker(reader, options, { method, blockTimeMs: measuredBlockTime(heights, timestamps) ?? profile.blockTimeMs, tip, timestamps });
    } catch (err) {
      await reader.close();
      throw err;
    }
  }

  /** One tracked call's outcome, as the engine reports it (EngineOptions.onTracked). Never throws. */
  record(outcome: TrackedOutcome): void {
    const tag = readTag(outcome.tag);
    if (tag === undefined) {
      this.untracked++;
      return;
    }
    const o = outcome.outcome;
    if (o.kind === 'error') {
      const code = String(o.code);
      this.refused[code] = (this.refused[code] ?? 0) + 1;
      this.refusals.push({ code, scheduledAtMs: outcome.scheduledAtMs, measured: outcome.measured });
      return;
    }
    // A lane sends a transaction again after a failed send (corpusSource.ts, resync): one transaction, one entry.
    const key = `${tag.sender}/${tag.nonce}`;
    const before = this.sends.get(key);
    if (before !== undefined) {
      if (o.kind === 'result' && !before.answered) {
        before.answered = true;
        before.acceptedAtMs = outcome.endedAtMs;
        this.unanswered--;
        this.accepted++;
      }
      return;
    }
    const sent: SentTx = { ...tag, scheduledAtMs: outcome.scheduledAtMs, measured: outcome.measured, answered: o.kind === 'result', ...(o.kind === 'result' ? { acceptedAtMs: outcome.endedAtMs } : {}) };
    if (o.kind === 'result') {
      const answered = answeredHash(this.reader.profile, o.result);
      if (answered !== undefined && tag.hash !== null && answered !== tag.hash) {
        // A node answering another hash than the transaction's own (wrong, or another form of it): either in a block is it.
        this.hashMismatches++;
        sent.ownHash = tag.hash;
      }
      sent.hash = answered ?? tag.hash;
    }
    if (this.method === 'block-hashes' && sent.hash === null) {
      this.untracked++;
      return;
    }
    this.sends.set(key, sent);
    if (sent.answered) this.accepted++;
    else this.unanswered++;
    this.maxNonceSent.set(sent.sender, Math.max(this.maxNonceSent.get(sent.sender) ?? -1, sent.nonce));
    this.watch(sent);
  }

  /** Included and pending so far, for the live progress line. */
  progress(): { included: number; pending: number } {
    return { included: this.included, pending: this.accepted - this.included };
  }

  /**
   * Every send has been reported: follow the chain until each accepted transaction is included or the
   * grace period ends, then stop and report. `windows`: the run's measured windows; the figures are then of the
   * transactions scheduled in them, the warm-up's counted apart (every transaction is followed: a later nonce of a
   * sender waits for the warm-up's before it). Without, of every transaction reported.
   */
  async finish(windows?: readonly TrackedWindow[]): Promise<InclusionResult> {
    if (!this.finishing) {
      this.finishing = true;
      this.finishedAt = now();
    }
    return this.result(await this.loop, windows);
  }

  /** Stops at once (Ctrl-C, a deadline) and reports what was seen; `windows` as for finish(). */
  async stop(windows?: readonly TrackedWindow[]): Promise<InclusionResult> {
    this.stopped = true;
    this.wake?.();
    return this.result(await this.loop, windows);
  }

  private watch(tx: SentTx): void {
    if (this.method === 'block-hashes') {
      // Blocks read before the send's answer came keep their sightings: the first includes it, the others are duplicates.
      for (const hash of hashesOf(tx)) if (!this.ourHashes.has(hash)) this.ourHashes.set(hash, tx);
      this.refresh(tx);
      return;
    }
    const known = this.senderNonce.get(tx.sender);
    if (known !== undefined && known.nonce > tx.nonce) {
      this.include(tx, known.at, known.height);
      return;
    }
    const list = this.bySender.get(tx.sender);
    if (list === undefined) this.bySender.set(tx.sender, [tx]);
    else list.push(tx);
  }

  private include(tx: SentTx, at: number, height: number): void {
    if (!tx.answered) {
      // The chain shows it: the node took it after all.
      tx.answered = true;
      tx.shownOnly = true;
      tx.acceptedAtMs = at;
      this.unanswered--;
      this.accepted++;
    }
    if (tx.includedAtMs === undefined) {
      this.included++;
      this.lastInclusionAt = now();
    }
    tx.includedAtMs = at;
    tx.height = height;
    this.longestInclusionMs = Math.max(this.longestInclusionMs, at - tx.scheduledAtMs);
  }

  /** A block that included `tx` was replaced and no other shows it: pending again (unanswered again, if only the chain had shown it). */
  private uninclude(tx: SentTx): void {
    if (tx.includedAtMs === undefined) return;
    tx.includedAtMs = undefined;
    tx.height = undefined;
    this.included--;
    if (tx.shownOnly === true) {
      tx.answered = false;
      tx.shownOnly = false;
      tx.acceptedAtMs = undefined;
      this.accepted--;
      this.unanswered++;
    }
  }

  /** block-hashes: `tx` included at the first block showing any of its hashes, or pending when none does (any more). */
  private refresh(tx: SentTx): void {
    let first: Sighting | undefined;
    for (const hash of hashesOf(tx)) {
      const s = this.sightings.of(hash)[0];
      if (s !== undefined && (first === undefined || s.at < first.at || (s.at === first.at && s.height < first.height))) first = s;
    }
    if (first === undefined) this.uninclude(tx);
    else if (tx.includedAtMs !== first.at || tx.height !== first.height) this.include(tx, first.at, first.height);
  }

  private async run(): Promise<InclusionResult['endedBy']> {
    let next = now();
    for (;;) {
      try {
        await this.poll();
      } catch (err) {
        this.pollErrors++;
        this.lastPollError = `${new Date().toISOString()}: ${err instanceof Error ? err.message : String(err)}`;
      }
      const t = now();
      if (t - this.lastPoint >= this.seriesIntervalMs) this.point(t);
      if (this.stopped) return 'stopped';
      if (this.finishing && this.accepted === this.included) return 'all-included';
      if (this.finishing && t >= this.graceEnds()) return 'grace';
      next += this.pollIntervalMs;
      if (next < t) next = t; // a slow poll: the next one goes at once, missed ticks are not made up
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, next - t);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
      if (this.stopped) return 'stopped';
    }
  }

  /**
   * When finish() stops following: the grace given after finish(); by default 5 block times after it, or twice the
   * longest time to inclusion seen where that is longer (a node that includes late is not said to lose), and 5 block
   * times after the last inclusion while the run's transactions are still being included, GRACE_CAP_MS at most.
   */
  private graceEnds(): number {
    if (this.fixedGraceMs !== undefined) return this.finishedAt + this.fixedGraceMs;
    const blocks = 5 * this.blockTimeMs;
    return Math.min(this.finishedAt + GRACE_CAP_MS, Math.max(this.finishedAt + Math.max(blocks, 2 * this.longestInclusionMs), this.lastInclusionAt + blocks));
  }

  private point(t: number): void {
    this.lastPoint = t;
    this.series.push({ tMs: Math.round(t - this.origin), pending: this.accepted - this.included, included: this.included });
    // Bounded however long the run (a soak of a day): past the bound, every other point of the older half goes.
    if (this.series.length > SERIES_KEPT) {
      const older = this.series.splice(0, SERIES_KEPT / 2).filter((_, i) => i % 2 === 0);
      this.series.unshift(...older);
    }
  }

  private async poll(): Promise<void> {
    const tip = await this.reader.tip();
    const at = now();
    for (let h = this.lastHeight + 1; h <= tip; h++) if (!this.seenAt.has(h)) this.seenAt.set(h, at);
    if (this.method === 'block-hashes') await this.pollBlocks(tip, at);
    else await this.pollSenders(tip);
  }

  /**
   * Reads each new block and matches its hashes (at most 100 blocks a poll; the rest the next). A block whose parent is
   * not the block read below it says the chain replaced that one: reorganised() takes the replaced blocks back and
   * their heights are read again from the next poll. A tip gone back is not enough (a node behind a balancer may
   * show an older tip for a moment): the chain's next block past the blocks read tells.
   */
  private async pollBlocks(tip: number, at: number): Promise<void> {
    const heights = Array.from({ length: Math.max(0, Math.min(100, tip - this.lastHeight)) }, (_, i) => this.lastHeight + 1 + i);
    if (heights.length === 0) return;
    // A node whose blocks show no hash has no parent to check: the last block read is read again with the new ones,
    // and a block that lists other transactions now was replaced (an outside tester's hashless chain replaced every
    // fifth block, 20% of transactions lost, and the run passed lost-tx == 0).
    const again = this.sightings.holds(this.lastHeight) && this.sightings.heldHash(this.lastHeight) === undefined;
    const read = await this.reader.blocks(again ? [this.lastHeight, ...heights] : heights);
    if (again) {
      const [last] = read;
      if (last !== undefined && blockKey(this.readBlock(last)) !== this.sightings.heldKey(this.lastHeight)) {
        await this.reorganised(this.lastHeight);
        return;
      }
    }
    const blocks = again ? read.slice(1) : read;
    for (const [i, block] of blocks.entries()) {
      const height = heights[i] ?? 0;
      if (block === undefined) break; // not served (yet): read again next poll
      const read = this.readBlock(block);
      const below = this.sightings.heldHash(height - 1);
      if (read.parent !== undefined && below !== undefined && read.parent !== below) {
        await this.reorganised(height - 1);
        return;
      }
      const ts = blockTimestampMs(this.reader.profile, block);
      if (ts !== undefined) this.timestamps.set(height, ts);
      this.sightings.add(height, at, read);
      for (const hash of read.txs) {
        const tx = this.ourHashes.get(hash);
        if (tx !== undefined) this.refresh(tx);
      }
      this.lastHeight = height;
    }
    // Hashes no send claimed: other clients' transactions, or ours whose answer is late; kept a while.
    this.sightings.forgetForeign(at, (hash) => this.ourHashes.has(hash));
  }

  /** A block's own hash, its parent's and the hashes it lists, normalised (BlockSightings.normalHash). */
  private readBlock(block: JsonValue): ReadBlock {
    const profile = this.reader.profile;
    const text = (name: string): string | undefined => {
      const v = readField(profile, block, name);
      return typeof v === 'string' ? normalHash(v) : undefined;
    };
    const listed = readField(profile, block, 'transactions');
    const txs = Array.isArray(listed) ? listed.flatMap((h) => (typeof h === 'string' ? [normalHash(h)] : [])) : [];
    return { hash: text('hash'), parent: text('parent_hash'), txs };
  }

  /**
   * The chain no longer holds the block read at `top`: the highest held block it still has (read again, compared by
   * hash) is where it forked, and every block read above it is taken back, its transactions pending again unless
   * another block read shows them. Heights past what is held (HELD_HEIGHTS) stay as read.
   */
  private async reorganised(top: number): Promise<void> {
    let fork = top;
    let h = top - 1;
    for (; this.sightings.holds(h); h--) {
      const held = this.sightings.heldKey(h);
      const [block] = await this.reader.blocks([h]);
      if (block !== undefined && blockKey(this.readBlock(block)) === held) break;
      fork = h;
    }
    // Every held block below was replaced too: the fork lies deeper than what is held (its blocks below stay as read).
    if (!this.sightings.holds(h) && h > 0 && fork < top) this.sightings.beyondHeld++;
    const replaced = this.sightings.orphan(fork, this.lastHeight);
    this.lastHeight = fork - 1;
    for (const hash of replaced) {
      const tx = this.ourHashes.get(hash);
      if (tx !== undefined) this.refresh(tx);
    }
  }

  /**
   * Reads the nonce of each sender with transactions outstanding; a nonce past a transaction's includes it.
   * A nonce moves only with a new block, and a node may show the height a moment before the state: accounts are
   * read on the poll that sees a new tip and on the 1st, 2nd, 4th, 8th, ... poll after it, so that a state shown
   * late is read soon after whatever its lag, at a few reads a block (the tracker's own load stays about one
   * chain_blockNumber a poll). A transaction is included when its block was first seen: the tip's first sighting,
   * where the tip has not moved since the accounts were read (their state is of that block or one before), else
   * the read's time.
   */
  private async pollSenders(tip: number): Promise<void> {
    const highest = Math.max(tip, this.lastHeight);
    if (tip > this.lastHeight) this.pollsSinceTip = 0;
    else this.pollsSinceTip++;
    this.lastHeight = highest;
    const senders = [...this.bySender.keys()];
    const n = this.pollsSinceTip;
    if (senders.length === 0 || (n & (n - 1)) !== 0) return;
    const accounts = await this.reader.accounts(senders);
    const at = now();
    const passed: SentTx[] = [];
    for (const [i, account] of accounts.entries()) {
      const sender = senders[i] ?? '';
      if (account === undefined) continue;
      const nonce = Number(account.nonce);
      this.senderNonce.set(sender, { nonce, at, height: highest });
      const list = this.bySender.get(sender) ?? [];
      const left = list.filter((tx) => tx.nonce >= nonce || (passed.push(tx), false));
      if (left.length === 0) this.bySender.delete(sender);
      else this.bySender.set(sender, left);
    }
    if (passed.length === 0) return;
    // Timed from the tip's first sighting only when that tip is the highest seen and had not moved when the accounts
    // were read: their state is then of that block or one before. A node behind a balancer may answer from a replica
    // behind the others (an outside tester's, 3 blocks behind, had times to inclusion of 1 ms): then the read's time.
    const still = await this.reader.tip().catch(() => undefined);
    const when = still === tip && tip === highest ? Math.min(at, this.seenAt.get(tip) ?? at) : at;
    for (const tx of passed) this.include(tx, when, highest);
  }

  private async result(endedBy: InclusionResult['endedBy'], windows?: readonly TrackedWindow[]): Promise<InclusionResult> {
    const last = this.series[this.series.length - 1];
    if (last === undefined || last.included !== this.included || last.pending !== this.accepted - this.included) this.point(now());
    const endedAt = now();
    // The engine's own verdict where it gave one (its request figures count the same sends); else the time against the
    // windows' bounds. Bounds converted across clocks put a send scheduled at a window's very start on either side.
    const inWindow = (s: { scheduledAtMs: number; measured?: boolean | undefined }): boolean =>
      windows === undefined || (s.measured ?? windows.some((w) => s.scheduledAtMs >= w.fromMs && s.scheduledAtMs < w.toMs));
    const all = [...this.sends.values()];
    const measured = windows === undefined ? all : all.filter((tx) => inWindow(tx));
    const accepted = measured.filter((tx) => tx.answered);
    const included = accepted.filter((tx) => tx.includedAtMs !== undefined);
    // Time to inclusion in whole milliseconds (the poll interval, at least 20 ms, bounds its resolution anyway).
    const histogram = new Histogram();
    const perHeight = new Map<number, number>();
    for (const tx of included) {
      histogram.record((tx.includedAtMs ?? 0) - tx.scheduledAtMs);
      perHeight.set(tx.height ?? 0, (perHeight.get(tx.height ?? 0) ?? 0) + 1);
    }
    const refused: Record<string, number> = {};
    let refusedApart = 0;
    for (const r of this.refusals) {
      if (inWindow(r)) refused[r.code] = (refused[r.code] ?? 0) + 1;
      else refusedApart++;
    }
    const chainTps = await this.chainTps(perHeight, included.length).catch(() => 0);
    // Every sender's nonce once more, those with nothing outstanding too: a nonce past the last one sent is a duplicate.
    if (this.method === 'sender-nonce') await this.readFinalNonces().catch(() => undefined);
    await this.reader.close();
    const counts = [...perHeight.values()];
    const lastWindowEnd = windows === undefined || windows.length === 0 ? undefined : Math.max(...windows.map((w) => w.toMs));
    const warmup = all.length - measured.length + refusedApart;
    return {
      stats: {
        method: this.method,
        pollIntervalMs: this.pollIntervalMs,
        accepted: accepted.length,
        refused,
        included: included.length,
        pending: accepted.length - included.length,
        ratio: accepted.length === 0 ? 0 : included.length / accepted.length,
        timeToInclusionMs: histogram.toData(),
        chainTps,
        perBlock: { blocks: counts.length, mean: counts.length === 0 ? 0 : included.length / counts.length, max: counts.reduce((a, b) => Math.max(a, b), 0) },
        ...(windows === undefined || warmup === 0 ? {} : { warmup: this.warmupCounts(all.filter((tx) => !inWindow(tx)), refusedApart) }),
        ...(lastWindowEnd === undefined ? {} : { followedAfterMs: Math.max(0, Math.round(endedAt - lastWindowEnd)) }),
        tracking: {
          endedBy,
          unanswered: this.unanswered,
          hashMismatches: this.hashMismatches,
          reorgs: this.sightings.reorgs,
          deepestReorg: this.sightings.deepestReorg,
          reorgsBeyondHeld: this.sightings.beyondHeld,
          pollErrors: this.pollErrors,
          lastPollError: this.lastPollError,
        },
      },
      series: windows === undefined ? [...this.series] : this.seriesOf(measured),
      unanswered: this.unanswered,
      hashMismatches: this.hashMismatches,
      untracked: this.untracked,
      blockTimeMs: this.blockTimeMs,
      pollErrors: this.pollErrors,
      lastPollError: this.lastPollError,
      endedBy,
      ledger: this.ledger(),
    };
  }

  /** The warm-up's transactions, counted apart from the figures: accepted, included, refused. */
  private warmupCounts(sends: readonly SentTx[], refused: number): NonNullable<InclusionStats['warmup']> {
    const accepted = sends.filter((tx) => tx.answered);
    return { accepted: accepted.length, included: accepted.filter((tx) => tx.includedAtMs !== undefined).length, refused };
  }

  /** The series at the times it was sampled, of these transactions only: accepted by then and not included, included by then. */
  private seriesOf(sends: readonly SentTx[]): InclusionPoint[] {
    const acceptedAt = sends.flatMap((tx) => (tx.answered && tx.acceptedAtMs !== undefined ? [Math.min(tx.acceptedAtMs, tx.includedAtMs ?? Infinity)] : [])).sort((a, b) => a - b);
    const includedAt = sends.flatMap((tx) => (tx.answered && tx.includedAtMs !== undefined ? [tx.includedAtMs] : [])).sort((a, b) => a - b);
    let a = 0;
    let i = 0;
    return this.series.map((point) => {
      const t = this.origin + point.tMs;
      while (a < acceptedAt.length && (acceptedAt[a] ?? Infinity) <= t) a++;
      while (i < includedAt.length && (includedAt[i] ?? Infinity) <= t) i++;
      return { tMs: point.tMs, pending: a - i, included: i };
    });
  }

  private async readFinalNonces(): Promise<void> {
    const senders = [...this.maxNonceSent.keys()];
    const accounts = await this.reader.accounts(senders);
    const at = now();
    accounts.forEach((account, i) => {
      const sender = senders[i];
      if (account !== undefined && sender !== undefined) this.senderNonce.set(sender, { nonce: Number(account.nonce), at, height: this.lastHeight });
    });
  }

  /**
   * sender-nonce: per sender, the nonces below its nonce on the chain that no send of the run may have given the chain.
   * Only the run sends from its senders, so the chain used each of them for something the run never had taken: a
   * transaction applied twice (its nonce moving twice), or one applied though its node refused it. A nonce may have
   * been given when a send of it was answered with a result or got no answer (its fate unknown); one only refused, or
   * never sent (a lane that found the chain already past it), may not. Counted from the first nonce a send may have
   * given: the nonces before the run's are the chain's own business.
   */
  private unexplainedNonces(): { sender: string; chainNonce: number; count: number; first: number[] }[] {
    const given = new Map<string, Set<number>>();
    for (const tx of this.sends.values()) {
      const nonces = given.get(tx.sender);
      if (nonces === undefined) given.set(tx.sender, new Set([tx.nonce]));
      else nonces.add(tx.nonce);
    }
    const out: { sender: string; chainNonce: number; count: number; first: number[] }[] = [];
    for (const [sender, { nonce: chainNonce }] of this.senderNonce) {
      const nonces = given.get(sender);
      if (nonces === undefined) continue;
      let from = Infinity;
      let givenBelow = 0;
      for (const n of nonces) {
        from = Math.min(from, n);
        if (n < chainNonce) givenBelow++;
      }
      // Counted, not listed: a node's nonce may be anything (2^53), and only the first few are named.
      const count = Math.max(0, chainNonce - from - givenBelow);
      if (count === 0) continue;
      const first: number[] = [];
      for (let n = from; n < chainNonce && first.length < UNEXPLAINED_SHOWN; n++) if (!nonces.has(n)) first.push(n);
      out.push({ sender, chainNonce, count, first });
    }
    return out;
  }

  /** What was accepted and is still not included, and what the chain took twice (see TransactionLedger). */
  private ledger(): TransactionLedger {
    const lost: string[] = [];
    const sends = [...this.sends.values()];
    const pending = sends.filter((tx) => tx.answered && tx.includedAtMs === undefined);
    pending.sort((a, b) => a.scheduledAtMs - b.scheduledAtMs);
    for (const tx of pending.slice(0, LEDGER_EXAMPLES)) lost.push(tx.hash ?? `${tx.sender}/${tx.nonce}`);
    let duplicateCount = 0;
    const duplicates: string[] = [];
    if (this.method === 'block-hashes') {
      // Each block past the first listing a transaction (under any of its hashes) took it again.
      for (const tx of sends) {
        const seen = hashesOf(tx).flatMap((hash) => this.sightings.of(hash).map((s) => ({ hash, ...s })));
        if (seen.length < 2) continue;
        seen.sort((a, b) => a.at - b.at || a.height - b.height);
        duplicateCount += seen.length - 1;
        for (const again of seen.slice(1)) if (duplicates.length < LEDGER_EXAMPLES) duplicates.push(`${again.hash} (again at height ${again.height})`);
      }
    } else {
      for (const { sender, chainNonce, count, first } of this.unexplainedNonces()) {
        duplicateCount += count;
        if (duplicates.length < LEDGER_EXAMPLES) duplicates.push(`${sender}: nonce ${chainNonce} on the chain, which used ${nonceList(first, count)}, that no send of the run may have given it (refused, or never sent)`);
      }
    }
    return { lost: { count: this.accepted - this.included, examples: lost }, duplicated: { count: duplicateCount, examples: duplicates } };
  }

  /**
   * Included transactions (these, per height) per second of chain time: from the block before the first including block to
   * the last including block (block timestamps; when unreadable, when the tracker first saw each height).
   */
  private async chainTps(perHeight: ReadonlyMap<number, number>, included: number): Promise<number> {
    const heights = [...perHeight.keys()];
    if (heights.length === 0) return 0;
    const first = heights.reduce((a, b) => Math.min(a, b));
    const last = heights.reduce((a, b) => Math.max(a, b));
    const missing = [first - 1, first, last].filter((h) => h >= 0 && !this.timestamps.has(h));
    if (missing.length > 0) {
      const blocks = await this.reader.blocks(missing).catch(() => []);
      blocks.forEach((b, i) => {
        const ts = b === undefined ? undefined : blockTimestampMs(this.reader.profile, b);
        if (ts !== undefined) this.timestamps.set(missing[i] ?? 0, ts);
      });
    }
    const times = this.timestamps.has(first) && this.timestamps.has(last) ? this.timestamps : this.seenAt;
    const tFirst = times.get(first) ?? 0;
    const tLast = times.get(last) ?? 0;
    const before = times.get(first - 1);
    // The first block's transactions arrived over its own interval; genesis (timestamp 0) or a gap says nothing of it.
    const gap = before === undefined ? NaN : tFirst - before;
    const firstInterval = gap > 0 && gap <= 10 * this.blockTimeMs ? gap : this.blockTimeMs;
    const spanMs = tLast - tFirst + firstInterval;
    return spanMs > 0 ? included / (spanMs / 1000) : 0;
  }
}

/** The median interval between consecutive blocks with timestamps; undefined when fewer than two. */
function measuredBlockTime(heights: readonly number[], timestamps: ReadonlyMap<number, number>): number | undefined {
  const gaps: number[] = [];
  for (const h of heights) {
    const a = timestamps.get(h - 1);
    const b = timestamps.get(h);
    if (a !== undefined && b !== undefined && b > a) gaps.push(b - a);
  }
  if (gaps.length === 0) return undefined;
  gaps.sort((x, y) => x - y);
  return gaps[Math.floor(gaps.length / 2)];
}

/** A corpus call's tag ({ hash, sender, nonce }: load/corpus/corpusSource.ts TxTag); undefined when it is not one. */
function readTag(tag: JsonValue): { hash: string | null; sender: string; nonce: number } | undefined {
  if (!isObject(tag)) return undefined;
  const { hash, sender, nonce } = tag;
  if (typeof sender !== 'string' || typeof nonce !== 'number' || !Number.isSafeInteger(nonce)) return undefined;
  if (hash !== null && typeof hash !== 'string') return undefined;
  return { hash: hash === null ? null : normalHash(hash), sender: sender.toLowerCase(), nonce };
}

/** The hash in chain_sendRawTransaction's result (the result itself, or its transaction_hash field), normalised. */
function answeredHash(profile: Profile, result: JsonValue): string | undefined {
  if (typeof result === 'string') return normalHash(result);
  const field = readField(profile, result, 'transaction_hash');
  return typeof field === 'string' ? normalHash(field) : undefined;
}

/** The hashes a transaction goes by: the node's answer, and its own where they differ. */
function hashesOf(tx: SentTx): string[] {
  const out = tx.hash === null ? [] : [tx.hash];
  if (tx.ownHash !== undefined && tx.ownHash !== tx.hash) out.push(tx.ownHash);
  return out;
}

/** Unexplained nonces named at most, per sender. */
const UNEXPLAINED_SHOWN = 3;

/** Nonces for a sentence: "nonce 5", "nonces 5, 9", "nonces 5, 6, 7 and 9 more" (`count` in all, `first` named). */
function nonceList(first: readonly number[], count: number): string {
  const shown = first.join(', ');
  return count === 1 ? `nonce ${shown}` : `nonces ${shown}${count > first.length ? ` and ${count - first.length} more` : ''}`;
}
