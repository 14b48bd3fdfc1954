/**
 * `chainrpc load <scenario>`: the scenario against one node or several, interleaved in time, judged and
 * reported. Its help is the `load` page (index.ts puts the subcommands' list into it).
 */
import { CliError } from '../../CliError.js';
import { CommandLine } from '../../CommandLine.js';
import { runLoad } from '../../../load/runLoad.js';
import { ENGINE_OPTIONS, measureAndReport, MEASURE_OPTIONS, SWEEP } from './measure.js';
import { baselineFor } from './publishLoadReport.js';
import { overridesOf, SCENARIO_OPTIONS, scenarioName, scenarioOf } from './scenarioOptions.js';
import { needUrls, targetOptions, URL_RULE } from './target.js';

export const RUN_USAGE = 'Usage: chainrpc load <scenario> --url <base-url> [--url <base-url> ...] [options]';

/** What a run does, before the `load` page lists the subcommands. */
export const RUN_ABOUT = `Measures how fast and how robust a node is through its JSON-RPC interface, and gates CI on it.
<scenario> is a built-in (chainrpc load list: reads, batch, send-raw-tx, mixed, soak) or a scenario file
(schemas/load/scenario.schema.json; docs/load.md). The open model sends at scheduled times whatever
the node does, and measures latency from each request's scheduled time (no coordinated omission);
the closed model runs N connections, each sending when its last request was answered. Every call is
judged as JSON-RPC: an error object, in a response or in one element of a batch, is a failure.
Reports (report.json, report.html, summary.md, junit.xml) go to a folder whose path is printed.

Several --url run the same scenario against each node, interleaved in time (A, B, A, B, ...), so the
machine's noise hits them alike, side by side in one report.

${URL_RULE}`;

/** A run's options and exit codes, after the `load` page lists the subcommands. */
export const RUN_OPTIONS = `Options:
${targetOptions('a node (repeatable)')}
${SCENARIO_OPTIONS}
  --baseline <report.json> a previous load report: a regression beyond the noise fails the run (99)
  --regression <pct>       the change allowed before noise is added, in percent (default 10)
${ENGINE_OPTIONS}
  --rates <r1,r2,...>      refused: the options of chainrpc load sweep (see its --help)
  --start-rate <n>         refused: chainrpc load sweep's
  --max-rate <n>           refused: chainrpc load sweep's
  --step <d>               refused: chainrpc load sweep's
  -h, --help

Exit codes: 0 every threshold kept (and no regression); 99 a threshold broken, or a regression
beyond the noise; 1 a run's figures cannot be trusted (the generator fell behind its schedule), a
node stopped answering mid-run, or setup could not fund its senders (1 comes before 99: thresholds
then say little); 2 usage or configuration error (an invalid scenario names the JSON pointer and the
rule); 3 no target answered at the start (nothing answered: is the node running?); 4 internal
error (a bug in chainrpc); 130 interrupted (Ctrl-C): the report of what ran is written first.`;

/** `chainrpc load`'s options: the sweep's too, to refuse them by name. */
export const runLine = new CommandLine('load', MEASURE_OPTIONS, true);

/** Runs `chainrpc load <scenario>`; resolves to the verdict's exit code. */
export async function runCommand(argv: string[]): Promise<number> {
  const command = 'load';
  const { values, positionals } = runLine.parse(argv);
  const name = scenarioName(command, positionals);
  needUrls(command, values.url);
  const sweepOnly = (Object.keys(SWEEP) as (keyof typeof SWEEP)[]).filter((k) => values[k] !== undefined);
  if (sweepOnly.length > 0) throw new CliError(`load: --${sweepOnly[0] ?? ''} belongs to chainrpc load sweep`);
  const scenario = scenarioOf(command, name, overridesOf(values));
  const baseline = baselineFor(command, values.baseline, scenario.name);
  return measureAndReport({ command, argv, values, scenario, baseline, measure: async (common, urls) => ({ runs: await runLoad({ ...common, urls }), sweeps: [] }) });
}
