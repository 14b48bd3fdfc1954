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
    expect(markdownText('## two')).toBe('\\## two');
    expect(markdownText('+')).toBe('\\+');
    expect(markdownText('1.')).toBe('1\\.');
    expect(markdownText('3) item')).toBe('3\\) item');
    expect(markdownText('---')).toBe('\\---');
    expect(markdownText('=')).toBe('\\=');
  });

  it('leaves a figure or a version that starts no block as written (it may sit mid-line)', () => {
    expect(markdownText('0.1.0')).toBe('0.1.0');
    expect(markdownText('0.100 ms / 0.100 ms')).toBe('0.100 ms / 0.100 ms');
    expect(markdownText('1.60 ms / 51.4 ms')).toBe('1.60 ms / 51.4 ms');
    expect(markdownText('84.8 MiB')).toBe('84.8 MiB');
    expect(markdownText('−3,887.1 MiB/h')).toBe('−3,887.1 MiB/h');
    expect(markdownText('-3887.1')).toBe('-3887.1');
    expect(markdownText('#3 of 4')).toBe('#3 of 4');
    expect(markdownText('+12%')).toBe('+12%');
    expect(markdownText('1234567890. x')).toBe('1234567890. x');
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
