import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyJson } from './stringifyJson.js';

describe('stringifyJson', () => {
  it('equals JSON.stringify for values without bigints', () => {
    const oddLeaf = fc.constantFrom<unknown>(
      undefined,
      () => 1,
      Symbol('s'),
      NaN,
      Infinity,
      -0,
      new Date(0),
      new Number(3),
      new String('s'),
      new Boolean(false),
      { toJSON: (key: string) => `key:${key}` },
    );
    const { value } = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.jsonValue({ maxDepth: 2 }),
        oddLeaf,
        fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie('value'), { maxKeys: 4, noNullPrototype: true }),
      ),
    }));
    fc.assert(
      fc.property(value, (v) => {
        const expected = JSON.stringify(v) as string | undefined;
        if (expected === undefined) expect(() => stringifyJson(v)).toThrow(TypeError);
        else expect(stringifyJson(v)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('writes bigints as bare integer literals, wherever they are', () => {
    expect(stringifyJson(2n ** 64n - 1n)).toBe('18446744073709551615');
    expect(stringifyJson({ a: [1n, -(2n ** 70n)], b: Object(5n) as unknown })).toBe('{"a":[1,-1180591620717411303424],"b":5}');
    expect(stringifyJson({ jsonrpc: '2.0', method: 'm', params: [2n ** 53n], id: 1 })).toBe(
      '{"jsonrpc":"2.0","method":"m","params":[9007199254740992],"id":1}',
    );
  });

  it('writes bigints exactly beside strings and keys that hold the character it marks them with (U+FDD0)', () => {
    const mark = '\uFDD0';
    expect(stringifyJson({ [`${mark}1${mark}`]: `${mark}2${mark}`, n: 3n, s: [`"${mark}4${mark}"`, 5n] })).toBe(
      `{"${mark}1${mark}":"${mark}2${mark}","n":3,"s":["\\"${mark}4${mark}\\"",5]}`,
    );
    expect(stringifyJson([`${mark}9${mark}`, 1n])).toBe(`["${mark}9${mark}",1]`);
  });

  it('writes class instances, null-prototype objects, getters and toJSON results as JSON.stringify does', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: string,
      ) {}
    }
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: ['x'] });
    const withGetter = { get g(): number[] { return [1, 2]; }, n: null };
    const values: unknown[] = [new Point(1, 'y'), bare, withGetter, [new Date(0), { toJSON: () => ({ t: 1 }) }], { nested: { deeper: [[[{}]]] } }, 'a"\\\n\u0001\ud800', -0, [NaN, -Infinity]];
    for (const v of values) expect(stringifyJson(v)).toBe(JSON.stringify(v));
    // A toJSON that answers with a bigint is written exactly.
    expect(stringifyJson({ big: { toJSON: () => 2n ** 64n } })).toBe('{"big":18446744073709551616}');
  });

  it('skips undefined members and writes null for holes, like JSON.stringify', () => {
    // eslint-disable-next-line no-sparse-arrays -- a hole is the point of this case
    const value = { a: undefined, b: [undefined, , () => 0], c: 1 };
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });

  it('throws TypeError on cycles and on a top-level value with no JSON form', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => stringifyJson(cyclic)).toThrow(TypeError);
    expect(() => stringifyJson(undefined)).toThrow(TypeError);
    // A repeated (non-cyclic) reference is fine.
    const shared = { x: 1 };
    expect(stringifyJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});
