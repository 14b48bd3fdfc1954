import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJsonText } from './readJsonBody.js';

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
