/**
 * One POSIX shell word holding `text` exactly: single quotes keep every byte literal (no $, `, \ or
 * glob expansion), and a single quote itself is written as '\'' (close, escaped quote, reopen).
 */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
