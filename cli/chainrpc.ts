#!/usr/bin/env node
/**
 * chainrpc: certify and benchmark blockchain nodes through their JSON-RPC 2.0 interface.
 * Each subcommand lives in cli/commands/<name>.ts and is listed in cli/commandList.ts; this file
 * only dispatches and maps errors to the documented exit codes: an error's kind (core/errors/ChainrpcError.ts)
 * decides its code (core/errors/exitCodes.ts, the one table), here in exitCodeFor and nowhere else.
 *
 * Every import below is light, so that `chainrpc --help` starts about as fast as node itself (goal:
 * under 150 ms, `npm run bench:cli`): a command's module is imported only when it runs or prints its
 * own help, and the error classes come from their own files rather than from the core/codec and
 * core/client indexes, which load noble, undici and ajv.
 */
import { CliError } from './CliError.js';
import { wantsHelp } from './CommandLine.js';
import { COMMANDS } from './commandList.js';
import { packageVersion as version } from '../core/packageVersion.js';
import { ChainrpcError } from '../core/errors/ChainrpcError.js';
import { EXIT, EXIT_MEANING } from '../core/errors/exitCodes.js';
import { NotOursError } from '../core/files/ownedFolder.js';

/** `text` in lines of at most `width` characters, broken at spaces. */
function wrap(text: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line].join('\n');
}

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `chainrpc ${version()}: conformance and load harness for JSON-RPC 2.0 blockchain nodes

Usage: chainrpc <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run chainrpc <command> --help for a command's options and what its exit codes mean.

${wrap(`Exit codes: ${Object.entries(EXIT_MEANING).map(([code, meaning]) => `${code} ${meaning}`).join('; ')}.`)} By command:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.exits.join(' ')}`).join('\n')}`;
}

const HELP_WORDS: ReadonlySet<string> = new Set(['-h', '--help', 'help']);
const VERSION_WORDS: ReadonlySet<string> = new Set(['-v', '--version']);

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || HELP_WORDS.has(name)) {
    console.log(mainHelp());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (VERSION_WORDS.has(name)) {
    console.log(version());
    return EXIT.ok;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) throw new CliError(`unknown command "${name}"; run chainrpc --help for the list`);
  const command = await entry.load();
  if (wantsHelp(rest)) {
    // A subcommand's own help (chainrpc load k6 --help), else the command's page, which lists its subcommands.
    const sub = command.subcommands?.find((s) => s.name === rest[0]);
    console.log((sub ?? command).help);
    return EXIT.ok;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    // A folder or file of the user's that chainrpc will not write into or remove (core/files/ownedFolder.ts).
    if (err instanceof NotOursError) throw CliError.within(name, err);
    throw err;
  }
}

/** The one place an error becomes an exit code: a chainrpc error by its kind, anything else is a bug. */
function exitCodeFor(err: unknown): { code: number; message: string } {
  if (err instanceof ChainrpcError) return { code: err.exitCode, message: err.explain() };
  return { code: EXIT.internal, message: `internal error (a bug in chainrpc; please report it): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}` };
}

// A reader that went away (chainrpc load list | head -1): the rest of the output is not wanted, but the command
// still finishes its work (a report written, its true exit code), without a stack trace for the closed pipe.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const { code, message } = exitCodeFor(err);
    console.error(`chainrpc: ${message}`);
    process.exitCode = code;
  },
);
