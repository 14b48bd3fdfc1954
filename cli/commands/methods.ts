import type { Command } from '../Command.js';
import { CommandLine } from '../CommandLine.js';
import { validators } from '../../core/schema/validators.js';

const commandLine = new CommandLine('methods', { json: { kind: 'flag' } });

export const methods: Command = {
  name: 'methods',
  summary: 'List the interface methods with their params and error codes (from schemas/)',
  help: `Usage: chainrpc methods [--json]

Lists every method of the reference profile: positional params, result and the error codes it
may answer with, read from schemas/methods/*.schema.json.

Options:
  --json    print the list as JSON
  -h, --help

Exit codes: 0 listed; 2 usage error; 4 internal error (a bug in chainrpc).`,
  commandLines: [commandLine],
  run(argv) {
    const { values } = commandLine.parse(argv);
    const list = [...validators().methods.values()].map((m) => ({
      method: m.title,
      summary: m['x-summary'],
      params: m['x-params'].map((p) => p.name),
      result: m['x-result'].name,
      errors: ((m.definitions.error.oneOf ?? []) as { $ref: string }[]).map((r) => r.$ref.split('/').pop() ?? ''),
    }));
    if (values.json) {
      console.log(JSON.stringify(list, null, 2));
    } else {
      const width = Math.max(...list.map((m) => m.method.length + m.params.join(', ').length + 2));
      for (const m of list) {
        const sig = `${m.method}(${m.params.join(', ')})`;
        console.log(`${sig.padEnd(width + 2)}-> ${m.result.padEnd(18)} ${m.summary}`);
        console.log(`${' '.repeat(width + 2)}   errors: ${m.errors.join(', ')}`);
      }
    }
    return Promise.resolve(0);
  },
};
