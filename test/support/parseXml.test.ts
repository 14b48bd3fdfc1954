import { describe, expect, it } from 'vitest';
import { XmlError, parseXml, xmlFindAll, xmlText } from './parseXml.js';

describe('parseXml', () => {
  it('reads elements, attributes, text, references, CDATA and comments', () => {
    const root = parseXml(
      `<?xml version="1.0" encoding="UTF-8"?>\n<!-- top -->\n<a x="1" y='it&apos;s &lt;b&gt;&#10;&#x9;'>t&amp;t<b/><b k="v">in<![CDATA[<raw> & ]]></b><?pi data?></a>\n`,
    );
    expect(root.name).toBe('a');
    expect(root.attributes).toEqual({ x: '1', y: "it's <b>\n\t" });
    expect(xmlFindAll(root, 'b')).toHaveLength(2);
    expect(xmlText(root)).toBe('t&tin<raw> & ');
  });

  it('normalizes literal whitespace in attributes and line ends in text, as XML 1.0 says', () => {
    const root = parseXml('<a v="x\ny\tz">1\r\n2\r3&#13;</a>');
    expect(root.attributes.v).toBe('x y z');
    expect(xmlText(root)).toBe('1\n2\n3\r');
  });

  it.each([
    ['unclosed element', '<a><b></a>'],
    ['mismatched end tag', '<a></b>'],
    ['bare ampersand', '<a>x & y</a>'],
    ['unknown entity', '<a>&nbsp;</a>'],
    ['raw < in attribute', '<a v="<"/>'],
    ['unquoted attribute', '<a v=1/>'],
    ['duplicate attribute', '<a v="1" v="2"/>'],
    ['no space between attributes', '<a v="1"w="2"/>'],
    ['control character', '<a>\u0001</a>'],
    ['reference to a forbidden character', '<a>&#1;</a>'],
    ['lone surrogate', '<a>\ud800</a>'],
    ['two roots', '<a/><b/>'],
    ['text after the root', '<a/>x'],
    ['no root', '<?xml version="1.0"?>'],
    [']]> in text', '<a>]]></a>'],
    ['-- in a comment', '<a><!-- a -- b --></a>'],
    ['misplaced declaration', ' <?xml version="1.0"?><a/>'],
    ['malformed declaration', '<?xml encoding="UTF-8"?><a/>'],
  ])('refuses a document with %s', (_what, doc) => {
    expect(() => parseXml(doc)).toThrow(XmlError);
  });
});
