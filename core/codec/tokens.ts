import { CodecError, quote } from './CodecError.js';
import { checkUint, U128_MAX } from './u128.js';

/** Spec, Units: one token unit equals 10^18 base units. */
export const TOKEN_DECIMALS = 18;
export const BASE_UNITS_PER_TOKEN = 10n ** 18n;

/**
 * Token amount as a decimal string -> base units: "0.001" -> 10^15. Accepts "1", "1.5", "0.001",
 * "1.50" (trailing zeros are harmless); rejects a sign, exponent, leading zeros ("01"), a bare dot
 * (".5", "1.") and more than 18 decimals, which would silently lose base units.
 */
export function parseTokens(text: unknown): bigint {
  if (typeof text !== 'string') {
    throw new CodecError('INPUT_TYPE', `token amount must be a decimal string, got ${typeof text}`);
  }
  if (text.length === 0) throw new CodecError('EMPTY_INPUT', 'token amount is an empty string; expected e.g. "1.5"');
  const match = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/.exec(text);
  if (match === null) {
    throw new CodecError(
      'AMOUNT_FORMAT',
      `token amount ${quote(text)} is not a decimal number like "12" or "0.001" (digits, at most one dot with digits on both sides, no sign, no leading zeros)`,
    );
  }
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  if (fraction.length > TOKEN_DECIMALS) {
    throw new CodecError(
      'AMOUNT_PRECISION',
      `token amount ${quote(text)} has ${fraction.length} decimals; a token has ${TOKEN_DECIMALS}, so round or pass base units instead`,
    );
  }
  // U128_MAX is about 3.4e20 tokens (21 digits); refuse longer inputs before paying for BigInt().
  if (whole.length > 21) throw new CodecError('U128_RANGE', `token amount ${quote(text)} exceeds the u128 maximum in base units`);
  const units = BigInt(whole) * BASE_UNITS_PER_TOKEN + BigInt(fraction.padEnd(TOKEN_DECIMALS, '0'));
  if (units > U128_MAX) {
    throw new CodecError('U128_RANGE', `token amount ${quote(text)} is ${units} base units, above the u128 maximum ${U128_MAX}`);
  }
  return units;
}

/** Base units -> token string: 10^15 -> "0.001", 2*10^18 -> "2" (no trailing zeros, no dot for whole numbers). */
export function formatTokens(units: bigint): string {
  checkUint(units, U128_MAX, 'token amount in base units');
  const whole = units / BASE_UNITS_PER_TOKEN;
  const fraction = (units % BASE_UNITS_PER_TOKEN).toString().padStart(TOKEN_DECIMALS, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}
