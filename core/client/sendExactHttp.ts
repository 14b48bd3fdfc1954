import { decodeBody } from './decodeBody.js';
import { cutShort, invalidPart, malformed, openSocket, parseOrigin, requestHead, startClock, type Clock, type Origin } from './exactHttpParts.js';
import { HttpExchangeFailure } from './HttpExchangeFailure.js';
import type { HttpExchangeResult } from './HttpTransport.js';
import { HttpResponseReader } from './HttpResponseReader.js';
import { RequestWriter } from './RequestWriter.js';
import { toTransportError, type FailedExchange } from './toTransportError.js';
import { TransportError } from './TransportError.js';
import type { SentRequest } from './types.js';

export interface ExactHttpRequest {
  /** `http(s)://host[:port]`; any path on it is ignored. */
  readonly origin: string;
  readonly method: string;
  /** The request-target, sent as is: `/rpc`, `/rpc?x=1`, `*`. */
  readonly path: string;
  /**
   * Sent exactly as given, names spelled as given, in this order. Added only when no header of
   * that name is given: `host` (first, RFC 9112 §3.2), `content-length` (see omitContentLength),
   * `connection: close` (last).
   */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array | undefined;
  /**
   * Send no Content-Length: with no Transfer-Encoding either, RFC 9112 §6.3 says the request has
   * no body, so any `body` is then bytes after the request. Without it, a Content-Length is sent
   * when there is a body, or when the method is POST, PUT or PATCH (RFC 9110 §8.6), unless the
   * headers carry a content-length or transfer-encoding of their own.
   */
  readonly omitContentLength?: boolean | undefined;
  /** One timer for the whole exchange: connect, request, response head and body. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Response body bytes kept; past it the body is cut (`truncated`) and the connection dropped. */
  readonly maxBodyBytes: number;
  /** The request as reported in errors; default: built from the fields above. */
  readonly sent?: SentRequest | undefined;
}

const EMPTY = new Uint8Array(0);

/**
 * One HTTP/1.1 exchange on a connection of its own (node:net, node:tls for https), sending
 * exactly the given head and body, for the transport checks undici cannot express: a POST with
 * no Content-Length at all, or a large body to a node that answers early and closes.
 *
 * The request is written in chunks while the response is read. Once a final response head has
 * arrived, writing stops: the node has answered, and RFC 9112 §9.6 tells a client to stop sending
 * a body the server is not reading. A failed write (EPIPE, ECONNRESET: the node closed or reset
 * the connection while the body was going out) does not end the exchange: the node's answer is
 * read to its end and returned. So is a close or reset once the response is complete; a body
 * delimited by the close ends there.
 *
 * Known limit: a node that answers and resets before the client has even seen the connection
 * open is reported as REFUSED (node:net fails the connect with ECONNRESET and closes the socket).
 *
 * @throws TypeError for an origin that is not an http(s) URL
 * @rejects HttpExchangeFailure: REFUSED (no connection, or closed before the response was
 *   complete), TIMEOUT, ABORTED, NETWORK (not HTTP, malformed HTTP, TLS, invalid request parts)
 */
export function sendExactHttp(request: ExactHttpRequest): Promise<HttpExchangeResult> {
  const clock = startClock();

  const target = parseOrigin(request.origin);
  const body = request.body ?? EMPTY;
  const sent: SentRequest = request.sent ?? {
    url: target.origin + request.path,
    httpMethod: request.method,
    headers: request.headers,
    body: decodeBody(body).text,
  };
  const exchange = { sent, timeoutMs: request.timeoutMs };
  const invalid = invalidPart(request);
  if (invalid !== undefined) {
    const error = new TransportError({
      code: 'NETWORK',
      message: `Cannot send the request to ${sent.url}: ${invalid}`,
      details: `${invalid}. HTTP/1.1 cannot carry it (RFC 9112 §3, RFC 9110 §5.5); nothing was sent.`,
      request: sent,
    });
    return Promise.reject(new HttpExchangeFailure(error, clock.timing()));
  }
  const head = Buffer.from(requestHead(request, target.host, body), 'latin1');

  if (request.signal?.aborted === true) {
    return Promise.reject(new HttpExchangeFailure(toTransportError(request.signal.reason, 'ABORTED', exchange, undefined), clock.timing()));
  }

  return runExchange({ request, target, head, body, exchange, clock });
}

/** An exchange checked and ready to go: the request, where it goes, its bytes, and what its errors report. */
interface ReadyExchange {
  readonly request: ExactHttpRequest;
  readonly target: Origin;
  readonly head: Buffer;
  readonly body: Uint8Array;
  readonly exchange: FailedExchange;
  readonly clock: Clock;
}

/**
 * The exchange on its own connection: the request written (RequestWriter) while the response is
 * read, settled once, by the complete response, the connection's end or error, the timer or the
 * signal; whichever comes first, the socket is destroyed.
 */
function runExchange({ request, target, head, body, exchange, clock }: ReadyExchange): Promise<HttpExchangeResult> {
  return new Promise<HttpExchangeResult>((resolve, reject) => {
    const reader = new HttpResponseReader({ requestMethod: request.method, maxBodyBytes: request.maxBodyBytes });
    const socket = openSocket(target);
    let settled = false;
    let connected = false;
    const writer = new RequestWriter(socket, () => settled || reader.head !== undefined);

    const settle = (report: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      // connection: close was asked; either way the exchange owns this socket and ends it here.
      socket.destroy();
      writer.wake();
      report();
    };
    const fail = (error: TransportError): void => settle(() => reject(new HttpExchangeFailure(error, clock.timing())));
    const succeed = (): void => {
      const answer = reader.head;
      if (answer === undefined) return;
      const result = { status: answer.status, headers: answer.headers, body: reader.body(), truncated: reader.truncated };
      settle(() => resolve({ ...result, timing: clock.timing() }));
    };
    const onAbort = (): void => fail(toTransportError(request.signal?.reason, 'ABORTED', exchange, reader.head));
    const timer = setTimeout(() => fail(toTransportError(undefined, 'TIMEOUT', exchange, reader.head)), request.timeoutMs);
    request.signal?.addEventListener('abort', onAbort, { once: true });

    socket.once(target.tls ? 'secureConnect' : 'connect', () => {
      connected = true;
      void writer.write(head, body);
    });

    socket.on('data', (chunk: Buffer) => {
      if (settled) return;
      reader.push(chunk);
      if (reader.problem !== undefined) return fail(malformed(reader.problem, exchange.sent, reader.head));
      if (reader.head !== undefined && clock.headArrived()) writer.wake();
      if (reader.done) succeed();
    });
    const closed = (cause: Error | undefined): void => {
      if (settled) return;
      reader.end();
      if (reader.done) return succeed();
      if (!connected) {
        // No connection: refused, unreachable, a failed TLS handshake... named by the error's code.
        return fail(toTransportError(cause ?? new Error('the connection closed while connecting'), undefined, exchange, undefined));
      }
      fail(cutShort(reader, cause, writer.writeError, exchange.sent));
    };
    socket.on('end', () => closed(undefined));
    socket.on('error', (error: Error) => closed(error));
    socket.on('close', () => closed(undefined));
  });
}

