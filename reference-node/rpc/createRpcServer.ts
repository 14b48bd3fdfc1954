import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { REFERENCE_SETTINGS } from '../../core/referenceSettings.js';
import { validators } from '../../core/schema/validators.js';
import { standardError } from './errorResponse.js';
import { handleRpcBody, parseErrorText } from './handleRpcBody.js';
import { JSON_TYPE, REFERENCE_TRANSPORT_RULES } from './TransportRules.js';
import type { TransportRules } from './TransportRules.js';
import type { MethodTable, OnCall } from './types.js';

export interface RpcServerOptions {
  readonly methods: MethodTable;
  /** Largest request body accepted on /rpc, in bytes; larger is refused with 413. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Most requests per batch; a longer batch gets one -32013 error. Default 1000. */
  readonly maxBatch?: number;
  /** Time allowed to receive the request headers (capped at requestTimeoutMs). Default 10 s. */
  readonly headersTimeoutMs?: number;
  /** Time allowed to receive the whole request, headers and body; a slower client gets 408 and is cut off. Default 15 s. */
  readonly requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open. Default 5 s. */
  readonly keepAliveTimeoutMs?: number;
  /** How long close() waits for calls in flight before destroying their connections. Default 2 s. */
  readonly closeGraceMs?: number;
  /** Called once per dispatched call (see handleRpcBody). */
  readonly onCall?: OnCall;
  /** Where failures are logged, one line each. Default: stderr. */
  readonly logError?: (line: string) => void;
  /** The transport's choices (docs/transport.md). Default: REFERENCE_TRANSPORT_RULES; anything else is a deliberate variant. */
  readonly rules?: TransportRules;
}

export interface RpcServer {
  /** The node:http server, for tests and for the node's own wiring. */
  readonly server: Server;
  /** Binds `host:port` (port 0: any free port) and resolves with the base URL, e.g. `http://127.0.0.1:40123`. */
  listen(port: number, host?: string): Promise<{ url: string }>;
  /** Replaces the method table (the node builds it after it knows its own URL). */
  setMethods(methods: MethodTable): void;
  /** Stops accepting, closes idle keep-alive connections, waits up to closeGraceMs for calls in flight, then destroys the rest. */
  close(): Promise<void>;
}

export const RPC_SERVER_DEFAULTS = {
  maxBodyBytes: REFERENCE_SETTINGS.maxBodyBytes,
  maxBatch: REFERENCE_SETTINGS.maxBatch,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  closeGraceMs: 2_000,
} as const;

const RPC_PATH = '/rpc';
// Listen backlog: 1,000 clients connecting at once must not overflow the accept queue (Node's default is 511).
const BACKLOG = 4096;
// fatal: a body that is not UTF-8 (RFC 8259 §8.1) is refused as a parse error, never decoded with U+FFFD.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

interface Connection {
  /** The response of the connection's latest request; undefined before its first. */
  res: ServerResponse | undefined;
}

const NO_BYTES = Buffer.alloc(0);

/**
 * The reference node's JSON-RPC 2.0 endpoint over HTTP/1.1 (node:http, no framework): `POST /rpc`
 * runs handleRpcBody; the HTTP status policy of docs/transport.md is applied around it. Nothing a
 * client sends can throw out of a request handler.
 */
