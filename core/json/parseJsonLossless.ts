import { JsonParseError } from './JsonParseError.js';
import type { JsonValue } from './JsonValue.js';

/** Deepest array/object nesting accepted unless told otherwise. Deep enough for any RPC payload, shallow enough that nothing downstream that recurses can overflow its stack. */
export const DEFAULT_MAX_DEPTH = 512;

export interface ParseJsonOptions {
  /** Deepest nesting of arrays and objects accepted; deeper input throws JsonParseError. Default 512. */
  readonly maxDepth?: number;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

// Character codes used by the grammar (RFC 8259 §2-§7).
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const ONE = 0x31;
const NINE = 0x39;
const COLON = 0x3a;
const UPPER_E = 0x45;
const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RBRACKET = 0x5d;
const LOWER_E = 0x65;
const LBRACE = 0x7b;
const RBRACE = 0x7d;

/**
 * The hand-written strict RFC 8259 parser, always used (no JSON.parse fast path); parseJson picks
 * between this and JSON.parse. Exported for tests and for callers that want the exact parser.
 *
 * Accepts exactly what JSON.parse accepts (lone surrogates included), and returns the same values,
 * except that an integer literal (no fraction, no exponent) beyond ±(2^53−1) becomes a bigint.
 * Throws JsonParseError with the offset on invalid input or nesting beyond `maxDepth`.
 */
export function parseJsonLossless(text: string, options: ParseJsonOptions = {}): JsonValue {
  const parser = new Parser(text, options.maxDepth ?? DEFAULT_MAX_DEPTH);
  parser.skipWhitespace();
  const value = parser.value(0);
  parser.skipWhitespace();
  if (parser.pos < text.length) parser.fail('Unexpected data after the JSON value');
  return value;
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

class Parser {
  pos = 0;
  private readonly text: string;
  private readonly maxDepth: number;

  constructor(text: string, maxDepth: number) {
    this.text = text;
    this.maxDepth = maxDepth;
  }

  fail(reason: string, at: number = this.pos): never {
    throw new JsonParseError(reason, at);
  }

  /** Fails at `at`, saying what was expected there (or that the input ended). */
  private expected(what: string, at: number = this.pos): never {
    if (at >= this.text.length) this.fail('Unexpected end of input', at);
    const cp = this.text.codePointAt(at) ?? 0;
    this.fail(`Expected ${what} but found ${JSON.stringify(String.fromCodePoint(cp))}`, at);
  }

  // JSON whitespace is exactly these four (RFC 8259 §2); not NBSP, not a BOM, as JSON.parse.
  skipWhitespace(): void {
    const t = this.text;
    let i = this.pos;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === SPACE || c === LF || c === CR || c === TAB) i++;
      else break;
    }
    this.pos = i;
  }

  value(depth: number): JsonValue {
    const c = this.text.charCodeAt(this.pos);
    if (c === LBRACE) return this.object(depth + 1);
    if (c === LBRACKET) return this.array(depth + 1);
    if (c === QUOTE) return this.string();
    if (c === MINUS || isDigit(c)) return this.number();
    if (c === 0x74) return this.literal('true', true);
    if (c === 0x66) return this.literal('false', false);
    if (c === 0x6e) return this.literal('null', null);
    return this.expected('a JSON value');
  }

  private literal<T extends JsonValue>(word: string, value: T): T {
    const t = this.text;
    for (let k = 0; k < word.length; k++) {
      if (t.charCodeAt(this.pos + k) !== word.charCodeAt(k)) this.expected(`"${word}"`, this.pos + k);
    }
    this.pos += word.length;
    return value;
  }

  private enter(depth: number): void {
    if (depth > this.maxDepth) this.fail(`Nesting deeper than ${this.maxDepth} levels`);
  }

