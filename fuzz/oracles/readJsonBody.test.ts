import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyJson, type JsonValue } from '../../core/json/index.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { caseAt } from '../cases/caseAt.js';
import { makeCaseContext } from '../cases/CaseContext.js';
import type { FuzzHttp } from '../model.js';
import { readingsOf } from './expectationOf.js';
import { exactlyRead, readJsonText, rememberWrittenJson, writtenJson } from './readJsonBody.js';

const duplicated = (text: string): boolean => {
  const body = readJsonText(text);
  return body.kind === 'json' && body.duplicates !== undefined;
};

describe('readJsonText: repeated member names', () => {
  it('finds a repeated name wherever it is, and none where quotes, colons and backslashes sit inside strings', () => {
    expect(duplicated('{"a":1,"a":2}')).toBe(true);
    expect(duplicated('[{"x":[{"b":1,"b":1}]}]')).toBe(true);
    expect(duplicated('{"a\\\\":1,"a\\\\" :2}')).toBe(true);
    expect(duplicated('{"a":"\\":","b":"\\"a\\":"}')).toBe(false);
    expect(duplicated('{"a\\"":1,"a":2}')).toBe(false);
    expect(duplicated('["a:", "a", {"a":"a:"}]')).toBe(false);
    expect(duplicated('{"a" \n:\t1,"b":{"a":2}}')).toBe(false);
  });

  it('agrees with a reading that keeps every member (any object, names drawn from a few, with quotes and escapes)', () => {
    const name = fc.constantFrom('a', 'b', 'a"', 'a\\', ':', '"a":', '\\"');
    const leaf = fc.oneof(fc.integer(), fc.constantFrom('x', ':', '"', '\\', '":"'), fc.constant(null));
    const tree = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.array(fc.tuple(name, tie('node')), { maxLength: 4 })),
    }));
    fc.assert(
      fc.property(tree.node, (node) => {
        // Arrays of pairs are written as objects, repeated names kept, so the text may repeat a name.
        let repeats = false;
        const write = (v: unknown): string => {
          if (!Array.isArray(v)) return JSON.stringify(v);
          if (v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string') && v.length > 0) {
            const names = (v as [string, unknown][]).map(([k]) => k);
            if (new Set(names).size < names.length) repeats = true;
            return `{${(v as [string, unknown][]).map(([k, x]) => `${JSON.stringify(k)} : ${write(x)}`).join(',')}}`;
          }
          return `[${v.map(write).join(', ')}]`;
        };
        const text = write(node);
        expect(duplicated(text)).toBe(repeats);
      }),
      { numRuns: 400 },
    );
  });
});

describe('exactlyRead: numbers a double reads otherwise than they are written (RFC 8259 §6)', () => {
  it('reads them exactly, and leaves the rest (strings, numbers a double reads right) alone', () => {
    expect(exactlyRead('{"a":[18446744073709551615.0,1.5,"1e-400",1e-400,-1e-400,1E400,1.0,1e3,0.0]}')).toEqual({
      a: [18446744073709551615n, 1.5, '1e-400', 0.5, -0.5, 10n ** 400n, 1, 1000, 0],
    });
    expect(exactlyRead('[1.0,1e3,0.5,"18446744073709551615.0"]')).toBeUndefined();
    expect(exactlyRead('{"__proto__":[1e-400]}')).toEqual(JSON.parse('{"__proto__":[0.5]}'));
  });

  it('stays linear on a body of many strings before a long one (each stretch between strings searched once)', () => {
    const body = `[${Array.from({ length: 50_000 }, () => '"a"').join(',')},"${'x'.repeat(500_000)}",1e-400]`;
    expect((exactlyRead(body) as unknown[]).at(-1)).toBe(0.5);
  });
});

describe('rememberWrittenJson: bytes written from a value are read as that value, without a parse', () => {
  const written = (value: JsonValue): JsonValue | undefined => {
    const bytes = new TextEncoder().encode(stringifyJson(value));
    rememberWrittenJson(bytes, value);
    return writtenJson(bytes);
  };

  it('keeps a value whose text reads back as exactly that value, and only such a value', () => {
    for (const value of [null, true, 'é\u{1F600}\ud800', 0, -1.5, 1e-7, Number.MAX_SAFE_INTEGER, -(2n ** 64n), [1, ['a', { b: null }]], { __proto__: 1 } as unknown as JsonValue, JSON.parse('{"__proto__":[]}') as JsonValue]) {
      expect(written(value), stringifyJson(value)).toBe(value);
      expect(readJsonText(stringifyJson(value))).toEqual({ kind: 'json', value });
    }
    let deep: JsonValue = 1;
    for (let i = 0; i < 32; i++) deep = [deep];
    expect(written(deep)).toBe(deep);
    // Values whose text reads otherwise: -0 ("0"), a double beyond 2^53 (a bigint, or an exponent a double misreads),
    // a small bigint (a number), nesting a parser may refuse, what JSON.stringify writes otherwise or drops.
    const holed: JsonValue[] = [1];
    holed[2] = 2;
    for (const value of [-0, 2 ** 60, 1.5e300, Number.NaN, 5n, [deep], holed, [undefined] as unknown as JsonValue, { a: undefined } as unknown as JsonValue, new Date(0) as unknown as JsonValue, { toJSON: () => 1 } as unknown as JsonValue]) {
      expect(written(value), typeof value === 'object' ? Object.prototype.toString.call(value) : String(value)).toBeUndefined();
    }
  });

  it("reads every case the generator writes as a parse of its bytes would: the same readings", () => {
    const profile = referenceProfile();
    const ctx = makeCaseContext(profile, { height: 1234n, genesisHeight: profile.genesisHeight, addresses: ['ab'.repeat(32), 'cd'.repeat(32)], chainId: 7n });
    // Functions compared by what they give (idText) or their source (accepts), getters by their value, bigints by their digits.
    const plain = (v: unknown): unknown => {
      if (typeof v === 'function') return v.length === 0 ? { gives: plain((v as () => unknown)()) } : `function ${String(v)}`;
      if (typeof v === 'bigint') return `${v}n`;
      if (v instanceof Set) return { set: [...v].map(plain) };
      if (Array.isArray(v)) return v.map(plain);
      if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.keys(v).map((k) => [k, plain((v as Record<string, unknown>)[k])]));
      return v;
    };
    let remembered = 0;
    let total = 0;
    for (const seed of [1, 2, 3]) {
      for (let index = 0; index < 1_000; index++) {
        const c = caseAt(seed, index, ctx);
        total++;
        if (writtenJson(c.http.body) === undefined) continue;
        remembered++;
        const parsed: FuzzHttp = { ...c.http, body: new Uint8Array(c.http.body) };
        expect(writtenJson(parsed.body)).toBeUndefined();
        expect(plain(readingsOf(c.http, profile)), `${c.rule} #${index}`).toEqual(plain(readingsOf(parsed, profile)));
      }
    }
    // The memo serves most cases (else it would be dead weight on the judge's path).
    expect(remembered / total).toBeGreaterThan(0.5);
  });
});
