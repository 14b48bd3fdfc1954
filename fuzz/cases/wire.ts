/**
 * Bodies as the generators build them. A `Wire` is a JSON value that may also hold what a JsonValue cannot:
 * JSON text written as is (`RawJson`: `1E400`, `-0`, `1.0`, `"chain\u005fhealth"`) and an object written
 * member by member (`Members`: duplicate keys, any order). `writeWire` turns it into the exact text; a Wire
 * without either is a JsonValue, written by core/json's stringifyJson. A `Body` is what a generator hands
 * back: such a value, or exact bytes (not JSON, not UTF-8, a BOM, a cut).
 */
import { stringifyJson, type JsonValue } from '../../core/json/index.js';

/** JSON text put into the body as it is (a number spelling, an escape, a deep value already written). */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** An object written member by member, in this order, duplicates kept. */
export class Members {
  readonly entries: readonly (readonly [string, Wire])[];
  constructor(entries: readonly (readonly [string, Wire])[]) {
    this.entries = entries;
  }
}

export type Wire = null | boolean | number | bigint | string | RawJson | Members | Wire[] | { [key: string]: Wire };

export type Body =
  /** A JSON value (possibly with raw parts), written by writeWire. */
  | { kind: 'json'; value: Wire }
  /** Exact bytes; `json` when they are exactly a JSON text of that value. */
  | { kind: 'bytes'; bytes: Uint8Array; json?: JsonValue };

export const jsonBody = (value: Wire): Body => ({ kind: 'json', value });
export const bytesBody = (bytes: Uint8Array): Body => ({ kind: 'bytes', bytes });

const encoder = new TextEncoder();
export const utf8 = (text: string): Uint8Array => encoder.encode(text);
/** UTF-8 length of a string without encoding it. */
export const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

/** What a walk over a Wire finds: raw parts (RawJson, Members) and bigints. */
const RAW = 1;
const BIGINT = 2;

function scan(w: Wire): number {
  if (typeof w !== 'object' || w === null) return typeof w === 'bigint' ? BIGINT : 0;
  if (w instanceof RawJson || w instanceof Members) return RAW;
  let found = 0;
  if (Array.isArray(w)) {
    for (const item of w) if ((found |= typeof item === 'object' && item !== null ? scan(item) : typeof item === 'bigint' ? BIGINT : 0) & RAW) return found;
    return found;
  }
  for (const key in w) {
    const item = w[key] as Wire;
    if ((found |= typeof item === 'object' && item !== null ? scan(item) : typeof item === 'bigint' ? BIGINT : 0) & RAW) return found;
  }
  return found;
}

/** Whether `w` holds no RawJson or Members anywhere: then it is a JsonValue, and writeWire is stringifyJson. */
export function isPlainWire(w: Wire): w is JsonValue {
  return (scan(w) & RAW) === 0;
}

/** The exact JSON text of `w` (no whitespace but what RawJson parts hold), and whether it is plain JSON (then the text is stringifyJson's). */
export function writeWireChecked(w: Wire): { text: string; plain: boolean } {
  const found = scan(w);
  if (found & RAW) return { text: writeMixed(w), plain: false };
  // Without a bigint, V8's JSON.stringify writes exactly what stringifyJson would (the values here are plain data).
  return { text: found & BIGINT ? stringifyJson(w) : JSON.stringify(w), plain: true };
}

/** The exact JSON text of `w` (no whitespace but what RawJson parts hold). */
export function writeWire(w: Wire): string {
  return writeWireChecked(w).text;
}

function writeMixed(w: Wire): string {
  if (w instanceof RawJson) return w.text;
  if (w instanceof Members) return `{${w.entries.map(([k, v]) => `${JSON.stringify(k)}:${writeWire(v)}`).join(',')}}`;
  if (typeof w !== 'object' || w === null) return stringifyJson(w);
  if (Array.isArray(w)) return `[${w.map(writeWire).join(',')}]`;
  return `{${Object.keys(w).map((k) => `${JSON.stringify(k)}:${writeWire(w[k] as Wire)}`).join(',')}}`;
}

/** An object from entries, keys such as "__proto__" kept as own members (an object literal would not). */
export function objectOf(entries: readonly (readonly [string, Wire])[]): { [key: string]: Wire } {
  return Object.fromEntries<Wire>(entries);
}

/** A JSON-RPC 2.0 request object; `id` undefined: a notification; `params` undefined: no params member. */
export function request(method: Wire, params: Wire | undefined, id: Wire | undefined): { [key: string]: Wire } {
  if (params === undefined) return id === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, id };
  return id === undefined ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', method, params, id };
}
