import type { JsonValue } from '../../core/json/index.js';
import { asInteger } from '../readWire.js';

/** How an integer was written: a JSON number (a bigint beyond 2^53) or a hex quantity ("0x1f", Ethereum's convention). */
export type IntegerForm = 'number' | 'hex';

/**
 * A non-negative integer however the node wrote it, with the form it was written in; undefined for
 * anything else (fractions, negatives, decimal strings, text).
 */
export function integerOf(value: JsonValue | undefined): { value: bigint; form: IntegerForm } | undefined {
  const n = asInteger(value);
  return n === undefined ? undefined : { value: n, form: typeof value === 'string' ? 'hex' : 'number' };
}

/** A u128 amount as the spec writes it (a decimal string), or as any integer form; undefined otherwise. */
export function amountOf(value: JsonValue | undefined): bigint | undefined {
  if (typeof value === 'string' && /^[0-9]{1,39}$/.test(value)) return BigInt(value);
  return integerOf(value)?.value;
}
