import fc from 'fast-check';
import { inspect, isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { JsonParseError } from './JsonParseError.js';
import type { JsonValue } from './JsonValue.js';
import { parseJson } from './parseJson.js';
import { stringifyJson } from './stringifyJson.js';

function expectSame(actual: unknown, expected: unknown): void {
  expect(isDeepStrictEqual(actual, expected), `${inspect(actual, { depth: 9 })} differs from ${inspect(expected, { depth: 9 })}`).toBe(
    true,
  );
}

const LIMIT = 2n ** 53n - 1n;
const unsafeBigint = fc.oneof(
  fc.bigInt({ min: LIMIT + 1n, max: 2n ** 256n }),
  fc.bigInt({ min: -(2n ** 256n), max: -(LIMIT + 1n) }),
  fc.constantFrom(LIMIT + 1n, -(LIMIT + 1n), 2n ** 64n - 1n, 2n ** 128n - 1n),
);
// Numbers that survive a JSON round trip as numbers: no -0 (written "0"), no integer-valued
// double ≥ 2^53 below 1e21 (written as a bare integer, so read back as a bigint by policy).
const roundTripNumber = fc
  .double({ noNaN: true, noDefaultInfinity: true })
  .filter((d) => !Object.is(d, -0) && (!Number.isInteger(d) || Number.isSafeInteger(d) || Math.abs(d) >= 1e21));
const { json: jsonWithBigints } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    unsafeBigint,
    fc.constant(null),
    fc.boolean(),
    roundTripNumber,
    fc.string({ maxLength: 8 }),
    fc.array(tie('json'), { maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('json'), { maxKeys: 5, noNullPrototype: true }),
  ),
}));

describe('parseJson', () => {
  it('round-trips random values with bigints embedded anywhere: parseJson(stringifyJson(v)) equals v', () => {
    fc.assert(
      fc.property(jsonWithBigints, (value) => {
        expectSame(parseJson(stringifyJson(value)), value);
      }),
      { numRuns: 500 },
    );
  });

  it('equals JSON.parse on the fast path (no 16-digit run)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        fc.pre(!/\d{16}/.test(text));
        expectSame(parseJson(text), JSON.parse(text));
      }),
    );
  });

  it('reads 2^64−1 and −2^63 exactly', () => {
    expectSame(parseJson('{"max":18446744073709551615,"min":-9223372036854775808,"ok":42}'), {
      max: 18446744073709551615n,
      min: -9223372036854775808n,
      ok: 42,
    });
  });

  it('keeps a 16+ digit run inside a string as a string and other numbers as numbers', () => {
    expectSame(parseJson('["12345678901234567890",1.5,9007199254740991]'), ['12345678901234567890', 1.5, 9007199254740991]);
  });

  it('reads hex strings with long digit runs (addresses, hashes) as JSON.parse does, and numbers beyond 2^53 by the literal', () => {
    const batch = '[{"jsonrpc":"2.0","method":"chain_getAccount","params":["8bc9632d120f6a6be2ccd1537940565830284e5de9339410a8f608eeed7391db"],"id":1}]';
    expectSame(parseJson(batch), JSON.parse(batch));
    // Fractions and exponents stay numbers however large; integer literals beyond 2^53−1 are bigints at any depth.
    const large = '[1e300,-1.5e20,9007199254740993.5,1e400]';
    expectSame(parseJson(large), JSON.parse(large));
    expectSame(parseJson('{"a":{"b":[1,{"c":-9007199254740993}]},"d":9007199254740991}'), { a: { b: [1, { c: -9007199254740993n }] }, d: 9007199254740991 });
    // An own "__proto__" member is walked like any other.
    const proto = parseJson('{"__proto__":[18446744073709551615]}') as Record<string, JsonValue>;
    expect(Object.hasOwn(proto, '__proto__')).toBe(true);
    expectSame(proto['__proto__'], [18446744073709551615n]);
  });

  it('reads every literal beyond 2^53 exactly beside strings, keys, fractions and exponents that look alike', () => {
    const text = '{"9007199254740993":"9007199254740993","a\\"9007199254740993":[9007199254740992,-9007199254740992,9007199254740991,-9007199254740991],"f":[12345678901234567.5,12345678901234567e2,1.12345678901234567],"n":18446744073709551616}';
    expectSame(parseJson(text), {
      '9007199254740993': '9007199254740993',
      'a"9007199254740993': [9007199254740992n, -9007199254740992n, 9007199254740991, -9007199254740991],
      // Fractions and exponents stay the doubles JSON.parse makes of them, however many digits.
      f: [Number('12345678901234567.5'), Number('12345678901234567e2'), Number('1.12345678901234567')],
      n: 18446744073709551616n,
    });
    // Strings that hold the character the fast reading marks literals with (U+FDD1), as is or escaped, stay strings.
    expectSame(parseJson('["\uFDD1123",18446744073709551616]'), ['\uFDD1123', 18446744073709551616n]);
    expectSame(parseJson('["\\ufdd1123",18446744073709551616]'), ['\uFDD1123', 18446744073709551616n]);
    expectSame(parseJson('["\\\\",18446744073709551616,"\\""]'), ['\\', 18446744073709551616n, '"']);
  });

  it('counts nesting in the text, so a duplicate key cannot hide a level too deep', () => {
    const deep = `${'['.repeat(513)}${']'.repeat(513)}`;
    expect(() => parseJson(`{"a":${deep},"a":1}`)).toThrow(/Nesting deeper than 512/);
  });

  const invalid = ['', '[1,]', '{"a":1,}', "'x'", '01', 'NaN', '"\u0007"', '{"a" 1}', '[1]]', '1 2'];
  it.each(invalid)('throws JsonParseError for %j on both paths', (text) => {
    expect(() => {
      JSON.parse(text);
    }).toThrow(SyntaxError);
    // Fast path: no long digit run.
    expect(() => parseJson(text)).toThrow(JsonParseError);
    // Slow path: a 16-digit literal forces the lossless parser.
    expect(() => parseJson(`[1234567890123456,${text}]`)).toThrow(JsonParseError);
  });

  it('gives the same error (offset and reason) on both paths', () => {
    const fail = (text: string): JsonParseError | undefined => {
      try {
        parseJson(text);
      } catch (e) {
        if (e instanceof JsonParseError) return e;
      }
      return undefined;
    };
    expect(fail('[1,2,]')).toMatchObject({ offset: 5, reason: 'Expected a JSON value but found "]"' });
    expect(fail('[1234567890123456,]')).toMatchObject({ offset: 18, reason: 'Expected a JSON value but found "]"' });
  });

  it('applies the depth limit on the fast path too, so the outcome never depends on the path', () => {
    const nested = (depth: number, inner = ''): string => '['.repeat(depth) + inner + ']'.repeat(depth);
    expect(() => parseJson(nested(512))).not.toThrow();
    expect(() => parseJson(nested(513))).toThrow(/Nesting deeper than 512/);
    expect(() => parseJson(nested(513, '1234567890123456'))).toThrow(/Nesting deeper than 512/);
    expect(() => parseJson(nested(100_000))).toThrow(JsonParseError);
    // Brackets inside strings are not nesting.
    expect(parseJson(JSON.stringify(['['.repeat(2000)]))).toEqual(['['.repeat(2000)]);
    expect(() => parseJson(nested(5), { maxDepth: 4 })).toThrow(/deeper than 4/);
  });
});
