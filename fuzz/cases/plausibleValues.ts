/**
 * Values that break implementations, as data: integer boundaries (where a u32, a double, an i64, a u64 and a u128
 * run out), fractions, number spellings written as exact JSON text (`1e3`, `1E400`, `-0`), odd strings (unicode,
 * control characters, look-alike digits), ids of every JSON type, and the helpers that name them in a case's
 * title. Integers beyond 2^53-1 are bigints: stringifyJson writes them exactly, as the lossless parser reads them.
 */
import type { Wire } from './wire.js';
import { RawJson } from './wire.js';

export const U32_MAX = 2n ** 32n - 1n;
export const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
export const I64_MAX = 2n ** 63n - 1n;
export const U64_MAX = 2n ** 64n - 1n;
export const U128_MAX = 2n ** 128n - 1n;

/** An integer as a JSON value: a number when a double holds it exactly, else a bigint (as core/json reads it back). */
export function jsonInt(v: bigint): number | bigint {
  return v >= -SAFE_MAX && v <= SAFE_MAX ? Number(v) : v;
}

const NAMED: readonly [bigint, string][] = [
  [2n ** 31n - 1n, '2^31-1'],
  [2n ** 31n, '2^31'],
  [U32_MAX, '2^32-1 (u32 max)'],
  [2n ** 32n, '2^32'],
  [SAFE_MAX, '2^53-1'],
  [2n ** 53n, '2^53'],
  [2n ** 53n + 1n, '2^53+1'],
  [I64_MAX, '2^63-1 (i64 max)'],
  [2n ** 63n, '2^63'],
  [U64_MAX, '2^64-1 (u64 max)'],
  [2n ** 64n, '2^64 (u64 max + 1)'],
  [2n ** 64n + 1n, '2^64+1'],
  [U128_MAX, '2^128-1 (u128 max)'],
  [2n ** 128n, '2^128 (u128 max + 1)'],
  [2n ** 256n, '2^256'],
  [-(2n ** 63n), '-2^63 (i64 min)'],
  [-(2n ** 64n), '-2^64'],
];
const NAMES = new Map(NAMED);

/** An integer for a title: its name when it is a boundary, else its digits (cut when long). */
export function describeInt(v: bigint): string {
  const name = NAMES.get(v);
  if (name !== undefined) return name;
  const digits = v.toString();
  return digits.length > 24 ? `${digits.slice(0, 8)}... (${digits.length} digits)` : digits;
}

/** Integers at and one past the points where integer types run out (all but the last two of each pair are u64). */
export const INTEGER_BOUNDARIES: readonly bigint[] = [
  0n,
  2n ** 31n - 1n,
  2n ** 31n,
  U32_MAX,
  2n ** 32n,
  SAFE_MAX,
  2n ** 53n,
  2n ** 53n + 1n,
  I64_MAX,
  2n ** 63n,
  U64_MAX,
  2n ** 64n,
  U128_MAX,
  2n ** 128n,
];

/** A u64 above 2^53-1 (a double cannot hold it exactly): what a valid call with a big height sends. */
export const BIG_U64: readonly bigint[] = [2n ** 53n, 2n ** 53n + 1n, 2n ** 53n + 3n, I64_MAX, 2n ** 63n, U64_MAX - 1n, U64_MAX];

/** Integers past a u64's maximum. */
export const PAST_U64: readonly bigint[] = [2n ** 64n, 2n ** 64n + 1n, 2n ** 65n, U128_MAX, 2n ** 128n, 10n ** 30n, 2n ** 256n];

/** Negative integers. */
export const NEGATIVES: readonly bigint[] = [-1n, -2n, -(2n ** 31n), -(SAFE_MAX + 2n), -(2n ** 63n), -(2n ** 64n)];

/** Fractions (a JSON number with a fractional part), with how a title names them. */
export const FRACTIONS: readonly (readonly [Wire, string])[] = [
  [1.5, '1.5'],
  [0.5, '0.5'],
  [0.1, '0.1'],
  [2.25, '2.25'],
  [-0.5, '-0.5'],
  [new RawJson('1e-7'), '1e-7'],
  [new RawJson('1.000000001'), '1.000000001'],
];

/**
 * Integer values in unusual but valid JSON number spellings, and spellings whose value no integer type holds:
 * the text is sent exactly. `integral` says whether the number written is an integer a u64 holds (a double may
 * read it otherwise: 18446744073709551615.0 as 2^64, 1e-400 as 0; the judge takes either reading, RFC 8259 §6).
 */
export const NUMBER_TEXTS: readonly { text: string; integral: boolean }[] = [
  { text: '1e3', integral: true },
  { text: '1E3', integral: true },
  { text: '1e+3', integral: true },
  { text: '1.0', integral: true },
  { text: '10e-1', integral: true },
  { text: '1.5e1', integral: true },
  { text: '-0', integral: true },
  { text: '0e0', integral: true },
  { text: '0.0', integral: true },
  { text: '1E400', integral: false },
  { text: '-1E400', integral: false },
  { text: '1e19', integral: true },
  { text: '18446744073709551615.0', integral: true },
  { text: '1e-400', integral: false },
];

/** Strings a node may choke on: look-alike digits, control characters, every plane of unicode. */
export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  '\n',
  'null',
  'undefined',
  'NaN',
  'true',
  '０',
  '٣',
  'é',
  'ß',
  '\u200b',
  '\ufeff',
  '😀',
  '\ud800',
  '\udfff',
  '%00',
  '../../etc/passwd',
  "'; DROP TABLE blocks; --",
  '${jndi:ldap://x}',
  '{{7*7}}',
];

/** Characters that are not hex digits but look or behave like them, to put in place of one hex digit. */
export const NOT_HEX_CHARS: readonly string[] = ['g', 'G', 'x', 'z', ' ', '-', '+', '.', '\u0000', '\n', '０', 'ａ', 'é', '٣', '\u200b', '😀'];

/** Ethereum-style block tags and other words a node may read as a height. */
export const HEIGHT_WORDS: readonly string[] = ['latest', 'earliest', 'pending', 'finalized', 'safe', 'head', 'genesis'];

/** An id of each kind: what JSON-RPC 2.0 allows (string, number, null) and what it does not. */
export function idValues(index: number): readonly (readonly [Wire, string])[] {
  return [
    ['', 'an empty string'],
    [String(index), 'a string of digits'],
    [`case-${index}`, 'a string'],
    ['идентификатор', 'a Cyrillic string'],
    ['😀', 'an emoji'],
    ['\u0000', 'a NUL character'],
    ['\ud800', 'a lone surrogate'],
    [0, '0'],
    [-1, '-1'],
    [2 ** 31, '2^31'],
    [2 ** 32, '2^32'],
    [Number.MAX_SAFE_INTEGER, '2^53-1'],
    [2n ** 53n + 1n, '2^53+1'],
    [2n ** 63n, '2^63'],
    [2n ** 64n, '2^64'],
    [-(2n ** 63n), '-2^63'],
    [10n ** 100n, '10^100'],
    [1.5, '1.5'],
    [-0.25, '-0.25'],
    [1e-7, '1e-7'],
    [1e300, '1e300'],
    [new RawJson('-0'), '-0'],
    [new RawJson('1.0'), '1.0'],
    [new RawJson('1E400'), '1E400'],
    [new RawJson('1e2'), '1e2'],
    [null, 'null'],
    [true, 'true'],
    [false, 'false'],
    [{}, 'an empty object'],
    [{ id: index }, 'an object'],
    [[], 'an empty array'],
    [[index], 'an array'],
    [[[[]]], 'nested arrays'],
  ];
}
