/**
 * The scenario a load command runs or writes (run, sweep, k6): its name on the command line, the overrides
 * given as options and their help lines, and the scenario read with them (a bad one is a usage error).
 */
import { CliError } from '../../CliError.js';
import type { OptionTable } from '../../CommandLine.js';
import { positiveNumberProblem } from '../../commonOptions.js';
import { CorpusError } from '../../../load/corpus/CorpusError.js';
import { readCorpus } from '../../../load/corpus/readCorpus.js';
import { builtInScenarios, loadScenario, maxRate, type ScenarioOverrides } from '../../../load/scenario/loadScenario.js';
import { parseDuration } from '../../../load/scenario/parseDuration.js';
import { ScenarioError } from '../../../load/scenario/ScenarioError.js';

/** The scenario overrides' lines (run, sweep, k6). */
export const SCENARIO_OPTIONS = `  --rate <n>               open model at n requests/s, at most ${maxRate().toLocaleString('en-US')} (replaces the
                           scenario's rate or stages)
  --duration <d>           the measured window, e.g. 30s, 2m (warm-up excluded)
  --warmup <d>             sent first and left out of every figure (default: the scenario's, or 2s)
  --connections <n>        closed model: its connections; open model: the connection pool
  --max-in-flight <n>      open model: requests waiting at once; one due beyond it is dropped
  --batch-size <n>         the size of the scenario's batches, and transactions per request
  --corpus <file>          pre-signed transactions for chain_sendRawTransaction (chainrpc load corpus)
  --threshold <t>          an SLO threshold added to the scenario's (repeatable): "p99 < 250ms",
                           "errors < 1%", "achieved >= 99%", "chain_getAccount:p99 < 50ms"
  --seed <n>               seeds the draws, so a run can be repeated (default: the scenario's, 1)
  --private-key <hex>      a funded key to fund senders and accounts, where the network has no faucet`;

/** An open-model rate, held to the scenario schema's bound (maxRate). */
export const rate = (text: string): string | undefined => positiveNumberProblem(text, 'requests/s', maxRate());
export const duration = (text: string): string | undefined => (/^\d+(\.\d{1,3})?(ms|s|m)$/.test(text) ? undefined : `must be a duration such as 500ms, 30s or 2m; got "${text}"`);
/**
 * A duration that must be longer than 0 (a sweep's --step: a window of nothing measures nothing, and the engine
 * refuses it). "0" is said to be too short, not to lack its unit; "0.4ms" rounds to 0 ms (parseDuration).
 */
export const positiveDuration = (text: string): string | undefined => {
  if (/^\d+(\.\d+)?$/.test(text) && Number(text) === 0) return `must be longer than 0, a duration such as 500ms, 30s or 2m; got "${text}"`;
  return duration(text) ?? (parseDuration(text) > 0 ? undefined : `must be longer than 0 (1ms at least); got "${text}"`);
};

/** The overrides of the scenario's own settings (--seed aside: the pages list it later). */
export const SCENARIO_OVERRIDES = {
  rate: { kind: 'text', value: '<n>', check: rate },
  duration: { kind: 'text', value: '<d>', check: duration },
  warmup: { kind: 'text', value: '<d>', check: duration },
  connections: { kind: 'integer', value: '<n>', min: 1, max: 10_000 },
  'max-in-flight': { kind: 'integer', value: '<n>', min: 1, max: 100_000 },
  'batch-size': { kind: 'integer', value: '<n>', min: 1, max: 10_000 },
  corpus: { kind: 'text', value: '<file>' },
  threshold: { kind: 'list', value: '<t>' },
} as const satisfies OptionTable;

export const SEED = { kind: 'integer', value: '<n>', min: 0, max: 4_294_967_295 } as const;

/** The one scenario named on the command line (a built-in or a file); a usage error for none or several. */
export function scenarioName(command: string, positionals: readonly string[]): string {
  const name = positionals[0];
  if (positionals.length > 1) throw new CliError(`${command}: one scenario at a time; got ${positionals.join(' ')}`);
  if (name === undefined) throw new CliError(`${command}: name a scenario (${builtInScenarios().join(', ')}) or a scenario file`);
  return name;
}

/** The scenario overrides given on the command line. */
export function overridesOf(values: { rate?: string | undefined; duration?: string | undefined; warmup?: string | undefined; connections?: number | undefined; 'max-in-flight'?: number | undefined; 'batch-size'?: number | undefined; corpus?: string | undefined; seed?: number | undefined; threshold: string[] }): ScenarioOverrides {
  return {
    ...(values.rate === undefined ? {} : { rate: Number(values.rate) }),
    ...(values.duration === undefined ? {} : { duration: values.duration }),
    ...(values.warmup === undefined ? {} : { warmup: values.warmup }),
    ...(values.connections === undefined ? {} : { connections: values.connections }),
    ...(values['max-in-flight'] === undefined ? {} : { maxInFlight: values['max-in-flight'] }),
    ...(values['batch-size'] === undefined ? {} : { batchSize: values['batch-size'] }),
    ...(values.corpus === undefined ? {} : { corpus: values.corpus }),
    ...(values.seed === undefined ? {} : { seed: values.seed }),
    thresholds: values.threshold,
  };
}

/**
 * A scenario by name or file, with the overrides; a bad one is a usage error naming the pointer and rule. A
 * corpus file it names (--corpus, or its transactions.corpus) is read now, before any node is touched: a bad
 * one is a usage error too, saying what is wrong with that file.
 */
export function scenarioOf(command: string, name: string, overrides: ScenarioOverrides): ReturnType<typeof loadScenario> {
  let scenario;
  try {
    scenario = loadScenario(name, overrides);
  } catch (err) {
    if (err instanceof ScenarioError) throw CliError.within(command, err);
    throw err;
  }
  const corpus = scenario.transactions?.corpus;
  if (corpus !== undefined) {
    try {
      readCorpus(corpus);
    } catch (err) {
      if (err instanceof CorpusError) throw CliError.within(command, err);
      throw err;
    }
  }
  return scenario;
}
