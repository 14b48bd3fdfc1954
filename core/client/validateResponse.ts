import { stringifyJson, type JsonValue } from '../json/index.js';
import type { JsonRpcErrorObject } from './types.js';

export type ValidatedResponse =
  | { readonly kind: 'result'; readonly id: JsonValue; readonly result: JsonValue }
  | { readonly kind: 'error'; readonly id: JsonValue; readonly error: JsonRpcErrorObject }
  | { readonly kind: 'invalid'; readonly problem: string };

/**
 * Checks one parsed value against the JSON-RPC 2.0 Response object (§5): `jsonrpc` exactly
 * "2.0", an `id` member, exactly one of `result` / `error`, and an error object with an integer
 * `code` and a string `message`. Extra members are tolerated here; checks may be stricter.
 * Whether the id is the expected one is the caller's business.
 */
export function validateResponse(value: JsonValue): ValidatedResponse {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid(`expected a JSON-RPC response object, got ${describe(value)}`);
  }
  if (!Object.hasOwn(value, 'jsonrpc')) return invalid('the "jsonrpc" member is missing');
  if (value['jsonrpc'] !== '2.0') return invalid(`"jsonrpc" must be "2.0", got ${short(value['jsonrpc'])}`);
  if (!Object.hasOwn(value, 'id')) return invalid('the "id" member is missing');
  const id = value['id'] as JsonValue;
  const hasResult = Object.hasOwn(value, 'result');
  const hasError = Object.hasOwn(value, 'error');
  if (hasResult && hasError) return invalid('both "result" and "error" are present');
  if (!hasResult && !hasError) return invalid('neither "result" nor "error" is present');
  if (hasResult) return { kind: 'result', id, result: value['result'] as JsonValue };
  const error = value['error'] as JsonValue;
  if (typeof error !== 'object' || error === null || Array.isArray(error)) {
    return invalid(`"error" must be an object, got ${describe(error)}`);
  }
  const code = error['code'];
  if (typeof code !== 'number' || !Number.isInteger(code)) {
    return invalid(`"error.code" must be an integer, got ${Object.hasOwn(error, 'code') ? short(code) : 'nothing'}`);
  }
  const message = error['message'];
  if (typeof message !== 'string') {
    return invalid(`"error.message" must be a string, got ${Object.hasOwn(error, 'message') ? short(message) : 'nothing'}`);
  }
  const errorObject: JsonRpcErrorObject = Object.hasOwn(error, 'data')
    ? { code, message, data: error['data'] as JsonValue }
    : { code, message };
  return { kind: 'error', id, error: errorObject };
}

function invalid(problem: string): ValidatedResponse {
  return { kind: 'invalid', problem };
}

function describe(value: JsonValue | undefined): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${short(value)}`;
}

/** A value for a message: JSON, cut to 80 characters. */
export function short(value: JsonValue | undefined): string {
  if (value === undefined) return 'nothing';
  const text = stringifyJson(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
