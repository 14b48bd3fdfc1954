/**
 * A node's head, followed during a load run: `chain_blockNumber` (under the profile's name) asked every
 * `intervalMs` (20 Hz by default), one call at a time, on a kept connection of its own, never through the load
 * engine's queues and never in its figures. An http: node is read on the engine's lean connection
 * (load/engine/HttpConnection.ts: the request encoded once, a minimal parser, no timer or promise per call: at
 * 20 reads a second the code a read runs is cold each time, so what it runs is what it costs, docs/benchmarks.md);
 * an https: one (a --head-reference) through core/client/ExactHttpPool. Each answer is kept as a sample (when it was asked,
 * when it came, the height); headHealth.ts makes the head lag, the stalls and the heights that went backwards of
 * them. A call that fails or times out is counted, not retried: the next tick asks again.
 */
import { rpcEndpoint } from '../../core/client/baseUrl.js';
import { ExactHttpPool } from '../../core/client/ExactHttpPool.js';
import { HttpExchangeFailure } from '../../core/client/HttpExchangeFailure.js';
import { parseJson, type JsonValue } from '../../core/json/index.js';
import { HttpConnection, parseTarget, RequestEncoder } from '../engine/HttpConnection.js';
import type { Exchange } from '../metrics/classifyExchange.js';
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
  /** The lean path (http:), with its request encoded once; else the pool (https:). */
  readonly #lean: { connection: HttpConnection<number>; wire: Buffer } | undefined;
  readonly #pool: ExactHttpPool | undefined;
  readonly #path: string;
  readonly #body: Buffer;
  readonly #timeoutMs: number;
  /** The call under way on the lean path: when it was sent (ms on the run's clock), and who waits for its end. */
  #leanSentMs: number | undefined;
  #leanEnded: (() => void) | undefined;
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
    const url = rpcEndpoint(o.url, o.profile.rpcPath);
    const endpoint = new URL(url);
    this.#path = `${endpoint.pathname}${endpoint.search}` || '/';
    this.#body = Buffer.from(`{"jsonrpc":"2.0","method":${JSON.stringify(wireMethod(o.profile, 'chain_blockNumber'))},"params":[],"id":1}`);
    this.#timeoutMs = o.timeoutMs ?? Math.max(1_000, 4 * o.intervalMs);
    if (endpoint.protocol === 'http:') {
      const target = parseTarget(url);
      this.#lean = { wire: new RequestEncoder(target).wire(this.#body), connection: new HttpConnection<number>(target, { ended: (_c, sentMs, exchange) => this.#leanEnd(sentMs, exchange) }) };
      this.#pool = undefined;
    } else {
      this.#lean = undefined;
      this.#pool = new ExactHttpPool(endpoint.origin, { maxIdle: 1 });
    }
  }

  /** Starts following: the first call now, then one every interval (on the clock the run's followers share). */
  start(): void {
    const tick = (): void => {
      if (this.#stopped) return;
      if (this.#lean !== undefined) return this.#leanAsk(this.#lean);
      if (this.#inFlight !== undefined) return;
      this.#inFlight = this.#ask().finally(() => (this.#inFlight = undefined));
    };
    tick();
    this.#leave = onEvery(this.#o.intervalMs, tick);
  }

  /** Stops asking; waits for the call under way, then closes the connection. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#leave?.();
    if (this.#lean !== undefined) {
      const lean = this.#lean;
      if (lean.connection.busy) {
        // The call under way ends by its answer or at its timeout, as any other.
        const deadline = setTimeout(() => lean.connection.expire(Number.POSITIVE_INFINITY), Math.max(0, this.#o.originMs + (this.#leanSentMs ?? 0) + this.#timeoutMs - performance.now()));
        await new Promise<void>((ended) => (this.#leanEnded = ended));
        clearTimeout(deadline);
      }
      lean.connection.close();
      return;
    }
    await this.#inFlight;
    this.#pool?.close();
  }

  /** A tick on the lean path: the call under way past its timeout ends as failed; a new call goes when none is under way. */
  #leanAsk(lean: { connection: HttpConnection<number>; wire: Buffer }): void {
    const now = performance.now();
    if (lean.connection.busy) {
      lean.connection.expire(now - this.#timeoutMs);
      if (lean.connection.busy) return;
    }
    this.#leanSentMs = now - this.#o.originMs;
    lean.connection.send(lean.wire, this.#leanSentMs);
  }

  #leanEnd(sentMs: number, exchange: Exchange): void {
    const answeredMs = performance.now() - this.#o.originMs;
    this.#leanSentMs = undefined;
    if (exchange.kind === 'answer') this.#read(sentMs, answeredMs, exchange.status, exchange.body);
    else this.#fail(exchange.kind === 'timeout' ? `no answer within ${this.#timeoutMs} ms` : exchange.reason);
    const ended = this.#leanEnded;
    this.#leanEnded = undefined;
    ended?.();
  }

  async #ask(): Promise<void> {
    const sentMs = performance.now() - this.#o.originMs;
    try {
      const answer = await (this.#pool as ExactHttpPool).send({ method: 'POST', path: this.#path, headers: { 'content-type': 'application/json' }, body: this.#body, timeoutMs: this.#timeoutMs, maxBodyBytes: 64 * 1024 });
      this.#read(sentMs, performance.now() - this.#o.originMs, answer.status, answer.body);
    } catch (err) {
      if (!(err instanceof HttpExchangeFailure)) throw err;
      this.#fail(err.error.message);
    }
  }

  /** An answer: a sample when it holds a height, else a failed call. */
  #read(sentMs: number, answeredMs: number, status: number, body: Uint8Array): void {
    const read = heightOf(DECODER.decode(body));
    if (typeof read === 'string') return this.#fail(`HTTP ${status}: ${read}`);
    if (!this.#stopped) this.#answer({ sentMs, answeredMs, height: read });
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

/**
 * The height in a JSON-RPC answer's result; else what the answer was instead, said in the report as the
 * last failure: a JSON-RPC error with its code and message (a node that says "temporarily unavailable" is not
 * one that answers nonsense), or "not a height".
 */
function heightOf(text: string): number | string {
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch {
    return 'not a height (not JSON)';
  }
  if (!isObject(value)) return 'not a height';
  if (!Object.hasOwn(value, 'result')) {
    const error = value.error;
    if (isObject(error)) {
      const code = typeof error.code === 'number' || typeof error.code === 'bigint' ? ` ${String(error.code)}` : '';
      const message = typeof error.message === 'string' ? `: ${error.message.slice(0, 200)}` : '';
      return `JSON-RPC error${code}${message}`;
    }
    return 'not a height';
  }
  const height = asInteger(value.result);
  return height === undefined || height < 0n || height > BigInt(Number.MAX_SAFE_INTEGER) ? 'not a height' : Number(height);
}
