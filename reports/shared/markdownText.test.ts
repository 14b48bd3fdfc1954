import { describe, expect, it } from 'vitest';
import { markdownCode, markdownFence, markdownText } from './markdownText.js';

describe('markdownText', () => {
  it('escapes inline markup and keeps the text on one line', () => {
    expect(markdownText('a *b* _c_ `d` [e](f) <g> h|i ~j~ &amp; \\')).toBe('a \\*b\\* \\_c\\_ \\`d\\` \\[e\\](f) \\<g\\> h\\|i \\~j\\~ \\&amp; \\\\');
    expect(markdownText('one\ntwo\r\nthree')).toBe('one two three');
  });

  it('escapes a first character that would start a block', () => {
    expect(markdownText('# title')).toBe('\\# title');
    expect(markdownText('- item')).toBe('\\- item');
    expect(markdownText('12. item')).toBe('12\\. item');
    expect(markdownText('a - b. 1. c')).toBe('a - b. 1. c');
  });
});

describe('markdownFence and markdownCode', () => {
  it('use more backticks than any run inside', () => {
    expect(markdownFence('a\n```\nb', 'sh')).toBe('````sh\na\n```\nb\n````');
    expect(markdownFence('plain')).toBe('```\nplain\n```');
    expect(markdownCode('x')).toBe('`x`');
    expect(markdownCode('a `b` c')).toBe('``a `b` c``');
    expect(markdownCode('`edge`')).toBe('`` `edge` ``');
    expect(markdownCode('two\nlines')).toBe('`two lines`');
  });
});
