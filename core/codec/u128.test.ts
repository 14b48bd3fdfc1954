import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../test/support/codec.js';
import { formatU128, parseU128, U128_MAX, U64_MAX } from './u128.js';

describe('u128 decimal strings', () => {
  it('has the right maxima', () => {
    expect(U64_MAX).toBe(18446744073709551615n);
    expect(U128_MAX.toString()).toBe('340282366920938463463374607431768211455');
  });

  it('parses canonical decimals up to U128_MAX', () => {
    expect(parseU128('0')).toBe(0n);
    expect(parseU128('1000000000000000')).toBe(10n ** 15n);
    expect(parseU128(U128_MAX.toString())).toBe(U128_MAX);
  });

  it.each([
    ['', 'EMPTY_INPUT'],
    ['01', 'U128_FORMAT'],
    ['00', 'U128_FORMAT'],
    ['-1', 'U128_FORMAT'],
    ['+1', 'U128_FORMAT'],
    [' 1', 'U128_FORMAT'],
    ['1 ', 'U128_FORMAT'],
    ['1.0', 'U128_FORMAT'],
    ['1e3', 'U128_FORMAT'],
    ['0x10', 'U128_FORMAT'],
    ['١', 'U128_FORMAT'], // Arabic-Indic digit one: /[0-9]/ only, not \d semantics of other engines
    [(U128_MAX + 1n).toString(), 'U128_RANGE'],
    ['9'.repeat(1000), 'U128_RANGE'],
  ])('rejects %j with %s', (text, code) => {
    expect(codeOf(() => parseU128(text))).toBe(code);
  });

  it('rejects non-strings', () => {
    expect(codeOf(() => parseU128(5))).toBe('INPUT_TYPE');
    expect(codeOf(() => parseU128(5n))).toBe('INPUT_TYPE');
  });

  it('says how to fix a leading zero', () => {
    expect(() => parseU128('007', 'balance')).toThrow('balance "007" has a leading zero; write it without leading zeros');
  });

  it('formats with range checks', () => {
    expect(formatU128(0n)).toBe('0');
    expect(formatU128(U128_MAX)).toBe(U128_MAX.toString());
    expect(codeOf(() => formatU128(-1n))).toBe('U128_RANGE');
    expect(codeOf(() => formatU128(U128_MAX + 1n))).toBe('U128_RANGE');
  });

  it('round-trips every u128', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: U128_MAX }), (x) => parseU128(formatU128(x)) === x));
  });

  it('throws nothing but CodecError on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 45 }), (text) => {
        codeOf(() => parseU128(text)); // rethrows anything that is not a CodecError
      }),
    );
  });
});
