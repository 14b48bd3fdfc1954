import { describe, expect, it } from 'vitest';
import { excerpt } from '../../core/excerpt.js';
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

  it('cuts at the end of a word when one is near the limit, not in the middle of one', () => {
    const message = '{"code":-32603,"message":"Internal error: the handler failed"}';
    expect(excerpt(message, 40)).toBe('{"code":-32603,"message":"Internal… (28 more characters)');
    expect(excerpt('one two three four five six seven', 20)).toBe('one two three four… (15 more characters)');
    // No end of a word within the last quarter: cut at the limit.
    expect(excerpt(`${'x'.repeat(30)} tail`, 20)).toBe(`${'x'.repeat(20)}… (15 more characters)`);
  });
});
