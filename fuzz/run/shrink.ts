/**
 * Shrinking a finding to its minimal reproducing case. A JSON body is shrunk as a value: greedy passes over
 * its tree, each trying smaller forms of one node (an element or member dropped, a container replaced by one
 * of its children, a string halved, a number moved toward 0), keeping a candidate only when the node still
 * shows the same violation (`reproduces`). A body that is not JSON is shrunk as bytes (chunks cut, halving).
 * Bounded by attempts and by time: a slow or hanging finding costs its bound per attempt.
 */
import { parseJson, stringifyJson, type JsonValue } from '../../core/json/index.js';
import type { FuzzHttp } from '../model.js';

export interface ShrinkOptions {
  /** Candidates sent at most. */
  maxAttempts: number;
  /** Stop trying after this long (the best so far is kept). */
  maxMs: number;
}

export const SHRINK_DEFAULTS: ShrinkOptions = { maxAttempts: 200, maxMs: 20_000 };

export interface ShrinkResult {
  http: FuzzHttp;
  json?: JsonValue;
  attempts: number;
}

type Reproduces = (http: FuzzHttp) => Promise<boolean>;

const encoder = new TextEncoder();

/**
 * The smallest form of `http` (with `json`, its body as a value) that still reproduces, within the budget. A body
 * that is JSON however written (escaped member names, a member twice, odd spacing: bytes the case wrote by hand) is
 * first tried as the JSON it reads as, written plainly: where the violation remains, it is shrunk as that value (so
 * `"\u0069\u0064"` becomes `"id"`, and members the violation does not need, unknown or empty-named ones
 * included, are dropped). Bytes cut down that come to read as JSON are shrunk as a value in turn.
 */
export async function shrink(http: FuzzHttp, json: JsonValue | undefined, reproduces: Reproduces, options: ShrinkOptions = SHRINK_DEFAULTS): Promise<ShrinkResult> {
  const budget = { attempts: 0, until: performance.now() + options.maxMs, max: options.maxAttempts };
  const left = (): boolean => budget.attempts < budget.max && performance.now() < budget.until;
  const tryIt = async (candidate: FuzzHttp): Promise<boolean> => {
    budget.attempts++;
    return reproduces(candidate);
  };
  /** The body written plainly from `value`, when it differs from `current`'s and still reproduces. */
  const plainly = async (current: FuzzHttp, value: JsonValue): Promise<boolean> => {
    const body = encoder.encode(stringifyJson(value));
    return !sameBytes(body, current.body) && body.length <= current.body.length && left() && (await tryIt({ ...current, body }));
  };
  if (json !== undefined) {
    const plain = sameBytes(encoder.encode(stringifyJson(json)), http.body) || (await plainly(http, json));
    return shrinkValue(http, json, plain, tryIt, left, budget);
  }
  /** `current`'s body as a value, when it is JSON and written plainly it still reproduces. */
  const asValue = async (current: FuzzHttp): Promise<JsonValue | undefined> => {
    const read = jsonOf(current.body);
    if (read === undefined) return undefined;
    return sameBytes(encoder.encode(stringifyJson(read)), current.body) || (await plainly(current, read)) ? read : undefined;
  };
  const read = await asValue(http);
  if (read !== undefined) return shrinkValue({ ...http, body: encoder.encode(stringifyJson(read)) }, read, true, tryIt, left, budget);
  const cut = await shrinkBytes(http, tryIt, left, asValue);
  if ('json' in cut) return shrinkValue({ ...cut.http, body: encoder.encode(stringifyJson(cut.json)) }, cut.json, true, tryIt, left, budget);
  return { http: cut.http, attempts: budget.attempts };
}

/**
 * Greedy passes over a JSON value's tree: each candidate one step smaller (smallerValues), kept when it reproduces.
 * `plain`: `json` written plainly reproduces (else, when no candidate is kept, `http` is the answer as it was).
 */
