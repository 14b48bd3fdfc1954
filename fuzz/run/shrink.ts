/**
 * Shrinking a finding to its minimal reproducing case. A JSON body is shrunk as a value: greedy passes over
 * its tree, each trying smaller forms of one node (an element or member dropped, a container replaced by one
 * of its children, a string halved, a number moved toward 0), keeping a candidate only when the node still
 * shows the same violation (`reproduces`). A body that is not JSON is shrunk as bytes (chunks cut, halving).
 * Bounded by attempts and by time: a slow or hanging finding costs its bound per attempt.
 */
import { stringifyJson, type JsonValue } from '../../core/json/index.js';
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

/** The smallest form of `http` (with `json`, its body as a value) that still reproduces, within the budget. */
export async function shrink(http: FuzzHttp, json: JsonValue | undefined, reproduces: Reproduces, options: ShrinkOptions = SHRINK_DEFAULTS): Promise<ShrinkResult> {
  const budget = { attempts: 0, until: performance.now() + options.maxMs, max: options.maxAttempts };
  const left = (): boolean => budget.attempts < budget.max && performance.now() < budget.until;
  const tryIt = async (candidate: FuzzHttp): Promise<boolean> => {
    budget.attempts++;
    return reproduces(candidate);
  };
  if (json !== undefined) {
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
    return { http: { ...http, body: encoder.encode(stringifyJson(best)) }, json: best, attempts: budget.attempts };
  }
  let body = http.body;
  for (let chunk = Math.max(1, Math.floor(body.length / 2)); chunk >= 1 && left(); ) {
    let cut = false;
    for (let at = 0; at < body.length && left(); at += chunk) {
      const candidate = new Uint8Array([...body.subarray(0, at), ...body.subarray(at + chunk)]);
      if (candidate.length < body.length && (await tryIt({ ...http, body: candidate }))) {
        body = candidate;
        cut = true;
        break;
      }
    }
    if (!cut) chunk = Math.floor(chunk / 2);
  }
  return { http: { ...http, body }, attempts: budget.attempts };
}

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
