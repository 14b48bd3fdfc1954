import fc from 'fast-check';
import { inspect, isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { JsonParseError } from './JsonParseError.js';
import type { JsonValue } from './JsonValue.js';
import { parseJsonLossless } from './parseJsonLossless.js';

// Strings over all UTF-16 code units, lone surrogates and control characters included, so the
// escaping paths of both parsers are exercised.
const anyString = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 });
const safeNumber = fc.oneof(
  fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d) || Number.isSafeInteger(d) || Math.abs(d) >= 1e21),
);
const { json: jsonWithoutUnsafeIntegers } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    safeNumber,
    anyString,
    fc.array(tie('json'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(anyString, fc.constantFrom('__proto__', 'constructor', '0', '10')), tie('json'), {
      maxKeys: 5,
      noNullPrototype: true,
    }),
  ),
}));
const space = fc.constantFrom<string | number | undefined>(undefined, 0, 1, '\t', '\r\n ');

// Not toStrictEqual: it treats an own "constructor" member as the class and compares it by identity.
function expectSame(actual: unknown, expected: unknown): void {
  expect(isDeepStrictEqual(actual, expected), `${inspect(actual, { depth: 9 })} differs from ${inspect(expected, { depth: 9 })}`).toBe(
    true,
  );
}

function outcome(parse: () => unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parse() };
  } catch {
    return { ok: false };
  }
}

describe('parseJsonLossless', () => {
  it('agrees with JSON.parse on random JSON without unsafe integers', () => {
    fc.assert(
      fc.property(jsonWithoutUnsafeIntegers, space, (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expectSame(parseJsonLossless(text), JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('accepts and rejects exactly what JSON.parse does on mutated JSON', () => {
    const mutation = fc.tuple(
      fc.nat(),
      fc.constantFrom('delete', 'insert', 'replace'),
      fc.constantFrom(...',:[]{}"\\ \t\n-+.0123eEtfnulx\'\u0000\u00a0\ufeff/'.split('')),
    );
    fc.assert(
      fc.property(jsonWithoutUnsafeIntegers, fc.array(mutation, { minLength: 1, maxLength: 3 }), (value, mutations) => {
        let text = JSON.stringify(value);
        for (const [at, op, ch] of mutations) {
          const i = text.length === 0 ? 0 : at % (text.length + 1);
          if (op === 'delete') text = text.slice(0, i) + text.slice(i + 1);
          else if (op === 'insert') text = text.slice(0, i) + ch + text.slice(i);
          else text = text.slice(0, i) + ch + text.slice(i + 1);
        }
        const expected = outcome(() => JSON.parse(text));
        if (expected.ok) {
          const actual = parseJsonLossless(text);
          // A mutation may create a 16+ digit integer, which is a bigint by policy.
          if (!/\d{16}/.test(text)) expectSame(actual, expected.value);
        } else {
          expect(() => parseJsonLossless(text)).toThrow(JsonParseError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  const invalid = [
    '',
    ' ',
    '[1,]',
    '{"a":1,}',
    '[,1]',
    '{,}',
    "'a'",
    "{'a':1}",
    '{a:1}',
    '"\u0001"',
    '"a\nb"',
    '01',
    '-01',
    '00',
    '-',
    '1.',
    '.5',
    '1e',
    '1e+',
    '+1',
    'NaN',
    'Infinity',
    '-Infinity',
    '"\\x"',
    '"\\u12"',
    '"\\u12G4"',
    '"\\',
    '[1 2]',
    '{"a" 1}',
    '{"a":}',
    'tru',
    'nul',
    'True',
    'undefined',
    '1 2',
    '"abc',
    '[',
    ']',
    '{"a":1',
    '\u00a01',
    '\ufeff1',
    '[1]x',
    '0x10',
    '1_000',
    '"\t"',
    '{"a":1}}',
    '//c\n1',
    '/*c*/1',
  ];
  it.each(invalid)('rejects %j like JSON.parse does', (text) => {
    expect(() => {
      JSON.parse(text);
    }).toThrow(SyntaxError);
    expect(() => parseJsonLossless(text)).toThrow(JsonParseError);
  });

  it('accepts what JSON.parse accepts at the edges', () => {
    const valid = [
      ' \t\r\n1 ',
      '"\ud800"',
      '"\\ud800x"',
      '"\\uDFFF\\u0041"',
      '"\u2028\u2029\u007f"',
      '-0',
      '-0.0e-0',
      '1E400',
      '[]',
      '{}',
      '"\\/"',
      '{"a":1,"a":2}',
    ];
    for (const text of valid) expectSame(parseJsonLossless(text), JSON.parse(text));
  });

  it('reports the offset and a plain reason', () => {
    const error = (text: string): JsonParseError => {
      try {
        parseJsonLossless(text);
      } catch (e) {
        if (e instanceof JsonParseError) return e;
      }
      throw new Error(`expected ${text} to fail`);
    };
    expect(error('[1,]')).toMatchObject({ offset: 3, reason: 'Expected a JSON value but found "]"' });
    expect(error('{"a":1')).toMatchObject({ offset: 6, reason: 'Unexpected end of input' });
    expect(error('"ab\u0001"')).toMatchObject({ offset: 3, reason: 'Bad control character in string' });
    expect(error('[01]')).toMatchObject({ offset: 1, reason: 'Leading zeros are not allowed' });
    expect(error('"abc')).toMatchObject({ offset: 0, reason: 'Unterminated string' });
    expect(error('1 x').message).toBe('Invalid JSON: Unexpected data after the JSON value at offset 2');
  });

  it('turns integer literals beyond ±(2^53−1) into exact bigints, nothing else', () => {
    const cases: [string, JsonValue][] = [
      ['9007199254740991', 9007199254740991],
      ['-9007199254740991', -9007199254740991],
      ['9007199254740992', 9007199254740992n],
      ['-9007199254740992', -9007199254740992n],
      ['18446744073709551615', 2n ** 64n - 1n],
      ['340282366920938463463374607431768211455', 2n ** 128n - 1n],
      ['1000000000000000', 1e15],
      ['9007199254740993.0', 9007199254740992],
      ['9007199254740993e0', 9007199254740992],
      ['1e20', 1e20],
      ['[18446744073709551616,{"n":-18446744073709551616}]', [2n ** 64n, { n: -(2n ** 64n) }]],
    ];
    for (const [text, expected] of cases) expectSame(parseJsonLossless(text), expected);
  });

  it('stores __proto__ as an own data property and never sets the prototype', () => {
    const text = '{"__proto__":{"polluted":true},"a":{"__proto__":[1]}}';
    const value = parseJsonLossless(text) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(value)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expectSame(value, JSON.parse(text));
  });

  it('enforces the depth limit with a clear error, never a stack overflow', () => {
    const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
    expect(() => parseJsonLossless(nested(512))).not.toThrow();
    expect(() => parseJsonLossless(nested(513))).toThrow(/Nesting deeper than 512 levels at offset 512/);
    expect(() => parseJsonLossless(nested(200_000))).toThrow(JsonParseError);
    expect(() => parseJsonLossless('{"a":'.repeat(600) + '1' + '}'.repeat(600))).toThrow(JsonParseError);
    expect(() => parseJsonLossless(nested(3), { maxDepth: 2 })).toThrow(/deeper than 2/);
  });
});
