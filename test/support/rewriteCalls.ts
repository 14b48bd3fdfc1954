/**
 * The request side of the varying node: turns the body a client sent into the body the reference node
 * gets, plus the answers the varying node gives itself (a method it does not offer, a batch over its
 * limit) and a CallBook for matching the answers. Steps, in this fixed order for each call: param
 * leniency, param encodings, height shift, method names (routing and content type are HTTP matters,
 * decided before the body is read). Only valid JSON-RPC requests are touched: anything else goes on
 * unchanged, so the reference node judges it exactly as it would without the proxy.
 */
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { CallBook } from './callBook.js';
import { METHOD, methodParamNames } from './interfaceMethods.js';
import { integerOf, isObject, jsonInteger } from './jsonShapes.js';
import type { JsonObject } from './jsonShapes.js';
import type { VariationName } from './variations.js';

export interface CallPlan {
  /** What goes upstream (the client's own text when nothing needed rewriting); undefined when the varying node answers alone. */
  readonly upstreamBody: string | undefined;
  /** Response objects the varying node writes itself: joined to upstream's batch answer, or the whole answer. */
  readonly ownAnswers: readonly JsonObject[];
  /** The client sent a batch, so own answers are joined into an array. */
  readonly batch: boolean;
  readonly book: CallBook;
}

/** small-limits: the most calls one batch may hold. */
export const SMALL_BATCH_LIMIT = 50;
/** tiny-batches: the most elements one batch may hold. */
export const TINY_BATCH_LIMIT = 2;

const U64_MAX = (1n << 64n) - 1n;
const CLIENT_PREFIX = 'acme_';
const UPSTREAM_PREFIX = 'chain_';
// Param names (from the schemas' x-params) whose values leniency rewrites.
const HEX_PARAMS = new Set(['address', 'signed_transaction']);
const HEIGHT_PARAM = 'height';
const DECIMAL = /^[0-9]+$/;
const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/;
const ANY_HEX_QUANTITY = /^0[xX][0-9a-fA-F]+$/;
const HEX_PREFIX = /^0[xX]/;

type Rewritten = { forward: JsonValue } | { own: JsonObject | undefined };

export function rewriteCalls(text: string, modes: ReadonlySet<VariationName>): CallPlan {
  const book = new CallBook();
  const unchanged: CallPlan = { upstreamBody: text, ownAnswers: [], batch: false, book };
  let body: JsonValue;
  try {
    body = parseJson(text);
  } catch {
    // Not JSON: the reference node's -32700 is the answer (error-data modes still apply to it).
    return unchanged;
  }
  if (!Array.isArray(body)) {
    const one = rewriteCall(body, modes, book);
    if ('forward' in one) return { ...unchanged, upstreamBody: one.forward === body ? text : stringifyJson(one.forward) };
    return { upstreamBody: undefined, ownAnswers: one.own === undefined ? [] : [one.own], batch: false, book };
  }
  // [] is not a batch of requests: upstream answers it (one -32600 object).
  if (body.length === 0) return { ...unchanged, batch: true };
  if (modes.has('small-limits') && body.length > SMALL_BATCH_LIMIT) {
    // Refused whole, before anything runs, as one error object (the reference node's -32013 policy, with another code).
    return { upstreamBody: undefined, ownAnswers: [{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } }], batch: false, book };
  }
  if (modes.has('tiny-batches') && body.length > TINY_BATCH_LIMIT) {
    // Refused whole, whatever the elements are (valid or not), with a code of its own: a node another team wrote.
    return { upstreamBody: undefined, ownAnswers: [{ jsonrpc: '2.0', id: null, error: { code: -32070, message: 'Batch too large' } }], batch: false, book };
  }
  if (modes.has('batch-refused-per-call') && body.length > SMALL_BATCH_LIMIT) {
    // Refused call by call, before anything runs: an error for each element that has an id, in an array (JSON-RPC 2.0 §6's shape).
    const refusals = body.flatMap((element): JsonObject[] => (isObject(element) && Object.hasOwn(element, 'id') ? [{ jsonrpc: '2.0', id: element.id as JsonValue, error: { code: -32600, message: 'batch too large' } }] : []));
    return { upstreamBody: undefined, ownAnswers: refusals, batch: true, book };
  }
  const forwarded: JsonValue[] = [];
  const ownAnswers: JsonObject[] = [];
  let changed = false;
  for (const element of body) {
    const one = rewriteCall(element, modes, book);
    if ('forward' in one) {
      forwarded.push(one.forward);
      changed ||= one.forward !== element;
    } else {
      changed = true;
      if (one.own !== undefined) ownAnswers.push(one.own);
    }
  }
  const upstreamBody = forwarded.length === 0 ? undefined : changed ? stringifyJson(forwarded) : text;
  return { upstreamBody, ownAnswers, batch: true, book };
}

/** JSON-RPC 2.0 §4: a request the reference node would dispatch (the same checks as its handleRpcBody). */
function isCall(value: JsonValue): value is JsonObject & { method: string } {
  if (!isObject(value) || value.jsonrpc !== '2.0' || typeof value.method !== 'string') return false;
  if (Object.hasOwn(value, 'id')) {
    const id = value.id;
    if (!(typeof id === 'string' || typeof id === 'bigint' || id === null || (typeof id === 'number' && Number.isFinite(id)))) return false;
  }
  return !Object.hasOwn(value, 'params') || (typeof value.params === 'object' && value.params !== null);
}