async function shrinkValue(http: FuzzHttp, json: JsonValue, plain: boolean, tryIt: Reproduces, left: () => boolean, budget: { attempts: number }): Promise<ShrinkResult> {
  let best = json;
  for (let improved = true; improved && left(); ) {
    improved = false;
    for (const candidate of smallerValues(best)) {
      if (!left()) break;
      if (await tryIt({ ...http, body: encoder.encode(stringifyJson(candidate)) })) {
        best = candidate;
        improved = true;
        break;
      }
    }
  }
  if (best === json && !plain) return { http, json, attempts: budget.attempts };
  return { http: { ...http, body: encoder.encode(stringifyJson(best)) }, json: best, attempts: budget.attempts };
}

/**
 * A body that is not JSON, shrunk as bytes: chunks cut, halving; as soon as a cut leaves a body that `asValue` reads
 * as a JSON value (it reproduces written plainly), that value, to be shrunk as one.
 */
async function shrinkBytes(http: FuzzHttp, tryIt: Reproduces, left: () => boolean, asValue: (h: FuzzHttp) => Promise<JsonValue | undefined>): Promise<{ http: FuzzHttp } | { http: FuzzHttp; json: JsonValue }> {
  let body = http.body;
  for (let chunk = Math.max(1, Math.floor(body.length / 2)); chunk >= 1 && left(); ) {
    let cut = false;
    for (let at = 0; at < body.length && left(); at += chunk) {
      const candidate = new Uint8Array([...body.subarray(0, at), ...body.subarray(at + chunk)]);
      if (candidate.length < body.length && (await tryIt({ ...http, body: candidate }))) {
        body = candidate;
        cut = true;
        const json = await asValue({ ...http, body });
        if (json !== undefined) return { http: { ...http, body }, json };
        break;
      }
    }
    if (!cut) chunk = Math.floor(chunk / 2);
  }
  return { http: { ...http, body } };
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as a JSON value when it is strict UTF-8 JSON without a byte order mark, else undefined. */
function jsonOf(body: Uint8Array): JsonValue | undefined {
  if (body.length === 0) return undefined;
  try {
    const text = STRICT_UTF8.decode(body);
    return text.startsWith('\uFEFF') ? undefined : parseJson(text);
  } catch {
    return undefined;
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.from(a).equals(Buffer.from(b));

/** Every value one step smaller than `value`: at the root first, then inside each child, smallest steps last. */
export function* smallerValues(value: JsonValue): Generator<JsonValue> {
  if (Array.isArray(value)) {
    // Halves first, then quarters, down to single elements: a batch of a thousand shrinks in tens of tries.
    for (let size = Math.floor(value.length / 2); size >= 1; size = Math.floor(size / 2)) {
      for (let at = 0; at < value.length; at += size) yield [...value.slice(0, at), ...value.slice(at + size)];
    }
    for (const child of value) if (isContainer(child)) yield child;
    for (let i = 0; i < value.length; i++) {
      const child = value[i] as JsonValue;
      for (const smaller of smallerValues(child)) yield [...value.slice(0, i), smaller, ...value.slice(i + 1)];
    }
    return;
  }
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    for (const key of keys) {
      const { [key]: _dropped, ...rest } = value;
      yield rest;
    }
    for (const key of keys) {
      for (const smaller of smallerValues(value[key] as JsonValue)) yield { ...value, [key]: smaller };
    }
    return;
  }
  yield* smallerScalars(value);
}

function* smallerScalars(value: JsonValue): Generator<JsonValue> {
  if (typeof value === 'string' && value.length > 0) {
    yield '';
    if (value.length > 1) {
      yield value.slice(0, Math.ceil(value.length / 2));
      yield value.slice(Math.floor(value.length / 2));
    }
  } else if (typeof value === 'bigint') {
    if (value !== 0n) yield 0n;
    if (value > 1n || value < -1n) yield value / 2n;
  } else if (typeof value === 'number') {
    if (value !== 0) yield 0;
    if (!Number.isInteger(value)) yield Math.trunc(value);
    else if (Math.abs(value) > 1) yield Math.trunc(value / 2);
  }
}

const isContainer = (v: JsonValue | undefined): v is JsonValue => typeof v === 'object' && v !== null;
