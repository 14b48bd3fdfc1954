/**
 * Reading one request body under a byte limit. Apart from the server because it owns the two
 * listeners (data, end) a request adds, and what they hold: whether an idle keep-alive connection
 * keeps a body in memory is decided here (createRpcServer.dist.test.ts).
 *
 * The server makes its requests as RpcIncoming (node:http's IncomingMessage option), which carries the
 * reading's state, so the listeners are two functions shared by every request (an emitter calls a listener
 * with itself as `this`): reading a body makes no closure.
 */
import { IncomingMessage } from 'node:http';
import type { ServerResponse } from 'node:http';

const NO_BYTES = Buffer.alloc(0);

/** Who is told how a body's reading ended. */
export interface BodySink {
  /** The body, whole. */
  body(req: RpcIncoming, res: ServerResponse, bytes: Buffer): void;
  /** The body grew past the limit: reading stopped, the rest stays unread. */
  tooLarge(req: RpcIncoming, res: ServerResponse): void;
}

/** A request of the RPC server: node:http's, with the state of its body's reading. */
export class RpcIncoming extends IncomingMessage {
  #limit = 0;
  #size = 0;
  #over = false;
  #first: Buffer | undefined;
  #more: Buffer[] | undefined;
  #sink: BodySink | undefined;
  #res: ServerResponse | undefined;

  /**
   * Reads the body, at most `limit` bytes: `sink.body` gets it whole; as soon as it grows past the limit,
   * reading stops (the rest stays unread) and `sink.tooLarge` is called instead.
   */
  readBody(limit: number, res: ServerResponse, sink: BodySink): void {
    this.#limit = limit;
    this.#res = res;
    this.#sink = sink;
    this.on('data', onData);
    this.on('end', onEnd);
  }

  /** One chunk. The connection keeps its last request until the next one arrives, so chunks are let go as soon as they are used: an idle keep-alive connection holds no body. */
  chunk(chunk: Buffer): void {
    if (this.#over) return;
    this.#size += chunk.length;
    if (this.#size > this.#limit) {
      this.#over = true;
      this.#first = this.#more = undefined;
      this.pause();
      const sink = this.#sink;
      const res = this.#res;
      this.#sink = this.#res = undefined;
      if (sink !== undefined && res !== undefined) sink.tooLarge(this, res);
    } else if (this.#first === undefined) {
      this.#first = chunk;
    } else {
      (this.#more ??= [this.#first]).push(chunk);
    }
  }

  /** The body's end. */
  ended(): void {
    if (this.#over) return;
    const body = this.#more === undefined ? (this.#first ?? NO_BYTES) : Buffer.concat(this.#more, this.#size);
    const sink = this.#sink;
    const res = this.#res;
    this.#first = this.#more = this.#sink = this.#res = undefined;
    if (sink !== undefined && res !== undefined) sink.body(this, res, body);
  }
}

function onData(this: RpcIncoming, chunk: Buffer): void {
  this.chunk(chunk);
}

function onEnd(this: RpcIncoming): void {
  this.ended();
}
