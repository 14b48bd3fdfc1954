/**
 * A request body as JSON, in every reading a node may legally give it: the bytes decoded as strict UTF-8
 * (RFC 8259 §8.1), a byte order mark (RFC 8259 §8.1: a sender MUST NOT add one, a parser MAY ignore it),
 * the text parsed losslessly (core/json: integers beyond 2^53 stay bigints) up to core/json's depth limit
 * (RFC 8259 §9 lets a parser limit nesting), and duplicate member names (RFC 8259 §4: names SHOULD be
 * unique; with duplicates "the behavior of software that receives such an object is unpredictable": most
 * parsers keep the last value, some the first, some refuse the text). Nothing here knows JSON-RPC.
 */
import { closingQuote, JsonParseError, nestsDeeperThan, parseJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';

/** What the bytes are, as JSON. */
export type JsonBody =
  /** No bytes, or JSON whitespace only (RFC 8259 §2: not a JSON text). */
  | { kind: 'empty' }
  /** Not a JSON text: invalid UTF-8, a syntax error, trailing data, a truncated text. */
  | { kind: 'not-json'; reason: string; source: string }
  /** A JSON text nested deeper than core/json reads (512 levels): RFC 8259 §9 lets a parser refuse it or read it. */
  | { kind: 'too-deep'; reason: string }
  | {
      kind: 'json';
      /** The value, the last of duplicate members kept (as JSON.parse and core/json do). */
      value: JsonValue;
      /** Set when some object repeats a member name: the value with the first of them kept, and which parts hold one. */
      duplicates?: { firstWins: JsonValue; where: DuplicateSites };
      /**
       * Set when a number written with a fraction or an exponent reads otherwise as a double than as the number
       * it writes (RFC 8259 §6: a parser may read numbers to a limited precision): the value with each such number
       * read exactly (see exactlyRead).
       */
      exact?: JsonValue;
      /** The nesting goes deeper than PARSER_DEPTH_LIMIT levels: a parser with a depth limit may refuse it (RFC 8259 §9). */
      deep?: true;
    };

/**
 * Nesting beyond which a body may be refused as too deep by a node's parser (RFC 8259 §9 lets a parser limit
 * nesting; .NET's System.Text.Json stops at 64 levels by default, serde_json at 128): deeper than any request of
 * the interface needs.
 */
export const PARSER_DEPTH_LIMIT = 32;

/** Where duplicate member names are: in the whole value, or (a batch) in these elements of the top-level array. */
export type DuplicateSites = 'whole' | ReadonlySet<number>;

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BOM = '\uFEFF';
const JSON_WHITESPACE = /^[ \t\n\r]*$/;

/** The bytes as text, or why they are not UTF-8; `bom` when they open with a byte order mark (not part of the text). */
export function decodeBody(bytes: Uint8Array): { text: string; bom: boolean } | { reason: string } {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    return { reason: 'the body is not valid UTF-8' };
  }
  return text.startsWith(BOM) ? { text: text.slice(1), bom: true } : { text, bom: false };
}

/**
 * Bodies whose reading is known without parsing them: bytes a generator wrote from a value with JSON.stringify
 * (caseAt, for every case it writes from a plain value), kept with that value when a parse of the bytes gives it
 * back exactly (canonical). Keyed by the bytes object itself: any other bytes (a shrunk case, a replay, a case
 * that crossed to another thread) are parsed. A parse memo, not a second source of truth: the test of
 * expectationOf holds the readings of every generated case equal with and without it.
 */
const WRITTEN = new WeakMap<Uint8Array, JsonValue>();

/** Notes that `bytes` are exactly the UTF-8 of `JSON.stringify(value)` (stringifyJson's, bigints as integer literals). */
export function rememberWrittenJson(bytes: Uint8Array, value: JsonValue): void {
  if (canonical(value, 0)) WRITTEN.set(bytes, value);
}

/** The value `bytes` were written from (rememberWrittenJson), when their reading is that value alone. */
export function writtenJson(bytes: Uint8Array): JsonValue | undefined {
  return WRITTEN.get(bytes);
}

const SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Whether the JSON text of `v` reads back as `v` itself and as nothing else (readJsonText: no duplicate names, no
 * number a double misreads, no nesting a parser may refuse): plain objects and arrays no deeper than
 * PARSER_DEPTH_LIMIT, finite numbers within ±(2^53−1) but -0 (written "0"; beyond, a literal reads as a bigint or
 * another double), bigints beyond it (a smaller one reads as a number), strings, booleans, null.
 */
function canonical(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0) && v <= Number.MAX_SAFE_INTEGER && v >= -Number.MAX_SAFE_INTEGER;
    case 'bigint':
      return v > SAFE_BIG || v < -SAFE_BIG;
    case 'object': {
      if (v === null) return true;
      if (depth >= PARSER_DEPTH_LIMIT) return false;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!(i in v) || !canonical(v[i], depth + 1)) return false;
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      const o = v as Record<string, unknown>;
      if ('toJSON' in o) return false;
      for (const key in o) if (!Object.hasOwn(o, key) || !canonical(o[key], depth + 1)) return false;
      return Object.getOwnPropertySymbols(o).length === 0;
    }
    default:
      return false;
  }
}

