import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from '../Command.js';
import { CliError, EXIT } from '../CliError.js';
import { CommandLine } from '../CommandLine.js';
import type { OptionTable } from '../CommandLine.js';
import { METHOD_PREFIX, RPC_PATH, httpUrlProblem, positiveNumberProblem } from '../commonOptions.js';
import { baseUrls, notJsonRpc, pathHint, unreachable } from '../nodeUrls.js';
import { isUnreachable } from '../../core/client/baseUrl.js';
import { TransportError } from '../../core/client/TransportError.js';
import { packageVersion } from '../packageVersion.js';
import { hexToFixedBytes } from '../../core/codec/index.js';
import { CorpusError, FundingError } from '../../load/corpus/CorpusError.js';
import { makeCorpus } from '../../load/corpus/makeCorpus.js';
import { readCorpus } from '../../load/corpus/readCorpus.js';
import type { LoadProgress, LoadRun, SweepResult } from '../../load/model.js';
import { K6_FOLDER, K6Unsupported, k6Scenarios, k6Thresholds, writeK6Script } from '../../load/k6/writeK6Script.js';
import { claimFolder, removeFolder } from '../../core/files/ownedFolder.js';
import { operatorManifest, OperatorManifestError } from '../../load/k6/operatorManifest.js';
import { TargetUnreachableError, prepareTarget, runLoad } from '../../load/runLoad.js';
import { builtInScenarios, loadScenario, maxRate, type ScenarioOverrides } from '../../load/scenario/loadScenario.js';
import { ScenarioError } from '../../load/scenario/ScenarioError.js';
import { parseDuration } from '../../load/scenario/parseDuration.js';
import { runSweep } from '../../load/sweep/runSweep.js';
import { loadProgress } from '../../reports/load/loadProgress.js';
import { LOAD_REPORT_KIND } from '../../reports/load/writeLoadReports.js';
import { checkReportRoot, DEFAULT_REPORT_DIR } from '../../reports/shared/reportFolder.js';
import { loadProfile, ProfileError } from '../../profile/loadProfile.js';
import type { Profile } from '../../profile/Profile.js';
import { relativeOrAbsolute, shellWord } from './commandText.js';
import { MERGE_HELP, mergeCommand, mergeLine } from './loadMerge.js';
import { baselineFor, publishLoadReport } from './publishLoadReport.js';

/** Where `chainrpc load k6` writes a scenario's k6 test unless told (git-ignored, like the reports). */
export const DEFAULT_K6_DIR = '.chainrpc/k6';

/** The target options' lines, as every load page shows them (`url` says how many nodes the page takes). */
const targetOptions = (url: string): string => `  --url <base-url>         ${url}
                           (the endpoint is {base-url}/rpc, or the profile's path)
  --profile <file>         profile JSON for a network whose choices differ from the reference profile
  --rpc-path <path>        the endpoint's path under each base URL (default /rpc)
  --method-prefix <p>      the prefix the node's methods carry in place of chain_`;

