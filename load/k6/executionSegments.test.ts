import { describe, expect, it } from 'vitest';
import { parseExecutionSegment } from './executionSegments.js';

describe('parseExecutionSegment', () => {
  it('reads fractions, decimals and whole percentages, and a single value as from 0', () => {
    const show = (text: string): string => {
      const s = parseExecutionSegment(text);
      return typeof s === 'string' ? s : `${s.from.n}/${s.from.d}:${s.to.n}/${s.to.d}`;
    };
    expect(show('0:1/3')).toBe('0/1:1/3');
    expect(show('1/3:2/3')).toBe('1/3:2/3');
    expect(show('2/4:75%')).toBe('1/2:3/4');
    expect(show('0.25:.5')).toBe('1/4:1/2');
    expect(show('1/2')).toBe('0/1:1/2');
    expect(show('0:1')).toBe('0/1:1/1');
    expect(show('0:4/3')).toBe('it ends beyond the whole test (1)');
    expect(show('1/2:1/2')).toBe('its start is not below its end');
    expect(show('a:b')).toBe('"a" is not a fraction ("1/3"), a decimal ("0.5") or a whole percentage ("50%")');
    expect(show('0:1/0')).toBe('"1/0" is not a fraction ("1/3"), a decimal ("0.5") or a whole percentage ("50%")');
    expect(show('0:1:2')).toBe('more than one ":" (write from:to, e.g. "1/3:2/3")');
  });
});
