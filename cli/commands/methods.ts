import type { Command } from '../Command.js';
import { CommandLine } from '../CommandLine.js';
import { schemaCatalog } from '../../core/schema/schemaCatalog.js';
import { validators } from '../../core/schema/validators.js';

/** An error of a method's contract: its code and name, read from schemas/errors.schema.json (x-code). */
interface MethodError {
  code: number;
  name: string;
}

/** The errors a method's schema names (definitions.error.oneOf), with their codes, in the schema's order. */
function errorsOf(oneOf: readonly { $ref: string }[]): MethodError[] {
  const definitions = (schemaCatalog().errors.definitions ?? {}) as Record<string, { 'x-code'?: unknown }>;
  return oneOf.map((r) => {
    const name = r.$ref.split('/').pop() ?? '';
    const code = definitions[name]?.['x-code'];
    if (typeof code !== 'number') throw new Error(`schemas/errors.schema.json gives ${name} no x-code`);
    return { code, name };
  });
}

const commandLine = new CommandLine('methods', { json: { kind: 'flag' } });

export const methods: Command = {
  name: 'methods',
  summary: 'List the interface methods with their params and error codes (from schemas/)',
  help: `Usage: chainrpc methods [--json]

Lists every method of the reference profile: positional params, result and the errors it may
answer with, each as its code and name (-32602 InvalidParams), read from
schemas/methods/*.schema.json and schemas/errors.schema.json (docs/error-codes.md).

Options:
  --json    print the list as JSON: errors as [{"code": -32602, "name": "InvalidParams"}, ...]
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
      errors: errorsOf((m.definitions.error.oneOf ?? []) as { $ref: string }[]),
    }));
    if (values.json) {
      console.log(JSON.stringify(list, null, 2));
    } else {
      const width = Math.max(...list.map((m) => m.method.length + m.params.join(', ').length + 2));
      for (const m of list) {
        const sig = `${m.method}(${m.params.join(', ')})`;
        console.log(`${sig.padEnd(width + 2)}-> ${m.result.padEnd(18)} ${m.summary}`);
        console.log(`${' '.repeat(width + 2)}   errors: ${m.errors.map((e) => `${e.code} ${e.name}`).join(', ')}`);
      }
    }
    return Promise.resolve(0);
  },
};
