/**
 * A node's head, followed during a load run: `chain_blockNumber` (under the profile's name) asked every
 * `intervalMs` (20 Hz by default), one call at a time, on a kept connection of its own (core/client/ExactHttpPool),
 * never through the load engine and never in its figures. Each answer is kept as a sample (when it was asked,
 * when it came, the height); headHealth.ts makes the head lag, the stalls and the heights that went backwards of
 * them. A call that fails or times out is counted, not retried: the next tick asks again.
 */
import { rpcEndpoint } from '../../core/client/baseUrl.js';
import { ExactHttpPool } from '../../core/client/ExactHttpPool.js';
import { HttpExchangeFailure } from '../../core/client/HttpExchangeFailure.js';
import { parseJson, type JsonValue } from '../../core/json/index.js';
import type { Profile } from '../../profile/Profile.js';
import { wireMethod } from '../../profile/Profile.js';
import { asInteger, isObject } from '../../profile/readWire.js';
import type { FollowedHead, HeadSample } from './headHealth.js';

export type { HeadSample };


export interface HeadFollowerOptions {
  /** The node's base URL. */
  url: string;
  profile: Profile;
  /** Between two calls' starts (a call that takes longer delays the next: one in flight at most). */
  intervalMs: number;
  /** performance.now() that is t = 0 of every sample (shared by the followers of one run, so their times compare). */
  originMs: number;
  /** A call unanswered after this long counts as failed (default: 4 intervals, at least 1 s). */
  timeoutMs?: number;
}

const DECODER = new TextDecoder();

/** Intervals between calls kept for their median (the most recent). */
const INTERVALS_KEPT = 4_096;

export class HeadFollower {
  readonly url: string;
  /**
   * The answers that changed the height (a rise, or a height lower than the one before), and the first answer
   * after calls that failed (a node back from a fault: load/chaos/): all headHealth needs (when each height was
   * first served, when the head moved, what went backwards), so a follower asked 20 times a second for a day
   * keeps one sample per block, not 1.7 million.
   */
  readonly samples: HeadSample[] = [];
  /** Calls answered with a height (kept or not). */
  answered = 0;
  /** Calls that got no height (no answer, an error, not a height). */
  failed = 0;
  /** The last failure, said once in the report. */
  lastFailure: string | undefined;
  readonly #pool: ExactHttpPool;
  readonly #path: string;
  readonly #body: Buffer;
  readonly #o: HeadFollowerOptions;
  readonly #intervals: number[] = [];
  #lastSentMs: number | undefined;
  #failedSince = false;
  #leave: (() => void) | undefined;
  #inFlight: Promise<void> | undefined;
  #stopped = false;

  constructor(o: HeadFollowerOptions) {
    this.#o = o;
    this.url = o.url;
    const endpoint = new URL(rpcEndpoint(o.url, o.profile.rpcPath));
    this.#path = `${endpoint.pathname}${endpoint.search}` || '/';
    this.#pool = new ExactHttpPool(endpoint.origin, { maxIdle: 1 });
    this.#body = Buffer.from(`{"jsonrpc":"2.0","method":${JSON.stringify(wireMethod(o.profile, 'chain_blockNumber'))},"params":[],"id":1}`);
  }

  /** Starts following: the first call now, then one every interval (on the clock the run's followers share). */
  start(): void {
    const tick = (): void => {
      if (this.#stopped || this.#inFlight !== undefined) return;
      this.#inFlight = this.#ask().finally(() => (this.#inFlight = undefined));
    };
    tick();
    this.#leave = onEvery(this.#o.intervalMs, tick);
  }

  /** Stops asking; waits for the call under way, then closes the connection. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#leave?.();
    await this.#inFlight;
    this.#pool.close();
  }

  async #ask(): Promise<void> {
    const { originMs, intervalMs } = this.#o;
    const sentMs = performance.now() - originMs;
    try {
      const answer = await this.#pool.send({ method: 'POST', path: this.#path, headers: { 'content-type': 'application/json' }, body: this.#body, timeoutMs: this.#o.timeoutMs ?? Math.max(1_000, 4 * intervalMs), maxBodyBytes: 64 * 1024 });
      const answeredMs = performance.now() - originMs;
      const height = heightOf(DECODER.decode(answer.body));
      if (height === undefined) return this.#fail(`HTTP ${answer.status}: not a height`);
      if (!this.#stopped) this.#answer({ sentMs, answeredMs, height });
    } catch (err) {
      if (!(err instanceof HttpExchangeFailure)) throw err;
      this.#fail(err.error.message);
    }
  }

  #answer(sample: HeadSample): void {
    this.answered++;
    if (this.#lastSentMs !== undefined) {
      this.#intervals.push(sample.sentMs - this.#lastSentMs);
      if (this.#intervals.length > INTERVALS_KEPT) this.#intervals.shift();
    }
    this.#lastSentMs = sample.sentMs;
    if (this.#failedSince || this.samples.at(-1)?.height !== sample.height) this.samples.push(sample);
    this.#failedSince = false;
  }

  /** What headHealth reads of this node. */
  followed(): FollowedHead {
    const sorted = [...this.#intervals].sort((a, b) => a - b);
    return { url: this.url, samples: this.samples, failed: this.failed, lastFailure: this.lastFailure, answered: this.answered, ...(sorted.length === 0 ? {} : { medianIntervalMs: sorted[Math.floor((sorted.length - 1) / 2)] }) };
  }

  #fail(why: string): void {
    this.failed++;
    this.#failedSince = true;
    this.lastFailure = why;
  }
}

/**
 * One timer per interval for every follower that asks at it: the followers of a run wake the process once a tick
 * together, not once each (what following costs is mostly the process's wake-ups: npm run bench:health).
 */
const clocks = new Map<number, { timer: NodeJS.Timeout; ticks: Set<() => void> }>();

function onEvery(intervalMs: number, tick: () => void): () => void {
  let clock = clocks.get(intervalMs);
  if (clock === undefined) {
    const ticks = new Set<() => void>();
    clock = { ticks, timer: setInterval(() => { for (const t of ticks) t(); }, intervalMs) };
    clocks.set(intervalMs, clock);
  }
  const joined = clock;
  joined.ticks.add(tick);
  return () => {
    joined.ticks.delete(tick);
    if (joined.ticks.size === 0) {
      clearInterval(joined.timer);
      if (clocks.get(intervalMs) === joined) clocks.delete(intervalMs);
    }
  };
}

/** The height in a JSON-RPC answer's result, if it holds one. */
function heightOf(text: string): number | undefined {
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || !Object.hasOwn(value, 'result')) return undefined;
  const height = asInteger(value.result);
  return height === undefined || height < 0n || height > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(height);
}
