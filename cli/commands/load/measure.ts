/**
 * What `chainrpc load` and `load sweep` share: one option table (their values share a type; each refuses the
 * other's options), the generator's and the report's help lines, and the measuring itself: the profile and
 * URLs, the progress line, Ctrl-C, the errors said as exit codes, and the report of what ran.
 */
import { CliError } from '../../CliError.js';
import type { OptionTable, OptionValues } from '../../CommandLine.js';
import { REGRESSION } from '../../commonOptions.js';
import { baseUrls } from '../../nodeUrls.js';
import { CorpusError, FundingError } from '../../../load/corpus/CorpusError.js';
import type { ChaosReport, LoadProgress, LoadReport, LoadRun, ReplayReport, SweepResult } from '../../../load/model.js';
import { TargetUnreachableError, type RunLoadOptions } from '../../../load/runLoad.js';
import type { loadScenario, ResolvedEntry } from '../../../load/scenario/loadScenario.js';
import { parseDuration } from '../../../load/scenario/parseDuration.js';
import { FAULT_METRICS, type Threshold } from '../../../load/scenario/Threshold.js';
import { loadProgress } from '../../../reports/load/loadProgress.js';
import { LOAD_REPORT_KIND } from '../../../reports/load/writeLoadReports.js';
import { checkReportRoot, DEFAULT_REPORT_DIR } from '../../../reports/shared/reportFolder.js';
import { interruptible } from './interrupt.js';
import { publishLoadReport } from './publishLoadReport.js';
import { duration, positiveDuration, rate, SCENARIO_OVERRIDES, SEED } from './scenarioOptions.js';
import { PRIVATE_KEY, TARGET, targetFailure, targetProfileAndSource } from './target.js';
import { WATCHED_READS } from '../../../load/health/ReadWatch.js';
import { ALONE_NOTE, HEALTH_HELP, HEALTH_OPTIONS, healthOf, metricNamesOf, metricsUrlsOf, pidNotes, pidsOf } from './healthOptions.js';

/** A run's faults (chainrpc load only). */
export const CHAOS_HELP = `Faults under load (docs/chaos.md):
  --devnet <mn>:<ln>       start a devnet of reference nodes for the run (as the demo does) and load all its
                           nodes together, the rate shared between them (no --url; stopped at the end)
  --devnet-block-time <ms> its block time (default 300); --max-lag defaults to 25ms in such a run
  --chaos <at>:<action>:<target>[:<for>]
                           a fault at <at> from the start of measurement (repeatable): kill, restart, stop,
                           pause, resume; on its peer links: partition, delay=<d>[/<loss>%], heal; the
                           target a node (mn2, ln1) or a role at that moment (leader, follower, any-mn,
                           any-ln); <for> brings a killed, stopped, paused, partitioned or delayed node
                           back after it (e.g. 10s:kill:leader, 5s:pause:ln1:3s, 3s:partition:ln1:3s,
                           2s:delay=200ms/10%:mn2:5s; docs/chaos.md). Thresholds: failover, recovery,
                           lost-tx, duplicate-tx, forks (e.g. "failover < 3s", "forks == 0")
  --chaos-exec <at>:<command>
                           your own fault, run by the shell at <at> (repeatable): against the --url nodes
                           of a network chainrpc did not start (docker kill ..., kubectl delete pod ...), or
                           beside --devnet; the nodes are loaded together and measured as with --chaos`;

/** Signed transactions' inclusion (run and sweep: a replay tracks none). */
export const INCLUSION_HELP = `  --inclusion-grace <d>    how long signed transactions still pending are followed after the run (default: 5
                           block times, or twice the longest time to inclusion seen, and on while they are
                           still being included, 60s at most); what is pending then is lost, in a run with faults`;

/** The generator's and the report's lines (run, sweep and replay). */
export const ENGINE_OPTIONS = `  --threads <n>            generator threads (default 1; the node may share this machine's cores)
  --max-lag <d>            the generator's send lag p99, or read lag p99, above which a run is invalid (default 5ms)
${HEALTH_HELP}
  --report-dir <dir>       where reports go: a new <dir>/load-<time> (default dir ${DEFAULT_REPORT_DIR});
                           <dir>/latest and <dir>/latest-load point at it; a latest or latest-load
                           that is not chainrpc's link is refused (exit 2), nothing else is touched`;

