import { parseJson, stringifyJson, type JsonValue } from '../json/index.js';
import { decodeBody } from './decodeBody.js';
import { HttpExchangeFailure } from './HttpExchangeFailure.js';
import { HttpTransport, type HttpExchangeResult } from './HttpTransport.js';
import { JsonRpcError } from './JsonRpcError.js';
import { matchBatch } from './matchBatch.js';
import { responseEvidence } from './responseEvidence.js';
import { sendExactHttp } from './sendExactHttp.js';
import { TransportError, type BatchIdProblems } from './TransportError.js';
import type {
  BatchCall,
  BatchOutcome,
  CallOptions,
  Exchange,
  RawRequest,
  RawResponse,
  ResponseEvidence,
  RpcClientOptions,
  SentRequest,
} from './types.js';
import { short, validateResponse } from './validateResponse.js';

export const CLIENT_DEFAULTS = {
  connections: 8,
  keepAliveTimeoutMs: 4_000,
  timeoutMs: 10_000,
  maxResponseBytes: 16 * 1024 * 1024,
  rpcPath: '/rpc',
  rateLimitRetries: 4,
} as const;

/** HTTP 429 Too Many Requests (RFC 6585 §4): the request was refused for the client's rate, not acted on. */
const TOO_MANY_REQUESTS = 429;
/** The longest wait for one Retry-After, and the first wait when a 429 names none (doubling after). */
const MAX_RETRY_WAIT_MS = 5_000;
const FIRST_RETRY_WAIT_MS = 500;

/** How long a 429 asks the client to wait: Retry-After's seconds or date (RFC 9110 §10.2.3), else a doubling wait; at most MAX_RETRY_WAIT_MS. */
export function retryAfterMs(value: string | undefined, attempt: number, now = Date.now()): number {
  const fallback = FIRST_RETRY_WAIT_MS * 2 ** attempt;
  let ms = fallback;
  if (value !== undefined && /^\s*\d+\s*$/.test(value)) ms = Number(value) * 1000;
  else if (value !== undefined && !Number.isNaN(Date.parse(value))) ms = Date.parse(value) - now;
  return Math.min(MAX_RETRY_WAIT_MS, Math.max(0, ms));
}

/** Resolves after `ms`, or at once when `signal` aborts (the exchange that follows then ends as ABORTED). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 || signal?.aborted === true) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

interface ExchangeSpec {
  readonly kind: Exchange['kind'];
  readonly httpMethod: string;
  /** The request target: the base URL's path included. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly maxBodyBytes: number;
  /** call/batch reject an oversized body (BODY_TOO_LARGE); raw/notify report it as truncated. */
  readonly rejectOversized: boolean;
  /** raw only: a connection of its own, written byte for byte (sendExactHttp), not the pool. */
  readonly exact?: { readonly omitContentLength: boolean } | undefined;
}

interface CompletedExchange {
  readonly result: HttpExchangeResult;
  readonly sent: SentRequest;
  readonly text: string;
  readonly validUtf8: boolean;
}

/** Parsed JSON, or why the body is not JSON. */
type BodyJson = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly reason: string };

/**
 * JSON-RPC 2.0 client for one node: `POST {baseUrl}{rpcPath}` (default `/rpc`) over keep-alive HTTP/1.1.
 *
 * - `call` / `batch` return results and throw JsonRpcError (node answered with an error object) or
 *   TransportError (anything else: network, timeout, size cap, not JSON, not JSON-RPC).
 * - `notify` and `raw` report whatever came back, uninterpreted, for transport checks.
 *
 * Integers beyond ±(2^53−1) in responses come back as bigint (lossless parser); bigints in
 * params are sent as bare integer literals.
 */
export class RpcClient {
  /** The normalized base URL (no trailing slash). */
  readonly baseUrl: string;
  /** The JSON-RPC endpoint: `{baseUrl}{rpcPath}`, or the base URL itself for rpcPath '/'. */
  readonly url: string;
  private readonly origin: string;
  private readonly basePath: string;
  /** The endpoint's request target: the base URL's path and rpcPath. */
  private readonly rpcTarget: string;
  private readonly transport: HttpTransport;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly onExchange: ((exchange: Exchange) => void) | undefined;
  private nextId = 1;
  private closed = false;
  private readonly rateLimitRetries: number;
  /** Milliseconds between two exchanges' starts (0: no pace), and when the next may start (performance.now()). */
  private readonly paceMs: number;
  private nextStartMs = 0;
  /** Exact exchanges in flight (each on its own socket), for close() to wait for. */
  private readonly exactInFlight = new Set<Promise<unknown>>();

