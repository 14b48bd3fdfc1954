import { createHash } from 'node:crypto';
/**
 * The response side of the varying node: rewrites the reference node's answer body for the modes, each
 * response object for the method it answers (found by id in the CallBook). Steps, in this fixed order:
 * shape changes, height shift, value encodings, key names, error data. (HTTP statuses come last, in the
 * server, from what this returns.) The OpenRPC document of rpc.discover is a standard document, not a
 * chain value: only its method names change (method-prefix).
 */
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import type { CallBook, CallRecord } from './callBook.js';
import { genesisShift } from './rewriteCalls.js';
import { METHOD } from './interfaceMethods.js';
import { HEX64, integerOf, isObject, jsonInteger, without } from './jsonShapes.js';
import type { JsonObject } from './jsonShapes.js';
import type { VariationName } from './variations.js';

export interface RewrittenAnswers {
  /** The body to send; null when there is nothing to send (notifications only). */
  readonly body: string | null;
  /** The code when the body is one JSON-RPC error response object (error-statuses maps it to a status). */
  readonly singleErrorCode: number | undefined;
}

type Modes = ReadonlySet<VariationName>;

const HEX_PAIRS = /^([0-9a-fA-F]{2})+$/;
const NOT_FOUND_REASON = /^no block at height \d+; the latest is \d+$/;
// new Date() takes milliseconds up to ±8.64e15; a timestamp beyond that stays a number.
const MAX_DATE_MS = 8_640_000_000_000_000n;
const RENAMED_FIELDS: Readonly<Record<string, string>> = { balance: 'Balance', transaction_count: 'txCount' };
const HEALTH_STATUS: Readonly<Record<string, string>> = { ok: 'healthy', syncing: 'catching_up' };
const HEALTH_MODE: Readonly<Record<string, string>> = { MN: 'validator', LN: 'full' };

/**
 * `upstream` is the reference node's body (null: it sent none, or was not asked); `own` are the varying
 * node's own response objects, joined to a batch answer (or the whole answer when upstream sent none).
 */
export function rewriteAnswers(upstream: string | null, plan: { book: CallBook; ownAnswers: readonly JsonObject[]; batch: boolean }, modes: Modes): RewrittenAnswers {
  const own = plan.ownAnswers.map((answer) => rewriteAnswer(answer, undefined, modes));
  if (upstream === null || upstream === '') {
    if (own.length === 0) return { body: upstream, singleErrorCode: undefined };
    const body = plan.batch ? own : (own[0] as JsonObject);
    return { body: stringifyJson(body), singleErrorCode: errorCodeOf(body) };
  }
  let parsed: JsonValue;
  try {
    parsed = parseJson(upstream);
  } catch {
    return { body: upstream, singleErrorCode: undefined };
  }
  let out: JsonValue;
  if (Array.isArray(parsed)) {
    const answers = parsed.map((answer) => (isObject(answer) ? rewriteAnswer(answer, plan.book.take(answer.id), modes) : answer));
    out = own.length > 0 ? [...answers, ...own] : answers.some((a, i) => a !== parsed[i]) ? answers : parsed;
  } else {
    // One object: a single call's answer, or a refusal of the whole batch (own answers go with the rest of it).
    out = isObject(parsed) ? rewriteAnswer(parsed, plan.book.take(parsed.id), modes) : parsed;
  }
  // Unchanged answers keep upstream's exact text.
  return { body: out === parsed ? upstream : stringifyJson(out), singleErrorCode: errorCodeOf(out) };
}

function errorCodeOf(body: JsonValue): number | undefined {
  if (!isObject(body) || !isObject(body.error)) return undefined;
  const code = body.error.code;
  return typeof code === 'number' ? code : undefined;
}

/** One response object through every step; the same object back when no mode applied. */
function rewriteAnswer(answer: JsonObject, call: CallRecord | undefined, modes: Modes): JsonObject {
  let out = answer;
  if (call !== undefined) {
    out = reshape(out, call, modes);
    const shift = genesisShift(modes);
    if (shift > 0n) out = shiftHeights(out, call, shift);
    if (call.method !== METHOD.discover && Object.hasOwn(out, 'result')) {
      const encoded = encodeValues(out.result ?? null, call.method, modes);
      const renamed = renameKeys(encoded, call.method, modes);
      if (renamed !== out.result) out = { ...out, result: renamed };
    }
  }
  return errorData(out, modes);
}