/** A text as JSON (see JsonBody). */
export function readJsonText(text: string): JsonBody {
  if (JSON_WHITESPACE.test(text)) return { kind: 'empty' };
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch (error) {
    const reason = error instanceof JsonParseError ? `${error.reason} at offset ${error.offset}` : String(error);
    if (error instanceof JsonParseError && error.reason.startsWith('Nesting deeper')) return { kind: 'too-deep', reason };
    return { kind: 'not-json', reason: `the body is not valid JSON: ${reason}`, source: 'RFC 8259 §2-§7' };
  }
  const exact = exactlyRead(text);
  const more = { ...(exact === undefined ? {} : { exact }), ...(nestsDeeperThan(text, PARSER_DEPTH_LIMIT) ? { deep: true as const } : {}) };
  // Most texts repeat no name: as many names in the text as in the value read says so, without the scan below.
  if (namesIn(text) === namesOf(value)) return { kind: 'json', value, ...more };
  const scan = new FirstWins(text);
  const firstWins = scan.read();
  if (scan.sites.size === 0 && !scan.anywhere) return { kind: 'json', value, ...more };
  const where: DuplicateSites = Array.isArray(value) && !scan.anywhere ? scan.sites : 'whole';
  return { kind: 'json', value, duplicates: { firstWins, where }, ...more };
}

/** A number literal: sign, integer digits, fraction digits, exponent. */
const NUMBER_LITERAL = /-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?/g;
/** Beyond this many digits of exponent a number's exact reading is only "huge" or "tiny". */
const EXPONENT_CAP = 400;
const TWO_52 = 2 ** 52;

/**
 * The value of a valid JSON text with each number written with a fraction or an exponent read exactly where a
 * double reads it as another number in a way a schema can tell: an integer a double changes (18446744073709551615.0
 * reads as 2^64, beyond a u64; 1E400 as Infinity) becomes that integer (a bigint; beyond 10^400, 10^400), and a
 * fraction a double reads as an integer (1e-400 reads as 0, 1.00000000000000000001 as 1) becomes a fraction with
 * the same integer part (its floor + 0.5). Undefined when no number needs it (integers written without a fraction
 * or an exponent are read exactly by core/json already). Numbers inside strings are never touched.
 */
export function exactlyRead(text: string): JsonValue | undefined {
  if (!/\d[.eE]/.test(text)) return undefined;
  const replaced: { at: number; length: number; value: bigint | number }[] = [];
  for (let segment = 0; segment <= text.length; ) {
    const open = text.indexOf('"', segment);
    const end = open === -1 ? text.length : open;
    // Searched within the segment only: a search through the whole text from each segment would be quadratic.
    const part = text.slice(segment, end);
    NUMBER_LITERAL.lastIndex = 0;
    for (let m = NUMBER_LITERAL.exec(part); m !== null; m = NUMBER_LITERAL.exec(part)) {
      if (m[2] === undefined && m[3] === undefined) continue;
      const exact = exactNumber(m[0], m[1] ?? '', m[2] ?? '', m[3]);
      if (exact !== undefined) replaced.push({ at: segment + m.index, length: m[0].length, value: exact });
    }
    if (open === -1) break;
    const close = closingQuote(text, open);
    if (close === -1) return undefined;
    segment = close + 1;
  }
  if (replaced.length === 0) return undefined;
  // Each replaced literal is written as a string holding its index, read back as the exact value.
  let out = '';
  let copied = 0;
  replaced.forEach((r, i) => {
    out += `${text.slice(copied, r.at)}"${MARK}${i}"`;
    copied = r.at + r.length;
  });
  if (text.includes(MARK) || ESCAPED_MARK.test(text)) return undefined;
  return restore(parseJson(out + text.slice(copied)), replaced.map((r) => r.value));
}

/** Marks a replaced literal: a noncharacter no body the fuzzer sends holds (a body that does, as is or escaped, gets no exact reading). */
const MARK = '\uFDD2';
const ESCAPED_MARK = /\\u[fF][dD][dD]2/;

