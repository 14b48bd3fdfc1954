import { showControls } from './showControls.js';

/**
 * Text that Markdown shows as written, on one line: characters that start inline markup (emphasis, code,
 * links, HTML, table cells, strikethrough, entities) are escaped with a backslash (CommonMark §2.4), and so
 * is a first character that would start a block (heading, list, quote).
 */
export function markdownText(text: string): string {
  return showControls(text.replace(/\r?\n/g, ' '))
    .replace(/[\\`*_[\]<>|~&]/g, (c) => `\\${c}`)
    .replace(/^(\s*)([#+\-=])/, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/, '$1\\$2');
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
