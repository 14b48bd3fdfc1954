/** The start of a text, cut at `max` UTF-16 units (never inside a surrogate pair), with a note of what was left out. */
export function excerpt(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // keep the pair whole
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}
