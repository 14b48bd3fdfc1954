import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellQuote } from './shellQuote.js';

describe('shellQuote', () => {
  it('wraps in single quotes and writes a quote as close, escaped quote, reopen', () => {
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('')).toBe("''");
  });

  it('gives the shell back exactly the text, whatever it holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite' }).filter((s) => !s.includes('\u0000')), (s) => {
        // printf's format is a constant; the word under test is its argument.
        const out = execFileSync('sh', ['-c', `printf '%s' ${shellQuote(s)}`]);
        expect(out.equals(Buffer.from(s, 'utf8'))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
