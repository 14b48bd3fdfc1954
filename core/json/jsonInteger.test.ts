import { describe, expect, it } from 'vitest';
import { jsonInteger } from './jsonInteger.js';
import { parseJson } from './parseJson.js';
import { stringifyJson } from './stringifyJson.js';

describe('jsonInteger', () => {
  it('is a number while exact, a bigint beyond, and reads back as the same integer either way', () => {
    const edge = BigInt(Number.MAX_SAFE_INTEGER);
    expect(jsonInteger(0n)).toBe(0);
    expect(jsonInteger(edge)).toBe(Number.MAX_SAFE_INTEGER);
    expect(jsonInteger(-edge)).toBe(-Number.MAX_SAFE_INTEGER);
    expect(jsonInteger(edge + 1n)).toBe(edge + 1n);
    expect(jsonInteger(-edge - 1n)).toBe(-edge - 1n);
    for (const v of [0n, 1n, edge, edge + 1n, 2n ** 64n - 1n, -edge - 1n]) {
      const text = stringifyJson(jsonInteger(v));
      expect(text).toBe(v.toString());
      expect(BigInt(parseJson(text) as number | bigint)).toBe(v);
    }
  });
});
