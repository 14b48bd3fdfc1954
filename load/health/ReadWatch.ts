/**
 * Reads that go backwards, in the load's own answers: a height lower than one the node had already served, a
 * block for a height other than the block it served for that height before, an account's nonce lower than one
 * it had already returned. docs/load.md, "The node's health".
 *
 * "Already" is strict: with many requests in flight, an answer that arrives later may have been served earlier.
 * An answer is compared only with the answers that had fully arrived before its request was written (their
 * state was served before this one's could be): never a false regression from two requests that overlapped.
 * Memory is bounded: the heights' blocks past MAX_BLOCKS and the answers older than the comparison needs go.
 */
import type { ReadKind, ReadRegression, ReadRegressions } from '../model.js';

export type { ReadKind, ReadRegression, ReadRegressions };

/** The methods whose answers are watched (by the spec's names): the head's height, a block by height, an account. */
export const WATCHED_READS: readonly string[] = ['chain_blockNumber', 'chain_getBlockByHeight', 'chain_getAccount'];

const EXAMPLES_KEPT = 20;
const MAX_BLOCKS = 4_096;
const MAX_ACCOUNTS = 65_536;
/** Answers kept for the comparison (the rest folded into one floor): a request is never in flight this long. */
const KEEP_MS = 120_000;

/**
 * A value that must not go down: the highest value among answers that had arrived before a given moment.
 * Answers come in the order they arrived; each kept with the running maximum, and those older than KEEP_MS
 * folded into a floor.
 */
export class RisingValue {
  #floor: { value: bigint; atMs: number; untilMs: number } | undefined;
  readonly #arrived: { endedMs: number; max: bigint; maxAtMs: number }[] = [];

  /** The highest value of the answers that arrived before `ms`, with when it arrived; undefined: none. */
  highestBefore(ms: number): { value: bigint; atMs: number } | undefined {
    let lo = 0;
    let hi = this.#arrived.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.#arrived[mid]?.endedMs ?? Infinity) < ms) lo = mid + 1;
      else hi = mid;
    }
    const last = this.#arrived[lo - 1];
    if (last !== undefined) return { value: last.max, atMs: last.maxAtMs };
    // The folded answers all arrived by the floor's `untilMs`: they judge only what was written after.
    return this.#floor !== undefined && ms > this.#floor.untilMs ? { value: this.#floor.value, atMs: this.#floor.atMs } : undefined;
  }

  /** An answer that arrived at `endedMs` (answers come in the order they arrived). */
  arrived(value: bigint, endedMs: number): void {
    const top = this.#arrived.at(-1) ?? (this.#floor === undefined ? undefined : { max: this.#floor.value, maxAtMs: this.#floor.atMs });
    const higher = top === undefined || value > top.max;
    this.#arrived.push({ endedMs, max: higher ? value : top.max, maxAtMs: higher ? endedMs : top.maxAtMs });
    while ((this.#arrived[0]?.endedMs ?? Infinity) < endedMs - KEEP_MS) {
      const old = this.#arrived.shift();
      if (old !== undefined) this.#floor = { value: old.max, atMs: old.maxAtMs, untilMs: old.endedMs };
    }
  }
}

export class ReadWatch {
  readonly #observed: Record<ReadKind, number> = { height: 0, block: 0, nonce: 0 };
  readonly #counts: Record<ReadKind, number> = { height: 0, block: 0, nonce: 0 };
  readonly #examples: ReadRegression[] = [];
  readonly #height = new RisingValue();
  readonly #nonces = new Map<string, RisingValue>();
  readonly #blocks = new Map<string, { hash: string; atMs: number }>();

  /** `writtenMs`: when the request was written (its answer's state is no older); `endedMs`: when the answer arrived. */
  height(value: bigint, writtenMs: number, endedMs: number): void {
    this.#observed.height++;
    this.#rising('height', '', this.#height, value, writtenMs, endedMs);
  }

  nonce(account: string, value: bigint, writtenMs: number, endedMs: number): void {
    this.#observed.nonce++;
    let series = this.#nonces.get(account);
    if (series === undefined) {
      if (this.#nonces.size >= MAX_ACCOUNTS) return;
      series = new RisingValue();
      this.#nonces.set(account, series);
    }
    this.#rising('nonce', account, series, value, writtenMs, endedMs);
  }

  /** The block served for `height`: another hash than the one served for it before is a regression, whatever the order. */
  block(height: string, hash: string, endedMs: number): void {
    this.#observed.block++;
    const before = this.#blocks.get(height);
    if (before === undefined) {
      this.#blocks.set(height, { hash, atMs: endedMs });
      if (this.#blocks.size > MAX_BLOCKS) this.#blocks.delete(this.#blocks.keys().next().value ?? '');
      return;
    }
    if (before.hash.toLowerCase() !== hash.toLowerCase()) this.#regressed({ kind: 'block', key: height, atMs: endedMs, value: hash, previous: { atMs: before.atMs, value: before.hash } });
  }

  figures(): ReadRegressions {
    return { observed: { ...this.#observed }, counts: { ...this.#counts }, examples: [...this.#examples] };
  }

  #rising(kind: ReadKind, key: string, series: RisingValue, value: bigint, writtenMs: number, endedMs: number): void {
    const before = series.highestBefore(writtenMs);
    if (before !== undefined && value < before.value) this.#regressed({ kind, key, atMs: endedMs, value: value.toString(), previous: { atMs: before.atMs, value: before.value.toString() } });
    series.arrived(value, endedMs);
  }

  #regressed(r: ReadRegression): void {
    this.#counts[r.kind]++;
    if (this.#examples.length < EXAMPLES_KEPT) this.#examples.push({ ...r, atMs: Math.round(r.atMs), previous: { ...r.previous, atMs: Math.round(r.previous.atMs) } });
  }
}

/** Several watches' figures as one (threads, or a node's segments): counts add, the first examples kept. */
export function mergeReadRegressions(parts: readonly ReadRegressions[]): ReadRegressions {
  const out: ReadRegressions = { observed: { height: 0, block: 0, nonce: 0 }, counts: { height: 0, block: 0, nonce: 0 }, examples: [] };
  for (const p of parts) {
    for (const k of ['height', 'block', 'nonce'] as const) {
      out.observed[k] += p.observed[k];
      out.counts[k] += p.counts[k];
    }
    out.examples.push(...p.examples.slice(0, EXAMPLES_KEPT - out.examples.length));
  }
  return out;
}
