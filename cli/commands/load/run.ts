/**
 * `chainrpc load <scenario>`: the scenario against one node or several, interleaved in time, judged and
 * reported. Its help is the `load` page (index.ts puts the subcommands' list into it).
 */
import { CliError } from '../../CliError.js';
import { CommandLine } from '../../CommandLine.js';
import { runLoad } from '../../../load/runLoad.js';
import { CHAOS_HELP, ENGINE_OPTIONS, INCLUSION_HELP, measureAndReport, MEASURE_OPTIONS, SWEEP, type MeasureCommon, type MeasureValues } from './measure.js';
import { chaosSteps, devnetNetwork, devnetShape, execSteps, startRunDevnet } from './devnetChaos.js';
import { outsideNetwork } from '../../../load/chaos/ChaosNetwork.js';
import type { ChaosReport, ChaosStep, LoadRun } from '../../../load/model.js';
import type { ChaosNetwork } from '../../../load/chaos/ChaosNetwork.js';
import { FAULT_METRICS } from '../../../load/scenario/Threshold.js';
import type { ResolvedScenario } from '../../../load/scenario/loadScenario.js';
import type { LoadReport } from '../../../load/model.js';
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
${INCLUSION_HELP}
${CHAOS_HELP}
  --rates <r1,r2,...>      refused: the options of chainrpc load sweep (see its --help)
  --start-rate <n>         refused: chainrpc load sweep's
  --max-rate <n>           refused: chainrpc load sweep's
  --step <d>               refused: chainrpc load sweep's
  -h, --help

Exit codes: 0 every threshold kept (and no regression); 99 a threshold broken, or a regression
beyond the noise; 1 a run's figures cannot be trusted (the generator fell behind its schedule), a
node stopped answering mid-run (not in a run with faults, whose clients' outages are its measure), or
setup could not fund its senders (1 comes before 99: thresholds then say little); 2 usage or
configuration error (an invalid scenario names the JSON pointer and the rule); 3 no target
answered at the start (nothing answered: is the node running?); 4 internal error (a bug in
chainrpc); 130 interrupted (Ctrl-C): the report of what ran is written first.`;

/** `chainrpc load`'s options: the sweep's too, to refuse them by name. */
export const runLine = new CommandLine('load', MEASURE_OPTIONS, true);

/** Runs `chainrpc load <scenario>`; resolves to the verdict's exit code. */
export async function runCommand(argv: string[]): Promise<number> {
  const command = 'load';
  const { values, positionals } = runLine.parse(argv);
  const name = scenarioName(command, positionals);
  if (values.devnet === undefined) needUrls(command, values.url);
  const sweepOnly = (Object.keys(SWEEP) as (keyof typeof SWEEP)[]).filter((k) => values[k] !== undefined);
  if (sweepOnly.length > 0) throw new CliError(`load: --${sweepOnly[0] ?? ''} belongs to chainrpc load sweep`);
  const scenario = scenarioOf(command, name, overridesOf(values));
  const baseline = baselineFor(command, values.baseline, scenario, values.regression, values);
  if (values.devnet !== undefined) return withDevnet(command, argv, values, values.devnet, scenario, baseline);
  if (values['chaos-exec'].length > 0 && values.chaos.length === 0 && scenario.chaos.length === 0) return withOwnFaults(command, argv, values, scenario, baseline);
  if (values.chaos.length > 0 || scenario.chaos.length > 0) throw new CliError(`${command}: ${values.chaos.length > 0 ? '--chaos steps' : `scenario ${scenario.name}'s chaos steps`} act on a devnet chainrpc starts: give --devnet <mn>:<ln> (docs/chaos.md)`);
  return measureAndReport({ command, argv, values, scenario, baseline, measure: async (common, urls) => ({ runs: await runLoad({ ...common, urls }), sweeps: [] }) });
}

/**
 * A run against nodes chainrpc did not start, with the user's own faults (--chaos-exec): every --url loaded
 * together, each command run at its time, the same figures (the nodes named node1, node2, ... in --url order).
 */
async function withOwnFaults(command: string, argv: string[], values: MeasureValues, scenario: ResolvedScenario, baseline: LoadReport | undefined): Promise<number> {
  const steps = execSteps(command, values['chaos-exec'], scenario.durationMs);
  if (values['head-hz'] === 0) throw new CliError(`${command}: --chaos-exec measures the chain through the nodes' heads, which --head-hz 0 leaves unfollowed`);
  return measureAndReport({
    command,
    argv,
    values,
    scenario,
    baseline,
    measure: (common, urls) => measureWithFaults(common, urls, steps, outsideNetwork(urls)),
  });
}

/** The scenario against the nodes with the fault schedule beside it: the runs and the network's report. */
async function measureWithFaults(common: MeasureCommon, urls: readonly string[], steps: readonly ChaosStep[], network: ChaosNetwork): Promise<{ runs: LoadRun[]; sweeps: []; chaos?: ChaosReport }> {
  let chaos: ChaosReport | undefined;
  const runs = await runLoad({ ...common, urls, chaos: { steps, network, onChaos: (r) => (chaos = r) } });
  return { runs, sweeps: [], ...(chaos === undefined ? {} : { chaos }) };
}

/** The generator's send-lag bound of a run on a devnet started for it (docs/chaos.md, "The load"). */
const CHAOS_MAX_LAG = '25ms';

/** A run on a devnet started for it, with its fault schedule: the devnet stops at the end, whatever happened. */
async function withDevnet(command: string, argv: string[], values: MeasureValues, devnet: string, scenario: ResolvedScenario, baseline: LoadReport | undefined): Promise<number> {
  const given = (['url', 'pid', 'metrics-url'] as const).find((k) => values[k].length > 0);
  if (given !== undefined) throw new CliError(`${command}: --devnet loads the nodes it starts: give no --${given} (their URLs and pids are known)`);
  if (values.profile !== undefined) throw new CliError(`${command}: --devnet starts reference nodes: the reference profile is theirs (give no --profile)`);
  const shape = devnetShape(command, devnet);
  // Checked before any node starts: a step that names no node, or falls outside the run, is exit 2.
  const steps = chaosSteps(command, [...scenario.chaos, ...values.chaos], shape, scenario.durationMs, values['chaos-exec']);
  if (steps.length > 0 && values['head-hz'] === 0) throw new CliError(`${command}: --chaos measures the chain through the nodes' heads, which --head-hz 0 leaves unfollowed`);
  const faultThreshold = scenario.thresholds.find((t) => FAULT_METRICS.has(t.metric));
  if (steps.length === 0 && faultThreshold !== undefined) throw new CliError(`${command}: the threshold "${faultThreshold.text}" judges a run with faults: give --chaos <at>:<action>:<target> (docs/chaos.md)`);
  const log = (line: string): void => void process.stdout.write(`${line}\n`);
  const net = await startRunDevnet(command, shape, values['devnet-block-time'], log);
  try {
    const network = devnetNetwork(net);
    // A drill shares two cores between every node and an engine thread per node: its generator's lag bound is
    // CHAOS_MAX_LAG unless --max-lag says otherwise (latency still counts from the schedule, lag included).
    const withNodes: MeasureValues = { ...values, url: net.nodes.map((n) => n.url), pid: net.nodes.map((n) => String(n.pid)), 'max-lag': values['max-lag'] ?? CHAOS_MAX_LAG };
    return await measureAndReport({
      command,
      argv,
      values: withNodes,
      scenario,
      baseline,
      measure: (common, urls) => measureWithFaults(common, urls, steps, network),
    });
  } finally {
    await net.stop();
    log(`${command}: devnet stopped`);
  }
}
