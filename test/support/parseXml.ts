/**
 * Test support: a small, strict XML 1.0 parser, so tests can check that a report is well-formed and read it
 * back without a dependency. It covers what well-formedness needs for documents without a DTD: the
 * declaration, elements, attributes (quoted, unique, no raw "<", normalized as §3.3.3 says), character and
 * the five predefined entity references, comments, CDATA sections, processing instructions, and the
 * characters XML 1.0 allows (§2.2). Anything else throws an XmlError saying where.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  /** Elements and (decoded) text, in document order. */
  children: (XmlElement | string)[];
}

export class XmlError extends Error {
  override readonly name = 'XmlError';
}

// eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids are control characters
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NAME = /[A-Za-z_:][A-Za-z0-9_:.\-\u00b7\u00c0-\uffef]*/y;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const isXmlChar = (cp: number): boolean =>
  cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);

/** The text of an element: its text children and those of its descendants, concatenated. */
export function xmlText(element: XmlElement): string {
  return element.children.map((c) => (typeof c === 'string' ? c : xmlText(c))).join('');
}

/** Every element below `element` (depth first) with the given name. */
export function xmlFindAll(element: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of element.children) {
    if (typeof c === 'string') continue;
    if (c.name === name) out.push(c);
    out.push(...xmlFindAll(c, name));
  }
  return out;
}

/** Parses a whole document and returns its root element; throws XmlError when it is not well-formed. */
export function parseXml(text: string): XmlElement {
  const bad = FORBIDDEN.exec(text);
  if (bad) throw new XmlError(`character U+${(bad[0].codePointAt(0) ?? 0).toString(16).padStart(4, '0')} is not allowed in XML 1.0 (at ${bad.index})`);
  let pos = 0;
  const fail = (what: string): never => {
    throw new XmlError(`${what} at offset ${pos}: ${JSON.stringify(text.slice(pos, pos + 30))}`);
  };
  const startsWith = (s: string): boolean => text.startsWith(s, pos);
  const skipSpace = (): boolean => {
    const from = pos;
    while (pos < text.length && ' \t\r\n'.includes(text[pos] ?? '')) pos++;
    return pos > from;
  };
  const expect = (s: string): void => {
    if (!startsWith(s)) fail(`expected ${JSON.stringify(s)}`);
    pos += s.length;
  };
  const name = (): string => {
    NAME.lastIndex = pos;
    const m = NAME.exec(text);
    if (!m) return fail('expected a name');
    pos += m[0].length;
    return m[0];
  };
  const until = (end: string, what: string): string => {
    const at = text.indexOf(end, pos);
    if (at < 0) fail(`unterminated ${what}`);
    const body = text.slice(pos, at);
    pos = at + end.length;
    return body;
  };
  const decode = (raw: string, inAttribute: boolean): string =>
    raw.replace(/&([^;&\s]*);|&|[\t\n\r]/g, (match, ref: string | undefined) => {
      if (match === '&') return fail('a bare "&" (escape it as &amp;)');
      if (ref === undefined) return inAttribute ? ' ' : match; // §3.3.3: literal whitespace in attributes becomes a space
      const named = PREDEFINED[ref];
      if (named !== undefined) return named;
      const m = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(ref);
      if (!m) return fail(`unknown entity &${ref};`);
      const cp = m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2] ?? '', 10);
      if (!isXmlChar(cp)) return fail(`character reference &${ref}; names a character XML forbids`);
      return String.fromCodePoint(cp);
    });
  const misc = (): void => {
    for (;;) {
      skipSpace();
      if (startsWith('<!--')) {
        pos += 4;
        if (until('-->', 'comment').includes('--')) fail('"--" inside a comment');
      } else if (startsWith('<?')) {
        pos += 2;
        if (name().toLowerCase() === 'xml') fail('an XML declaration that is not at the very start');
        until('?>', 'processing instruction');
      } else return;
    }
  };
  const element = (): XmlElement => {
    expect('<');
    const el: XmlElement = { name: name(), attributes: {}, children: [] };
    for (;;) {
      const spaced = skipSpace();
      if (startsWith('/>')) {
        pos += 2;
        return el;
      }
      if (startsWith('>')) {
        pos++;
        break;
      }
      if (!spaced) fail('expected whitespace before an attribute');
      const attr = name();
      skipSpace();
      expect('=');
      skipSpace();
      const quote = text[pos];
      if (quote !== '"' && quote !== "'") return fail('expected a quoted attribute value');
      pos++;
      const raw = until(quote, 'attribute value');
      if (raw.includes('<')) fail('a raw "<" in an attribute value');
      if (Object.hasOwn(el.attributes, attr)) fail(`duplicate attribute ${attr}`);
      el.attributes[attr] = decode(raw, true);
    }
    for (;;) {
      const lt = text.indexOf('<', pos);
      if (lt < 0) fail(`unclosed element <${el.name}>`);
      const raw = text.slice(pos, lt);
      if (raw.includes(']]>')) fail('"]]>" in text');
      // §2.11: a parser reads CR LF and lone CR as LF; character references (&#13;) keep a CR.
      if (raw !== '') el.children.push(decode(raw.replace(/\r\n?/g, '\n'), false));
      pos = lt;
      if (startsWith('</')) {
        pos += 2;
        const closing = name();
        if (closing !== el.name) fail(`</${closing}> closes <${el.name}>`);
        skipSpace();
        expect('>');
        return el;
      }
      if (startsWith('<![CDATA[')) {
        pos += 9;
        el.children.push(until(']]>', 'CDATA section'));
      } else if (startsWith('<!--')) {
        pos += 4;
        if (until('-->', 'comment').includes('--')) fail('"--" inside a comment');
      } else if (startsWith('<?')) {
        pos += 2;
        until('?>', 'processing instruction');
      } else {
        el.children.push(element());
      }
    }
  };

  if (/^<\?xml[\s?]/.test(text)) {
    const decl = until('?>', 'XML declaration');
    const wellFormed = /^<\?xml\s+version\s*=\s*(["'])1\.[0-9]+\1(\s+encoding\s*=\s*(["'])[A-Za-z][A-Za-z0-9._-]*\3)?(\s+standalone\s*=\s*(["'])(yes|no)\5)?\s*$/;
    if (!wellFormed.test(decl)) fail('a malformed XML declaration');
  }
  misc();
  if (startsWith('<!DOCTYPE')) fail('a DOCTYPE (not supported by this parser)');
  const root = element();
  misc();
  if (pos !== text.length) fail('content after the root element');
  return root;
}
