import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../test/support/codec.js';
import { BASE_UNITS_PER_TOKEN, formatTokens, parseTokens } from './tokens.js';
import { U128_MAX } from './u128.js';

describe('token amounts', () => {
  it('follows the spec units: 1 token = 10^18, a 10^15 fee is 0.001', () => {
    expect(BASE_UNITS_PER_TOKEN).toBe(10n ** 18n);
    expect(parseTokens('0.001')).toBe(10n ** 15n);
    expect(formatTokens(10n ** 15n)).toBe('0.001');
  });

  it.each([
    ['0', 0n],
    ['1', 10n ** 18n],
    ['1.5', 15n * 10n ** 17n],
    ['1.50', 15n * 10n ** 17n],
    ['0.000000000000000001', 1n],
    ['12.345', 12_345n * 10n ** 15n],
  ])('parses %s', (text, units) => {
    expect(parseTokens(text)).toBe(units);
  });

  it.each([
    [0n, '0'],
    [1n, '0.000000000000000001'],
    [10n ** 18n, '1'],
    [25n * 10n ** 17n, '2.5'],
    [U128_MAX, '340282366920938463463.374607431768211455'],
  ])('formats %s as %s (no trailing zeros, no dot for whole numbers)', (units, text) => {
    expect(formatTokens(units)).toBe(text);
  });

  it.each([
    ['', 'EMPTY_INPUT'],
    ['.5', 'AMOUNT_FORMAT'],
    ['1.', 'AMOUNT_FORMAT'],
    ['01', 'AMOUNT_FORMAT'],
    ['-1', 'AMOUNT_FORMAT'],
    ['1e18', 'AMOUNT_FORMAT'],
    ['1,5', 'AMOUNT_FORMAT'],
    [' 1', 'AMOUNT_FORMAT'],
    ['0.0000000000000000001', 'AMOUNT_PRECISION'],
    ['340282366920938463463.374607431768211456', 'U128_RANGE'],
    ['9'.repeat(500), 'U128_RANGE'],
  ])('rejects %j with %s', (text, code) => {
    expect(codeOf(() => parseTokens(text))).toBe(code);
  });

  it('range-checks formatting', () => {
    expect(codeOf(() => formatTokens(-1n))).toBe('U128_RANGE');
    expect(codeOf(() => formatTokens(U128_MAX + 1n))).toBe('U128_RANGE');
  });

  it('round-trips every u128', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: U128_MAX }), (units) => parseTokens(formatTokens(units)) === units));
  });
});
