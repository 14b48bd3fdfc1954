/**
 * Exact request bytes over kept-alive connections: what sendExactHttp sends (the head as given, the body as
 * given, any method, any content type) without a connection per request, for a client that sends many
 * requests it must not shape (the fuzzer). The response is read by the same HttpResponseReader, so any answer
 * a node may send is taken as evidence; a connection is kept only when its response leaves it fit for the next
 * request (HttpResponseReader.keepsConnection) and for less time than the server said it keeps one idle
 * (`keep-alive: timeout=N`, else KEEP_IDLE_MS).
 *
 * A request that needs a connection of its own (no Content-Length: RFC 9112 §6.3 makes the bytes after the
 * head a next request, not a body) goes through sendExactHttp. A kept connection the server closed while it
 * sat idle fails the next request before any byte of an answer: that request is sent once more on a new
 * connection, as RFC 9112 §9.3.1 allows a client to retry when the server closed before it could answer.
 *
 * Errors are sendExactHttp's: the promise rejects with an HttpExchangeFailure (REFUSED, TIMEOUT, ABORTED,
 * NETWORK), never throws for what the node did.
 */
import type { Socket } from 'node:net';
import { decodeBody } from './decodeBody.js';
import { cutShort, invalidPart, malformed, openSocket, parseOrigin, requestHead, startClock, type Clock, type Origin } from './exactHttpParts.js';
import { HttpExchangeFailure } from './HttpExchangeFailure.js';
import type { HttpExchangeResult } from './HttpTransport.js';
import { HttpResponseReader } from './HttpResponseReader.js';
import { RequestWriter } from './RequestWriter.js';
import { sendExactHttp } from './sendExactHttp.js';
import { toTransportError, type FailedExchange } from './toTransportError.js';
import { TransportError } from './TransportError.js';
import type { SentRequest } from './types.js';

/** How long a connection is kept idle when the server says nothing (node:http keeps one 5 s). */
export const KEEP_IDLE_MS = 4_000;
const EMPTY = new Uint8Array(0);

export interface PooledExactRequest {
  readonly method: string;
  /** The request-target, sent as is. */
  readonly path: string;
  /** Sent as given; `host` and `content-length` added when absent (no `connection: close`). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array | undefined;
  /** No Content-Length at all: sent on a connection of its own (sendExactHttp). */
  readonly omitContentLength?: boolean | undefined;
  /** A connection of its own, written while the answer is read (a large body a node may refuse early). */
  readonly alone?: boolean | undefined;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly signal?: AbortSignal | undefined;
}

/** One kept connection: its socket, its writer, and the exchange on it (none while idle). */
interface Kept {
  readonly socket: Socket;
  readonly writer: RequestWriter;
  exchange: Exchange | undefined;
  idleSince: number;
  idleLimitMs: number;
  /** The connection has carried a request before this one (a close before any answer may be a stale keep-alive). */
  used: boolean;
  connected: boolean;
}

/** What a connection's events reach while a request is on it. */
interface Exchange {
  readonly reader: HttpResponseReader;
  data(chunk: Buffer): void;
  closed(cause: Error | undefined): void;
}

export class ExactHttpPool {
  readonly #origin: Origin;
  readonly #idle: Kept[] = [];
  readonly #maxIdle: number;
  #closed = false;

  /** `origin`: `http(s)://host[:port]`. At most `maxIdle` connections are kept idle. */
  constructor(origin: string, options: { maxIdle?: number } = {}) {
    this.#origin = parseOrigin(origin);
    this.#maxIdle = options.maxIdle ?? 16;
  }

