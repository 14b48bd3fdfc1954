/**
 * The parts sendExactHttp (one exchange on a connection of its own) and ExactHttpPool (exact bytes over kept
 * connections) share: the origin, the request head as written, the checks that it can be written at all, the
 * socket, the exchange's clock, and the errors for a malformed or cut-short response.
 */
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { HttpResponseHead, HttpResponseReader } from './HttpResponseReader.js';
import { responseEvidence } from './responseEvidence.js';
import { TransportError } from './TransportError.js';
import type { SentRequest, Timing } from './types.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// The characters undici and node:http accept: no controls, no space, nothing past latin1.
const INVALID_TARGET = /[^\u0021-\u00ff]/;
const INVALID_FIELD_VALUE = /[^\t\u0020-\u007e\u0080-\u00ff]/;
const METHODS_WITH_CONTENT = new Set(['POST', 'PUT', 'PATCH']);

/** The request parts the head is written from. */
export interface ExactHead {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array | undefined;
  readonly omitContentLength?: boolean | undefined;
}

/** The exchange's timing, measured from startClock. */
export interface Clock {
  timing(): Timing;
  /** Notes that the response head has arrived: true on the first call only, the one whose time counts. */
  headArrived(): boolean;
}

export function startClock(): Clock {
  const startedAt = Date.now();
  const t0 = performance.now();
  let ttfbMs: number | null = null;
  return {
    timing: () => ({ startedAt, ttfbMs, totalMs: performance.now() - t0 }),
    headArrived: () => {
      if (ttfbMs !== null) return false;
      ttfbMs = performance.now() - t0;
      return true;
    },
  };
}

/**
 * Every plain connection that reads through `onData` reads into this one buffer (node:net's `onread`: no stream
 * machinery per read). A read is handed over before the next can arrive, as a copy of the bytes read (readers
 * keep what they are given).
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/**
 * A connection to `target`, TLS for https; connecting, not yet connected. With `onData`, a plain TCP connection hands each read to it directly instead of as
 * 'data' events (TLS keeps its stream); 'end', 'error' and 'close' are emitted either way.
 */
export function openSocket(target: Origin, onData?: (chunk: Buffer) => void): Socket {
  const options = { host: target.hostname, port: target.port, allowHalfOpen: true };
  const socket: Socket = target.tls
    ? connectTls({
        ...options,
        // SNI carries host names only (RFC 6066 §3).
        ...(isIP(target.hostname) === 0 ? { servername: target.hostname } : {}),
        ALPNProtocols: ['http/1.1'],
      })
    : connectTcp(
        onData === undefined
          ? options
          : {
              ...options,
              onread: {
                buffer: READ_BUFFER,
                callback: (n: number, buf: Uint8Array): boolean => {
                  onData(Buffer.from(buf.subarray(0, n)));
                  return true;
                },
              },
            },
      );
  if (target.tls && onData !== undefined) socket.on('data', onData);
  socket.setNoDelay(true);
  return socket;
}

export interface Origin {
  readonly origin: string;
  readonly tls: boolean;
  /** For connect: no IPv6 brackets. */
  readonly hostname: string;
  readonly port: number;
  /** For the Host header: brackets, and the port unless it is the scheme's default. */
  readonly host: string;
}

export function parseOrigin(origin: string): Origin {
  let url: URL;
  try {
    url = new URL(origin);
  } catch (cause) {
    throw new TypeError(`Invalid origin ${JSON.stringify(origin)}: expected http(s)://host[:port]`, { cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`Invalid origin ${origin}: only http and https are supported`);
  const tls = url.protocol === 'https:';
  return {
    origin: url.origin,
    tls,
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (tls ? 443 : 80) : Number(url.port),
    host: url.host,
  };
}

/** Why the method, target or a header cannot be written as HTTP/1.1, if it cannot. */
export function invalidPart(request: ExactHead): string | undefined {
  if (!TOKEN.test(request.method)) return `invalid method ${JSON.stringify(request.method)}`;
  if (request.path === '' || INVALID_TARGET.test(request.path)) return `invalid request target ${JSON.stringify(request.path)}`;
  for (const [name, value] of Object.entries(request.headers)) {
    if (!TOKEN.test(name)) return `invalid header name ${JSON.stringify(name)}`;
    if (INVALID_FIELD_VALUE.test(value)) return `invalid value for header ${name}: ${JSON.stringify(value)}`;
  }
  return undefined;
}

/** The request head: `connection: close` added last unless `keepAlive` (or a connection header is given). */
export function requestHead(request: ExactHead, host: string, body: Uint8Array, keepAlive = false): string {
  const given = Object.entries(request.headers);
  const has = (name: string): boolean => given.some(([n]) => n.toLowerCase() === name);
  const lines = [`${request.method} ${request.path} HTTP/1.1`];
  if (!has('host')) lines.push(`host: ${host}`);
  for (const [name, value] of given) lines.push(`${name}: ${value}`);
  const framed = has('content-length') || has('transfer-encoding');
  const wantsLength = request.body !== undefined || METHODS_WITH_CONTENT.has(request.method.toUpperCase());
  if (request.omitContentLength !== true && !framed && wantsLength) lines.push(`content-length: ${body.length}`);
  if (!keepAlive && !has('connection')) lines.push('connection: close');
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export function malformed(problem: string, sent: SentRequest, head: HttpResponseHead | undefined): TransportError {
  return new TransportError({
    code: 'NETWORK',
    message: `Malformed HTTP response from ${sent.url}: ${problem}`,
    details: `The bytes the node sent are not a valid HTTP/1.1 response (RFC 9112): ${problem}.${
      head === undefined ? '' : ` The response head read so far: HTTP ${head.status}.`
    }`,
    request: sent,
    response: head === undefined ? undefined : responseEvidence(head.status, head.headers, '', 0, false),
  });
}

/** The connection ended (closed or reset) before the response was complete. */
export function cutShort(reader: HttpResponseReader, cause: Error | undefined, writeError: Error | undefined, sent: SentRequest): TransportError {
  const how = cause === undefined ? 'closed' : `reset (${codeOf(cause)})`;
  const sending =
    writeError === undefined ? '' : ` The node had stopped taking the request body (${codeOf(writeError)} while sending it).`;
  const head = reader.head;
  return new TransportError({
    code: 'REFUSED',
    message:
      reader.received === 0
        ? `${sent.url} closed the connection without answering`
        : `Connection to ${sent.url} ${how} before the response was complete`,
    details: `The connection was ${how} ${reader.missing()}.${sending}`,
    request: sent,
    response: head === undefined ? undefined : responseEvidence(head.status, head.headers, '', 0, false),
    cause,
  });
}

function codeOf(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error.message;
}