/** The scenario overrides' lines (run, sweep, k6). */
const SCENARIO_OPTIONS = `  --rate <n>               open model at n requests/s, at most ${maxRate().toLocaleString('en-US')} (replaces the
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

/** The generator's and the report's lines (run and sweep). */
const ENGINE_OPTIONS = `  --threads <n>            generator threads (default 1; the node may share this machine's cores)
  --max-lag <d>            the generator's send lag p99 above which a run is invalid (default 5ms)
  --report-dir <dir>       where reports go: a new <dir>/load-<time> (default dir ${DEFAULT_REPORT_DIR});
                           <dir>/latest and <dir>/latest-load point at it; a latest or latest-load
                           that is not chainrpc's link is refused (exit 2), nothing else is touched`;

const URL_RULE = `A --url that already ends in the endpoint path (http://127.0.0.1:8545/rpc) is taken as the
endpoint's own URL: its base URL is what comes before the path, and a line on stderr says so.`;

const HELP = `Usage: chainrpc load <scenario> --url <base-url> [--url <base-url> ...] [options]
       chainrpc load <subcommand> ...   (sweep, corpus, list, k6, merge: below)

Measures how fast and how robust a node is through its JSON-RPC interface, and gates CI on it.
<scenario> is a built-in (chainrpc load list: reads, batch, send-raw-tx, mixed) or a scenario file
(schemas/load/scenario.schema.json; docs/load.md). The open model sends at scheduled times whatever
the node does, and measures latency from each request's scheduled time (no coordinated omission);
the closed model runs N connections, each sending when its last request was answered. Every call is
judged as JSON-RPC: an error object, in a response or in one element of a batch, is a failure.
Reports (report.json, report.html, summary.md, junit.xml) go to a folder whose path is printed.

Several --url run the same scenario against each node, interleaved in time (A, B, A, B, ...), so the
machine's noise hits them alike, side by side in one report.

${URL_RULE}

Subcommands (each with its own --help, e.g. chainrpc load k6 --help):
  sweep <scenario>         the scenario at rising rates, and the knee: the highest rate whose SLO holds
  corpus                   pre-signs transfers for chain_sendRawTransaction into a file (k6 reads it)
  list                     the built-in scenarios
  k6 <scenario>            writes the scenario as a k6 test (and a k6-operator TestRun)
  merge <summary.json>...  adds up what the instances of such a k6 test wrote into one report

Options:
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

const SWEEP_HELP = `Usage: chainrpc load sweep <scenario> --url <base-url> [--rates <r1,r2,...>] [options]

Runs an open-model scenario at rising rates (--rates, or searched: doubled from --start-rate until
the SLO breaks, then bisected) and reports the knee: the highest rate at which the SLO holds
(achieved >= 99% of target, nothing dropped, every threshold kept). One --url: a sweep finds one
node's knee. Reports go to a folder whose path is printed, as for chainrpc load.

${URL_RULE}

Options:
  --rates <r1,r2,...>      the rates to run, in order (each above 0, at most ${maxRate().toLocaleString('en-US')} requests/s)
  --start-rate <n>         the first rate of the search (default 50)
  --max-rate <n>           the search never goes above it (default 100000)
  --step <d>               each step's measured window (default 10s)
${targetOptions('the node (one)')}
${SCENARIO_OPTIONS}
${ENGINE_OPTIONS}
  --baseline <report.json> refused: a sweep reports its knee; --baseline compares runs of chainrpc load
  --regression <pct>       refused, with --baseline
  -h, --help

Exit codes: 0 a knee found; 99 the SLO held at no rate tried; 1 the figures cannot be trusted (the
generator fell behind at a rate on every try, the node stopped answering); 2 usage or configuration
error; 3 the node did not answer at the start; 4 internal error (a bug in chainrpc); 130
interrupted (Ctrl-C): the report of what ran is written first.`;

const CORPUS_HELP = `Usage: chainrpc load corpus --url <base-url> --out <file> [--senders <n>] [--per-sender <n>] [options]

Pre-signs transfers for --senders x --per-sender (one lane per sender, in nonce order), funded
through the faucet or from --private-key, into a file that chainrpc load --corpus and k6 read
(docs/load-transactions.md).

${URL_RULE}

Options:
${targetOptions('the node whose chain the transfers are signed for (one)')}
  --out <file>             where the corpus goes (JSON, written whole or not at all): a new file or
                           a corpus chainrpc wrote; any other file is refused (exit 2)
  --senders <n>            lanes, one per sender (default 32)
  --per-sender <n>         transactions each sender signs, in nonce order (default 64)
  --fund <how>             faucet (default), key (--private-key pays), or none (already funded)
  --private-key <hex>      the funded key for --fund key
  --seed <text>            derives the sender keys (default chainrpc-load)
  --threads <n>            signing threads (default: the machine's cores)
  -h, --help

Exit codes: 0 the corpus written; 1 the senders could not be funded; 2 usage error; 3 the node did
not answer; 4 internal error (a bug in chainrpc); 130 interrupted (Ctrl-C): nothing is written.`;

const LIST_HELP = `Usage: chainrpc load list

Lists the built-in scenarios (load/scenarios/<name>.json), each with the first sentence of its
description. chainrpc load <name> runs one; a scenario file given by path works the same way.

Options:
  -h, --help

Exit codes: 0 listed; 2 usage error; 4 internal error (a bug in chainrpc).`;

const K6_HELP = `Usage: chainrpc load k6 <scenario> --url <base-url> [--out <dir>] [--segments <n>]
                        [--operator <name>] [options]

Writes the scenario as a k6 test (script.js, its runtime and data, the corpus) for k6 0.48 or later,
drawing params from --url's chain as the Node engine does, and prints the commands that run it. Each
k6 instance writes a chainrpc-summary*.json that chainrpc load merge adds up exactly into one report
like chainrpc load's (docs/load.md, "Running distributed"). What k6 cannot express (Poisson arrivals,
...) is refused before the node is touched.

${URL_RULE}

Options:
${targetOptions('the node whose chain the data is drawn from (one)')}
${SCENARIO_OPTIONS}
  --out <dir>              where the test goes (default ${DEFAULT_K6_DIR}/<scenario>): a new or empty
                           folder, or one chainrpc load k6 made (its files are replaced, k6's
                           summaries kept); a folder holding anything else is refused (exit 2)
  --segments <n>           print the k6 commands of an n-way split (execution segments)
  --operator <name>        also write testrun.yaml: a ConfigMap and a k6-operator TestRun of n runners
  --summary-claim <pvc>    the TestRun's runners write their summaries to this PersistentVolumeClaim
  -h, --help

Exit codes: 0 the test written; 1 setup could not fund its senders; 2 usage error, or a scenario k6
cannot run; 3 the node did not answer; 4 internal error (a bug in chainrpc); 130 interrupted
(Ctrl-C): nothing is written.`;

/** An open-model rate, held to the scenario schema's bound (maxRate). */
const rate = (text: string): string | undefined => positiveNumberProblem(text, 'requests/s', maxRate());
const percent = (text: string): string | undefined => positiveNumberProblem(text, 'percent');
const duration = (text: string): string | undefined => (/^\d+(\.\d{1,3})?(ms|s|m)$/.test(text) ? undefined : `must be a duration such as 500ms, 30s or 2m; got "${text}"`);
const privateKey = { kind: 'text', value: '<hex>', check: (text: string) => (/^[0-9a-fA-F]{64}$/.test(text) ? undefined : 'must be 64 hex characters') } as const;

const TARGET = {
  url: { kind: 'list', value: '<base-url>', check: httpUrlProblem },
  profile: { kind: 'text', value: '<file>' },
  'rpc-path': RPC_PATH,
  'method-prefix': METHOD_PREFIX,
} as const satisfies OptionTable;

const RUN = {
  ...TARGET,
  rate: { kind: 'text', value: '<n>', check: rate },
  duration: { kind: 'text', value: '<d>', check: duration },
  warmup: { kind: 'text', value: '<d>', check: duration },
  connections: { kind: 'integer', value: '<n>', min: 1, max: 10_000 },
  'max-in-flight': { kind: 'integer', value: '<n>', min: 1, max: 100_000 },
  'batch-size': { kind: 'integer', value: '<n>', min: 1, max: 10_000 },
  corpus: { kind: 'text', value: '<file>' },
  threshold: { kind: 'list', value: '<t>' },
  baseline: { kind: 'text', value: '<report.json>' },
  regression: { kind: 'text', value: '<pct>', check: percent },
  threads: { kind: 'integer', value: '<n>', min: 1, max: 64, default: 1 },
  'max-lag': { kind: 'text', value: '<d>', check: duration },
  seed: { kind: 'integer', value: '<n>', min: 0, max: 4_294_967_295 },
  'report-dir': { kind: 'text', value: '<dir>' },
  'private-key': privateKey,
} as const satisfies OptionTable;

const SWEEP = {
  rates: {
    kind: 'text',
    value: '<r1,r2,...>',
    check: (t: string) => {
      const problem = t.split(',').map(rate).find((p) => p !== undefined);
      return problem === undefined ? undefined : `are rates separated by commas; each ${problem}`;
    },
  },
  'start-rate': { kind: 'text', value: '<n>', check: rate },
  'max-rate': { kind: 'text', value: '<n>', check: rate },
  step: { kind: 'text', value: '<d>', check: duration },
} as const satisfies OptionTable;

// One table for run and sweep (their values share a type); a run refuses the sweep's options.
const runLine = new CommandLine('load', { ...RUN, ...SWEEP }, true);
const sweepLine = new CommandLine('load sweep', { ...RUN, ...SWEEP }, true);
const corpusLine = new CommandLine('load corpus', {
  ...TARGET,
  out: { kind: 'text', value: '<file>', required: true },
  senders: { kind: 'integer', value: '<n>', min: 1, max: 100_000, default: 32 },
  'per-sender': { kind: 'integer', value: '<n>', min: 1, max: 1_000_000, default: 64 },
  fund: { kind: 'choice', value: '<how>', choices: ['faucet', 'key', 'none'], default: 'faucet' },
  'private-key': privateKey,
  seed: { kind: 'text', value: '<text>', default: 'chainrpc-load' },
  threads: { kind: 'integer', value: '<n>', min: 1, max: 64 },
} as const);
const listLine = new CommandLine('load list', {});
const k6Line = new CommandLine('load k6', {
  ...TARGET,
  rate: RUN.rate,
  duration: RUN.duration,
  warmup: RUN.warmup,
  connections: RUN.connections,
  'max-in-flight': RUN['max-in-flight'],
  'batch-size': RUN['batch-size'],
  corpus: RUN.corpus,
  threshold: RUN.threshold,
  seed: RUN.seed,
  'private-key': privateKey,
  out: { kind: 'text', value: '<dir>' },
  segments: { kind: 'integer', value: '<n>', min: 1, max: 1000 },
  operator: { kind: 'text', value: '<name>', check: (t: string) => (/^[a-z0-9]([-a-z0-9]{0,50}[a-z0-9])?$/.test(t) ? undefined : 'must be a Kubernetes name: lower-case letters, digits and -, at most 52') },
  'summary-claim': { kind: 'text', value: '<pvc>' },
} as const, true);




async function targetProfile(command: string, values: { profile?: string | undefined; 'rpc-path'?: string | undefined; 'method-prefix'?: string | undefined; 'private-key'?: string | undefined }): Promise<Profile> {
  let profile: Profile;
  try {
    profile = await loadProfile(values.profile);
  } catch (err) {
    if (err instanceof ProfileError) throw CliError.within(command, err);
    throw err;
  }
  if (values['rpc-path'] !== undefined) profile.rpcPath = values['rpc-path'];
  if (values['method-prefix'] !== undefined) profile.methodPrefix = values['method-prefix'];
  if (values['private-key'] !== undefined) profile.privateKey = values['private-key'];
  return profile;
}

/** That at least one --url is given (they are read by the one rule once the profile names the endpoint path: baseUrls). */
function needUrls(command: string, given: readonly string[]): void {
  if (given.length === 0) throw new CliError(`${command}: give at least one --url (the base URL of a node; the endpoint is {url}/rpc)`);
}

/** What a command says when its node cannot be talked to at the start (exit 3), or undefined for another error. */
function targetFailure(command: string, url: string, err: unknown): CliError | undefined {
  if (err instanceof TargetUnreachableError) return new CliError(`${command}: ${err.message}${err.notJsonRpc ? `. ${pathHint(err.url)}` : ''}`, err.kind, { cause: err });
  if (isUnreachable(err)) return unreachable(command, url, err.message);
  if (err instanceof TransportError && (err.code === 'HTTP_STATUS' || err.code === 'NOT_JSON') && err.response !== undefined) return notJsonRpc(command, url, err.request.url, `HTTP ${err.response.status}`);
  return undefined;
}

/**
 * The first Ctrl-C (SIGINT or SIGTERM) aborts the signal, saying `what` happens next; a second exits at once.
 * A run stops sending and writes the report of what ran; a command that only writes files stops at its next
 * step (a funding wait ends at once) and writes none.
 */
function interruptible(what = 'load: interrupted: stopping, then writing the report of what ran'): { signal: AbortSignal; interrupted: () => boolean; dispose: () => void } {
  const controller = new AbortController();
  let count = 0;
  const onSignal = (): void => {
    count++;
    if (count > 1) process.exit(EXIT.interrupted);
    process.stderr.write(`\n${what} (Ctrl-C again to quit at once)\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    interrupted: () => count > 0,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** The scenario overrides given on the command line. */
function overridesOf(values: { rate?: string | undefined; duration?: string | undefined; warmup?: string | undefined; connections?: number | undefined; 'max-in-flight'?: number | undefined; 'batch-size'?: number | undefined; corpus?: string | undefined; seed?: number | undefined; threshold: string[] }): ScenarioOverrides {
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
function scenarioOf(command: string, name: string, overrides: ScenarioOverrides): ReturnType<typeof loadScenario> {
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

/** The k6 commands of an N-way split: one k6 process per execution segment. */
export function segmentCommands(n: number, sendsTransactions = false, script = 'script.js'): string[] {
  const at = (i: number): string => (i === 0 ? '0' : i === n ? '1' : `${i}/${n}`);
  const sequence = Array.from({ length: n + 1 }, (_, i) => at(i)).join(',');
  // --address 127.0.0.1:0: each instance's REST API on a port of its own, so several can share a machine.
  // With transactions, each instance reads only its own senders' lanes (-e CHAINRPC_CORPUS).
  const corpus = (i: number): string => (sendsTransactions ? ` -e CHAINRPC_CORPUS=corpus-${i}-of-${n}.json` : '');
  return Array.from({ length: n }, (_, i) => `K6_NO_USAGE_REPORT=true k6 run --address 127.0.0.1:0 --execution-segment ${at(i)}:${at(i + 1)} --execution-segment-sequence ${sequence}${corpus(i)} ${script}`);
}

async function k6(argv: string[]): Promise<number> {
  const command = 'load k6';
  const { values, positionals } = k6Line.parse(argv);
  const name = positionals[0];
  if (positionals.length > 1) throw new CliError(`${command}: one scenario at a time; got ${positionals.join(' ')}`);
  if (name === undefined) throw new CliError(`${command}: name a scenario (${builtInScenarios().join(', ')}) or a scenario file`);
  needUrls(command, values.url);
  if (values.url.length > 1) throw new CliError(`${command}: give one --url (the node whose chain the data is drawn from; run the script once per node)`);
  const scenario = scenarioOf(command, name, overridesOf(values));
  const profile = await targetProfile(command, values);
  const [url] = baseUrls(command, values.url, profile.rpcPath) as [string];
  const out = values.out ?? join(DEFAULT_K6_DIR, scenario.name);
  // What k6 cannot express is refused before the node is touched.
  try {
    k6Scenarios(scenario, scenario.maxInFlight);
    k6Thresholds(scenario, profile);
  } catch (err) {
    if (err instanceof K6Unsupported) throw new CliError(`${command}: k6 cannot run this scenario: ${err.message}`);
    throw err;
  }
  let written;
  // A folder of the user's is refused before the node is touched (exit 2); a test chainrpc made is made again.
  const claim = claimFolder(out, K6_FOLDER);
  const stop = interruptible(`${command}: interrupted: stopping; nothing will be written`);
  try {
    const prepared = await prepareTarget(url, { scenario, profile, profilePath: values.profile ?? null, signal: stop.signal, log: (line) => process.stdout.write(`${line}\n`) }, join(out, '.work'));
    stop.signal.throwIfAborted();
    written = writeK6Script({ scenario, url, profile, prepared, out, version: packageVersion(), ...(values.segments === undefined ? {} : { segments: values.segments }) });
    // The corpus was copied beside the script; the setup's own copy is not part of the test.
    rmSync(join(out, '.work'), { recursive: true, force: true });
  } catch (err) {
    if (stop.interrupted()) {
      // Nothing half made is left: the setup's folder goes, and the test's folder too when this run made it.
      if (claim === 'made') removeFolder(out, K6_FOLDER);
      else rmSync(join(out, '.work'), { recursive: true, force: true });
      throw new CliError(`${command}: interrupted: nothing was written`, 'interrupted');
    }
    const failure = targetFailure(command, url, err);
    if (failure !== undefined) throw failure;
    if (err instanceof FundingError || err instanceof CorpusError) throw CliError.within(command, err);
    if (err instanceof K6Unsupported) throw new CliError(`${command}: k6 cannot run this scenario: ${err.message}`);
    throw err;
  } finally {
    stop.dispose();
  }
  const dir = relativeOrAbsolute(written.dir);
  const lines = [`k6 test of ${scenario.name} written to ${dir}: ${written.files.join(', ')}`];
  if (written.notJudged.length > 0) lines.push(`not judged by k6 (only the Node engine measures them): ${written.notJudged.join('; ')}`);
  const segments = values.segments ?? 1;
  if (segments === 1) lines.push('run it:', `  cd ${shellWord(dir)} && K6_NO_USAGE_REPORT=true k6 run script.js`);
  else lines.push(`run it as ${segments} k6 processes (any machines, each with this folder), at the same time:`, ...segmentCommands(segments, scenario.transactions !== undefined).map((c) => `  cd ${shellWord(dir)} && ${c}`));
  if (values.operator !== undefined) {
    // The runners of a TestRun get no instance of their own to pick a corpus share by: they read the whole corpus.
    const files = Object.fromEntries(written.files.filter((f) => !/^corpus-\d+-of-\d+\.json$/.test(f)).map((f) => [f, readFileSync(join(written.dir, f), 'utf8')]));
    let manifest: string;
    try {
      manifest = operatorManifest({ name: values.operator, parallelism: segments, files, script: 'script.js', ...(values['summary-claim'] === undefined ? {} : { summaryClaim: values['summary-claim'] }) });
    } catch (err) {
      // Too large for a ConfigMap, a name Kubernetes refuses: the test itself is written, the manifest is not.
      if (err instanceof OperatorManifestError) throw CliError.within(`${command}: the test is in ${dir}, but no testrun.yaml`, err);
      throw err;
    }
    writeFileSync(join(written.dir, 'testrun.yaml'), manifest);
    lines.push(`k6-operator: ${join(dir, 'testrun.yaml')} (a ConfigMap and a TestRun of parallelism ${segments}): kubectl apply -f it`);
  }
  lines.push(`then merge what the instances wrote (chainrpc-summary*.json) into one report:`, `  chainrpc load merge ${shellWord(dir)}/chainrpc-summary*.json`);
  if (scenario.transactions !== undefined) lines.push('the corpus is spent by one run (its nonces are used): make the test again before the next run');
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

async function runOrSweep(argv: string[], sweep: boolean): Promise<number> {
  const command = sweep ? 'load sweep' : 'load';
  const { values, positionals } = (sweep ? sweepLine : runLine).parse(argv);
  const name = positionals[0];
  if (positionals.length > 1) throw new CliError(`${command}: one scenario at a time; got ${positionals.join(' ')}`);
  if (name === undefined) throw new CliError(`${command}: name a scenario (${builtInScenarios().join(', ')}) or a scenario file`);
  needUrls(command, values.url);
  const sweepOnly = (Object.keys(SWEEP) as (keyof typeof SWEEP)[]).filter((k) => values[k] !== undefined);
  if (!sweep && sweepOnly.length > 0) throw new CliError(`load: --${sweepOnly[0] ?? ''} belongs to chainrpc load sweep`);
  if (sweep && values.url.length > 1) throw new CliError('load sweep: give one --url (a sweep finds one node\'s knee)');
  if (sweep && values.baseline !== undefined) throw new CliError('load sweep: --baseline compares runs of chainrpc load; a sweep reports its knee (compare knees by eye, or gate a run at the rate you need)');
  const scenario = scenarioOf(command, name, overridesOf(values));
  const baseline = baselineFor(command, values.baseline, scenario.name);
  if (sweep && scenario.model.kind === 'closed') throw new CliError('load sweep: the scenario is closed-model; a sweep runs open-model rates (give a rate-based scenario)');
  // Before the run: a report folder whose `latest` is a user's file or folder is refused (exit 2), not replaced.
  checkReportRoot(values['report-dir'] ?? DEFAULT_REPORT_DIR, LOAD_REPORT_KIND);
  const profile = await targetProfile(command, values);
  const urls = baseUrls(command, values.url, profile.rpcPath);
  const progress = loadProgress({ stream: process.env.CI === undefined ? process.stdout : { write: (text: string) => process.stdout.write(text) } });
  const stop = interruptible();
  const startedAt = new Date();
  const log = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  let runs: LoadRun[] = [];
  const sweeps: SweepResult[] = [];
  try {
    const maxLag = values['max-lag'] === undefined ? {} : { maxLagP99Us: parseDuration(values['max-lag']) * 1000 };
    const common = { scenario, profile, profilePath: values.profile ?? null, threads: values.threads, ...maxLag, signal: stop.signal, onProgress: (p: LoadProgress) => progress.update(p), log };
    if (sweep) {
      const [url] = urls as [string];
      const result = await runSweep({
        ...common,
        url,
        ...(values.rates === undefined ? {} : { rates: values.rates.split(',').map(Number) }),
        ...(values['start-rate'] === undefined ? {} : { startRate: Number(values['start-rate']) }),
        ...(values['max-rate'] === undefined ? {} : { maxRate: Number(values['max-rate']) }),
        ...(values.step === undefined ? {} : { step: values.step }),
      });
      sweeps.push(result);
    } else {
      runs = await runLoad({ ...common, urls });
    }
  } catch (err) {
    const failure = err instanceof TargetUnreachableError ? targetFailure(command, err.url, err) : undefined;
    if (failure !== undefined) throw failure;
    // Setup could not fund the senders or accounts (no faucet, no key, a refusal): nothing ran.
    if (err instanceof FundingError || err instanceof CorpusError) throw CliError.within(command, err);
    throw err;
  } finally {
    progress.done();
    stop.dispose();
  }
  return publishLoadReport({
    command,
    argv,
    createdAt: startedAt,
    scenario: { name: scenario.name, definition: scenario.definition },
    profile: profile.name,
    runs,
    sweeps,
    interrupted: stop.interrupted(),
    baseline: baseline === undefined ? undefined : { path: values.baseline ?? '', report: baseline },
    regression: values.regression,
    reportDir: values['report-dir'],
  });
}

async function corpus(argv: string[]): Promise<number> {
  const { values } = corpusLine.parse(argv);
  needUrls('load corpus', values.url);
  if (values.url.length > 1) throw new CliError('load corpus: give one --url (the corpus is signed for its chain)');
  if (values.fund === 'key' && values['private-key'] === undefined) throw new CliError('load corpus: --fund key needs --private-key <hex> (the key that pays)');
  const profile = await targetProfile('load corpus', values);
  const [url] = baseUrls('load corpus', values.url, profile.rpcPath) as [string];
  const stop = interruptible('load corpus: interrupted: stopping at the next step');
  try {
    const summary = await makeCorpus({
      signal: stop.signal,
      url,
      profile,
      out: values.out,
      senders: values.senders,
      perSender: values['per-sender'],
      seed: values.seed,
      funding: values.fund === 'key' ? { kind: 'key', privateKey: hexToFixedBytes(values['private-key'] ?? '', 32, '--private-key') } : { kind: values.fund === 'none' ? 'none' : 'faucet' },
      ...(values.threads === undefined ? {} : { threads: values.threads }),
      onProgress: (p) => {
        if (p.done === p.total || p.done % 100 === 0) process.stdout.write(`${p.phase}: ${p.done}/${p.total}\n`);
      },
    });
    process.stdout.write(`corpus: ${relativeOrAbsolute(values.out)}: ${summary.senders} senders x ${summary.perSender} transactions, chain ${summary.chainId}\n`);
    return 0;
  } catch (err) {
    if (stop.interrupted()) throw new CliError('load corpus: interrupted: no corpus was written', 'interrupted');
    const failure = targetFailure('load corpus', url, err);
    if (failure !== undefined) throw failure;
    if (err instanceof FundingError || err instanceof CorpusError) throw CliError.within('load corpus', err);
    throw err;
  } finally {
    stop.dispose();
  }
}

export const load: Command = {
  name: 'load',
  summary: 'Load-test nodes: open-model scenarios, batches, signed transactions, the knee, a CI gate',
  help: HELP,
  commandLines: [runLine],
  subcommands: [
    { name: 'sweep', help: SWEEP_HELP, commandLine: sweepLine },
    { name: 'corpus', help: CORPUS_HELP, commandLine: corpusLine },
    { name: 'list', help: LIST_HELP, commandLine: listLine },
    { name: 'k6', help: K6_HELP, commandLine: k6Line },
    { name: 'merge', help: MERGE_HELP, commandLine: mergeLine },
  ],
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === 'list') {
      listLine.parse(rest);
      for (const name of builtInScenarios()) {
        const s = loadScenario(name);
        process.stdout.write(`${name.padEnd(14)}${(s.definition.description ?? '').split('. ')[0] ?? ''}\n`);
      }
      return 0;
    }
    if (sub === 'corpus') return corpus(rest);
    if (sub === 'k6') return k6(rest);
    if (sub === 'merge') return mergeCommand(rest);
    if (sub === 'sweep') return runOrSweep(rest, true);
    return runOrSweep(argv, false);
  },
};