/** A run's options (a sweep's but its own four, and --baseline and --regression, which a sweep refuses). */
const RUN = {
  ...TARGET,
  ...SCENARIO_OVERRIDES,
  baseline: { kind: 'text', value: '<report.json>' },
  regression: REGRESSION,
  threads: { kind: 'integer', value: '<n>', min: 1, max: 64, default: 1 },
  'max-lag': { kind: 'text', value: '<d>', check: positiveDuration },
  'inclusion-grace': { kind: 'text', value: '<d>', check: duration },
  ...HEALTH_OPTIONS,
  seed: SEED,
  'report-dir': { kind: 'text', value: '<dir>' },
  'private-key': PRIVATE_KEY,
  devnet: { kind: 'text', value: '<mn>:<ln>' },
  'devnet-block-time': { kind: 'integer', value: '<ms>', min: 50, max: 60_000, default: 300 },
  chaos: { kind: 'list', value: '<at>:<action>:<target>[:<for>]' },
  'chaos-exec': { kind: 'list', value: '<at>:<command>' },
} as const satisfies OptionTable;

/** A sweep's own options (a run refuses them). */
export const SWEEP = {
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

/** One table for run and sweep (their values share a type); a run refuses the sweep's options, a sweep --baseline. */
export const MEASURE_OPTIONS = { ...RUN, ...SWEEP } as const;

export type MeasureValues = OptionValues<typeof MEASURE_OPTIONS>;

/** What runLoad and runSweep both take, made here. */
export type MeasureCommon = Omit<RunLoadOptions, 'urls'>;

/** What a measure gives the report: the runs or sweeps, and a run with faults' or a replay's own part. */
interface Measured {
  runs: LoadRun[];
  sweeps: SweepResult[];
  chaos?: ChaosReport;
  replay?: ReplayReport;
}

export interface Measure {
  /** "load" or "load sweep": every message starts with it. */
  command: string;
  argv: string[];
  values: MeasureValues;
  scenario: ReturnType<typeof loadScenario>;
  /** The --baseline report, read before anything runs (baselineFor). */
  baseline: LoadReport | undefined;
  /** Runs the scenario against the URLs. */
  measure: (common: MeasureCommon, urls: readonly string[]) => Promise<Measured>;
}

/** Measures (the report folder and the profile first), then judges and writes the report of what ran; resolves to the exit code. */
export async function measureAndReport(o: Measure): Promise<number> {
  const { command, values, scenario } = o;
  // Before the run: a report folder whose `latest` is a user's file or folder is refused (exit 2), not replaced.
  checkReportRoot(values['report-dir'] ?? DEFAULT_REPORT_DIR, LOAD_REPORT_KIND);
  const { profile, source: profileSource } = await targetProfileAndSource(command, values);
  const urls = baseUrls(command, values.url, profile.rpcPath);
  const progress = loadProgress({ stream: process.env.CI === undefined ? process.stdout : { write: (text: string) => process.stdout.write(text) } });
  const stop = interruptible();
  const startedAt = new Date();
  const log = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  let measured: Measured;
  try {
    const maxLag = values['max-lag'] === undefined ? {} : { maxLagP99Us: parseDuration(values['max-lag']) * 1000 };
    const health = healthOf(command, values, profile.rpcPath);
    const pids = pidsOf(command, values.pid, urls) ?? [];
    const metricsUrls = metricsUrlsOf(command, values['metrics-url'], values.pid, urls);
    const metricNames = metricNamesOf(command, values.metric, metricsUrls);
    for (const line of pidNotes(command, urls, pids)) log(line);
    measurable(command, scenario.thresholds, health !== null, pids.length + metricsUrls.length > 0, readsWatched(scenario.mix), values.chaos.length + scenario.chaos.length + values['chaos-exec'].length > 0);
    // One node's head alone: no lag or stalls to measure (docs/load.md, "The node's health"): said, and their
    // thresholds refused (the user's own) or left out (the scenario's, which stay right for runs that can).
    const heads = health === null ? 'none' : urls.length > 1 || health.reference !== undefined ? 'compared' : 'alone';
    const judged = headThresholds(command, scenario.thresholds, scenario.thresholds.slice(scenario.thresholds.length - values.threshold.length), heads);
    if (heads === 'alone') log(ALONE_NOTE(command));
    if (judged.leftOut.length > 0) log(`${command}: the scenario's thresholds ${judged.leftOut.map((t) => `"${t.text}"`).join(', ')} are not judged in this run: they compare the node's head with another's (a second --url or --head-reference <url> judges them)`);
    const grace = values['inclusion-grace'] === undefined ? {} : { inclusionGraceMs: parseDuration(values['inclusion-grace']) };
    const common = { scenario: { ...scenario, thresholds: judged.kept }, profile, profileSource, threads: values.threads, ...maxLag, ...grace, health, pids, metricsUrls, metricNames, signal: stop.signal, onProgress: (p: LoadProgress) => progress.update(p), log };
    measured = await o.measure(common, urls);
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
    argv: o.argv,
    createdAt: startedAt,
    scenario: { name: scenario.name, definition: scenario.definition },
    profile: profile.name,
    runs: measured.runs,
    sweeps: measured.sweeps,
    ...(measured.chaos === undefined ? {} : { chaos: measured.chaos }),
    ...(measured.replay === undefined ? {} : { replay: measured.replay }),
    interrupted: stop.interrupted(),
    baseline: o.baseline === undefined ? undefined : { path: values.baseline ?? '', report: o.baseline },
    regression: values.regression,
    reportDir: values['report-dir'],
  });
}

