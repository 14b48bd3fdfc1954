import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeXml } from './escapeXml.js';
import { parseXml, xmlText } from '../../test/support/parseXml.js';

describe('escapeXml', () => {
  it('escapes markup in text and, in attributes, quotes, tab and newline too', () => {
    expect(escapeXml(`<a b="c">'&'\t\n`)).toBe(`&lt;a b="c"&gt;'&amp;'\t\n`);
    expect(escapeXml(`<a b="c">'&'\t\n`, true)).toBe('&lt;a b=&quot;c&quot;&gt;&apos;&amp;&apos;&#9;&#10;');
  });

  it('always yields well-formed XML that reads back as the displayed text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const doc = parseXml(`<r a="${escapeXml(s, true)}">${escapeXml(s)}</r>`);
        const shown = escapeXml(s).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
        expect(doc.attributes.a).toBe(shown);
        expect(xmlText(doc)).toBe(shown);
      }),
      { numRuns: 300 },
    );
  });
});
