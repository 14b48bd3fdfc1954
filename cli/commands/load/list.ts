/** `chainrpc load list`: the built-in scenarios, each with the first sentence of its description. */
import { CommandLine } from '../../CommandLine.js';
import { builtInScenarios, loadScenario } from '../../../load/scenario/loadScenario.js';

export const LIST_HELP = `Usage: chainrpc load list

Lists the built-in scenarios (load/scenarios/<name>.json), each with the first sentence of its
description. chainrpc load <name> runs one; a scenario file given by path works the same way.

Options:
  -h, --help

Exit codes: 0 listed; 2 usage error; 4 internal error (a bug in chainrpc).`;

export const listLine = new CommandLine('load list', {});

/** Runs `chainrpc load list`. */
export function listCommand(argv: string[]): Promise<number> {
  listLine.parse(argv);
  for (const name of builtInScenarios()) {
    const s = loadScenario(name);
    process.stdout.write(`${name.padEnd(14)}${(s.definition.description ?? '').split('. ')[0] ?? ''}\n`);
  }
  return Promise.resolve(0);
}
