// C0 controls other than tab and line feed, and DEL. XML 1.0 forbids most of them outright (§2.2), and in
// HTML they are invisible; as evidence they matter, so they become their Unicode control pictures.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
// Lone surrogates and the noncharacters U+FFFE/U+FFFF cannot be written as UTF-8 / are not XML characters.
const UNWRITABLE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufffe\uffff]/g;

/**
 * Text made safe to show and to write as XML 1.0 or HTML: each control character becomes its picture
 * (U+0001 -> U+2401 "␁", CR -> "␍", DEL -> "␡"), a lone surrogate or U+FFFE/U+FFFF becomes U+FFFD.
 * The JSON report and the transcript keep the exact text; this is for display only.
 */
export function showControls(text: string): string {
  return text
    .replace(CONTROLS, (c) => String.fromCharCode(c === '\u007f' ? 0x2421 : 0x2400 + c.charCodeAt(0)))
    .replace(UNWRITABLE, '\ufffd');
}
