import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../core/json/index.js';
import { indentJson } from './indentJson.js';

describe('indentJson', () => {
  it('lays out compact JSON exactly as JSON.stringify(value, null, 2) does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(indentJson(JSON.stringify(value))).toBe(JSON.stringify(value, null, 2));
      }),
      { numRuns: 500 },
    );
  });

  it('handles strings full of brackets, quotes, escapes and colons', () => {
    const value = { 'a:{[': ['},]"\\', '\\"', ':', '', {}, []], 'x"y': { '': null } };
    expect(indentJson(JSON.stringify(value))).toBe(JSON.stringify(value, null, 2));
    expect(indentJson(JSON.stringify(value), 4)).toBe(JSON.stringify(value, null, 4));
  });

  it('keeps bigints from stringifyJson digit for digit', () => {
    const text = indentJson(stringifyJson({ u128: (1n << 128n) - 1n, list: [1n, -(2n ** 64n)] }));
    expect(text).toBe('{\n  "u128": 340282366920938463463374607431768211455,\n  "list": [\n    1,\n    -18446744073709551616\n  ]\n}');
  });
});
