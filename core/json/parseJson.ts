import { closingQuote } from './closingQuote.js';
import { JsonParseError } from './JsonParseError.js';
import type { JsonValue } from './JsonValue.js';
import { DEFAULT_MAX_DEPTH, parseJsonLossless, type ParseJsonOptions } from './parseJsonLossless.js';

// The largest integer JSON.parse reads exactly. An integer literal beyond it reads as a double
// beyond it too (rounding never crosses 2^53, which is a double), so a value holding no number
// beyond it came from a text without unsafe literals, and JSON.parse's numbers are already exact.
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Parses JSON text without losing integer precision: integer literals beyond ±(2^53−1) become
 * bigint; every other value is what JSON.parse gives. Accepts exactly what JSON.parse accepts,
 * up to `maxDepth` (default 512) levels of nesting on either path, so the outcome never depends
 * on which path ran. Throws JsonParseError (with the offset) otherwise.
 */
export function parseJson(text: string, options: ParseJsonOptions = {}): JsonValue {
  // A text nesting deeper than maxDepth is refused by the strict parser (at that depth, or at a syntax error
  // before it) whatever JSON.parse says of it: asked first, it spares JSON.parse a deep text.
  if (nestsDeeperThan(text, options.maxDepth ?? DEFAULT_MAX_DEPTH)) parseJsonLossless(text, options);
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    // Re-run the strict parser for a precise offset and one message format on both paths.
    parseJsonLossless(text, options);
    // Unreachable unless the two parsers disagree; keep JSON.parse's verdict.
    throw new JsonParseError(error instanceof Error ? error.message : String(error), 0, { cause: error });
  }
  // A number beyond 2^53−1 (an unsafe integer literal, or a fraction or exponent that large): the
  // lossless parser reads the text again, and gives bigints exactly where the literals are integers.
  return holdsLargeNumber(value) ? (parseMarked(text) ?? parseJsonLossless(text, options)) : value;
}

/** Marks an integer literal beyond ±(2^53−1) for parseMarked: a noncharacter no JSON text the tool reads needs. */
const BIG = '\uFDD1';
const ESCAPED_BIG = /\\u[fF][dD][dD]1/;
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/g;
const SAFE_DIGITS = String(MAX_SAFE);

/**
 * The lossless reading of a valid JSON text by JSON.parse: each integer literal beyond ±(2^53−1) outside the
 * strings is written as a string (BIG, then the literal), JSON.parse reads the text, and those strings become
 * bigints. Undefined (the lossless parser instead) for a text that holds BIG itself, as is or escaped. Strings are found from
 * quote to quote (a quote after an even run of backslashes closes one), so no digit inside a string is touched.
 */
function parseMarked(text: string): JsonValue | undefined {
  if (text.includes(BIG) || ESCAPED_BIG.test(text)) return undefined;
  let out = '';
  let copied = 0;
  let segment = 0;
  for (let open = text.indexOf('"'); ; ) {
    const end = open === -1 ? text.length : open;
    const part = text.slice(segment, end);
    NUMBER.lastIndex = 0;
    for (let m = NUMBER.exec(part); m !== null; m = NUMBER.exec(part)) {
      const literal = m[0];
      if (m[1] !== undefined || m[2] !== undefined || !unsafeInteger(literal)) continue;
      const at = segment + m.index;
      out += `${text.slice(copied, at)}"${BIG}${literal}"`;
      copied = at + literal.length;
    }
    if (open === -1) break;
    const close = closingQuote(text, open);
    if (close === -1) return undefined;
    segment = close + 1;
    open = text.indexOf('"', segment);
  }
  return unmark(JSON.parse(out + text.slice(copied)) as JsonValue);
}

/** Whether an integer literal (an optional minus, digits) is beyond ±(2^53−1). */
function unsafeInteger(literal: string): boolean {
  const digits = literal.charCodeAt(0) === 0x2d ? literal.length - 1 : literal.length;
  if (digits !== SAFE_DIGITS.length) return digits > SAFE_DIGITS.length;
  return literal.slice(literal.length - digits) > SAFE_DIGITS;
}

/** The value with every marked string turned into its bigint, in place. */
function unmark(value: JsonValue): JsonValue {
  if (typeof value === 'string') return value.charCodeAt(0) === 0xfdd1 ? BigInt(value.slice(1)) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unmark(value[i] as JsonValue);
    return value;
  }
  for (const key of Object.keys(value)) {
    const item = value[key] as JsonValue;
    // An own member (even one named __proto__, which JSON.parse makes an own data member) is replaced as data.
    if (typeof item === 'object' ? item !== null : typeof item === 'string') value[key] = unmark(item);
  }
  return value;
}

/** Whether a value from JSON.parse holds a number beyond ±(2^53−1) anywhere. Walks the value, not the text. */
function holdsLargeNumber(value: JsonValue): boolean {
  if (typeof value !== 'object' || value === null) return isLarge(value);
  // Leaves are checked here, not in a call of their own: this runs on every parsed request.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as JsonValue;
      if (typeof item === 'object' && item !== null ? holdsLargeNumber(item) : isLarge(item)) return true;
    }
    return false;
  }
  for (const key in value) {
    const item = value[key] as JsonValue;
    if (typeof item === 'object' && item !== null ? holdsLargeNumber(item) : isLarge(item)) return true;
  }
  return false;
}

function isLarge(value: JsonValue): boolean {
  return typeof value === 'number' && (value > MAX_SAFE || value < -MAX_SAFE);
}

/** Whether valid JSON `text` nests deeper than `limit` levels (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  // Depth d takes at least 2·d characters and d opening brackets, so most texts need no scan.
  return text.length > 2 * limit && opensMoreThan(text, limit) && exceedsDepth(text, limit);
}

/** Whether `text` holds more than `limit` opening brackets ('[' and '{', in strings too): found natively by indexOf. */
function opensMoreThan(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['[', '{']) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) if (++count > limit) return true;
  }
  return false;
}

/** Whether valid JSON `text` nests deeper than `maxDepth`. Brackets inside strings do not count. */
function exceedsDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}
