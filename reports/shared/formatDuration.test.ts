import { describe, expect, it } from 'vitest';
import { excerpt } from './excerpt.js';
import { formatDuration } from './formatDuration.js';

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [3.2, '3 ms'],
    [999.4, '999 ms'],
    [1000, '1.00 s'],
    [6234.5, '6.23 s'],
    [12_345, '12.3 s'],
    [245_000, '4 min 05 s'],
    [-1, '?'],
    [Number.NaN, '?'],
  ])('%s ms reads "%s"', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('excerpt', () => {
  it('keeps short text and cuts long text with a note, never inside a surrogate pair', () => {
    expect(excerpt('abc', 3)).toBe('abc');
    expect(excerpt('abcdef', 3)).toBe('abc… (3 more characters)');
    expect(excerpt('ab🦀cd', 3)).toBe('ab… (4 more characters)');
  });
});
