/**
 * A request body as JSON, in every reading a node may legally give it: the bytes decoded as strict UTF-8
 * (RFC 8259 §8.1), a byte order mark (RFC 8259 §8.1: a sender MUST NOT add one, a parser MAY ignore it),
 * the text parsed losslessly (core/json: integers beyond 2^53 stay bigints) up to core/json's depth limit
 * (RFC 8259 §9 lets a parser limit nesting), and duplicate member names (RFC 8259 §4: names SHOULD be
 * unique; with duplicates "the behavior of software that receives such an object is unpredictable": most
 * parsers keep the last value, some the first, some refuse the text). Nothing here knows JSON-RPC.
 */
import { closingQuote, JsonParseError, parseJson } from '../../core/json/index.js';
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
    };

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
  // Most texts repeat no name: as many names in the text as in the value read says so, without the scan below.
  if (namesIn(text) === namesOf(value)) return { kind: 'json', value };
  const scan = new FirstWins(text);
  const firstWins = scan.read();
  if (scan.sites.size === 0 && !scan.anywhere) return { kind: 'json', value };
  const where: DuplicateSites = Array.isArray(value) && !scan.anywhere ? scan.sites : 'whole';
  return { kind: 'json', value, duplicates: { firstWins, where } };
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
