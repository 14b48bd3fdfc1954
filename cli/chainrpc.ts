#!/usr/bin/env node
/**
 * chainrpc: certify and benchmark blockchain nodes through their JSON-RPC 2.0 interface.
 * Each subcommand lives in cli/commands/<name>.ts; this file only dispatches and maps errors to
 * the documented exit codes (cli/CliError.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from './Command.js';
import { CliError, EXIT } from './CliError.js';
import { call } from './commands/call.js';
import { devnet } from './commands/devnet.js';
import { keygen } from './commands/keygen.js';
import { methods } from './commands/methods.js';
import { node } from './commands/node.js';
import { replay } from './commands/replay.js';
import { test } from './commands/test.js';
import { tx } from './commands/tx.js';
import { isCodecError } from '../core/codec/index.js';
import { JsonRpcError, TransportError } from '../core/client/index.js';
import { stringifyJson } from '../core/json/index.js';
import { packageRoot } from '../core/paths.js';

const COMMANDS: Command[] = [test, replay, node, devnet, call, methods, tx, keygen];

function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `chainrpc ${version()}: conformance and load harness for JSON-RPC 2.0 blockchain nodes

Usage: chainrpc <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run chainrpc <command> --help for a command's options.

Exit codes: 0 success; 1 the node answered with an error (or a check failed);
2 usage or configuration error; 3 target unreachable; 4 internal error (a bug: please report it).`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    console.log(mainHelp());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '-v' || name === '--version') {
    console.log(version());
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new CliError(`unknown command "${name}"; run chainrpc --help for the list`);
  if (rest.includes('-h') || rest.includes('--help')) {
    console.log(command.help);
    return EXIT.ok;
  }
  return command.run(rest);
}

function exitCodeFor(err: unknown): { code: number; message: string } {
  if (err instanceof CliError) return { code: err.exitCode, message: err.message };
  if (isCodecError(err)) return { code: EXIT.usage, message: err.message };
  if (err instanceof JsonRpcError) return { code: EXIT.nodeError, message: `${err.message}\n${stringifyJson(err.error)}` };
  if (err instanceof TransportError) return { code: EXIT.unreachable, message: `${err.message}\n${err.details}` };
  // node:util parseArgs reports unknown or malformed options with these codes.
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) return { code: EXIT.usage, message: (err as Error).message };
  return { code: EXIT.internal, message: `internal error (a bug in chainrpc; please report it): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}` };
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
