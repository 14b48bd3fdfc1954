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
  const out = serialize('', value, []);
  if (out === undefined) throw new TypeError(`stringifyJson: a ${typeof value} has no JSON representation`);
  return out;
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