export function createRpcServer(options: RpcServerOptions): RpcServer {
  let methods = options.methods;
  const rules = options.rules ?? REFERENCE_TRANSPORT_RULES;
  const maxBodyBytes = options.maxBodyBytes ?? RPC_SERVER_DEFAULTS.maxBodyBytes;
  const maxBatch = options.maxBatch ?? RPC_SERVER_DEFAULTS.maxBatch;
  const requestTimeout = options.requestTimeoutMs ?? RPC_SERVER_DEFAULTS.requestTimeoutMs;
  // node:http refuses headersTimeout > requestTimeout.
  const headersTimeout = Math.min(options.headersTimeoutMs ?? RPC_SERVER_DEFAULTS.headersTimeoutMs, requestTimeout);
  const closeGraceMs = options.closeGraceMs ?? RPC_SERVER_DEFAULTS.closeGraceMs;
  const logError = options.logError ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const rewriteAnswer = rules.rewriteAnswer;
  const onCall = options.onCall;
  // Compile the param schemas now rather than on the first request.
  validators();

  const server = createServer({
    requestTimeout,
    headersTimeout,
    // The timeouts above are only enforced when node:http sweeps its connections (default: every 30 s).
    connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(headersTimeout / 4))),
    keepAliveTimeout: options.keepAliveTimeoutMs ?? RPC_SERVER_DEFAULTS.keepAliveTimeoutMs,
  });
  // No connection cap (maxConnections stays unset): 1,000 concurrent clients are served.

  // Per connection: the response it is answering or last answered (for clientError and close()).
  // Tracked per connection rather than per request, so a request adds no listener of its own.
  const connections = new Map<Duplex, Connection>();
  let closing: Promise<void> | undefined;
  // While closing: the responses still to be finished, and who waits for the last one.
  let draining: { pending: Set<ServerResponse>; done: () => void } | undefined;

  const drainTrack = (res: ServerResponse): void => {
    if (draining === undefined || res.writableEnded || res.destroyed) return;
    const { pending } = draining;
    pending.add(res);
    res.once('close', () => {
      pending.delete(res);
      if (pending.size === 0) draining?.done();
    });
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void => {
    const connection = connections.get(req.socket);
    if (connection !== undefined) connection.res = res;
    if (closing) {
      res.shouldKeepAlive = false;
      drainTrack(res);
    }
    try {
      const path = pathOf(req.url);
      if (path === RPC_PATH) serveRpc(req, res, expectsContinue);
      // Only JSON-RPC is served here: the peer protocol (/p2p/) has a listener of its own.
      else refuse(req, res, 404, `nothing is served at this path; JSON-RPC is at POST ${RPC_PATH}`);
    } catch (error) {
      failed(res, error);
    }
  };

  /** A handler bug, never a client's doing: logged, answered with 500 when still possible. */
  const failed = (res: ServerResponse, error: unknown): void => {
    logError(`rpc: request handling failed: ${error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error'}`.replace(/\s+/g, ' '));
    if (!res.headersSent && !res.destroyed) sendJson(res, 500, standardError('internalError', null, 'the node failed while handling this request'), true);
    else res.destroy();
  };

  // The hot path: synchronous up to the dispatcher, with two listeners (data, end) per request.
  const serveRpc = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void => {
    const verdict = rules.httpMethod(req.method);
    if (verdict !== 'serve') {
      if (verdict === 'invalid-request') return sendJson(res, 200, standardError('invalidRequest', null, 'use POST for JSON-RPC'));
      refuse(req, res, 405, `use POST for JSON-RPC (got ${req.method ?? 'no method'})`, { allow: 'POST' });
      return;
    }
    if (!rules.acceptsContentType(req.headers['content-type'])) {
      refuse(req, res, 415, `the content type must be ${JSON_TYPE}`);
      return;
    }
    // Decide from Content-Length before reading a byte (node:http has already rejected a malformed one).
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBodyBytes) {
      refuse(req, res, 413, `the body is ${declared} bytes; this node takes at most ${maxBodyBytes}`);
      return;
    }
    const early = rules.beforeBody?.(req);
    if (early !== undefined) return sendJson(res, early.status, early.body, false, early.contentType);
    if (expectsContinue) res.writeContinue();
    // A client that leaves or is timed out mid-body never reaches either callback: nobody to answer.
    readBody(
      req,
      maxBodyBytes,
      (bytes) => {
        try {
          answer(req, res, bytes);
        } catch (error) {
          failed(res, error);
        }
      },
      () => refuse(req, res, 413, `the body is over ${maxBodyBytes} bytes, the most this node takes`),
    );
  };

  const answer = (req: IncomingMessage, res: ServerResponse, bytes: Buffer): void => {
    let text: string;
    try {
      text = UTF8.decode(bytes);
    } catch {
      send(res, parseErrorText('the body is not valid UTF-8'), '');
      return;
    }
    if (rules.takeOver?.(text, { server, res, log: logError }) === true) return;
    const remoteAddress = req.socket.remoteAddress ?? '';
    const dispatched = handleRpcBody(text, methods, { maxBatch, remoteAddress, logError, rules, onCall });
    if (typeof dispatched === 'string' || dispatched === null) send(res, dispatched, text);
    else dispatched.then((d) => send(res, d, text)).catch((error: unknown) => failed(res, error));
  };

  const send = (res: ServerResponse, dispatched: string | null, request: string): void => {
    const text = rewriteAnswer === undefined ? dispatched : rewriteAnswer(dispatched, request);
    if (res.destroyed || res.writableEnded) return;
    if (text === null) {
      // Notifications only: JSON-RPC sends nothing, HTTP says so with 204 and no body (profile).
      res.writeHead(204);
      res.end();
    } else {
      sendJson(res, rules.answerStatus(text), text, false, rules.answerContentType);
    }
  };

  server.on('connection', (socket: Duplex) => {
    connections.set(socket, { res: undefined });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => onRequest(req, res, false));
  // Expect: 100-continue: answer a refusal (405/413/415) before the client sends its body.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => onRequest(req, res, true));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Malformed HTTP, a request timeout, a reset: answer if the connection is between responses, then drop it.
    const res = connections.get(socket)?.res;
    // Not between responses: one is being written, or the last one closes the connection.
    const betweenResponses = res === undefined || !res.headersSent || (res.writableEnded && res.shouldKeepAlive);
    if (socket.writable && betweenResponses && error.code !== 'ECONNRESET') {
      const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    }
    socket.destroy();
  });

  return {
    server,
    setMethods(next: MethodTable): void {
      methods = next;
    },
    listen(port: number, host = '127.0.0.1'): Promise<{ url: string }> {
      return new Promise((resolve, reject) => {
        const onError = (error: Error): void => reject(error);
        server.once('error', onError);
        server.listen({ port, host, backlog: BACKLOG }, () => {
          server.off('error', onError);
          const address = server.address() as AddressInfo;
          resolve({ url: `http://${urlHost(address)}:${address.port}` });
        });
      });
    },
    close(): Promise<void> {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => {
          server.close(() => resolve());
        });
        // Node 20's close() already ends idle keep-alive connections; in-flight ones finish with Connection: close.
        server.closeIdleConnections();
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, closeGraceMs);
          draining = {
            pending: new Set(),
            done: () => {
              clearTimeout(timer);
              resolve();
            },
          };
          for (const { res } of connections.values()) {
            if (res === undefined) continue;
            if (!res.headersSent) res.shouldKeepAlive = false;
            drainTrack(res);
          }
          if (draining.pending.size === 0) draining.done();
        });
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}

