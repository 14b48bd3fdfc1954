import { TransportError } from '../core/client/index.js';
import type { RawResponse, RpcClient } from '../core/client/index.js';
import { stringifyJson } from '../core/json/index.js';
import type { JsonValue } from '../core/json/index.js';
import { validators } from '../core/schema/validators.js';
import type { Problem, ResultLevel } from '../core/schema/validators.js';
import type { CheckInfo, Exchange } from './model.js';
import type { Profile } from './profile/Profile.js';
import type { Wallet } from './Wallet.js';

/** Thrown by ctx.fail: the node is wrong. */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly expected?: string,
    readonly actual?: string,
  ) {
    super(message);
  }
}

/** Thrown by ctx.skip: the check does not apply here. */
export class CheckSkip extends Error {}

/** Thrown when the exchange itself failed (refused, timed out, over the size cap): no verdict on the node. */
export class CheckError extends Error {}

export type CallOutcome = { ok: true; result: JsonValue } | { ok: false; error: { code: number; message: string; data?: JsonValue } };

/** What every check on a run shares: clients per node, the profile, wallets, the transcript. */
export interface RunShared {
  profile: Profile;
  targets: string[];
  client(node: string): RpcClient;
  wallet(node: string): Wallet;
  record(exchange: Exchange): void;
  /** Chain id per node (chain_health, the profile, or 1). */
  chainId(node: string): Promise<bigint>;
  nextId(): number;
}

/** Most response bytes a check reads: a node that sends more is cut off (the suite's memory stays bounded). */
export const MAX_RESPONSE_BYTES = 1024 * 1024;
const EXCERPT = 4096;
const KEPT_EXCHANGES = 8;

