/**
 * Everything wrong with a value as a JSON-RPC 2.0 response object (§5, §5.1), said in words: what the suite's
 * transport checks and the fuzzer's envelope oracle both judge answers by, so they cannot disagree on it.
 */
import { stringifyJson, type JsonValue } from '../json/index.js';

type Obj = { [key: string]: JsonValue };
const isObject = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value for a message: JSON (bigints digit for digit), cut to 300 characters; "(absent)" for none. */
const show = (v: JsonValue | undefined): string => {
  if (v === undefined) return '(absent)';
  const text = stringifyJson(v);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/**
 * The problems of a response object: jsonrpc exactly "2.0", an id member (string, number or null), exactly one
 * of result and error, and an error object with an integer code and a string message. Extra members are not
 * problems (JSON-RPC neither allows nor forbids them). Empty: a well-formed response.
 */
export function responseProblems(v: JsonValue): string[] {
  if (!isObject(v)) return [`not an object but ${show(v)}`];
  const problems: string[] = [];
  if (!Object.hasOwn(v, 'jsonrpc')) problems.push('no "jsonrpc" member');
  else if (v.jsonrpc !== '2.0') problems.push(`"jsonrpc" is ${show(v.jsonrpc)}, not "2.0"`);
  if (!Object.hasOwn(v, 'id')) problems.push('no "id" member');
  else if (!['string', 'number', 'bigint'].includes(typeof v.id) && v.id !== null) problems.push(`"id" is ${show(v.id)}, not a string, number or null`);
  const hasResult = Object.hasOwn(v, 'result');
  const hasError = Object.hasOwn(v, 'error');
  if (hasResult && hasError) problems.push('both "result" and "error" members (exactly one is allowed)');
  if (!hasResult && !hasError) problems.push('neither "result" nor "error"');
  if (hasError) problems.push(...errorObjectProblems(v.error));
  return problems;
}

/** Everything wrong with an error member (§5.1): an object, an integer code, a string message. */
export function errorObjectProblems(e: JsonValue | undefined): string[] {
  if (!isObject(e)) return [`"error" is ${show(e)}, not an object`];
  const problems: string[] = [];
  const code = e.code;
  if (!(typeof code === 'bigint' || (typeof code === 'number' && Number.isInteger(code)))) problems.push(`"error.code" is ${show(code)}, not an integer`);
  if (typeof e.message !== 'string') problems.push(`"error.message" is ${show(e.message)}, not a string`);
  return problems;
}
