import { CodecError, quote } from './CodecError.js';

/** Largest unsigned 64-bit integer: chain id and nonce. */
export const U64_MAX = 2n ** 64n - 1n;
/** Largest unsigned 128-bit integer: balances, value and fee (spec: "unsigned 128-bit integer"). */
export const U128_MAX = 2n ** 128n - 1n;

const U128_MAX_DIGITS = U128_MAX.toString().length; // 39

/**
 * Canonical decimal string -> bigint: digits only, no sign, no whitespace, no leading zeros
 * (except "0" itself), at most U128_MAX. One number has exactly one accepted spelling, so two
 * nodes can compare balances as strings.
 */
export function parseU128(text: unknown, what = 'amount'): bigint {
  if (typeof text !== 'string') {
    throw new CodecError('INPUT_TYPE', `${what} must be a decimal string, got ${typeof text}`);
  }
  if (text.length === 0) {
    throw new CodecError('EMPTY_INPUT', `${what} is an empty string; expected a decimal integer such as "0" or "1000"`);
  }
  if (!/^[0-9]+$/.test(text)) {
    throw new CodecError(
      'U128_FORMAT',
      `${what} ${quote(text)} is not a plain decimal integer; use digits 0-9 only (no sign, spaces, dot or exponent)`,
    );
  }
  if (text.length > 1 && text[0] === '0') {
    throw new CodecError('U128_FORMAT', `${what} ${quote(text)} has a leading zero; write it without leading zeros`);
  }
  // Length check first: BigInt() on a million digits is slow, and anything over 39 digits is out of range.
  if (text.length > U128_MAX_DIGITS || BigInt(text) > U128_MAX) {
    throw new CodecError('U128_RANGE', `${what} ${quote(text)} exceeds the u128 maximum ${U128_MAX}`);
  }
  return BigInt(text);
}

/** Range check shared by the formatters and the transaction encoder. */
export function checkUint(value: unknown, max: bigint, what: string): bigint {
  const code = max === U64_MAX ? 'U64_RANGE' : 'U128_RANGE';
  const bits = max === U64_MAX ? 'u64' : 'u128';
  if (typeof value !== 'bigint') {
    throw new CodecError('INPUT_TYPE', `${what} must be a bigint (e.g. 10n or BigInt("10")), got ${typeof value}`);
  }
  if (value < 0n) throw new CodecError(code, `${what} is negative (${value}); ${bits} values are unsigned`);
  if (value > max) throw new CodecError(code, `${what} ${value} exceeds the ${bits} maximum ${max}`);
  return value;
}

/** bigint -> canonical decimal string; rejects values outside 0..U128_MAX. */
export function formatU128(value: bigint, what = 'amount'): string {
  return checkUint(value, U128_MAX, what).toString();
}