const withResult = (answer: JsonObject, result: JsonValue): JsonObject => ({ ...without(answer, 'error'), result });
const withError = (answer: JsonObject, error: JsonObject): JsonObject => ({ ...without(answer, 'result'), error });

/** Shape changes: a result becomes an error or the reverse, a result changes form. */
function reshape(answer: JsonObject, call: CallRecord, modes: Modes): JsonObject {
  const { method } = call;
  const error = answer.error;
  if (isObject(error)) {
    if (modes.has('unknown-height-null') && method === METHOD.getBlockByHeight && error.code === -32001) return withResult(answer, null);
    const tx = call.params?.[0];
    // A node that checks balances only when it executes a block admits an overspend, with its hash, and never applies it.
    if (modes.has('admits-overspends') && method === METHOD.sendRawTransaction && error.code === -32007 && typeof tx === 'string' && HEX_PAIRS.test(tx)) {
      return withResult(answer, createHash('sha256').update(Buffer.from(tx, 'hex')).digest('hex'));
    }
    if (modes.has('tx-hex-code') && method === METHOD.sendRawTransaction && error.code === -32602 && typeof tx === 'string' && !HEX_PAIRS.test(tx)) {
      const reason = isObject(error.data) && typeof error.data.reason === 'string' ? error.data.reason : 'the transaction is not a string of hex pairs';
      return withError(answer, { code: -32002, message: 'Transaction malformed', data: { reason } });
    }
    return answer;
  }
  if (!Object.hasOwn(answer, 'result')) return answer;
  const result = answer.result ?? null;
  if (modes.has('unknown-account-error') && method === METHOD.getAccount && isObject(result) && result.balance === '0' && integerOf(result.nonce) === 0n) {
    return withError(answer, { code: -32040, message: 'Account not found', data: { reason: 'no account with this address' } });
  }
  if (modes.has('unknown-account-null') && method === METHOD.getAccount && isObject(result) && result.balance === '0' && integerOf(result.nonce) === 0n) return withResult(answer, null);
  if (modes.has('tx-result-object') && method === METHOD.sendRawTransaction && typeof result === 'string') return withResult(answer, { transaction_hash: result });
  if (modes.has('faucet-direct') && method === METHOD.faucetClaim && isObject(result) && Object.hasOwn(result, 'amount')) return withResult(answer, { amount: result.amount ?? null });
  if (modes.has('faucet-hash') && method === METHOD.faucetClaim && isObject(result) && typeof result.transaction_hash === 'string') return withResult(answer, result.transaction_hash);
  if (modes.has('peer-count-object') && method === METHOD.peerCount && integerOf(result) !== undefined) return withResult(answer, { count: result, max: 50 });
  if (modes.has('peer-count-decimal') && method === METHOD.peerCount && integerOf(result) !== undefined) return withResult(answer, String(integerOf(result)));
  if (modes.has('method-prefix') && method === METHOD.discover && isObject(result) && Array.isArray(result.methods)) {
    const methods = result.methods.map((m) => (isObject(m) && typeof m.name === 'string' && m.name.startsWith('chain_') ? { ...m, name: `acme_${m.name.slice('chain_'.length)}` } : m));
    return withResult(answer, { ...result, methods });
  }
  return answer;
}

/** `value` plus `shift` when it is an integer. */
const plus = (value: JsonValue | undefined, shift: bigint): JsonValue | undefined => {
  const n = integerOf(value);
  return n === undefined ? value : jsonInteger(n + shift);
};

/** genesis-at-1, genesis-at-5 and genesis-above-2-53 on the way out: every height upstream reports is `shift` more for the client. */
function shiftHeights(answer: JsonObject, call: CallRecord, shift: bigint): JsonObject {
  const { result, error } = answer;
  if (call.method === METHOD.blockNumber && integerOf(result) !== undefined) return withResult(answer, plus(result, shift) ?? null);
  if (call.method === METHOD.getBlockByHeight && isObject(result) && integerOf(result.height) !== undefined) return withResult(answer, { ...result, height: plus(result.height, shift) ?? null });
  if (isObject(error) && error.code === -32001 && isObject(error.data)) {
    const data = error.data;
    // The height the client asked for (upstream was asked another, u64 max for the client's 0).
    const height = call.clientHeight ?? plus(data.height, shift) ?? null;
    const latest = plus(data.latest, shift) ?? null;
    const reason = typeof data.reason === 'string' && NOT_FOUND_REASON.test(data.reason) ? `no block at height ${stringifyJson(height)}; the latest is ${stringifyJson(latest)}` : (data.reason ?? null);
    return withError(answer, { ...error, data: { ...data, reason, height, latest } });
  }
  return answer;
}

