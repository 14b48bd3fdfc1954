/**
 * JSON.stringify, except that a bigint is written as a bare integer literal (JSON.stringify
 * throws on bigint, and Node 20 has no JSON.rawJSON). Output is otherwise identical to
 * JSON.stringify's: toJSON is honoured, boxed primitives are unwrapped, undefined / functions /
 * symbols are skipped in objects and become null in arrays, non-finite numbers become null,
 * cycles throw TypeError. Compact output only (no replacer, no indentation).
 *
 * Unlike JSON.stringify, a top-level value that has no JSON form (undefined, a function, a symbol)
 * throws TypeError instead of returning undefined, so the return type is always a string.
 */
export function stringifyJson(value: unknown): string {
  // A number (most ids) as serialize writes it, without a call into V8's JSON.stringify.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  // Plain data (most values): V8's JSON.stringify writes exactly the text below, faster; with bigints in it, it
  // writes them through a replacer as marked strings, which are then unquoted (withBigints).
  const shape = shapeOf(value, 0);
  const out = shape === PLAIN ? (JSON.stringify(value) as string | undefined) : shape === BIGINTS ? withBigints(value) ?? serialize('', value, []) : serialize('', value, []);
  if (out === undefined) throw new TypeError(`stringifyJson: a ${typeof value} has no JSON representation`);
  return out;
}

// Deeper values take serialize, which also finds cycles.
const PLAIN_DEPTH = 32;
/** What a value is made of: only what JSON.stringify writes as serialize does; that and bigints; anything else. */
const PLAIN = 0;
const BIGINTS = 1;
const OTHER = 2;

/**
 * PLAIN when JSON.stringify writes `value` as serialize does: no bigint anywhere, and nothing that could turn
 * into one (a toJSON method, a boxed primitive, any object other than a plain object or array); BIGINTS when
 * bigints are all that keeps it from being plain; OTHER (serialize) when in doubt. Cheap for the small results
 * of a JSON-RPC call.
 */
function shapeOf(value: unknown, depth: number): number {
  if (typeof value !== 'object' || value === null) return leafShape(value);
  if (depth > PLAIN_DEPTH || 'toJSON' in value) return OTHER;
  let shape = PLAIN;
  // Leaves are checked here, not in a call of their own: this runs on every answer.
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return OTHER;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const s = typeof item === 'object' && item !== null ? shapeOf(item, depth + 1) : leafShape(item);
      if (s === OTHER) return OTHER;
      shape |= s;
    }
    return shape;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return OTHER;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    const s = typeof item === 'object' && item !== null ? shapeOf(item, depth + 1) : leafShape(item);
    if (s === OTHER) return OTHER;
    shape |= s;
  }
  return shape;
}

/** null and the primitives JSON.stringify and serialize write alike; a bigint; else (functions, symbols) left to serialize, as before. */
function leafShape(value: unknown): number {
  const type = typeof value;
  if (value === null || type === 'string' || type === 'number' || type === 'boolean' || type === 'undefined') return PLAIN;
  return type === 'bigint' ? BIGINTS : OTHER;
}

/** A noncharacter (Unicode §23.7) JSON.stringify writes as it is: it marks where a bigint was. */
const MARK = '\uFDD0';
const MARKED = /"\uFDD0(-?\d+)\uFDD0"/g;

/**
 * JSON.stringify with each bigint written as the string MARK digits MARK, then those strings unquoted. Sure only
 * when every MARK in the text is one of its own (a string or key of the value may hold the character):
 * undefined (serialize instead) when they are not.
 */
function withBigints(value: unknown): string | undefined {
  let bigints = 0;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    bigints++;
    return `${MARK}${v}${MARK}`;
  }) as string | undefined;
  if (text === undefined) return undefined;
  let marks = 0;
  for (let i = text.indexOf(MARK); i !== -1; i = text.indexOf(MARK, i + 1)) marks++;
  return marks === 2 * bigints ? text.replace(MARKED, '$1') : undefined;
}

function serialize(key: string, input: unknown, stack: object[]): string | undefined {
  let value = input;
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (this: unknown, key: string) => unknown).call(value, key);
  }
  if (typeof value === 'object' && value !== null) {
    // Boxed primitives serialize as their primitive (ECMA-262 SerializeJSONProperty step 4).
    if (value instanceof Number) value = Number(value);
    else if (value instanceof String) value = String(value);
    else if (value instanceof Boolean || value instanceof BigInt) value = value.valueOf();
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (stack.includes(value)) throw new TypeError('Converting circular structure to JSON');
      stack.push(value);
      try {
        return Array.isArray(value) ? serializeArray(value, stack) : serializeObject(value, stack);
      } finally {
        stack.pop();
      }
    default:
      // undefined, function, symbol: no JSON form.
      return undefined;
  }
}

function serializeArray(arr: readonly unknown[], stack: object[]): string {
  const parts: string[] = [];
  for (let i = 0; i < arr.length; i++) parts.push(serialize(String(i), arr[i], stack) ?? 'null');
  return `[${parts.join(',')}]`;
}

function serializeObject(obj: object, stack: object[]): string {
  const parts: string[] = [];
  const record = obj as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const member = serialize(key, record[key], stack);
    if (member !== undefined) parts.push(`${JSON.stringify(key)}:${member}`);
  }
  return `{${parts.join(',')}}`;
}
