import type { JsonValue } from '../../core/json/index.js';

/** 64 hex characters (the spec's hashes, addresses and identifiers), with an optional 0x. */
const HEX64 = /^(0x)?[0-9a-fA-F]{64}$/;
/** Most values collected from one result: the case of a few dozen hashes says as much as thousands. */
const MAX_VALUES = 200;

/** Every 64-hex string in a result: values and object keys (peer identifiers are keys), depth-first. */
export function hexStrings(value: JsonValue | undefined, out: string[] = []): string[] {
  if (out.length >= MAX_VALUES || value === undefined) return out;
  if (typeof value === 'string') {
    if (HEX64.test(value)) out.push(value.replace(/^0x/, ''));
  } else if (Array.isArray(value)) {
    for (const v of value) hexStrings(v, out);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (HEX64.test(k) && out.length < MAX_VALUES) out.push(k.replace(/^0x/, ''));
      hexStrings(v, out);
    }
  }
  return out;
}

export interface HexCaseReading {
  /** undefined: no value had a letter (digits only, such as genesis zeros, say nothing). */
  hexCase: 'lower' | 'upper' | 'any' | undefined;
  lower: number;
  upper: number;
  mixed: number;
}

/** The case of hex values: lower or upper when every value with a letter agrees, any when they differ. */
export function hexCaseOf(values: readonly string[]): HexCaseReading {
  let lower = 0;
  let upper = 0;
  let mixed = 0;
  for (const v of values) {
    const hasLower = /[a-f]/.test(v);
    const hasUpper = /[A-F]/.test(v);
    if (hasLower && hasUpper) mixed++;
    else if (hasLower) lower++;
    else if (hasUpper) upper++;
  }
  const hexCase = lower + upper + mixed === 0 ? undefined : mixed > 0 || (lower > 0 && upper > 0) ? 'any' : lower > 0 ? 'lower' : 'upper';
  return { hexCase, lower, upper, mixed };
}
