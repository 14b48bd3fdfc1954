/**
 * What an arrival model is to its engine thread (EngineThread.ts): the open model's pump (OpenPump.ts) and the
 * closed model's loops (ClosedLoops.ts) decide when a request goes; the thread owns the connections' answers,
 * the figures and the stop. Apart so that each model's timing rule reads on one screen.
 */
import type { RunStop } from '../model.js';
import type { Exchange } from '../metrics/classifyExchange.js';
import type { LoadRecorder } from '../metrics/LoadRecorder.js';
import type { HttpConnection } from './HttpConnection.js';
import type { PlannedRequest } from './RequestSource.js';

/** A request from the moment it is taken from the source to its end. */
export interface InFlight {
  request: PlannedRequest;
  /** performance.now() of its scheduled send (closed model: when the loop began it). */
  scheduledMs: number;
  measured: boolean;
}

/** What a model sees of its thread. */
export interface SenderHost {
  readonly recorder: LoadRecorder;
  /** performance.now() of the warm-up's start, of the measured window's start, and of its planned end. */
  readonly origin: number;
  readonly measureStart: number;
  readonly measureEnd: number;
  /** Whether sending goes on (false from the first stop). */
  readonly sending: boolean;
  /** Requests on the wire or waiting for a connection: a model counts each one it takes up. */
  inFlight: number;
  /**
   * The source's next request: null when it is busy, undefined when it has no more. A source that throws
   * stops sending, sets `failed` and gives null.
   */
  next(): PlannedRequest | null | undefined;
  /** The source's own time for its next request (RequestSource.due), for the `recorded` distribution. */
  due(): number | undefined;
  readonly failed: boolean;
  /** Stops sending when the source has run out at `t`. */
  sourceRanOut(t: number): void;
  stopSending(stop: RunStop, graceMs: number): void;
  /** A new connection of this thread (the thread expires and closes it). */
  newConnection(): HttpConnection<InFlight>;
  /** Writes the request on `connection` (already counted in flight). */
  write(connection: HttpConnection<InFlight>, request: InFlight): void;
}

/** An arrival model: when each request goes. */
export interface Sender {
  /** Sending begins (the warm-up's start). */
  begin(): void;
  /** An exchange on `connection` ended and was recorded: the model uses the connection again, or leaves it idle. */
  freed(connection: HttpConnection<InFlight>, exchange: Exchange): void;
  /** Sending stopped: the model cancels its own wake-ups. */
  halt(): void;
  /** Sending stopped without waiting: the requests still waiting for a connection are dropped; how many. */
  dropWaiting(): number;
}
