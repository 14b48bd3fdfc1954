/**
 * Ids as written. JSON-RPC 2.0 §5 wants an answer's id to be "the same as the value of the id member in the
 * Request Object": the same JSON number, however written (`9e+22` is `90000000000000000000000`, `1e+100` is
 * `1e100`). A double cannot hold every such value, so numbers are compared by their exact decimal value, read
 * from their literals: `idLiterals` finds the literal of the `id` member of a JSON text's top-level object, or of
 * each object of its top-level array (a batch), and `numberKey` writes a number's exact value in one form.
 * Nothing here knows more of JSON-RPC than where an id is.
 */
import { closingQuote, type JsonValue } from '../../core/json/index.js';

/** The literal of each `id` member that is a number: the top-level object's, or each top-level array element's (by index). */
export interface IdLiterals {
  top?: string;
  elements: (string | undefined)[];
}

/** A lazy, once-made IdLiterals of a valid JSON text (most answers never need it). */
export function lazyIdLiterals(text: string | (() => string)): () => IdLiterals {
  let made: IdLiterals | undefined;
  return () => (made ??= idLiterals(typeof text === 'string' ? text : text()));
}

const NUMBER_START = /^-?\d/;

/** The literals of `text`'s ids (see IdLiterals); `text` is valid JSON (the last of duplicate members counts, as parsers keep). */
export function idLiterals(text: string): IdLiterals {
  const out: IdLiterals = { elements: [] };
  const s = new Scan(text);
  s.ws();
  if (s.at() === '{') {
    const id = s.objectId();
    if (id !== undefined) out.top = id;
  } else if (s.at() === '[') {
    s.pos++;
    s.ws();
    if (s.at() === ']') return out;
    for (let i = 0; s.pos < text.length; i++) {
      s.ws();
      if (s.at() === '{') out.elements[i] = s.objectId();
      else s.skipValue();
      s.ws();
      if (text[s.pos++] !== ',') break;
    }
  }
  return out;
}

class Scan {
  pos = 0;
  constructor(private readonly text: string) {}

  at(): string | undefined {
    return this.text[this.pos];
  }

  ws(): void {
    const t = this.text;
    for (let c = t.charCodeAt(this.pos); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = t.charCodeAt(++this.pos));
  }

  /** At `{`: reads the object, and gives its `id` member's literal when that is a number. */
  objectId(): string | undefined {
    const t = this.text;
    let found: string | undefined;
    this.pos++;
    this.ws();
    if (this.at() === '}') {
      this.pos++;
      return undefined;
    }
    while (this.pos < t.length) {
      this.ws();
      const close = closingQuote(t, this.pos);
      if (close === -1) return found;
      const raw = t.slice(this.pos + 1, close);
      const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
      this.pos = close + 1;
      this.ws();
      this.pos++; // ':'
      this.ws();
      const start = this.pos;
      this.skipValue();
      if (key === 'id') {
        const literal = t.slice(start, this.pos).trim();
        found = NUMBER_START.test(literal) ? literal : undefined;
      }
      this.ws();
      if (t[this.pos++] !== ',') break;
    }
    return found;
  }

  skipValue(): void {
    const t = this.text;
    const c = t[this.pos];
    if (c === '"') {
      const close = closingQuote(t, this.pos);
      this.pos = close === -1 ? t.length : close + 1;
      return;
    }
    if (c === '{' || c === '[') {
      let depth = 0;
      while (this.pos < t.length) {
        const d = t[this.pos];
        if (d === '"') {
          const close = closingQuote(t, this.pos);
          this.pos = close === -1 ? t.length : close + 1;
          continue;
        }
        this.pos++;
        if (d === '{' || d === '[') depth++;
        else if ((d === '}' || d === ']') && --depth === 0) return;
      }
      return;
    }
    while (this.pos < t.length && !',]} \t\n\r'.includes(t.charAt(this.pos))) this.pos++;
  }
}

const LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A number literal's exact value in one form (`9e+22`, `90000000000000000000000` and `9.0e22` alike: "9e22"); undefined if it is none. */
export function exactKey(literal: string): string | undefined {
  const m = LITERAL.exec(literal);
  if (m === null) return undefined;
  const [, sign = '', int = '', frac = '', exp = '0'] = m;
  let digits = (int + frac).replace(/^0+/, '');
  if (digits === '') return '0';
  const kept = digits.replace(/0+$/, '');
  const scale = BigInt(exp) - BigInt(frac.length) + BigInt(digits.length - kept.length);
  digits = kept;
  return `${sign}${digits}e${scale}`;
}

/**
 * A numeric id's exact value (exactKey's form): a bigint or a safe integer from its value; any other number (a
 * double, which may stand for a literal it cannot hold) from its literal, when `literal` gives one the double is
 * the reading of. Undefined when the value alone cannot say.
 */
export function numberKey(value: number | bigint, literal?: () => string | undefined): string | undefined {
  if (typeof value === 'bigint' || Number.isSafeInteger(value)) return exactKey(String(value));
  const text = literal?.();
  return text !== undefined && Number(text) === value ? exactKey(text) : undefined;
}

export const isNumeric = (v: JsonValue | undefined): v is number | bigint => typeof v === 'number' || typeof v === 'bigint';
