/**
 * What a live progress display writes to (process.stdout, process.stderr, or a stand-in in tests), and how a
 * line is kept to the terminal's width so that it can be rewritten in place. Shared by the progress of
 * `chainrpc load` (reports/load/loadProgress.ts) and of `chainrpc fuzz` (reports/fuzz/fuzzProgress.ts).
 */

/** Where progress goes: process.stdout or process.stderr, or a stand-in with the same fields. */
export interface ProgressStream {
  /** A terminal: lines rewritten in place. Otherwise (CI, a pipe): a plain line now and then. */
  readonly isTTY?: boolean;
  /** The terminal's width; a longer line would wrap and break the rewriting. */
  readonly columns?: number;
  write(text: string): unknown;
}

/** A line cut to the terminal's width (a wrapped line could not be rewritten in place); 120 columns when the width is unknown. */
export function fitLine(line: string, columns: number | undefined): string {
  const width = columns !== undefined && columns > 10 ? columns - 1 : 119;
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}

/** Erases the terminal's current line and goes back to its start: what precedes a line rewritten in place. */
export const CLEAR_LINE = '\r\x1b[K';