/** A literal's exact reading where a double misreads it (see exactlyRead); undefined where the double is right. */
function exactNumber(literal: string, int: string, frac: string, exp: string | undefined): bigint | number | undefined {
  const negative = literal.startsWith('-');
  const double = Number(literal);
  let digits = (int + frac).replace(/^0+/, '');
  let scale = (exp === undefined ? 0 : Number(exp)) - frac.length;
  if (digits === '') return undefined; // zero, which a double reads exactly
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  scale += trailing;
  if (scale >= 0) {
    // An integer: right when the double is that very integer.
    if (digits.length + scale > EXPONENT_CAP) return Number.isFinite(double) ? undefined : (negative ? -1n : 1n) * 10n ** BigInt(EXPONENT_CAP);
    const exact = (negative ? -1n : 1n) * BigInt(digits) * 10n ** BigInt(scale);
    return Number.isInteger(double) && BigInt(double) === exact ? undefined : exact;
  }
  // A fraction: right when the double is not an integer either.
  if (!Number.isInteger(double)) return undefined;
  const wholeDigits = digits.length + scale;
  const floorMagnitude = wholeDigits <= 0 ? 0n : BigInt(digits.slice(0, wholeDigits));
  const floor = negative ? -floorMagnitude - 1n : floorMagnitude;
  return floor > -TWO_52 && floor < TWO_52 ? Number(floor) + 0.5 : 0.5;
}

function restore(value: JsonValue, exact: readonly (bigint | number)[]): JsonValue {
  if (typeof value === 'string') return value.startsWith(MARK) ? (exact[Number(value.slice(1))] ?? value) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => restore(item, exact));
  // fromEntries keeps every name an own member (an assignment to "__proto__" would set the prototype instead).
  return Object.fromEntries(Object.keys(value).map((key) => [key, restore(value[key] as JsonValue, exact)]));
}

/**
 * How many member names a valid JSON text writes: the strings followed by a colon. Each string is found from its
 * opening quote to its closing one (a quote after an even run of backslashes), so a quote or a colon inside a
 * string is never taken for one outside.
 */
function namesIn(text: string): number {
  let names = 0;
  for (let open = text.indexOf('"'); open !== -1; ) {
    const close = closingQuote(text, open);
    if (close === -1) return -1;
    let next = close + 1;
    while (isJsonSpace(text.charCodeAt(next))) next++;
    if (text.charCodeAt(next) === 0x3a) names++;
    open = text.indexOf('"', next);
  }
  return names;
}

const isJsonSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** How many member names a value holds (a repeated name in its text counts once here). */
function namesOf(value: JsonValue): number {
  if (typeof value !== 'object' || value === null) return 0;
  let names = 0;
  if (Array.isArray(value)) {
    for (const item of value) names += namesOf(item);
    return names;
  }
  for (const key of Object.keys(value)) names += 1 + namesOf(value[key] as JsonValue);
  return names;
}

const WS = new Set([' ', '\t', '\n', '\r']);
const END_OF_SCALAR = new Set([',', ']', '}', ' ', '\t', '\n', '\r']);

/**
 * Reads a text already known to be valid JSON (parseJson accepted it, so it nests at most 512 levels), keeping
 * the first of duplicate members, and notes where duplicates are: `sites` (indices of a top-level array's
 * elements) or `anywhere` (a duplicate outside any top-level array element).
 */
class FirstWins {
  private pos = 0;
  readonly sites = new Set<number>();
  anywhere = false;
  /** The top-level array element being read, when the text is an array. */
  private element: number | undefined;

  constructor(private readonly text: string) {}

  read(): JsonValue {
    this.ws();
    if (this.text[this.pos] === '[') return this.array(true);
    return this.value();
  }

  private ws(): void {
    while (this.pos < this.text.length && WS.has(this.text.charAt(this.pos))) this.pos++;
  }

  private value(): JsonValue {
    this.ws();
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array(false);
    if (c === '"') return this.string();
    const start = this.pos;
    while (this.pos < this.text.length && !END_OF_SCALAR.has(this.text.charAt(this.pos))) this.pos++;
    // A number (bigint beyond 2^53, as core/json reads it) or a literal.
    return parseJson(this.text.slice(start, this.pos));
  }

  private string(): string {
    const start = this.pos;
    this.pos++;
    while (this.text[this.pos] !== '"') this.pos += this.text[this.pos] === '\\' ? 2 : 1;
    this.pos++;
    return JSON.parse(this.text.slice(start, this.pos)) as string;
  }

  private array(top: boolean): JsonValue[] {
    const out: JsonValue[] = [];
    this.pos++;
    this.ws();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      if (top) this.element = out.length;
      out.push(this.value());
      this.ws();
      const c = this.text[this.pos++];
      if (c === ']') break;
      this.ws();
    }
    if (top) this.element = undefined;
    return out;
  }

  private object(): JsonValue {
    const out: { [key: string]: JsonValue } = {};
    this.pos++;
    this.ws();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.ws();
      const key = this.string();
      this.ws();
      this.pos++; // ':'
      const member = this.value();
      if (Object.hasOwn(out, key)) this.duplicate();
      // As core/json: an own data property, never the prototype setter of __proto__.
      else Object.defineProperty(out, key, { value: member, writable: true, enumerable: true, configurable: true });
      this.ws();
      const c = this.text[this.pos++];
      if (c === '}') return out;
    }
  }

  private duplicate(): void {
    if (this.element === undefined) this.anywhere = true;
    else this.sites.add(this.element);
  }
}
