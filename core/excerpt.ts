/** How far back from the limit a cut looks for the end of a word. */
const WORD_REACH = 24;

/**
 * The start of a text, cut at `max` UTF-16 units at most, with a note of what was left out. The cut falls at the end
 * of a word (before a space, or after a comma, colon or semicolon) when one lies within the last quarter of `max` (24
 * units at most), so that an excerpt does not end in half a word; never inside a surrogate pair.
 */
export function excerpt(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const reach = Math.min(WORD_REACH, Math.floor(max / 4));
  for (let j = max; j > max - reach && j > 0; j--) {
    if (/\s/.test(text[j] ?? '') || /[,;:]/.test(text[j - 1] ?? '')) {
      end = j;
      break;
    }
  }
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // keep the pair whole
  return `${text.slice(0, end).trimEnd()}… (${text.length - end} more characters)`;
}
