/**
 * What the engine sends: a source of planned requests. The engine owns time (when each request goes) and
 * the accounting; a source owns content (which request goes next). A source may run inside a worker thread,
 * so it is made there by a module named in the run's options (`SourceSpec`), from JSON options.
 */
import type { JsonValue } from '../../core/json/index.js';
import type { LaneLedger, ReadRegressions, ReplayDiff } from '../model.js';

/** One JSON-RPC call of a planned request: a single request has one, a batch one per element. */
export interface PlannedCall {
  /**
   * The id as written in the body (a notification is never planned: every call expects an answer); an integer
   * beyond 2^53 is a bigint (core/json reads it exactly), matched exactly.
   */
  id: number | string | bigint;
  /** The method's wire name as written in the body. */
  method: string;
  /** Validate this call's result with the source's `checkResult` (sampling is the source's choice). */
  validate?: boolean;
  /**
   * Report this call's outcome to the main thread (`EngineOptions.onTracked`) with this tag: signed
   * transactions carry their hash, sender and nonce, for inclusion tracking.
   */
  track?: JsonValue;
  /** Give this call's result to the source's `observe` (the reads a ReadWatch judges), with the read's key (a height, an account; empty for none). */
  observe?: string;
}

export interface PlannedRequest {
  /** The exact HTTP body. */
  body: Buffer;
  /** The calls it carries, in the body's order. */
  calls: readonly PlannedCall[];
  /** A JSON array (even of one element), answered by an array. */
  batch: boolean;
}

export interface RequestSource {
  /**
   * The next request to send; null when none is ready at this moment (every sender's previous
   * transaction is still unanswered: the engine counts the send as dropped, reason "source busy");
   * undefined when the source has nothing more (a corpus used up): the engine then stops sending and
   * ends the run when the requests in flight are answered.
   */
  next(): PlannedRequest | null | undefined;
  /**
   * A source that keeps its own times (the open model's `recorded` distribution: a replayed capture): when the
   * request the next `next()` gives is due, in ms from the warm-up's start; undefined when it has no more.
   */
  due?(): number | undefined;
  /**
   * Called when a request it made has ended, whatever the outcome (a lane may then send its next nonce), with
   * each call's outcome in the request's order (absent for a request abandoned at the end of the run).
   */
  onEnded?(request: PlannedRequest, outcomes?: readonly CallResult[]): void;
  /** Whether a sampled result is valid (against the method's result schema); absent: every result is. */
  checkResult?(method: string, result: JsonValue): boolean;
  /**
   * A result of a call marked `observe`: written to the node at `writtenMs`, arrived at `endedMs` (epoch ms).
   * `reads` gives what the source made of them at the end (ReadWatch's figures).
   */
  observe?(call: PlannedCall, result: JsonValue, writtenMs: number, endedMs: number): void;
  reads?(): ReadRegressions | undefined;
  /** What its transaction lanes did after failed sends (load/corpus/corpusSource.ts), when it sends any. */
  lanes?(): LaneLedger | undefined;
  /** A replay's diff against a second node (load/replay/ReplayDiff.ts), when it compares one; read after `close`. */
  diff?(): ReplayDiff | undefined;
  /** Called once when the run ends (close files, stop timers). */
  close?(): void | Promise<void>;
}

/** The part of the work a source is made for: thread `index` of `count` (a corpus gives each thread its own senders). */
export interface SourceShare {
  index: number;
  count: number;
}

/**
 * How to make a source in any thread: a module (a file: URL or absolute path) whose export `createSource`
 * takes `options` and the share, and JSON options.
 */
export interface SourceSpec {
  module: string;
  options: JsonValue;
}

/** The signature of a source module's `createSource` export. */
export type CreateSource = (options: JsonValue, share: SourceShare) => RequestSource | Promise<RequestSource>;

/** How one call ended, as a source sees it (the engine's classification, load/metrics/classifyExchange.ts). */
export type CallResult = { kind: 'result'; result: JsonValue } | { kind: 'error'; code: number; message: string } | { kind: 'unanswered'; reason: string };

/** The outcome of a call marked `track`, reported to the main thread. */
export interface TrackedOutcome {
  /** The call's `track` tag, as given. */
  tag: JsonValue;
  /** The request's scheduled send time and the end of its exchange, epoch milliseconds (fractional). */
  scheduledAtMs: number;
  endedAtMs: number;
  /**
   * Whether the engine counted the request in a measured window (as its request figures do): the one verdict on it,
   * where the time would be compared with a window's bounds converted across clocks. Absent from other senders'.
   */
  measured?: boolean;
  outcome:
    | { kind: 'result'; result: JsonValue }
    | { kind: 'error'; code: number; message: string }
    /** No answer for this call: timeout, transport failure, HTTP status, or missing from the batch answer. */
    | { kind: 'unanswered'; reason: string };
}