/**
 * A refusal before the body was read. A body that may still be on its way makes the connection
 * close after the answer, so a refused (possibly huge) body is never read or buffered.
 */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, reason: string, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.headersSent) return;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  sendJson(res, status, standardError('invalidRequest', null, reason), mayHaveBody(req));
}

function sendJson(res: ServerResponse, status: number, body: string, close = false, contentType = JSON_TYPE): void {
  if (res.destroyed || res.headersSent) return;
  const headers: Record<string, string | number> = { 'content-type': contentType, 'content-length': Buffer.byteLength(body) };
  if (close) {
    headers.connection = 'close';
    res.shouldKeepAlive = false;
  }
  res.writeHead(status, headers);
  res.end(body);
}

function mayHaveBody(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads the body, at most `limit` bytes: `onBody` gets it whole; as soon as it grows past the limit,
 * reading stops (the rest stays unread) and `onTooLarge` is called instead.
 */
function readBody(req: IncomingMessage, limit: number, onBody: (bytes: Buffer) => void, onTooLarge: () => void): void {
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  let over = false;
  // The connection keeps its last request (and these listeners) until the next one arrives, so the
  // chunks are let go as soon as they are used: an idle keep-alive connection holds no body.
  req.on('data', (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > limit) {
      over = true;
      first = more = undefined;
      req.pause();
      onTooLarge();
    } else if (first === undefined) {
      first = chunk;
    } else {
      (more ??= [first]).push(chunk);
    }
  });
  req.on('end', () => {
    if (over) return;
    const body = more === undefined ? (first ?? NO_BYTES) : Buffer.concat(more, size);
    first = more = undefined;
    onBody(body);
  });
}

/** The path of an origin-form or absolute-form request target; '' when it cannot be read. */
function pathOf(url: string | undefined): string {
  if (url === RPC_PATH || url === undefined) return url ?? '';
  if (url.startsWith('/')) {
    const q = url.search(/[?#]/);
    return q === -1 ? url : url.slice(0, q);
  }
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/** The host part of a base URL for a bound address (a wildcard address is reached on loopback). */
export function urlHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0' || address.address === '::') return '127.0.0.1';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}
