// The only module that imports undici: swapping or auditing the HTTP stack touches this file.
import { Pool } from 'undici';
import { HttpExchangeFailure } from './HttpExchangeFailure.js';
import { toTransportError, type PartialResponse } from './toTransportError.js';
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
  /** Every field line as it came (names lower-cased), where the exchange kept them (ExactHttpPool): see HttpResponseHead.fields. */
  readonly fields?: readonly (readonly [string, string])[];
  readonly body: Buffer;
  /** The body went past maxBodyBytes: `body` holds the first maxBodyBytes (or none, on fail-fast). */
  readonly truncated: boolean;
  readonly timing: Timing;
}

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
      const error = toTransportError(cause, reason, { sent: request.sent, timeoutMs: request.timeoutMs }, partial);
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
