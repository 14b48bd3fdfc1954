/**
 * How load commands write command lines and paths for people: the command as a report records it (quoted
 * for a shell, a private key never written) and a path as a user would paste it. Shared by `chainrpc load`
 * and `chainrpc load merge`.
 */
import { relative } from 'node:path';
import { shellQuote } from '../../suites/runner/shellQuote.js';

/** A word as a shell reads it: bare when it is safe, quoted otherwise. */
export const shellWord = (text: string): string => (/^[\w./@%+=:,<>-]+$/.test(text) ? text : shellQuote(text));

/** A path relative to the working directory when it lies below it, else as it is: what a user pastes. */
export function relativeOrAbsolute(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') ? path : rel;
}

/** The command line as the report records it: words quoted for a shell, a private key never written. */
export function recordedCommand(command: string, argv: readonly string[]): string {
  const words = argv.map((word, i) => (argv[i - 1] === '--private-key' ? '<hidden>' : word.replace(/^--private-key=.*/s, '--private-key=<hidden>')));
  return ['chainrpc', command, ...words.map(shellWord)].join(' ');
}