  private object(depth: number): JsonValue {
    this.enter(depth);
    const t = this.text;
    const obj: { [key: string]: JsonValue } = {};
    this.pos++;
    this.skipWhitespace();
    if (t.charCodeAt(this.pos) === RBRACE) {
      this.pos++;
      return obj;
    }
    for (;;) {
      if (t.charCodeAt(this.pos) !== QUOTE) this.expected('a string key');
      const key = this.string();
      this.skipWhitespace();
      if (t.charCodeAt(this.pos) !== COLON) this.expected("':'");
      this.pos++;
      this.skipWhitespace();
      const member = this.value(depth);
      if (key === '__proto__') {
        // Plain assignment would call the Object.prototype setter and change the prototype;
        // JSON.parse creates an own data property instead, and so do we.
        Object.defineProperty(obj, key, { value: member, writable: true, enumerable: true, configurable: true });
      } else {
        obj[key] = member;
      }
      this.skipWhitespace();
      const c = t.charCodeAt(this.pos);
      if (c === COMMA) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === RBRACE) {
        this.pos++;
        return obj;
      } else {
        this.expected("',' or '}'");
      }
    }
  }

  private array(depth: number): JsonValue {
    this.enter(depth);
    const t = this.text;
    const arr: JsonValue[] = [];
    this.pos++;
    this.skipWhitespace();
    if (t.charCodeAt(this.pos) === RBRACKET) {
      this.pos++;
      return arr;
    }
    for (;;) {
      arr.push(this.value(depth));
      this.skipWhitespace();
      const c = t.charCodeAt(this.pos);
      if (c === COMMA) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === RBRACKET) {
        this.pos++;
        return arr;
      } else {
        this.expected("',' or ']'");
      }
    }
  }

  private string(): string {
    const t = this.text;
    const len = t.length;
    const open = this.pos;
    let i = open + 1;
    let chunkStart = i;
    let out = '';
    for (;;) {
      if (i >= len) this.fail('Unterminated string', open);
      const c = t.charCodeAt(i);
      if (c === QUOTE) {
        this.pos = i + 1;
        return out + t.slice(chunkStart, i);
      }
      if (c === BACKSLASH) {
        out += t.slice(chunkStart, i);
        out += this.escape(i);
        i += t.charCodeAt(i + 1) === 0x75 ? 6 : 2;
        chunkStart = i;
      } else if (c < SPACE) {
        // RFC 8259 §7: U+0000..U+001F must be escaped. Anything else, lone surrogates too, is literal.
        this.fail('Bad control character in string', i);
      } else {
        i++;
      }
    }
  }

  /** Decodes the escape sequence whose backslash is at `at`. */
  private escape(at: number): string {
    const t = this.text;
    const e = t.charCodeAt(at + 1);
    switch (e) {
      case QUOTE:
        return '"';
      case BACKSLASH:
        return '\\';
      case 0x2f:
        return '/';
      case 0x62:
        return '\b';
      case 0x66:
        return '\f';
      case 0x6e:
        return '\n';
      case 0x72:
        return '\r';
      case 0x74:
        return '\t';
      case 0x75: {
        let code = 0;
        for (let k = 2; k < 6; k++) {
          const h = hexValue(t.charCodeAt(at + k));
          if (h < 0) this.expected('a hex digit in \\u escape', at + k);
          code = code * 16 + h;
        }
        return String.fromCharCode(code);
      }
      default:
        return this.expected('a valid escape character', at + 1);
    }
  }

  private number(): number | bigint {
    const t = this.text;
    const start = this.pos;
    let i = start;
    if (t.charCodeAt(i) === MINUS) i++;
    const intStart = i;
    const first = t.charCodeAt(i);
    if (first === ZERO) {
      i++;
      if (isDigit(t.charCodeAt(i))) this.fail('Leading zeros are not allowed', intStart);
    } else if (first >= ONE && first <= NINE) {
      i++;
      while (isDigit(t.charCodeAt(i))) i++;
    } else {
      this.expected('a digit', i);
    }
    const intDigits = i - intStart;
    let integer = true;
    if (t.charCodeAt(i) === DOT) {
      i++;
      if (!isDigit(t.charCodeAt(i))) this.expected('a digit after the decimal point', i);
      while (isDigit(t.charCodeAt(i))) i++;
      integer = false;
    }
    const e = t.charCodeAt(i);
    if (e === LOWER_E || e === UPPER_E) {
      i++;
      const sign = t.charCodeAt(i);
      if (sign === PLUS || sign === MINUS) i++;
      if (!isDigit(t.charCodeAt(i))) this.expected('a digit in the exponent', i);
      while (isDigit(t.charCodeAt(i))) i++;
      integer = false;
    }
    this.pos = i;
    const literal = t.slice(start, i);
    // 15 digits can never exceed 2^53−1 (a 16-digit number), so only longer literals pay for BigInt.
    if (integer && intDigits >= 16) {
      const big = BigInt(literal);
      if (big > MAX_SAFE || big < -MAX_SAFE) return big;
    }
    // Number() and JSON.parse both round the literal correctly, so the results are identical.
    return Number(literal);
  }
}
