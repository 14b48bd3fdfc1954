/**
 * Reading a node's answers whatever legal choices it made: the values a check needs, as the spec names
 * them, from any encoding the spec leaves open. Reading is not judging: PROFILE checks judge encodings
 * against the profile's schemas (profile/profileSchemas.ts); MUST and SHOULD checks read through
 * these functions and so accept every legal choice (docs/conformance-suite.md, "MUST and SHOULD never
 * depend on the profile").
 */
import type { JsonValue } from '../core/json/index.js';
import type { Profile } from './Profile.js';
import { camelCase, wireField } from './Profile.js';
import { resultFieldNames } from './resultFields.js';

export type JsonObject = { [key: string]: JsonValue };

export const isObject = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A key with case and separators dropped: transaction_count, transactionCount and Transaction-Count
 * meet. What "another spelling" of a field is, for reading (here) and for detection (detect/findKeys.ts).
 */
export const loose = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Most significant hex digits read as an integer: a u128's 32; nothing the interface carries is longer. */
const MAX_HEX_DIGITS = 32;

/**
 * A non-negative integer however the node wrote it: a JSON integer (a bigint beyond 2^53), or a hex
 * quantity ("0x1f", Ethereum's convention for integers). undefined for anything else (decimal strings,
 * fractions, negatives), which no reading makes an integer.
 */
export function asInteger(value: JsonValue | undefined): bigint | undefined {
  if (typeof value === 'bigint') return value >= 0n ? value : undefined;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  if (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value) && value.replace(/^0x0*/, '').length <= MAX_HEX_DIGITS) return BigInt(value);
  return undefined;
}

/** A non-negative integer in any of the usual writings: a decimal string ("42"), a JSON number, a hex quantity. */
export function anyInteger(value: JsonValue | undefined): bigint | undefined {
  return typeof value === 'string' && /^[0-9]+$/.test(value) ? BigInt(value) : asInteger(value);
}

/** A u64 (at most 2^64 - 1) however written; undefined otherwise. */
export function asU64(value: JsonValue | undefined): bigint | undefined {
  const n = asInteger(value);
  return n !== undefined && n < 1n << 64n ? n : undefined;
}

/** Hex as bytes: lower case, without a 0x prefix. */
const bareHex = (hex: string): string => hex.toLowerCase().replace(/^0x/, '');

/**
 * Two hex strings as the same bytes: hex case, and a 0x before a hash in results (profile hashPrefix), are
 * choices the spec leaves open.
 */
export const sameHex = (a: JsonValue | undefined, b: JsonValue | undefined): boolean =>
  typeof a === 'string' && typeof b === 'string' && bareHex(a) === bareHex(b);

/**
 * A result field by the spec's name: under the profile's wire key, else under the spec's own name in
 * any spelling (snake_case, camelCase, other case). undefined when the node sent no such field.
 */
export function readField(profile: Profile, value: JsonValue | undefined, name: string): JsonValue | undefined {
  if (!isObject(value)) return undefined;
  const wire = wireField(profile, name);
  for (const key of [wire, name, camelCase(name)]) if (key !== null && Object.hasOwn(value, key)) return value[key];
  const wanted = loose(name);
  const key = Object.keys(value).find((k) => loose(k) === wanted);
  return key === undefined ? undefined : value[key];
}

let byLooseName: Map<string, string> | undefined;

/**
 * The result with its keys renamed to the spec's names, so the spec-level schemas can judge it: keys
 * the profile names, and any spelling of a field name of the interface. Other keys are kept.
 */
export function specView(profile: Profile, value: JsonValue): JsonValue {
  if (!isObject(value)) return value;
  const byLoose = (byLooseName ??= new Map(resultFieldNames().map((n) => [loose(n), n])));
  const byWire = new Map<string, string>();
  for (const name of resultFieldNames()) {
    const wire = wireField(profile, name);
    if (wire !== null) byWire.set(wire, name);
  }
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    const name = byWire.get(key) ?? byLoose.get(loose(key)) ?? key;
    // The spec's own spelling wins when a node sends both.
    if (!Object.hasOwn(out, name) || key === name) out[name] = v;
  }
  return out;
}
