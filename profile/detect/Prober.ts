import { createClient, TransportError } from '../../core/client/index.js';
import type { RawRequest, RpcClient } from '../../core/client/index.js';
import { stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { isObject } from '../readWire.js';

/** Per-request limit: a node that has not answered in 10 s has answered nothing useful. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Most HTTP exchanges one detection makes (block-time sampling and the two bisections are the bulk). */
export const MAX_REQUESTS = 600;
/** Most response bytes kept from one answer (rpc.discover's OpenRPC document is the largest expected). */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Most characters of an answer's text kept for evidence. */
const KEPT_TEXT = 2000;

/**
 * The body-limit probes use an exact socket exchange (RawRequest `exact`), which reads a node's early
 * answer (a 413 sent while the body is still being written) rather than failing with EPIPE. A transport
 * failure with no status still counts as "refused, status unknown" (detectBodyLimit).
 */
const EXACT_EXCHANGE: Partial<RawRequest> = { exact: true };

/** Thrown when the detection's deadline (or its request budget) is spent: the remaining probes are skipped. */
export class DeadlineReached extends Error {
  override readonly name = 'DeadlineReached';
}

/** Whatever came back over HTTP, or why nothing did. */
export type Answer =
  | { readonly kind: 'http'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly text: string; readonly json: JsonValue | undefined; readonly bytes: number }
  | { readonly kind: 'failed'; readonly reason: string };

/** A JSON-RPC call's outcome, read without judging it. */
export type CallOutcome =
  | { readonly kind: 'result'; readonly result: JsonValue; readonly status: number }
  | { readonly kind: 'error'; readonly code: number; readonly message: string; readonly data: JsonValue | undefined; readonly status: number }
  /** An HTTP answer that is not a JSON-RPC response object. */
  | { readonly kind: 'other'; readonly status: number; readonly text: string }
  /** No HTTP answer: refused, reset, timed out. */
  | { readonly kind: 'failed'; readonly reason: string };

/** The shape of error objects' `data` (JSON-RPC 2.0 §5.1 leaves it to the server). */
export type ErrorDataShape = 'object' | 'object-without-reason' | 'string' | 'absent' | 'other';

export interface PostOptions {
  readonly path?: string;
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Most response bytes kept (default MAX_RESPONSE_BYTES). */
  readonly maxResponseBytes?: number;
  /** An exact socket exchange on a connection of its own (see EXACT_EXCHANGE). */
  readonly exact?: boolean;
}

export { isObject };

/** A JSON-RPC 2.0 response object (§5): an error member with an integer code, or a result member. */
export function readResponse(json: JsonValue | undefined, status: number, text: string): CallOutcome {
  if (isObject(json)) {
    const error = json.error;
    if (isObject(error) && typeof error.code === 'number' && Number.isInteger(error.code)) {
      return { kind: 'error', code: error.code, message: typeof error.message === 'string' ? error.message : '', data: Object.hasOwn(error, 'data') ? error.data : undefined, status };
    }
    if (Object.hasOwn(json, 'result') && (error === undefined || error === null)) return { kind: 'result', result: json.result ?? null, status };
  }
  return { kind: 'other', status, text: text.slice(0, KEPT_TEXT) };
}

/** The shape of one error object's data member. */
export function errorDataShape(data: JsonValue | undefined): ErrorDataShape {
  if (data === undefined) return 'absent';
  if (typeof data === 'string') return 'string';
  if (isObject(data)) return typeof data.reason === 'string' ? 'object' : 'object-without-reason';
  return 'other';
}

/**
 * Every exchange of a detection goes through one Prober: it bounds each request (10 s, and never past
 * the deadline), counts them against a budget, and tallies what the node's error objects carry in
 * `data` (one of the profile's choices, read from every error the detection happens to see).
 */
export class Prober {
  /** The JSON-RPC endpoint's path under the base URL, once found. */
  rpcPath = '/rpc';
  requests = 0;
  readonly errorData = new Map<ErrorDataShape, { count: number; example: string }>();
  /** Per error code, the HTTP status of the first JSON-RPC answer that carried it (a node has tens of codes, not thousands). */
  readonly errorStatuses = new Map<number, number>();
  private nextId = 1;
  private readonly client: RpcClient;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort: () => void;

  constructor(
    readonly url: string,
    private readonly deadlineAt: number,
    private readonly signal: AbortSignal | undefined,
    readonly progress: (line: string) => void,
    private readonly maxRequests = MAX_REQUESTS,
    private readonly requestTimeoutMs = REQUEST_TIMEOUT_MS,
  ) {
    this.client = createClient({ baseUrl: url, timeoutMs: requestTimeoutMs, connections: 4, maxResponseBytes: MAX_RESPONSE_BYTES });
    // One signal for every exchange: the deadline and the caller's own abort both end what is in flight.
    this.timer = setTimeout(() => this.controller.abort(), Math.max(0, deadlineAt - Date.now()));
    this.timer.unref();
    this.onAbort = () => this.controller.abort();
    if (signal?.aborted) this.controller.abort();
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Milliseconds left before the deadline. */
  remainingMs(): number {
    return this.deadlineAt - Date.now();
  }

  /** Throws DeadlineReached when the deadline, the caller's abort or the request budget ends the detection. */
  ensureTime(): void {
    if (this.signal?.aborted) throw new DeadlineReached('detection aborted');
    if (this.remainingMs() <= 0) throw new DeadlineReached('the deadline was reached');
    if (this.requests >= this.maxRequests) throw new DeadlineReached(`the request budget (${this.maxRequests}) is spent`);
  }

  /** A fresh request id. */
  id(): number {
    return this.nextId++;
  }

  /** Sends bytes as they are (POST to the endpoint unless told otherwise) and reports what came back. */
  async post(body: string | Uint8Array | undefined, options: PostOptions = {}): Promise<Answer> {
    this.ensureTime();
    this.requests++;
    const timeoutMs = Math.max(1, Math.min(this.requestTimeoutMs, this.remainingMs()));
    try {
      const res = await this.client.raw({
        body,
        method: options.method ?? 'POST',
        path: options.path ?? this.rpcPath,
        headers: options.headers ?? { 'content-type': 'application/json' },
        timeoutMs,
        signal: this.controller.signal,
        maxBodyBytes: options.maxResponseBytes ?? MAX_RESPONSE_BYTES,
        ...(options.exact === true ? EXACT_EXCHANGE : {}),
      });
      return { kind: 'http', status: res.status, headers: res.headers, text: res.text.slice(0, KEPT_TEXT), json: res.json, bytes: res.body.length };
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      if (error.code === 'ABORTED' || (error.code === 'TIMEOUT' && this.remainingMs() <= 0)) this.ensureTime();
      return { kind: 'failed', reason: `${error.code}: ${error.message}` };
    }
  }

  /** One JSON-RPC call (params as given: an array, an object, or anything else for probes). */
  async call(method: string, params: JsonValue): Promise<CallOutcome> {
    return this.send(stringifyJson({ jsonrpc: '2.0', method, params, id: this.id() }));
  }

  /** Sends a request text and reads the answer as one JSON-RPC response. */
  async send(text: string, options: PostOptions = {}): Promise<CallOutcome> {
    const answer = await this.post(text, options);
    if (answer.kind === 'failed') return answer;
    const outcome = readResponse(answer.json, answer.status, answer.text);
    this.note(outcome);
    return outcome;
  }

  /** Keeps what an error answer shows of the node's choices: its data's shape and its HTTP status. */
  note(outcome: CallOutcome): void {
    if (outcome.kind !== 'error') return;
    if (!this.errorStatuses.has(outcome.code) && this.errorStatuses.size < 100) this.errorStatuses.set(outcome.code, outcome.status);
    const shape = errorDataShape(outcome.data);
    const entry = this.errorData.get(shape);
    if (entry) entry.count++;
    else this.errorData.set(shape, { count: 1, example: `error ${outcome.code} with data ${outcome.data === undefined ? '(none)' : stringifyJson(outcome.data).slice(0, 80)}` });
  }

  /** Waits, but never past the deadline. */
  async sleep(ms: number): Promise<void> {
    const wait = Math.max(0, Math.min(ms, this.remainingMs()));
    await new Promise((resolve) => setTimeout(resolve, wait));
    this.ensureTime();
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
    await this.client.close();
  }
}
