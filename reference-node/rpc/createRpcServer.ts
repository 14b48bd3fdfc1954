import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { REFERENCE_SETTINGS } from '../../core/referenceSettings.js';
import { validators } from '../../core/schema/validators.js';
import { RpcIncoming } from './readBody.js';
import { RpcConnections } from './RpcConnections.js';
import { MAX_UNREAD_CHARS, RpcRequestHandler } from './RpcRequestHandler.js';
import type { RpcRequestSettings } from './RpcRequestHandler.js';
import { REFERENCE_TRANSPORT_RULES } from './TransportRules.js';
import type { TransportRules } from './TransportRules.js';
import type { MethodTable, MetricsSource, OnCall, OnSettled } from './types.js';

export interface RpcServerOptions {
  readonly methods: MethodTable;
  /** Largest request body accepted on /rpc, in bytes; larger is refused with 413. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Most requests per batch; a longer batch gets one -32013 error. Default 1000. */
  readonly maxBatch?: number;
  /** Most characters of large answers held for clients that have not read them; past it, requests get 503. Default 64 Mi. */
  readonly maxUnreadChars?: number;
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
  /** Called once per request object settled, dispatched or refused (see OnSettled). */
  readonly onSettled?: OnSettled;
  /** Served at GET (and HEAD) /metrics; without it, /metrics is a path like any other (404). */
  readonly metrics?: MetricsSource;
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

// Listen backlog: 1,000 clients connecting at once must not overflow the accept queue (Node's default is 511).
const BACKLOG = 4096;

/**
 * The reference node's JSON-RPC 2.0 endpoint over HTTP/1.1 (node:http, no framework): `POST /rpc`
 * runs handleRpcBody; the HTTP status policy of docs/transport.md is applied around it; `GET /metrics`
 * serves the metrics text it is given, on the same port, so a scraper needs no second address. Nothing a
 * client sends can throw out of a request handler. Here: the settings, the node:http server and its
 * wiring; one request is served by RpcRequestHandler.ts, the connections and close() are RpcConnections.ts.
 */
export function createRpcServer(options: RpcServerOptions): RpcServer {
  const requestTimeout = options.requestTimeoutMs ?? RPC_SERVER_DEFAULTS.requestTimeoutMs;
  // node:http refuses headersTimeout > requestTimeout.
  const headersTimeout = Math.min(options.headersTimeoutMs ?? RPC_SERVER_DEFAULTS.headersTimeoutMs, requestTimeout);
  const settings: RpcRequestSettings = {
    rules: options.rules ?? REFERENCE_TRANSPORT_RULES,
    maxBodyBytes: options.maxBodyBytes ?? RPC_SERVER_DEFAULTS.maxBodyBytes,
    maxBatch: options.maxBatch ?? RPC_SERVER_DEFAULTS.maxBatch,
    maxUnreadChars: options.maxUnreadChars ?? MAX_UNREAD_CHARS,
    logError: options.logError ?? ((line: string) => void process.stderr.write(`${line}\n`)),
    onCall: options.onCall,
    onSettled: options.onSettled,
    metrics: options.metrics,
  };
  // Compile the param schemas now rather than on the first request.
  validators();

  const server = createServer({
    IncomingMessage: RpcIncoming,
    requestTimeout,
    headersTimeout,
    // The timeouts above are only enforced when node:http sweeps its connections (default: every 30 s).
    connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(headersTimeout / 4))),
    keepAliveTimeout: options.keepAliveTimeoutMs ?? RPC_SERVER_DEFAULTS.keepAliveTimeoutMs,
  });
  // No connection cap (maxConnections stays unset): 1,000 concurrent clients are served.

  const connections = new RpcConnections(server, options.closeGraceMs ?? RPC_SERVER_DEFAULTS.closeGraceMs);
  const requests = new RpcRequestHandler(server, options.methods, settings);
  const onRequest = (req: RpcIncoming, res: ServerResponse, expectsContinue: boolean): void => {
    connections.requested(req, res);
    requests.serve(req, res, expectsContinue);
  };

  server.on('connection', (socket: Duplex) => connections.opened(socket));
  server.on('request', (req: RpcIncoming, res: ServerResponse) => onRequest(req, res, false));
  // Expect: 100-continue: answer a refusal (405/413/415) before the client sends its body.
  server.on('checkContinue', (req: RpcIncoming, res: ServerResponse) => onRequest(req, res, true));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => connections.clientError(error, socket));

  return {
    server,
    setMethods(next: MethodTable): void {
      requests.methods = next;
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
      return connections.close();
    },
  };
}

/** The host part of a base URL for a bound address (a wildcard address is reached on loopback). */
export function urlHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0' || address.address === '::') return '127.0.0.1';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}