const short = (v: unknown): string => {
  const text = typeof v === 'string' ? JSON.stringify(v) : stringifyJson(v);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/**
 * The API a check runs with, bound to one node (or, for network checks, to all of them). Every
 * exchange it makes is kept as evidence. Failures of the exchange itself (refused, timeout, too big)
 * throw CheckError, which the runner reports as `error`, never as `fail`.
 */
export class CheckContext {
  readonly exchanges: Exchange[] = [];

  constructor(
    private readonly shared: RunShared,
    readonly check: CheckInfo,
    /** The node this check runs on; for network checks, the first target. */
    readonly node: string,
    readonly signal: AbortSignal,
  ) {}

  get profile(): Profile {
    return this.shared.profile;
  }

  /** Every target of the run. */
  get nodes(): string[] {
    return this.shared.targets;
  }

  /** The node's name for one of the spec's methods (profile prefix and renames). */
  method(name: string): string {
    const renamed = this.profile.methodNames[name];
    if (renamed !== undefined) return renamed;
    return name.startsWith('chain_') ? this.profile.methodPrefix + name.slice('chain_'.length) : name;
  }

  /** A result field by the spec's name, read through the profile's field map. */
  field(value: JsonValue | undefined, name: string): JsonValue | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const key = this.profile.fields[name] ?? name;
    return Object.hasOwn(value, key) ? value[key] : undefined;
  }

  /** Renames a result's fields back to the spec's names, so schemas can check it. */
  specView(value: JsonValue): JsonValue {
    const map = Object.entries(this.profile.fields);
    if (map.length === 0 || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const out: Record<string, JsonValue> = { ...value };
    for (const [spec, wire] of map) {
      if (Object.hasOwn(out, wire)) {
        out[spec] = out[wire] as JsonValue;
        if (wire !== spec) delete out[wire];
      }
    }
    return out;
  }

  wallet(node = this.node): Wallet {
    return this.shared.wallet(node);
  }

  chainId(node = this.node): Promise<bigint> {
    return this.shared.chainId(node);
  }

  /** Sends bytes as they are and returns what came back, uninterpreted (kept as evidence). */
  async raw(request: { body?: string | Uint8Array; headers?: Record<string, string>; method?: string; path?: string }, node = this.node): Promise<RawResponse> {
    const headers = request.headers ?? { 'content-type': 'application/json' };
    const method = request.method ?? 'POST';
    const path = request.path ?? '/rpc';
    const bodyText = request.body === undefined ? '' : typeof request.body === 'string' ? request.body : Buffer.from(request.body).toString('utf8');
    const startedAt = new Date();
    const exchange: Exchange = {
      node,
      request: { method, url: `${node}${path}`, headers, body: bodyText.length > EXCERPT ? `${bodyText.slice(0, EXCERPT)}… (${bodyText.length} characters)` : bodyText },
      ms: 0,
      startedAt: startedAt.toISOString(),
    };
    try {
      const res = await this.shared.client(node).raw({
        ...(request.body === undefined ? {} : { body: request.body }),
        headers,
        method,
        path,
        signal: this.signal,
        maxBodyBytes: MAX_RESPONSE_BYTES,
      });
      exchange.response = {
        status: res.status,
        headers: { ...res.headers },
        body: res.text.length > EXCERPT ? res.text.slice(0, EXCERPT) : res.text,
        truncated: res.truncated || res.text.length > EXCERPT,
      };
      exchange.ms = res.timing.totalMs;
      if (res.truncated) throw new CheckError(`the node sent more than ${MAX_RESPONSE_BYTES} bytes; the suite stopped reading (HTTP ${res.status})`);
      return res;
    } catch (err) {
      if (err instanceof CheckError) throw err;
      exchange.ms = Date.now() - startedAt.getTime();
      if (err instanceof TransportError) {
        exchange.failure = `${err.code}: ${err.message}`;
        throw new CheckError(`${err.code}: ${err.message}`);
      }
      throw err;
    } finally {
      this.keep(exchange);
    }
  }

  private keep(exchange: Exchange): void {
    this.exchanges.push(exchange);
    if (this.exchanges.length > KEPT_EXCHANGES) this.exchanges.shift();
    this.shared.record(exchange);
  }

  /** POSTs a JSON body (an object, an array, or text as is). */
  post(body: JsonValue | string, node = this.node): Promise<RawResponse> {
    return this.raw({ body: typeof body === 'string' ? body : stringifyJson(body) }, node);
  }

  /**
   * One JSON-RPC call by the spec's method name. Returns the result or the error object; an answer
   * that is not a JSON-RPC response to this request fails the check (the node is wrong).
   */
  async call(method: string, params: JsonValue[] = [], node = this.node): Promise<CallOutcome> {
    const id = this.shared.nextId();
    const res = await this.post({ jsonrpc: '2.0', method: this.method(method), params, id }, node);
    const body = res.json;
    if (body === undefined) this.fail(`${method}: the answer is not JSON (HTTP ${res.status})`, 'a JSON-RPC response object', res.text.slice(0, 200));
    if (typeof body !== 'object' || body === null || Array.isArray(body)) this.fail(`${method}: the answer is not a JSON-RPC response object`, 'an object', short(body));
    if (body.id !== id) this.fail(`${method}: the response id does not echo the request's`, String(id), short(body.id));
    if ('error' in body && body.error !== undefined) {
      const e = body.error;
      if (typeof e !== 'object' || e === null || Array.isArray(e) || typeof e.code !== 'number' || typeof e.message !== 'string') {
        this.fail(`${method}: malformed error object`, '{code: integer, message: string}', short(e));
      }
      return { ok: false, error: { code: e.code, message: e.message, ...(e.data === undefined ? {} : { data: e.data }) } };
    }
    if (!('result' in body)) this.fail(`${method}: the response has neither result nor error`, 'result or error', short(body));
    return { ok: true, result: body.result };
  }

  /** The result of a call that must succeed; an error answer fails the check. */
  async result(method: string, params: JsonValue[] = [], node = this.node): Promise<JsonValue> {
    const r = await this.call(method, params, node);
    if (!r.ok) this.fail(`${method}: answered with error ${r.error.code} (${r.error.message})`, 'a result', short(r.error));
    return r.result;
  }

  /** Schema problems of a result at spec or profile level (with the profile's field names mapped back). */
  problems(method: string, result: JsonValue, level: ResultLevel): Problem[] {
    const v = validators().result(method, this.specView(result), level);
    return v.ok ? [] : v.problems;
  }

  fail(message: string, expected?: string, actual?: string): never {
    throw new CheckFailure(message, expected, actual);
  }

  skip(reason: string): never {
    throw new CheckSkip(reason);
  }

  /** Fails with the message unless the condition holds. */
  expect(condition: boolean, message: string, expected?: string, actual?: unknown): asserts condition {
    if (!condition) this.fail(message, expected, actual === undefined ? undefined : short(actual));
  }

  /** Polls until the probe returns a value (not undefined); fails with `what` after the timeout. */
  async waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = this.inclusionTimeoutMs()): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    const pause = Math.max(50, Math.min(500, Math.floor(this.profile.blockTimeMs / 4)));
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) this.fail(`${what} did not happen within ${timeoutMs} ms`, what, 'not seen');
      if (this.signal.aborted) throw new CheckError('the check was stopped (timeout or deadline)');
      await new Promise((r) => setTimeout(r, pause));
    }
  }

  /** How long a transaction may take to be included: a few block times, at least 5 s. */
  inclusionTimeoutMs(): number {
    return Math.max(5_000, this.profile.blockTimeMs * 6);
  }
}
