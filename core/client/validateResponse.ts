import { stringifyJson, type JsonValue } from '../json/index.js';
import type { JsonRpcErrorObject } from './types.js';

/** The part of a response that is wrong: the value as a whole, or one of its members. */
export type ResponseMember = 'response' | 'jsonrpc' | 'id' | 'result' | 'error';

export type ValidatedResponse =
  | { readonly kind: 'result'; readonly id: JsonValue; readonly result: JsonValue }
  | { readonly kind: 'error'; readonly id: JsonValue; readonly error: JsonRpcErrorObject }
  | {
      readonly kind: 'invalid';
      readonly problem: string;
      /** What is wrong: 'response' (not an object), 'jsonrpc', 'id' (missing), 'result' (both or neither of result and error), 'error' (the error object). */
      readonly member: ResponseMember;
      /** The id member, when the value is an object that has one (to match it against a request all the same). */
      readonly id?: JsonValue;
    };

/**
 * How much of JSON-RPC 2.0 §5 a reader insists on.
 *
 * - `strict` (the client): the whole Response object: `jsonrpc` exactly "2.0", an `id`, exactly one of
 *   `result` / `error`, an error object with an integer `code` and a string `message`.
 * - `readable` (conformance checks reading an answer to judge something else): only what the answer is
 *   read by: an object with an `id`, and a `result`, or an `error` object with a numeric `code` and a
 *   string `message`. A missing or wrong `jsonrpc`, `result` beside `error` (the error is read) and a
 *   fractional code pass: the transport checks judge the envelope, so that a node with one envelope
 *   defect is failed by the checks about it and not by every check.
 */
export type ResponseRules = 'strict' | 'readable';

/**
 * Checks one parsed value against the JSON-RPC 2.0 Response object (§5) under `rules` (default strict).
 * Extra members are tolerated here; checks may be stricter. Whether the id is the expected one is the
 * caller's business.
 */
export function validateResponse(value: JsonValue, rules: ResponseRules = 'strict'): ValidatedResponse {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid('response', `expected a JSON-RPC response object, got ${describe(value)}`);
  }
  const strict = rules === 'strict';
  const id = Object.hasOwn(value, 'id') ? (value['id'] as JsonValue) : undefined;
  const wrong = (member: ResponseMember, problem: string): ValidatedResponse => invalid(member, problem, id);
  if (strict && !Object.hasOwn(value, 'jsonrpc')) return wrong('jsonrpc', 'the "jsonrpc" member is missing');
  if (strict && value['jsonrpc'] !== '2.0') return wrong('jsonrpc', `"jsonrpc" must be "2.0", got ${short(value['jsonrpc'])}`);
  if (id === undefined) return wrong('id', 'the "id" member is missing');
  const hasResult = Object.hasOwn(value, 'result');
  const hasError = Object.hasOwn(value, 'error');
  if (strict && hasResult && hasError) return wrong('result', 'both "result" and "error" are present');
  if (!hasResult && !hasError) return wrong('result', 'neither "result" nor "error" is present');
  if (!hasError) return { kind: 'result', id, result: value['result'] as JsonValue };
  const error = value['error'] as JsonValue;
  if (typeof error !== 'object' || error === null || Array.isArray(error)) {
    return wrong('error', `"error" must be an object, got ${describe(error)}`);
  }
  const code = error['code'];
  if (typeof code !== 'number' || (strict && !Number.isInteger(code))) {
    return wrong('error', `"error.code" must be ${strict ? 'an integer' : 'a number'}, got ${Object.hasOwn(error, 'code') ? short(code) : 'nothing'}`);
  }
  const message = error['message'];
  if (typeof message !== 'string') {
    return wrong('error', `"error.message" must be a string, got ${Object.hasOwn(error, 'message') ? short(message) : 'nothing'}`);
  }
  const errorObject: JsonRpcErrorObject = Object.hasOwn(error, 'data')
    ? { code, message, data: error['data'] as JsonValue }
    : { code, message };
  return { kind: 'error', id, error: errorObject };
}

function invalid(member: ResponseMember, problem: string, id?: JsonValue): ValidatedResponse {
  return id === undefined ? { kind: 'invalid', problem, member } : { kind: 'invalid', problem, member, id };
}

function describe(value: JsonValue | undefined): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${short(value)}`;
}

const SHORT = 80;

/** A value for a message: JSON, cut to 80 characters (a large value is cut before it is written, not after). */
export function short(value: JsonValue | undefined): string {
  if (value === undefined) return 'nothing';
  const sample = headOf(value, 0);
  const text = stringifyJson(sample.value);
  return text.length > SHORT || sample.cut ? `${text.slice(0, SHORT)}…` : text;
}

/**
 * The part of a value its first 80 written characters can show: strings cut to 81 characters, arrays and
 * objects to their first 40 members (each takes at least 2 characters), 40 levels deep. `cut`: something was left out.
 */
function headOf(value: JsonValue, depth: number): { value: JsonValue; cut: boolean } {
  if (typeof value === 'string') return value.length > SHORT + 1 ? { value: value.slice(0, SHORT + 1), cut: true } : { value, cut: false };
  if (typeof value !== 'object' || value === null) return { value, cut: false };
  if (depth >= SHORT / 2) return { value: Array.isArray(value) ? [] : {}, cut: true };
  const limit = SHORT / 2;
  let cut = false;
  if (Array.isArray(value)) {
    const items = value.slice(0, limit).map((v) => {
      const h = headOf(v, depth + 1);
      cut ||= h.cut;
      return h.value;
    });
    return { value: items, cut: cut || value.length > limit };
  }
  const keys = Object.keys(value);
  // fromEntries defines own members: a key named __proto__ stays a key.
  const out: { [key: string]: JsonValue } = Object.fromEntries(
    keys.slice(0, limit).map((key): [string, JsonValue] => {
      const h = headOf(value[key] as JsonValue, depth + 1);
      cut ||= h.cut;
      return [key, h.value];
    }),
  );
  return { value: out, cut: cut || keys.length > limit };
}
