import { showControls } from './showControls.js';

/**
 * Text that Markdown shows as written, on one line: characters that start inline markup (emphasis, code,
 * links, HTML, table cells, strikethrough, entities) are escaped with a backslash (CommonMark §2.4), and so
 * is the marker of a block the text would start if it began a line: a heading ("# " to "###### "), a
 * bullet ("- ", "+ "), an ordered list item ("1. ", "2) "; at most 9 digits), a thematic break or setext
 * underline ("---", "=" alone); a quote (">") is escaped anywhere. Only a true marker is: CommonMark wants
 * a space or the end of the line after it, so "0.1.0", "1.60 ms", "-3,887.1" and "#3" are written as they
 * are, wherever in a line the text goes (a version or a figure mid-line gets no stray backslash).
 */
export function markdownText(text: string): string {
  return showControls(text.replace(/\r?\n/g, ' '))
    .replace(/[\\`*_[\]<>|~&]/g, (c) => `\\${c}`)
    .replace(/^(\s*)(#{1,6}|[+-])(?=\s|$)/, '$1\\$2')
    .replace(/^(\s*)([-=])(?=[-=\s]*$)/, '$1\\$2')
    .replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
}

/** A fenced code block around `text`, with a fence longer than any backtick run inside it. */
export function markdownFence(text: string, info = ''): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${showControls(text)}\n${fence}`;
}

/** An inline code span around `text` (CommonMark §6.1): the delimiter outgrows any backtick run inside. */
export function markdownCode(text: string): string {
  const shown = showControls(text.replace(/\r?\n/g, ' '));
  const longest = Math.max(0, ...Array.from(shown.matchAll(/`+/g), (m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || shown === '' ? ' ' : '';
  return `${ticks}${pad}${shown}${pad}${ticks}`;
}
