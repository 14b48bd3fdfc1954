// The only module that imports undici: swapping or auditing the HTTP stack touches this file.
import { Pool } from 'undici';
import { responseEvidence } from './responseEvidence.js';
import { TransportError, type TransportErrorCode } from './TransportError.js';
import type { SentRequest, Timing } from './types.js';

export interface HttpTransportOptions {
  /** `http(s)://host:port` */
  readonly origin: string;
  readonly connections: number;
  readonly keepAliveTimeoutMs: number;
}

export interface HttpExchangeRequest {
  readonly path: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  /** Bytes of body kept; reading stops and the connection is dropped beyond it. */
  readonly maxBodyBytes: number;
  /** When the caller will reject an oversized body anyway: stop at once on a too-large Content-Length. */
  readonly failFastOnDeclaredLength: boolean;
  /** For error evidence. */
  readonly sent: SentRequest;
}

export interface HttpExchangeResult {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  /** The body went past maxBodyBytes: `body` holds the first maxBodyBytes (or none, on fail-fast). */
  readonly truncated: boolean;
  readonly timing: Timing;
}

/** Thrown by send: the TransportError plus the timing, so the failed exchange can still be recorded. */
export class HttpExchangeFailure extends Error {
  readonly error: TransportError;
  readonly timing: Timing;

  constructor(error: TransportError, timing: Timing) {
    super(error.message, { cause: error });
    this.error = error;
    this.timing = timing;
  }
}

interface PartialResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
}

// Socket-level failures before or during the exchange: the node is not reachable as configured.
const REFUSED_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'ECONNABORTED',
  'EADDRNOTAVAIL',
  'UND_ERR_SOCKET',
]);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * HTTP/1.1 exchanges with one origin over a keep-alive undici Pool. Every exchange is bounded in
 * time (one timer from connect to the last body byte) and in memory (the body is streamed and
 * the connection dropped past the cap). Never interprets status or body.
 */
export class HttpTransport {
  private readonly pool: Pool;

  constructor(options: HttpTransportOptions) {
    this.pool = new Pool(options.origin, {
      connections: options.connections,
      pipelining: 1,
      keepAliveTimeout: options.keepAliveTimeoutMs,
      // Our own timer covers the whole exchange; undici's would race it with other error codes.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  async send(request: HttpExchangeRequest): Promise<HttpExchangeResult> {
    const startedAt = Date.now();
    const t0 = performance.now();
    let ttfbMs: number | null = null;
    let partial: PartialResponse | undefined;
    const timing = (): Timing => ({ startedAt, ttfbMs, totalMs: performance.now() - t0 });

    // One controller for undici: the timer and the caller's signal both abort it, and we
    // remember which fired, whatever error undici surfaces for it.
    const controller = new AbortController();
    let reason: 'TIMEOUT' | 'ABORTED' | undefined;
    const onCallerAbort = (): void => {
      reason ??= 'ABORTED';
      controller.abort();
    };
    const timer = setTimeout(() => {
      reason ??= 'TIMEOUT';
      controller.abort();
    }, request.timeoutMs);
    if (request.signal?.aborted) onCallerAbort();
    else request.signal?.addEventListener('abort', onCallerAbort, { once: true });

    try {
      if (reason !== undefined) throw new Error('aborted before sending');
      const response = await this.pool.request({
        path: request.path,
        method: request.method,
        headers: { ...request.headers },
        body: request.body === undefined ? null : request.body,
        signal: controller.signal,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      ttfbMs = performance.now() - t0;
      const headers = flattenHeaders(response.headers);
      partial = { status: response.statusCode, headers };
      const body = response.body;
      // Errors still reach the iterator below; this listener only keeps a destroy() we do
      // ourselves from surfacing as an unhandled 'error' event.
      body.on('error', ignore);

      const declared = Number(headers['content-length']);
      if (request.failFastOnDeclaredLength && Number.isFinite(declared) && declared > request.maxBodyBytes) {
        body.destroy();
        return { status: response.statusCode, headers, body: Buffer.alloc(0), truncated: true, timing: timing() };
      }

      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      for await (const chunk of body as AsyncIterable<Buffer>) {
        if (size + chunk.length > request.maxBodyBytes) {
          chunks.push(chunk.subarray(0, request.maxBodyBytes - size));
          size = request.maxBodyBytes;
          truncated = true;
          // Stop reading now: destroying the body aborts the request and closes the socket,
          // so a node streaming a gigabyte costs us at most the cap plus one chunk.
          body.destroy();
          break;
        }
        chunks.push(chunk);
        size += chunk.length;
      }
      return { status: response.statusCode, headers, body: Buffer.concat(chunks, size), truncated, timing: timing() };
    } catch (cause) {
      const error = toTransportError(cause, reason, request, partial);
      throw new HttpExchangeFailure(error, timing());
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** Waits for in-flight exchanges, then closes every socket. */
  async close(): Promise<void> {
    await this.pool.close();
  }
}

function ignore(): void {}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The first error code found on the error, its cause chain, or an AggregateError's members (happy eyeballs). */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 4 || typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError) {
    for (const member of error.errors) {
      const found = errorCode(member, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return errorCode((error as { cause?: unknown }).cause, depth + 1);
}

function toTransportError(
  cause: unknown,
  reason: 'TIMEOUT' | 'ABORTED' | undefined,
  request: HttpExchangeRequest,
  partial: PartialResponse | undefined,
): TransportError {
  const url = request.sent.url;
  // When headers had arrived, the status is evidence too (the body is not kept: it was cut short).
  const response = partial === undefined ? undefined : responseEvidence(partial.status, partial.headers, '', 0, false);
  const make = (code: TransportErrorCode, message: string, details: string): TransportError =>
    new TransportError({ code, message, details, request: request.sent, response, cause });
  if (reason === 'TIMEOUT') {
    return make(
      'TIMEOUT',
      `No complete response from ${url} within ${request.timeoutMs} ms`,
      `The exchange (connect, request, response headers and body) took longer than timeoutMs=${request.timeoutMs}. Raise timeoutMs if the node is slow but alive.`,
    );
  }
  if (reason === 'ABORTED')
    return make('ABORTED', `Request to ${url} was aborted`, "The caller's AbortSignal fired before the exchange completed.");
  const code = errorCode(cause);
  const text = cause instanceof Error ? cause.message : String(cause);
  if (code !== undefined && REFUSED_CODES.has(code)) {
    return make(
      'REFUSED',
      `Could not reach ${url} (${code})`,
      `${text}. Check that the node is running and that the base URL (host, port, scheme) is right.`,
    );
  }
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    return make('TIMEOUT', `No complete response from ${url} (${code})`, text);
  }
  return make('NETWORK', `HTTP exchange with ${url} failed${code === undefined ? '' : ` (${code})`}`, text);
}
