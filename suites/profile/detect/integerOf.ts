import type { JsonValue } from '../../../core/json/index.js';

/** How an integer was written: a JSON number (a bigint beyond 2^53) or a hex quantity ("0x1f", Ethereum's convention). */
export type IntegerForm = 'number' | 'hex';

/**
 * A non-negative integer however the node wrote it, with the form it was written in; undefined for
 * anything else (fractions, negatives, decimal strings, text).
 */
export function integerOf(value: JsonValue | undefined): { value: bigint; form: IntegerForm } | undefined {
  if (typeof value === 'bigint') return value >= 0n ? { value, form: 'number' } : undefined;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? { value: BigInt(value), form: 'number' } : undefined;
  // At most 32 hex digits (u128) after leading zeros: nothing the interface carries is longer.
  if (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value) && value.replace(/^0x0*/, '').length <= 32) return { value: BigInt(value), form: 'hex' };
  return undefined;
}

/** A u128 amount as the spec writes it (a decimal string), or as any integer form; undefined otherwise. */
export function amountOf(value: JsonValue | undefined): bigint | undefined {
  if (typeof value === 'string' && /^[0-9]{1,39}$/.test(value)) return BigInt(value);
  return integerOf(value)?.value;
}