  /** Sends the request and reads its answer; see the file's comment. */
  send(request: PooledExactRequest): Promise<HttpExchangeResult> {
    if (this.#closed) return Promise.reject(new Error('ExactHttpPool is closed'));
    if (request.omitContentLength === true || request.alone === true) {
      return sendExactHttp({ origin: this.#origin.origin, ...request });
    }
    const clock = startClock();
    const body = request.body ?? EMPTY;
    const invalid = invalidPart(request);
    if (invalid !== undefined) {
      const error = new TransportError({
        code: 'NETWORK',
        message: `Cannot send the request to ${this.#origin.origin}${request.path}: ${invalid}`,
        details: `${invalid}. HTTP/1.1 cannot carry it (RFC 9112 §3, RFC 9110 §5.5); nothing was sent.`,
        request: this.#sent(request),
      });
      return Promise.reject(new HttpExchangeFailure(error, clock.timing()));
    }
    const head = Buffer.from(requestHead(request, this.#origin.host, body, true), 'latin1');
    if (request.signal?.aborted === true) {
      return Promise.reject(new HttpExchangeFailure(toTransportError(request.signal.reason, 'ABORTED', this.#failed(request), undefined), clock.timing()));
    }
    return this.#exchange(request, head, body, clock, this.#take());
  }

  /** Closes the idle connections; those under way close when their exchange ends. */
  close(): void {
    this.#closed = true;
    for (const kept of this.#idle.splice(0)) kept.socket.destroy();
  }

  #take(): Kept {
    const now = performance.now();
    for (let kept = this.#idle.pop(); kept !== undefined; kept = this.#idle.pop()) {
      if (now - kept.idleSince < kept.idleLimitMs && !kept.socket.destroyed) return kept;
      kept.socket.destroy();
    }
    return this.#open();
  }

  #open(): Kept {
    const socket = openSocket(this.#origin, (chunk: Buffer) => (kept.exchange === undefined ? idleGone() : kept.exchange.data(chunk)));
    // The writer stops once the exchange on the connection has its answer's head (or has ended); it asks `kept` only when writing, after it is made.
    const writer = new RequestWriter(socket, () => kept.exchange === undefined || kept.exchange.reader.head !== undefined);
    const kept: Kept = { socket, writer, exchange: undefined, idleSince: 0, idleLimitMs: KEEP_IDLE_MS, used: false, connected: false };
    socket.once(this.#origin.tls ? 'secureConnect' : 'connect', () => {
      kept.connected = true;
    });
    const idleGone = (): void => {
      const at = this.#idle.indexOf(kept);
      if (at !== -1) this.#idle.splice(at, 1);
      socket.destroy();
    };
    socket.on('end', () => (kept.exchange === undefined ? idleGone() : kept.exchange.closed(undefined)));
    socket.on('error', (error: Error) => (kept.exchange === undefined ? idleGone() : kept.exchange.closed(error)));
    socket.on('close', () => (kept.exchange === undefined ? idleGone() : kept.exchange.closed(undefined)));
    return kept;
  }

  #release(kept: Kept, reader: HttpResponseReader): void {
    kept.exchange = undefined;
    kept.used = true;
    if (this.#closed || !reader.keepsConnection || this.#idle.length >= this.#maxIdle) {
      kept.socket.destroy();
      return;
    }
    kept.idleSince = performance.now();
    kept.idleLimitMs = idleLimit(reader.head?.headers['keep-alive']);
    this.#idle.push(kept);
  }

  /** One request on `kept`, settled once: by the answer, the connection's end, the timer or the signal. */
  #exchange(request: PooledExactRequest, head: Buffer, body: Uint8Array, clock: Clock, kept: Kept): Promise<HttpExchangeResult> {
    return new Promise<HttpExchangeResult>((resolve, reject) => {
      const reader = new HttpResponseReader({ requestMethod: request.method, maxBodyBytes: request.maxBodyBytes });
      let settled = false;
      const settle = (keep: boolean, report: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        if (keep) this.#release(kept, reader);
        else {
          kept.exchange = undefined;
          kept.socket.destroy();
        }
        kept.writer.wake();
        report();
      };
      const fail = (error: TransportError): void => settle(false, () => reject(new HttpExchangeFailure(error, clock.timing())));
      const succeed = (): void => {
        const answer = reader.head;
        if (answer === undefined) return;
        const result = { status: answer.status, headers: answer.headers, fields: answer.fields, body: reader.body(), truncated: reader.truncated, timing: clock.timing() };
        settle(reader.keepsConnection && kept.writer.writeError === undefined, () => resolve(result));
      };
      const onAbort = (): void => fail(toTransportError(request.signal?.reason, 'ABORTED', this.#failed(request), reader.head));
      const timer = setTimeout(() => fail(toTransportError(undefined, 'TIMEOUT', this.#failed(request), reader.head)), request.timeoutMs);
      request.signal?.addEventListener('abort', onAbort, { once: true });

      kept.exchange = {
        reader,
        data: (chunk) => {
          if (settled) return;
          reader.push(chunk);
          if (reader.problem !== undefined) return fail(malformed(reader.problem, this.#sent(request), reader.head));
          if (reader.head !== undefined) kept.writer.wake();
          if (reader.done) succeed();
        },
        closed: (cause) => {
          if (settled) return;
          reader.end();
          if (reader.done) return succeed();
          if (kept.used && reader.received === 0) {
            // A kept connection the server had closed: the request never reached an answer; once more, on a new one.
            // When that one is refused, the server is gone, not idle: it closed this connection with the request on it
            // (a node killed by it), and that close is what is said (the fuzzer then knows the request reached it).
            const closedWith = cutShort(reader, cause, kept.writer.writeError, this.#sent(request));
            return settle(false, () =>
              void this.#exchange(request, head, body, clock, this.#open()).then(resolve, (error: unknown) =>
                reject(
                  error instanceof HttpExchangeFailure && error.error.code === 'REFUSED' && /\bECONNREFUSED\b/.test(error.error.message)
                    ? new HttpExchangeFailure(closedWith, clock.timing())
                    : error instanceof Error
                      ? error
                      : new Error(String(error)),
                ),
              ),
            );
          }
          if (!kept.connected) {
            // No connection: refused, unreachable, a failed TLS handshake... named by the error's code.
            return fail(toTransportError(cause ?? new Error('the connection closed while connecting'), undefined, this.#failed(request), undefined));
          }
          fail(cutShort(reader, cause, kept.writer.writeError, this.#sent(request)));
        },
      };
      const write = (): void => void kept.writer.write(head, body);
      if (kept.connected) write();
      else kept.socket.once(this.#origin.tls ? 'secureConnect' : 'connect', write);
    });
  }

  /** The request as errors report it (built only for an error: decoding a large body costs). */
  #sent(request: PooledExactRequest): SentRequest {
    return { url: this.#origin.origin + request.path, httpMethod: request.method, headers: request.headers, body: decodeBody(request.body ?? EMPTY).text };
  }

  #failed(request: PooledExactRequest): FailedExchange {
    return { sent: this.#sent(request), timeoutMs: request.timeoutMs };
  }
}

/** How long to keep a connection idle: a second less than the server's `keep-alive: timeout=N`, else KEEP_IDLE_MS. */
function idleLimit(keepAlive: string | undefined): number {
  const match = keepAlive === undefined ? null : /(?:^|[,;\s])timeout\s*=\s*(\d{1,6})/i.exec(keepAlive);
  if (match?.[1] === undefined) return KEEP_IDLE_MS;
  return Math.max(0, Number(match[1]) * 1_000 - 1_000);
}