const toHexQuantity = (value: JsonValue | undefined): JsonValue | undefined => {
  const n = integerOf(value);
  return n === undefined || n < 0n ? value : `0x${n.toString(16)}`;
};

const plusHalf = (value: JsonValue | undefined): JsonValue | undefined => {
  const n = integerOf(value);
  return n === undefined ? value : Number(n) + 0.5;
};

const shortId = (id: string): string => (HEX64.test(id) ? `node-${id.slice(0, 16)}` : id);
const shortIdentifier = (value: JsonValue | undefined): JsonValue | undefined => (typeof value === 'string' ? shortId(value) : value);

/** Members of `object` changed by `change`, each only when present; the same object back when nothing changed. */
function changeMembers(object: JsonObject, change: Record<string, (value: JsonValue | undefined) => JsonValue | undefined>): JsonObject {
  let out = object;
  for (const [key, fn] of Object.entries(change)) {
    if (!Object.hasOwn(object, key)) continue;
    const next = fn(object[key]);
    if (next !== undefined && next !== object[key]) out = { ...out, [key]: next };
  }
  return out;
}

/** chain_pouPeers' peers map with its keys and/or scores changed. */
function changePeers(result: JsonValue, key: (id: string) => string, score: (value: JsonValue) => JsonValue): JsonValue {
  if (!isObject(result) || !isObject(result.peers)) return result;
  const peers = Object.fromEntries(Object.entries(result.peers).map(([id, s]) => [key(id), score(s)]));
  return { ...result, peers };
}

/** Value encodings of a result (snake_case keys still: key names come after). */
function encodeValues(input: JsonValue, method: string, modes: Modes): JsonValue {
  let result = input;
  if (method === METHOD.getBlockByHeight && isObject(result)) {
    const ms = integerOf(result.timestamp);
    // Both timestamp modes at once: ISO wins (it is computed from the milliseconds either way).
    if (modes.has('timestamps-iso') && ms !== undefined && ms >= -MAX_DATE_MS && ms <= MAX_DATE_MS) result = { ...result, timestamp: new Date(Number(ms)).toISOString() };
    else if (modes.has('timestamps-seconds') && ms !== undefined) result = { ...result, timestamp: jsonInteger(ms >= 0n ? ms / 1000n : -((-ms + 999n) / 1000n)) };
  }
  if (modes.has('health-values') && method === METHOD.health && isObject(result)) {
    result = changeMembers(result, {
      status: (v) => (typeof v === 'string' ? (HEALTH_STATUS[v] ?? v) : v),
      mode: (v) => (typeof v === 'string' ? (HEALTH_MODE[v] ?? v) : v),
    });
  }
  if (modes.has('string-identifiers')) {
    if (method === METHOD.pouLocal && isObject(result)) result = changeMembers(result, { leader: shortIdentifier });
    if (method === METHOD.pouPeers) result = changePeers(result, shortId, (s) => s);
  }
  if (modes.has('float-scores')) {
    if (method === METHOD.pouLocal && isObject(result)) result = changeMembers(result, { local_score: plusHalf });
    if (method === METHOD.pouPeers) result = changePeers(result, (id) => id, (s) => plusHalf(s) ?? s);
  }
  if (modes.has('pou-other-types') && method === METHOD.pouLocal && isObject(result)) {
    result = changeMembers(result, { local_score: (v) => (integerOf(v) === undefined ? v : String(integerOf(v))), leader: (v) => (typeof v === 'string' ? { id: v } : v) });
  }
  if (modes.has('hex-quantities')) result = hexQuantities(result, method);
  if (modes.has('upper-hex')) result = upperHex(result);
  if (modes.has('hash-prefix')) result = prefixHashes(result, method);
  if (modes.has('block-transaction-objects') && method === METHOD.getBlockByHeight && isObject(result)) {
    result = changeMembers(result, { transactions: (list) => (Array.isArray(list) ? list.map((hash) => ({ hash, kind: 'transfer' })) : list) });
  }
  return result;
}

