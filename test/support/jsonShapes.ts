/**
 * Small readers for parsed JSON (core/json's JsonValue), shared by both sides of the varying node.
 * Integers may be numbers or bigints (the lossless parser makes integers beyond 2^53 bigints), so the
 * integer helpers take both and give back the smallest exact form.
 */
import type { JsonValue } from '../../core/json/index.js';

export type JsonObject = { [key: string]: JsonValue };

export const isObject = (value: JsonValue | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON integer as a bigint; undefined for anything else (fractions, strings, ...). */
export function integerOf(value: JsonValue | undefined): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  return undefined;
}

export { jsonInteger } from '../../core/json/index.js';

/** A copy of `object` without `key`. Spread copies keys as own data properties, so "__proto__" stays a plain key. */
export function without(object: JsonObject, key: string): JsonObject {
  return Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));
}

/** 64 hexadecimal characters, either case: the spec's hashes, addresses and identifiers. */
export const HEX64 = /^[0-9a-fA-F]{64}$/;
