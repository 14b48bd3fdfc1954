import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactlyRead, readJsonText } from './readJsonBody.js';

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