/** Whether the mix reads what load/health/ReadWatch.ts judges (heights, blocks by height, accounts). */
function readsWatched(mix: readonly ResolvedEntry[]): boolean {
  const judged = new Set(WATCHED_READS);
  return mix.some((e) => (e.kind === 'call' ? judged.has(e.call.method) : e.kind === 'batch' && e.mix.some((c) => judged.has(c.method))));
}

/** Thresholds that compare a node's head with another's: nothing to measure them by when one head is followed alone. */
const COMPARED_METRICS: ReadonlySet<string> = new Set(['head-lag-p99', 'head-lag-drift', 'stalls']);

/**
 * The thresholds a run judges, given how the heads are followed: with one head alone (one --url, no
 * --head-reference) head-lag-p99, head-lag-drift and stalls have nothing to be measured against (a lone head's
 * lag is 0 and it never stalls, whatever it does), so one given on the command line (`fromCommandLine`) is an
 * error (exit 2, before anything runs), as one with --head-hz 0 is; one the scenario carries (the built-in soak's
 * `stalls == 0`, `head-lag-p99 < 1s`, `head-lag-drift < 1s/h`) is left out of this run, said in `leftOut`: a
 * scenario's thresholds are meant for runs that can measure them, and `load soak --url X --pid P` still judges
 * the rest (the memory's trend among them).
 */
export function headThresholds(command: string, thresholds: readonly Threshold[], fromCommandLine: readonly Threshold[], heads: 'none' | 'alone' | 'compared'): { kept: Threshold[]; leftOut: Threshold[] } {
  if (heads !== 'alone') return { kept: [...thresholds], leftOut: [] };
  const given = fromCommandLine.find((t) => COMPARED_METRICS.has(t.metric));
  if (given !== undefined) throw new CliError(`${command}: the threshold "${given.text}" compares the node's head with another's, and only one node's head is followed: give a second --url or --head-reference <url> (a node trusted to be at the tip)`);
  return { kept: thresholds.filter((t) => !COMPARED_METRICS.has(t.metric)), leftOut: thresholds.filter((t) => COMPARED_METRICS.has(t.metric)) };
}

/** A threshold on the node's health needs what measures it: its head followed, its process read. Else exit 2, before anything runs. */
function measurable(command: string, thresholds: readonly Threshold[], headFollowed: boolean, processRead: boolean, readsWatched: boolean, faults: boolean): void {
  const chaos = thresholds.find((t) => FAULT_METRICS.has(t.metric));
  if (chaos !== undefined && !faults) throw new CliError(`${command}: the threshold "${chaos.text}" judges a run with faults: give --devnet <mn>:<ln> and --chaos <at>:<action>:<target>, or --chaos-exec <at>:<command> against the --url nodes (docs/chaos.md)`);
  if (faults && !headFollowed) throw new CliError(`${command}: --chaos measures the chain through the nodes' heads, which --head-hz 0 leaves unfollowed`);
  // Reads gone backwards are also counted in the load's own reads, when the mix makes some the watch judges.
  const head = thresholds.find((t) => t.metric === 'head-lag-p99' || t.metric === 'head-lag-drift' || t.metric === 'stalls' || (t.metric === 'regressions' && !readsWatched));
  if (head !== undefined && !headFollowed) throw new CliError(`${command}: the threshold "${head.text}" judges the nodes' heads, which --head-hz 0 leaves unfollowed`);
  const rss = thresholds.find((t) => t.metric === 'rss-growth');
  if (rss !== undefined && !processRead) throw new CliError(`${command}: the threshold "${rss.text}" judges the node's memory: give --pid <pid> (a node on this machine) or --metrics-url <url> (its Prometheus metrics)`);
}
