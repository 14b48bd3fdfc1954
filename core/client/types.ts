import type { JsonValue } from '../json/index.js';
import type { TransportError } from './TransportError.js';

/** The error member of a JSON-RPC 2.0 response (JSON-RPC 2.0 §5.1), as the node sent it. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  /** Absent when the node sent no `data` member. */
  readonly data?: JsonValue;
}

/** One entry of a batch: a method and its positional params (default `[]`). */
export interface BatchCall {
  readonly method: string;
  readonly params?: readonly unknown[];
}

/** Per-entry result of a batch, in request order. A JSON-RPC error is an outcome here, not a throw. */
export type BatchOutcome<R = unknown> =
  { readonly ok: true; readonly result: R } | { readonly ok: false; readonly error: JsonRpcErrorObject };

export interface Timing {
  /** Wall-clock start of the exchange (Date.now()). */
  readonly startedAt: number;
  /** Milliseconds until the response headers arrived; null if none arrived. */
  readonly ttfbMs: number | null;
  /** Milliseconds until the body was read (or the exchange failed). */
  readonly totalMs: number;
}

/** The HTTP request exactly as sent: evidence for reports and for replaying a failure. */
export interface SentRequest {
  readonly url: string;
  readonly httpMethod: string;
  /** Header names lower-cased; what the transport adds itself (host, content-length, connection) is not listed. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as UTF-8 text (lossy only for raw bodies that are not UTF-8). */
  readonly body: string;
}

/** What came back, trimmed for an error report. */
export interface ResponseEvidence {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly contentType: string | undefined;
  /** The start of the body as UTF-8 text, at most ~1000 characters. */
  readonly excerpt: string;
  /** Bytes of body read (capped). */
  readonly bodyBytes: number;
  /** True when the body was cut at the size cap. */
  readonly truncated: boolean;
}

/** Handed to `onExchange` once per HTTP exchange: the raw material of a transcript. */
export interface Exchange {
  readonly kind: 'call' | 'batch' | 'notify' | 'raw';
  readonly request: SentRequest & { readonly bytes: Uint8Array };
  /** Absent when the exchange failed before the body was read (refused, timeout, abort...); present, truncated, for BODY_TOO_LARGE. */
  readonly response?: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    /** Raw body bytes, capped at the size limit. */
    readonly body: Buffer;
    readonly text: string;
    readonly truncated: boolean;
  };
  readonly timing: Timing;
  /** Set when the exchange itself failed: REFUSED, TIMEOUT, ABORTED, NETWORK or BODY_TOO_LARGE. */
  readonly error?: TransportError;
}

export interface RpcClientOptions {
  /** The node's base URL; the endpoint is `{baseUrl}{rpcPath}`. http or https, no query or fragment. */
  readonly baseUrl: string;
  /**
   * The JSON-RPC endpoint's path under the base URL, used by call, batch, notify and as raw's
   * default path. Must start with '/'; '/' is the base URL's path itself. Default '/rpc'.
   */
  readonly rpcPath?: string | undefined;
  /** Most sockets kept open to the node (undici Pool `connections`). Default 8. */
  readonly connections?: number | undefined;
  /** How long an idle socket is kept for reuse, unless the server says less. Default 4000 ms. */
  readonly keepAliveTimeoutMs?: number | undefined;
  /** Default per-exchange timeout, connect to last body byte. Default 10 000 ms. */
  readonly timeoutMs?: number | undefined;
  /** Default cap on a response body. Default 16 MiB. */
  readonly maxResponseBytes?: number | undefined;
  /** Extra request headers on every exchange (raw included), e.g. authorization. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Called once per HTTP exchange, after the body is read, before the response is interpreted. Must not throw. */
  readonly onExchange?: ((exchange: Exchange) => void) | undefined;
  /**
   * How many times an exchange answered HTTP 429 (Too Many Requests, RFC 6585: the request was not acted on)
   * is sent again, after the answer's Retry-After (capped at 5 s; without one, 0.5 s doubling). The last
   * answer is then interpreted like any other. Default 4; 0 sends once.
   */
  readonly rateLimitRetries?: number | undefined;
  /** Most exchanges started per second by this client (its own pace: a node's rate limit need not be met). Default: no limit. */
  readonly maxRequestsPerSecond?: number | undefined;
}

export interface CallOptions {
  /** Overrides the client's `timeoutMs` for this exchange. */
  readonly timeoutMs?: number | undefined;
  /** Aborts the exchange; the call rejects with TransportError code ABORTED. */
  readonly signal?: AbortSignal | undefined;
  /** Extra headers for this exchange, over the client's. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Overrides the client's `maxResponseBytes` for this exchange. */
  readonly maxResponseBytes?: number | undefined;
}

/** Arbitrary bytes for transport checks: nothing is added but the client's `headers`. */
export interface RawRequest {
  readonly body?: string | Uint8Array | undefined;
  /** Exactly the headers to send (over the client's `headers`); no content-type is added. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** HTTP method. Default POST. */
  readonly method?: string | undefined;
  /** Appended to the base URL's path as is. Default: the endpoint's path (see RpcClientOptions.rpcPath). */
  readonly path?: string | undefined;
  readonly timeoutMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Bytes of body kept; the rest is not read (the connection is dropped). Default: the client's `maxResponseBytes`. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Send on a connection of its own, byte for byte, instead of the pool: the head as given plus
   * `host`, `content-length` (computed) and `connection: close`, each only when not given. The
   * body goes out while the answer is read; a node that answers early (413 after the head) and
   * closes or resets while the body is still going out is reported with that answer, not EPIPE.
   */
  readonly exact?: boolean | undefined;
  /**
   * With `exact` only (a TypeError otherwise): send no Content-Length, and no Transfer-Encoding
   * unless given in `headers`. RFC 9112 §6.3 then says the request has no body.
   */
  readonly omitContentLength?: boolean | undefined;
}

/** Whatever the server answered, uninterpreted: any status, any body. */
export interface RawResponse {
  readonly status: number;
  /** Names lower-cased; repeated headers joined with ', '. */
  readonly headers: Readonly<Record<string, string>>;
  /** Raw body bytes, at most the cap. */
  readonly body: Buffer;
  /** The body decoded as UTF-8 (invalid sequences become U+FFFD). */
  readonly text: string;
  /** The body parsed with the lossless parser, when it parsed (and was not truncated). */
  readonly json?: JsonValue;
  /** Why the body did not parse as JSON (empty and truncated bodies included). */
  readonly parseError?: string;
  /** True when the body exceeded the cap and was cut. */
  readonly truncated: boolean;
  readonly timing: Timing;
}
