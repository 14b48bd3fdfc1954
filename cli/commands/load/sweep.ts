/**
 * `chainrpc load sweep <scenario>`: an open-model scenario at rising rates against one node, and the knee
 * (load/sweep/runSweep.ts), reported as a run is.
 */
import { CliError } from '../../CliError.js';
import { CommandLine } from '../../CommandLine.js';
import { maxRate } from '../../../load/scenario/loadScenario.js';
import { runSweep } from '../../../load/sweep/runSweep.js';
import { ENGINE_OPTIONS, INCLUSION_HELP, measureAndReport, MEASURE_OPTIONS } from './measure.js';
import { overridesOf, positiveDuration, SCENARIO_OPTIONS, scenarioName, scenarioOf } from './scenarioOptions.js';
import { needUrls, targetOptions, URL_RULE } from './target.js';

/** The scenario options' help without --rate and --duration, which a sweep refuses (each step sets them). */
function withoutRunOptions(lines: string): string {
  const blocks: string[][] = [];
  for (const line of lines.split('\n')) {
    if (line.startsWith('  --') || blocks.length === 0) blocks.push([line]);
    else blocks[blocks.length - 1]?.push(line);
  }
  return blocks.filter((b) => !/^ {2}--(rate|duration) /.test(b[0] ?? '')).map((b) => b.join('\n')).join('\n');
}

export const SWEEP_HELP = `Usage: chainrpc load sweep <scenario> --url <base-url> [--rates <r1,r2,...>] [options]

Runs an open-model scenario at rising rates (--rates, or searched: doubled from --start-rate until
the SLO breaks, then bisected) and reports the knee: the highest rate at which the SLO holds:
achieved >= 99% of target, nothing dropped, errors < 1% (failed calls: JSON-RPC errors, timeouts,
transport and HTTP failures alike; the scenario's own errors thresholds judge in its place), the
run valid and complete, every threshold kept. Each step says which broke. One --url: a sweep finds
one node's knee. Reports go to a folder whose path is printed, as for chainrpc load.

${URL_RULE}

Options:
  --rates <r1,r2,...>      the rates to run, in order (each above 0, at most ${maxRate().toLocaleString('en-US')} requests/s)
  --start-rate <n>         the first rate of the search (default 50; not with --rates)
  --max-rate <n>           the search never goes above it (default 100000; at least --start-rate;
                           not with --rates)
  --step <d>               each step's measured window, longer than 0 (default 10s)
${targetOptions('the node (one)')}
${withoutRunOptions(SCENARIO_OPTIONS)}
${ENGINE_OPTIONS}
${INCLUSION_HELP}
  --rate <n>               refused: each step's rate is the sweep's (--rates, or the search)
  --duration <d>           refused: each step's measured window is --step
  --baseline <report.json> refused: a sweep reports its knee; --baseline compares runs of chainrpc load
  --regression <pct>       refused, with --baseline
  --devnet <mn>:<ln>       refused: a run with faults is chainrpc load's (docs/chaos.md)
  --devnet-block-time <ms> refused, with --devnet
  --chaos <step>           refused, with --devnet
  --chaos-exec <step>      refused, with --devnet
  -h, --help

Exit codes: 0 a knee found; 99 the SLO held at no rate tried; 1 the figures cannot be trusted (the
generator fell behind at a rate on every try, the node stopped answering); 2 usage or configuration
error; 3 the node did not answer at the start; 4 internal error (a bug in chainrpc); 130
interrupted (Ctrl-C): the report of what ran is written first.`;

/**
 * `load sweep`'s options: a run's too, to refuse --baseline by name; --step must be longer than 0 (a step of 0 ms
 * was taken, and the engine refused it with an internal error once the first step's probe had reached the node).
 */
export const sweepLine = new CommandLine('load sweep', { ...MEASURE_OPTIONS, step: { ...MEASURE_OPTIONS.step, check: positiveDuration } }, true);

/**
 * What the sweep's own options may not say, before anything is read or sent (exit 2): options that would be
 * ignored (the scenario's --rate and --duration, which each step replaces; --start-rate and --max-rate beside
 * --rates, which are run as given) and a search that starts above its maximum.
 */
function sweepOptionProblem(values: { rate?: string | undefined; duration?: string | undefined; rates?: string | undefined; 'start-rate'?: string | undefined; 'max-rate'?: string | undefined }): string | undefined {
  if (values.rate !== undefined) return '--rate sets one rate; a sweep runs many: give --rates <r1,r2,...>, or --start-rate and --max-rate for a search';
  if (values.duration !== undefined) return '--duration is a run\'s measured window; a sweep\'s steps each last --step (default 10s)';
  const start = values['start-rate'];
  const max = values['max-rate'];
  if (values.rates !== undefined && (start !== undefined || max !== undefined)) return `--rates runs the rates given; ${start !== undefined ? '--start-rate' : '--max-rate'} belongs to a searched sweep (give one or the other)`;
  if (start !== undefined && max !== undefined && Number(start) > Number(max)) return `--start-rate ${start} is above --max-rate ${max}: the search starts at or below its maximum`;
  return undefined;
}

/** Runs `chainrpc load sweep <scenario>`; resolves to the verdict's exit code. */
export async function sweepCommand(argv: string[]): Promise<number> {
  const command = 'load sweep';
  const { values, positionals } = sweepLine.parse(argv);
  const name = scenarioName(command, positionals);
  needUrls(command, values.url);
  if (values.url.length > 1) throw new CliError('load sweep: give one --url (a sweep finds one node\'s knee)');
  if (values.devnet !== undefined || values.chaos.length > 0 || values['chaos-exec'].length > 0) throw new CliError('load sweep: --devnet, --chaos and --chaos-exec belong to chainrpc load (a run with faults), not to a sweep');
  if (values.baseline !== undefined) throw new CliError('load sweep: --baseline compares runs of chainrpc load; a sweep reports its knee (compare knees by eye, or gate a run at the rate you need)');
  const problem = sweepOptionProblem(values);
  if (problem !== undefined) throw new CliError(`${command}: ${problem}`);
  const scenario = scenarioOf(command, name, overridesOf(values));
  if (scenario.model.kind === 'closed') throw new CliError('load sweep: the scenario is closed-model; a sweep runs open-model rates (give a rate-based scenario)');
  return measureAndReport({
    command,
    argv,
    values,
    scenario,
    baseline: undefined,
    measure: async (common, urls) => {
      const [url] = urls as [string];
      const result = await runSweep({
        ...common,
        url,
        ...(values.rates === undefined ? {} : { rates: values.rates.split(',').map(Number) }),
        ...(values['start-rate'] === undefined ? {} : { startRate: Number(values['start-rate']) }),
        ...(values['max-rate'] === undefined ? {} : { maxRate: Number(values['max-rate']) }),
        ...(values.step === undefined ? {} : { step: values.step }),
      });
      return { runs: [], sweeps: [result] };
    },
  });
}