function rewriteCall(value: JsonValue, modes: ReadonlySet<VariationName>, book: CallBook): Rewritten {
  if (!isCall(value)) return { forward: value };
  const hasId = Object.hasOwn(value, 'id');
  const id = value.id ?? null;
  const method = upstreamMethod(value.method, modes);
  // A method this node does not offer: answered here, as the reference node answers an unknown method.
  if (method === undefined) return { own: hasId ? methodNotFound(id, value.method) : undefined };

  const names = methodParamNames().get(method);
  let params = value.params;
  let clientHeight: JsonValue | undefined;
  if (names !== undefined && params !== undefined) {
    if (modes.has('lenient-params')) params = lenientParams(params, names);
    if (modes.has('hex-quantities')) params = mapParams(params, names, (name, p) => (name === HEIGHT_PARAM && typeof p === 'string' && HEX_QUANTITY.test(p) ? jsonInteger(BigInt(p)) : p));
    const shift = genesisShift(modes);
    if (shift > 0n && method === METHOD.getBlockByHeight && Array.isArray(params)) {
      clientHeight = params[0];
      params = mapParams(params, names, (name, p) => (name === HEIGHT_PARAM ? shiftedHeight(p, shift) : p));
    }
  }
  const call = params === value.params && method === value.method ? value : { ...value, method, ...(params === undefined ? {} : { params }) };
  if (hasId) book.add(id, { method, params: Array.isArray(params) ? params : undefined, ...(clientHeight === undefined ? {} : { clientHeight }) });
  return { forward: call };
}

/** The method upstream runs for the name a client used; undefined: this node has no such method. */
function upstreamMethod(method: string, modes: ReadonlySet<VariationName>): string | undefined {
  if (modes.has('no-discover') && method === METHOD.discover) return undefined;
  if (!modes.has('method-prefix')) return method;
  const known = methodParamNames();
  if (method.startsWith(CLIENT_PREFIX)) {
    const renamed = UPSTREAM_PREFIX + method.slice(CLIENT_PREFIX.length);
    // acme_foo (no chain_foo either) goes on as it is: upstream's -32601 then names what the client sent.
    return known.has(renamed) ? renamed : method;
  }
  // chain_* exist upstream, but not on this node.
  return method.startsWith(UPSTREAM_PREFIX) && known.has(method) ? undefined : method;
}

/** What the reference node answers for a method it has not (handleRpcBody's wording). */
function methodNotFound(id: JsonValue, method: string): JsonObject {
  const quoted = method.length > 40 ? `${JSON.stringify(method.slice(0, 40))}... (${method.length} chars)` : JSON.stringify(method);
  return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found', data: { reason: `this node has no method named ${quoted}`, method } } };
}

/** Positional params rewritten one by one; the same array back when nothing changed. */
function mapParams(params: JsonValue, names: readonly string[], change: (name: string, value: JsonValue) => JsonValue): JsonValue {
  if (!Array.isArray(params)) return params;
  const out = params.map((p, i) => change(names[i] ?? '', p));
  return out.some((p, i) => p !== params[i]) ? out : params;
}

/** lenient-params: by-name to positional, extra params dropped, 0x prefixes dropped, string heights read. */
function lenientParams(params: JsonValue, names: readonly string[]): JsonValue {
  let positional = params;
  if (isObject(params)) {
    // By the schema's names, in order, up to the first one missing (a missing param stays missing).
    const out: JsonValue[] = [];
    for (const name of names) {
      if (!Object.hasOwn(params, name)) break;
      out.push(params[name] ?? null);
    }
    positional = out;
  }
  if (!Array.isArray(positional)) return params;
  if (positional.length > names.length) positional = positional.slice(0, names.length);
  return mapParams(positional, names, (name, value) => {
    if (typeof value !== 'string') return value;
    if (HEX_PARAMS.has(name) && HEX_PREFIX.test(value)) return value.slice(2);
    if (name === HEIGHT_PARAM && (DECIMAL.test(value) || ANY_HEX_QUANTITY.test(value))) return jsonInteger(BigInt(value));
    return value;
  });
}

/**
 * genesis-at-1, genesis-at-5 and genesis-above-2-53: the client's height h is upstream's h - shift. A height below the shift has no
 * block here, so it is asked for as u64 max, a height above any tip (the answer's data is put back on the way
 * out). A value that is not a u64 goes on unchanged so that upstream refuses it with -32602 as before.
 */
function shiftedHeight(value: JsonValue, shift: bigint): JsonValue {
  const height = integerOf(value);
  if (height === undefined || height < 0n || height > U64_MAX) return value;
  return height < shift ? U64_MAX : jsonInteger(height - shift);
}

/**
 * genesis-above-2-53: the first block's height, 2^53 + 3, which no JSON number holds exactly (JSON.parse reads
 * 9007199254740996). The suite reads it as profile.genesisHeightExact; the load harness and the fuzzer still
 * take heights as numbers (the nearest double).
 */
export const GENESIS_ABOVE_2_53 = (1n << 53n) + 3n;

/** How far the client's heights are above upstream's: the chain's first block at 2^53 + 3, at 5 or at 1, else 0. */
export function genesisShift(modes: ReadonlySet<VariationName>): bigint {
  if (modes.has('genesis-above-2-53')) return GENESIS_ABOVE_2_53;
  return modes.has('genesis-at-5') ? 5n : modes.has('genesis-at-1') ? 1n : 0n;
}