  constructor(options: RpcClientOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch (cause) {
      throw new TypeError(
        `Invalid baseUrl ${JSON.stringify(options.baseUrl)}: expected an absolute http(s) URL such as http://127.0.0.1:8545`,
        { cause },
      );
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:')
      throw new TypeError(`Invalid baseUrl ${options.baseUrl}: only http and https are supported`);
    if (base.search !== '' || base.hash !== '')
      throw new TypeError(`Invalid baseUrl ${options.baseUrl}: no query or fragment allowed (pass credentials in \`headers\`)`);
    if (base.username !== '' || base.password !== '')
      throw new TypeError(`Invalid baseUrl: no credentials in the URL (pass an authorization header in \`headers\`)`);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.baseUrl = this.origin + this.basePath;
    const rpcPath = checkRpcPath(options.rpcPath ?? CLIENT_DEFAULTS.rpcPath);
    // '/' is the base URL itself; an empty path is sent as '/' (RFC 9112 §3.2.1).
    this.rpcTarget = rpcPath === '/' ? this.basePath || '/' : this.basePath + rpcPath;
    this.url = this.origin + this.rpcTarget;
    this.timeoutMs = positive('timeoutMs', options.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs);
    this.maxResponseBytes = positive('maxResponseBytes', options.maxResponseBytes ?? CLIENT_DEFAULTS.maxResponseBytes);
    this.headers = lowerCaseKeys(options.headers ?? {});
    this.onExchange = options.onExchange;
    const retries = options.rateLimitRetries ?? CLIENT_DEFAULTS.rateLimitRetries;
    if (!Number.isInteger(retries) || retries < 0) throw new TypeError(`Invalid rateLimitRetries ${String(retries)}: expected a whole number, 0 or more`);
    this.rateLimitRetries = retries;
    this.paceMs = options.maxRequestsPerSecond === undefined ? 0 : 1000 / positive('maxRequestsPerSecond', options.maxRequestsPerSecond);
    this.transport = new HttpTransport({
      origin: this.origin,
      connections: positive('connections', options.connections ?? CLIENT_DEFAULTS.connections),
      keepAliveTimeoutMs: positive('keepAliveTimeoutMs', options.keepAliveTimeoutMs ?? CLIENT_DEFAULTS.keepAliveTimeoutMs),
    });
  }

  /**
   * Calls `method` and returns its result. `R` is not checked: typed helpers narrow it after
   * validating the result against the method's schema.
   * @throws JsonRpcError when the node answers with an error object
   * @throws TransportError for every other failure (see TransportErrorCode)
   */
  async call<R = unknown>(method: string, params: readonly unknown[] = [], options: CallOptions = {}): Promise<R> {
    const id = this.takeIds(1)[0] ?? 0;
    const exchange = await this.exchange(this.jsonSpec('call', stringifyJson({ jsonrpc: '2.0', method, params, id }), options));
    const { result, sent } = exchange;
    const evidence = this.evidence(exchange);
    const body = this.jsonBody(exchange);
    if (!body.ok) throw this.notJson(exchange, evidence, body.reason);
    const checked = validateResponse(body.value);
    if (checked.kind === 'invalid') {
      if (!isSuccess(result.status)) throw this.httpStatus(exchange, evidence, checked.problem);
      throw badResponse(
        sent,
        evidence,
        `Invalid JSON-RPC response from ${this.url}: ${checked.problem}`,
        `Request id ${id} (${method}): ${checked.problem}. Body: ${evidence.excerpt}`,
      );
    }
    // JSON-RPC 2.0 §5: an error for a request whose id the node could not read carries id null.
    const idOk = checked.id === id || (checked.kind === 'error' && checked.id === null);
    if (!idOk) {
      throw badResponse(
        sent,
        evidence,
        `Response id ${short(checked.id)} does not match request id ${id}`,
        `Sent ${method} with id ${id}; the response carries id ${short(checked.id)}. Body: ${evidence.excerpt}`,
      );
    }
    if (checked.kind === 'error') throw new JsonRpcError({ error: checked.error, method, id, request: sent, response: evidence });
    return checked.result as R;
  }

  /**
   * Sends a notification (no id). JSON-RPC 2.0 §4.1 says the node must not answer; whatever it
   * sends anyway is returned, uninterpreted, for checks to judge.
   * @throws TransportError for REFUSED, TIMEOUT, ABORTED, NETWORK only
   */
  async notify(method: string, params: readonly unknown[] = [], options: CallOptions = {}): Promise<RawResponse> {
    const spec = this.jsonSpec('notify', stringifyJson({ jsonrpc: '2.0', method, params }), options);
    return this.rawResponse(await this.exchange({ ...spec, rejectOversized: false }));
  }

  /**
   * Sends the calls as one batch and returns one outcome per call, in request order, matched by
   * id whatever order the node answered in (JSON-RPC 2.0 §6).
   * @throws TransportError BAD_RESPONSE (with `batchIds`) when an id is missing, duplicated or
   *   unexpected, an element is not a valid response, or the body is not an array
   * @throws JsonRpcError when the node rejects the whole batch with one error object (id null)
   */
  async batch<Results extends readonly unknown[] = unknown[]>(
    calls: readonly BatchCall[],
    options: CallOptions = {},
  ): Promise<{ -readonly [K in keyof Results]: BatchOutcome<Results[K]> }> {
    const ids = this.takeIds(calls.length);
    const payload = calls.map((c, i) => ({ jsonrpc: '2.0', method: c.method, params: c.params ?? [], id: ids[i] }));
    const exchange = await this.exchange(this.jsonSpec('batch', stringifyJson(payload), options));
    const { result, sent } = exchange;
    const evidence = this.evidence(exchange);
    const body = this.jsonBody(exchange);
    if (!body.ok) throw this.notJson(exchange, evidence, body.reason);
    if (!Array.isArray(body.value)) {
      const single = validateResponse(body.value);
      // JSON-RPC 2.0 §6: a batch the node cannot process is answered with one error object.
      if (single.kind === 'error' && single.id === null)
        throw new JsonRpcError({ error: single.error, method: 'batch', id: null, request: sent, response: evidence });
      if (!isSuccess(result.status)) throw this.httpStatus(exchange, evidence, 'the body is not a JSON-RPC batch response');
    }
    const match = matchBatch(body.value, ids);
    if (!match.ok) {
      const summary = match.problems.join('; ');
      throw badResponse(
        sent,
        evidence,
        `Batch response from ${this.url} does not match the request: ${clip(summary, 300)}`,
        `Sent ids ${ids.join(', ')}. ${summary}. Body: ${evidence.excerpt}`,
        match.ids,
      );
    }
    return match.outcomes as unknown as { -readonly [K in keyof Results]: BatchOutcome<Results[K]> };
  }

  /**
   * Sends arbitrary bytes and reports whatever comes back, whatever the status or body: the tool
   * for transport checks (invalid JSON, wrong content types, other HTTP methods). Adds no
   * content-type; only the client's `headers` and the request's own. With `exact`, the exchange
   * runs on a connection of its own, written byte for byte (see RawRequest.exact).
   * @throws TransportError for REFUSED, TIMEOUT, ABORTED, NETWORK only
   * @throws TypeError for omitContentLength without exact
   */
  async raw(request: RawRequest): Promise<RawResponse> {
    if (request.omitContentLength === true && request.exact !== true)
      throw new TypeError('raw: omitContentLength needs exact: true (the pooled transport always frames a POST body)');
    const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
    return this.rawResponse(
      await this.exchange({
        kind: 'raw',
        httpMethod: request.method ?? 'POST',
        path: request.path === undefined ? this.rpcTarget : this.basePath + request.path,
        headers: { ...this.headers, ...lowerCaseKeys(request.headers ?? {}) },
        body,
        timeoutMs: request.timeoutMs ?? this.timeoutMs,
        signal: request.signal,
        maxBodyBytes: request.maxBodyBytes ?? this.maxResponseBytes,
        rejectOversized: false,
        exact: request.exact === true ? { omitContentLength: request.omitContentLength === true } : undefined,
      }),
    );
  }

  /** Waits for in-flight exchanges, then closes every socket. Calls after close() throw. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Exact exchanges end on their own (response, failure or timeout) and close their socket.
    await Promise.allSettled([...this.exactInFlight]);
    await this.transport.close();
  }

  private takeIds(count: number): number[] {
    if (this.nextId + count > Number.MAX_SAFE_INTEGER) this.nextId = 1;
    const ids = Array.from({ length: count }, (_, i) => this.nextId + i);
    this.nextId += count;
    return ids;
  }

  private jsonSpec(kind: 'call' | 'batch' | 'notify', payload: string, options: CallOptions): ExchangeSpec {
    return {
      kind,
      httpMethod: 'POST',
      path: this.rpcTarget,
      headers: { ...JSON_HEADERS, ...this.headers, ...lowerCaseKeys(options.headers ?? {}) },
      body: Buffer.from(payload, 'utf8'),
      timeoutMs: options.timeoutMs ?? this.timeoutMs,
      signal: options.signal,
      maxBodyBytes: options.maxResponseBytes ?? this.maxResponseBytes,
      rejectOversized: true,
    };
  }

  /**
   * One exchange as the caller sees it: sent again, up to rateLimitRetries times, while the node answers
   * 429 (each answer reported to onExchange), at the client's pace.
   */
  private async exchange(spec: ExchangeSpec): Promise<CompletedExchange> {
    for (let attempt = 0; ; attempt++) {
      await this.pace(spec.signal);
      const done = await this.exchangeOnce(spec);
      if (done.result.status !== TOO_MANY_REQUESTS || attempt >= this.rateLimitRetries || spec.signal?.aborted === true) return done;
      await pause(retryAfterMs(done.result.headers['retry-after'], attempt), spec.signal);
    }
  }

  /** Waits for this exchange's turn at the client's pace (maxRequestsPerSecond). */
  private async pace(signal: AbortSignal | undefined): Promise<void> {
    if (this.paceMs === 0) return;
    const now = performance.now();
    const at = Math.max(now, this.nextStartMs);
    this.nextStartMs = at + this.paceMs;
    await pause(at - now, signal);
  }

  /** One HTTP exchange, reported to onExchange whatever its outcome. */
  private async exchangeOnce(spec: ExchangeSpec): Promise<CompletedExchange> {
    if (this.closed) throw new Error('RpcClient is closed: create a new client');
    const bytes = spec.body ?? new Uint8Array(0);
    const sent: SentRequest = {
      url: this.origin + spec.path,
      httpMethod: spec.httpMethod,
      headers: spec.headers,
      body: decodeBody(bytes).text,
    };
    const request = { ...sent, bytes };
    let result: HttpExchangeResult;
    try {
      result = await (spec.exact === undefined
        ? this.transport.send({
            path: spec.path,
            method: spec.httpMethod,
            headers: spec.headers,
            body: spec.body,
            timeoutMs: spec.timeoutMs,
            signal: spec.signal,
            maxBodyBytes: spec.maxBodyBytes,
            failFastOnDeclaredLength: spec.rejectOversized,
            sent,
          })
        : this.sendExact(spec, sent));
    } catch (failure) {
      if (!(failure instanceof HttpExchangeFailure)) throw failure;
      this.onExchange?.({ kind: spec.kind, request, timing: failure.timing, error: failure.error });
      throw failure.error;
    }
    const { text, validUtf8 } = decodeBody(result.body);
    const response = { status: result.status, headers: result.headers, body: result.body, text, truncated: result.truncated };
    if (result.truncated && spec.rejectOversized) {
      const error = new TransportError({
        code: 'BODY_TOO_LARGE',
        message: `Response from ${sent.url} exceeds ${spec.maxBodyBytes} bytes`,
        details: `The body was cut at maxResponseBytes=${spec.maxBodyBytes} and the connection dropped${
          result.headers['content-length'] === undefined ? '' : ` (declared content-length: ${result.headers['content-length']})`
        }. Raise maxResponseBytes if such a response is legitimate.`,
        request: sent,
        response: responseEvidence(result.status, result.headers, text, result.body.length, true),
      });
      this.onExchange?.({ kind: spec.kind, request, response, timing: result.timing, error });
      throw error;
    }
    this.onExchange?.({ kind: spec.kind, request, response, timing: result.timing });
    return { result, sent, text, validUtf8 };
  }

  private async sendExact(spec: ExchangeSpec, sent: SentRequest): Promise<HttpExchangeResult> {
    const pending = sendExactHttp({
      origin: this.origin,
      method: spec.httpMethod,
      path: spec.path,
      headers: spec.headers,
      body: spec.body,
      omitContentLength: spec.exact?.omitContentLength,
      timeoutMs: spec.timeoutMs,
      signal: spec.signal,
      maxBodyBytes: spec.maxBodyBytes,
      sent,
    });
    this.exactInFlight.add(pending);
    try {
      return await pending;
    } finally {
      this.exactInFlight.delete(pending);
    }
  }

  private evidence(exchange: CompletedExchange): ResponseEvidence {
    const { result, text } = exchange;
    return responseEvidence(result.status, result.headers, text, result.body.length, result.truncated);
  }

  private jsonBody(exchange: CompletedExchange): BodyJson {
    if (exchange.result.truncated) return { ok: false, reason: `the body was truncated at ${exchange.result.body.length} bytes` };
    if (!exchange.validUtf8) return { ok: false, reason: 'the body is not valid UTF-8 (RFC 8259 §8.1)' };
    try {
      return { ok: true, value: parseJson(exchange.text) };
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  private rawResponse(exchange: CompletedExchange): RawResponse {
    const { result, text } = exchange;
    const body = this.jsonBody(exchange);
    const base = {
      status: result.status,
      headers: result.headers,
      body: result.body,
      text,
      truncated: result.truncated,
      timing: result.timing,
    };
    return body.ok ? { ...base, json: body.value } : { ...base, parseError: body.reason };
  }

  /** NOT_JSON for a 2xx answer, HTTP_STATUS otherwise. */
  private notJson(exchange: CompletedExchange, evidence: ResponseEvidence, reason: string): TransportError {
    const { result, sent } = exchange;
    if (!isSuccess(result.status)) return this.httpStatus(exchange, evidence, `the body is not JSON (${reason})`);
    return new TransportError({
      code: 'NOT_JSON',
      message: `Response from ${sent.url} is not JSON (HTTP ${result.status}, content-type ${evidence.contentType ?? 'none'})`,
      details: `${reason}. Body starts: ${evidence.excerpt === '' ? '(empty)' : evidence.excerpt}`,
      request: sent,
      response: evidence,
    });
  }

  private httpStatus(exchange: CompletedExchange, evidence: ResponseEvidence, reason: string): TransportError {
    const { result, sent } = exchange;
    return new TransportError({
      code: 'HTTP_STATUS',
      message: `HTTP ${result.status} from ${sent.url} without a JSON-RPC response`,
      details: `${reason}. Content-type ${evidence.contentType ?? 'none'}. Body starts: ${evidence.excerpt === '' ? '(empty)' : evidence.excerpt}`,
      request: sent,
      response: evidence,
    });
  }
}

/** Same as `new RpcClient(options)`. */
export function createClient(options: RpcClientOptions): RpcClient {
  return new RpcClient(options);
}

function badResponse(
  request: SentRequest,
  response: ResponseEvidence,
  message: string,
  details: string,
  batchIds?: BatchIdProblems,
): TransportError {
  return new TransportError({ code: 'BAD_RESPONSE', message, details, request, response, batchIds });
}

function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

function checkRpcPath(path: string): string {
  if (!path.startsWith('/') || /[\s?#]/.test(path))
    throw new TypeError(`Invalid rpcPath ${JSON.stringify(path)}: expected a path such as "/rpc", "/" or "/v1/jsonrpc" (no query or fragment)`);
  return path;
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}

// HTTP header names are case-insensitive; one spelling avoids sending a header twice.
function lowerCaseKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