const prefixed = (value: JsonValue | undefined): JsonValue | undefined => (typeof value === 'string' && HEX64.test(value) ? `0x${value}` : value);

/** hash-prefix: a 0x before every hash in results (a block's hash, parent_hash and transactions; the transaction's and the faucet's hash), never before an address or identifier. */
function prefixHashes(result: JsonValue, method: string): JsonValue {
  switch (method) {
    case METHOD.getBlockByHeight:
      return isObject(result) ? changeMembers(result, { hash: prefixed, parent_hash: prefixed, transactions: (list) => (Array.isArray(list) ? list.map((t) => prefixed(t) ?? t) : list) }) : result;
    case METHOD.sendRawTransaction:
      return isObject(result) ? changeMembers(result, { transaction_hash: prefixed }) : (prefixed(result) ?? result);
    case METHOD.faucetClaim:
      return isObject(result) ? changeMembers(result, { transaction_hash: prefixed }) : (prefixed(result) ?? result);
    default:
      return result;
  }
}

/** hex-quantities: the integers the interface returns, per method (amounts are decimal strings already). */
function hexQuantities(result: JsonValue, method: string): JsonValue {
  switch (method) {
    case METHOD.blockNumber:
    case METHOD.peerCount:
      return toHexQuantity(result) ?? result;
    case METHOD.getBlockByHeight:
      return isObject(result) ? changeMembers(result, { height: toHexQuantity, timestamp: toHexQuantity, transaction_count: toHexQuantity }) : result;
    case METHOD.getAccount:
      return isObject(result) ? changeMembers(result, { nonce: toHexQuantity }) : result;
    case METHOD.health:
      return isObject(result) ? changeMembers(result, { chain_id: toHexQuantity }) : result;
    case METHOD.pouLocal:
      return isObject(result) ? changeMembers(result, { local_score: toHexQuantity }) : result;
    case METHOD.pouPeers:
      return changePeers(result, (id) => id, (s) => toHexQuantity(s) ?? s);
    default:
      return result;
  }
}

/** upper-hex: every 64-hex string in the result, keys included (the peers map's identifiers). */
function upperHex(value: JsonValue): JsonValue {
  if (typeof value === 'string') return HEX64.test(value) ? value.toUpperCase() : value;
  if (Array.isArray(value)) return value.map(upperHex);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [HEX64.test(k) ? k.toUpperCase() : k, upperHex(v)]));
  return value;
}

const camel = (key: string): string => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Key names: renamed-fields first (it names two keys exactly), then camel-keys for the rest; never the peers map's keys. */
function renameKeys(result: JsonValue, method: string, modes: Modes): JsonValue {
  const renamed = modes.has('renamed-fields');
  const camelCase = modes.has('camel-keys');
  if (!renamed && !camelCase) return result;
  const name = (key: string): string => (renamed && Object.hasOwn(RENAMED_FIELDS, key) ? (RENAMED_FIELDS[key] ?? key) : camelCase ? camel(key) : key);
  const walk = (value: JsonValue, keepKeys: boolean): JsonValue => {
    if (Array.isArray(value)) return value.map((v) => walk(v, false));
    if (!isObject(value)) return value;
    // Identifiers are data, not field names: the peers map keeps its keys (its values are scores).
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [keepKeys ? k : name(k), walk(v, method === METHOD.pouPeers && value === result && k === 'peers')]));
  };
  return walk(result, false);
}

/** error-data-string / error-data-absent, on every error object (the varying node's own ones too). */
function errorData(answer: JsonObject, modes: Modes): JsonObject {
  const error = answer.error;
  if (!isObject(error) || !Object.hasOwn(error, 'data')) return answer;
  if (modes.has('error-data-absent')) return { ...answer, error: without(error, 'data') };
  if (modes.has('error-data-string') && isObject(error.data) && typeof error.data.reason === 'string') return { ...answer, error: { ...error, data: error.data.reason } };
  return answer;
}
