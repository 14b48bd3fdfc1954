/**
 * `chainrpc load replay <capture>`: a capture (`chainrpc record`, `chainrpc record import`) sent again to one node
 * or several (in turn) at its recorded pacing or faster, on the open-model engine, and judged and reported as a
 * run of `chainrpc load` is (docs/replay.md). The capture is made into a plan first (load/replay/replayPlan.ts),
 * once for the report and once in each engine thread.
 */
import { CliError } from '../../CliError.js';
import { CommandLine } from '../../CommandLine.js';
import { CaptureError, readCapture, type Capture } from '../../../load/capture/readCapture.js';
import type { RateStage } from '../../../load/model.js';
import { dueWithin, importedBodies, replayPlan, ReplayPlanError, type ReplayPace, type ReplaySettings } from '../../../load/replay/replayPlan.js';
import { nodeChainId, runLoad } from '../../../load/runLoad.js';
import { resolveScenario, type ResolvedScenario } from '../../../load/scenario/loadScenario.js';
import { parseDuration } from '../../../load/scenario/parseDuration.js';
import { parseThreshold } from '../../../load/scenario/Threshold.js';
import type { LoadScenario } from '../../../load/scenario/Scenario.generated.js';
import { wireMethod, type Profile } from '../../../profile/Profile.js';
import { ENGINE_OPTIONS, measureAndReport, type MeasureValues } from './measure.js';
import type { OptionTable } from '../../CommandLine.js';
import { nodeUrlProblem, positiveNumberProblem, REGRESSION } from '../../commonOptions.js';
import { HEALTH_OPTIONS } from './healthOptions.js';
import { baselineFor } from './publishLoadReport.js';
import { duration, rate, SCENARIO_OVERRIDES } from './scenarioOptions.js';
import { needUrls, TARGET, targetFailure, targetOptions, targetProfileAndSource, URL_RULE } from './target.js';
import { baseUrls } from '../../nodeUrls.js';
import { rpcEndpoint } from '../../../core/client/baseUrl.js';
import { createClient, JsonRpcError } from '../../../core/client/index.js';
import { loadProfileSource, type ProfileSource } from '../../../profile/loadProfile.js';
import type { JsonValue } from '../../../core/json/index.js';
import { packageVersion } from '../../../core/packageVersion.js';
import { k6ReplayThresholds, writeK6Replay } from '../../../load/k6/writeK6Replay.js';
import { K6Unsupported } from '../../../load/k6/writeK6Script.js';
import { relativeOrAbsolute } from '../commandText.js';
import { claimTestFolder } from './k6.js';
import { k6Recipe } from './k6Recipe.js';

export const REPLAY_HELP = `Usage: chainrpc load replay <capture> --url <base-url> [--speed <x> | --rate <n>] [options]

Sends a capture's requests again (chainrpc record, or chainrpc record import) at their recorded
offsets divided by --speed, or in their recorded order at --rate requests/s, on the open-model engine:
latency from each request's due time, every call judged as JSON-RPC, every threshold, --baseline and
report of chainrpc load. Each body goes as it was recorded (a batch as the batch it was); what is left
out (not a JSON-RPC POST, notifications only, ids that cannot be matched, transactions signed for
another chain) and every change made is counted in the report. Several --url: the capture is
replayed to each node in turn. docs/replay.md.

${URL_RULE}

Options:
  --speed <x>              the recorded offsets divided by x (default 1: the recorded pacing; 2: twice as fast)
  --rate <n>               the recorded order evenly at n requests/s instead of the recorded offsets
  --loop                   play the capture again, one period after the last, until --duration ends
  --duration <d>           the measured window (default: one pass of the capture; needed with --loop)
  --methods <m1,m2,...>    only requests whose calls are all of these methods (the node's method names)
  --rebase-heights         a block asked by height is asked at the same depth below the target's head
                           as it was below the recorded head (the capture's own head answers say where)
  --diff-url <base-url>    each request also sent to this node at the same instant, and the two answers
                           to each call compared, each read under its node's profile: same result, same
                           error, or for what differs between nodes at one instant (the head, health, PoU,
                           peers) the same shape. Mismatches by method, the first side by side; threshold
                           "mismatches < n" (default "mismatches == 0" with --diff-url or --diff-recorded)
  --diff-profile <file|detect>
                           the --diff-url node's profile (default: --profile's), or the recorded node's
  --diff-recorded          compare with the answers the capture recorded instead of a second node (a
                           capture with answers; what changed on the chain since is a mismatch too)
  --k6 <dir>               write the replay as a k6 test into <dir> instead of running it (k6 0.48 or
                           later; each request at its time, latency from its time, heights rebased on the
                           head k6 reads when it starts); chainrpc load merge makes its report
  --segments <n>           with --k6: print the k6 commands of an n-way split (execution segments)
${targetOptions('a node (repeatable: each replays the capture in turn)')}
  --connections <n>        the connection pool (default 64)
  --max-in-flight <n>      requests waiting at once; one due beyond it is dropped (default 1024)
  --threshold <t>          an SLO threshold (repeatable; default "errors < 1%", "dropped == 0", and with
                           --diff-url "mismatches == 0")
  --baseline <report.json> a previous replay's report: a regression beyond the noise fails the run (99)
  --regression <pct>       the change allowed before noise is added, in percent (default 10)
${ENGINE_OPTIONS}
  -h, --help

Exit codes: 0 every threshold kept; 99 a threshold broken (mismatches too), or a regression beyond the noise; 1 the
figures cannot be trusted (the generator fell behind the recorded times), or a node stopped answering;
2 usage error, or a capture that is not one or holds nothing to replay; 3 no node answered at the
start (or the --diff-url node did not); 4 internal error (a bug in chainrpc); 130 interrupted (Ctrl-C): the report of what ran is
written first.`;

const REPLAY_OPTIONS = {
  ...TARGET,
  connections: SCENARIO_OVERRIDES.connections,
  'max-in-flight': SCENARIO_OVERRIDES['max-in-flight'],
  threshold: SCENARIO_OVERRIDES.threshold,
  baseline: { kind: 'text', value: '<report.json>' },
  regression: REGRESSION,
  threads: { kind: 'integer', value: '<n>', min: 1, max: 64, default: 1 },
  'max-lag': { kind: 'text', value: '<d>', check: duration },
  ...HEALTH_OPTIONS,
  'report-dir': { kind: 'text', value: '<dir>' },
  speed: { kind: 'text', value: '<x>', check: (text: string) => positiveNumberProblem(text, 'times the recorded pace', 1000) },
  rate: { kind: 'text', value: '<n>', check: rate },
  duration: { kind: 'text', value: '<d>', check: duration },
  loop: { kind: 'flag' },
  methods: { kind: 'text', value: '<m1,m2,...>' },
  'rebase-heights': { kind: 'flag' },
  'diff-url': { kind: 'text', value: '<base-url>', check: nodeUrlProblem },
  'diff-profile': { kind: 'text', value: '<file|detect>' },
  'diff-recorded': { kind: 'flag' },
  k6: { kind: 'text', value: '<dir>' },
  segments: { kind: 'integer', value: '<n>', min: 1, max: 1000 },
} as const satisfies OptionTable;

export const replayLine = new CommandLine('load replay', REPLAY_OPTIONS, true);

/** The run's lead-in before the capture's first request: its warm-up, in which it opens connections and sends nothing. */
const LEAD_IN_MS = 200;

/** Thresholds a replay is judged by unless --threshold says otherwise. */
const DEFAULT_THRESHOLDS = ['errors < 1%', 'dropped == 0'];
/** Thresholds that need what a replay does not do. */
const NOT_MEASURED = /^(inclusion|tti-|failover|recovery|lost-tx|duplicate-tx|forks)/;

export async function replayCommand(argv: string[]): Promise<number> {
  const command = 'load replay';
  const { values, positionals } = replayLine.parse(argv);
  const path = positionals[0];
  if (path === undefined) throw new CliError(`${command}: name the capture to replay (chainrpc record writes one)`);
  if (positionals.length > 1) throw new CliError(`${command}: one capture at a time; got ${positionals.join(' ')}`);
  needUrls(command, values.url);
  if (values.speed !== undefined && values.rate !== undefined) throw new CliError(`${command}: give --speed or --rate, not both`);
  if (values.loop && values.duration === undefined) throw new CliError(`${command}: --loop plays the capture until the run ends: give --duration`);
  const pace: ReplayPace = values.rate !== undefined ? { rate: Number(values.rate) } : { speed: Number(values.speed ?? 1) };
  let capture: Capture;
  try {
    capture = readCapture(path);
  } catch (error) {
    if (error instanceof CaptureError) throw CliError.within(command, error);
    throw error;
  }
  const settings: ReplaySettings = {
    capture: path,
    pace,
    loop: values.loop,
    methods: values.methods === undefined ? null : values.methods.split(',').map((m) => m.trim()).filter((m) => m !== ''),
    rebaseHeights: values['rebase-heights'],
    diff: null,
  };
  if (values['diff-profile'] !== undefined && values['diff-url'] === undefined && !values['diff-recorded']) throw new CliError(`${command}: --diff-profile describes the node of --diff-url (or the recorded one): give --diff-url or --diff-recorded`);
  if (values['diff-recorded']) {
    if (values['diff-url'] !== undefined) throw new CliError(`${command}: give --diff-url (a second node) or --diff-recorded (the recorded answers), not both`);
    if (!capture.header.answers) throw new CliError(`${command}: --diff-recorded compares with the recorded answers, and ${path} ${importedBodies(capture) ? 'was imported from request bodies (chainrpc record import) and holds no answers' : 'was recorded with --no-answers'}`);
    if (values['diff-profile'] === 'detect') throw new CliError(`${command}: --diff-profile detect asks a node, and --diff-recorded has none: give the recorded node's profile file`);
    if (values['rebase-heights']) throw new CliError(`${command}: --diff-recorded with --rebase-heights would compare blocks of other heights than those recorded: give one of them`);
  }
  const diffing = values['diff-url'] !== undefined || values['diff-recorded'];
  const thresholds = values.threshold.length > 0 ? values.threshold : [...DEFAULT_THRESHOLDS, ...(diffing ? ['mismatches == 0'] : [])];
  const unmeasured = thresholds.find((t) => NOT_MEASURED.test(t.trim()));
  if (unmeasured !== undefined) throw new CliError(`${command}: the threshold "${unmeasured}" needs what a replay does not do (transactions it tracks, faults it injects)`);
  const mismatches = thresholds.find((t) => /^mismatches\b/.test(t.trim()));
  if (mismatches !== undefined && !diffing) throw new CliError(`${command}: the threshold "${mismatches}" judges a diff: give --diff-url or --diff-recorded`);
  // The scenario's settings as a replay runs them; its times and duration come from the plan, under the node's profile.
  const scenario = replayScenario(command, thresholds, values);
  if (values.k6 !== undefined) return replayOnK6(command, values.k6, { values, capture, settings, scenario });
  if (values.segments !== undefined) throw new CliError(`${command}: --segments splits a k6 test: give --k6 <dir>`);
  const baseline = baselineFor(command, values.baseline, scenario, values.regression, values);
  // What chainrpc load's other options would be, unset: a replay has none of them (no devnet, faults, corpus, seed).
  const measureValues: MeasureValues = { ...values, warmup: undefined, 'batch-size': undefined, corpus: undefined, seed: undefined, 'private-key': undefined, 'inclusion-grace': undefined, devnet: undefined, 'devnet-block-time': 300, chaos: [], 'chaos-exec': [], rates: undefined, 'start-rate': undefined, 'max-rate': undefined, step: undefined };
  return measureAndReport({
    command,
    argv,
    values: measureValues,
    scenario,
    baseline,
    measure: async (common, urls) => {
      if (values['diff-url'] !== undefined) settings.diff = await diffNode(command, values['diff-url'], values['diff-profile'] ?? values.profile, common.profileSource);
      if (values['diff-recorded']) settings.diff = { url: `the recording of ${capture.header.upstream}`, endpoint: null, profile: values['diff-profile'] === undefined ? common.profileSource : (await targetProfileAndSource(command, { profile: values['diff-profile'] })).source };
      // The report's plan is the first node's (its chain id decides which signed transactions go); each thread
      // makes its node's own.
      const first = createClient({ baseUrl: urls[0] ?? '', rpcPath: common.profile.rpcPath });
      const chainId = await nodeChainId(first, common.profile).finally(() => first.close());
      const plan = planFor(command, capture, settings, common.profile, chainId);
      const durationMs = values.duration === undefined ? passMs(plan.periodMs) : parseDuration(values.duration);
      // The measured window is [0, durationMs): each thread's source sends nothing due at its end or after.
      settings.windowMs = durationMs;
      const timed: ResolvedScenario = { ...common.scenario, durationMs, warmupMs: LEAD_IN_MS, model: { kind: 'open', distribution: 'recorded', stages: recordedStages(plan.items.map((i) => i.atMs), plan.periodMs, durationMs, settings.loop) } };
      common.log(planLine(command, plan));
      return { runs: await runLoad({ ...common, scenario: timed, urls, replay: settings }), sweeps: [], replay: plan.summary };
    },
  });
}

/**
 * `--k6 <dir>`: the replay written as a k6 test (load/k6/writeK6Replay.ts) for the one node of --url, whose chain
 * decides which signed transactions go; what a k6 test cannot do is refused before the node is touched (exit 2).
 */
async function replayOnK6(command: string, out: string, o: { values: ReturnType<typeof replayLine.parse>['values']; capture: Capture; settings: ReplaySettings; scenario: ResolvedScenario }): Promise<number> {
  const { values, capture, settings, scenario } = o;
  const refuse = (what: string, why: string): never => {
    throw new CliError(`${command}: --k6 writes a test instead of running one, and ${what} ${why}`);
  };
  if (values['diff-url'] !== undefined || values['diff-recorded']) refuse('a diff', 'needs the Node engine (k6 sends each request to one node and keeps no answers): run chainrpc load replay --diff-url without --k6');
  if (values.baseline !== undefined) refuse('--baseline', 'judges a report: give it to chainrpc load merge, which makes the k6 test\'s report');
  if (values['report-dir'] !== undefined) refuse('--report-dir', 'names where reports go: give it to chainrpc load merge');
  if (values.pid.length > 0 || values['metrics-url'].length > 0 || values['head-reference'] !== undefined) refuse('the nodes\' health (--pid, --metrics-url, --head-reference)', 'is read by the Node engine: run chainrpc watch beside the k6 test');
  if (values.url.length > 1) refuse('several --url', 'replay one node each: write one test per node');
  try {
    k6ReplayThresholds(scenario.thresholds);
  } catch (error) {
    if (error instanceof K6Unsupported) throw CliError.within(`${command}: k6 cannot run this replay`, error);
    throw error;
  }
  // A folder of the user's is refused before the node is touched; if the test is not written, --out is put back as it was.
  const folder = claimTestFolder(out);
  let plan: ReturnType<typeof replayPlan>;
  let written: ReturnType<typeof writeK6Replay>;
  try {
    const { profile } = await targetProfileAndSource(command, values);
    const [url] = baseUrls(command, values.url, profile.rpcPath) as [string];
    const chainId = await reachNode(command, url, profile, (client) => nodeChainId(client, profile));
    plan = planFor(command, capture, settings, profile, chainId);
    const durationMs = values.duration === undefined ? passMs(plan.periodMs) : parseDuration(values.duration);
    written = writeK6Replay({
      plan,
      settings,
      url,
      profile,
      scenario: { name: scenario.name, definition: scenario.definition as unknown as JsonValue },
      thresholds: scenario.thresholds,
      durationMs,
      model: { kind: 'open', distribution: 'recorded', stages: recordedStages(plan.items.map((i) => i.atMs), plan.periodMs, durationMs, settings.loop) },
      timeoutMs: scenario.timeoutMs,
      vus: values.connections ?? 64,
      genesisHeight: profile.genesisHeight,
      out,
      version: packageVersion(),
    });
  } catch (error) {
    folder.undo();
    if (error instanceof K6Unsupported) throw CliError.within(`${command}: k6 cannot run this replay`, error);
    throw error;
  }
  process.stdout.write(`${planLine(command, plan)}\n`);
  const lines = k6Recipe({
    scenario: 'the replay',
    dir: relativeOrAbsolute(written.dir),
    files: written.files,
    notJudged: written.notJudged,
    notJudgedWhy: 'a k6 replay sends every request, late rather than dropped, its latency from its time; or only the Node engine measures them',
    segments: values.segments ?? 1,
    sendsTransactions: false,
  });
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/**
 * The diff's second node: its profile (--diff-profile, else the first node's), its endpoint, and an answer from it
 * before anything is sent (none: exit 3, as for --url).
 */
async function diffNode(command: string, url: string, profileArg: string | undefined, firstSource: ProfileSource): Promise<NonNullable<ReplaySettings['diff']>> {
  const { profile, source } = profileArg === undefined ? { profile: await loadProfileSource(firstSource), source: firstSource } : await targetProfileAndSource(command, { profile: profileArg, url: [url] });
  const [base] = baseUrls(command, [url], profile.rpcPath);
  const endpoint = rpcEndpoint(base ?? url, profile.rpcPath);
  await reachNode(command, base ?? url, profile);
  return { url: base ?? url, endpoint, profile: source };
}

/**
 * A JSON-RPC answer from the node before anything is sent (an error answer is one; none at all: exit 3, as for
 * --url); `then` reads more of it on the same client.
 */
async function reachNode<T = void>(command: string, url: string, profile: Profile, then?: (client: ReturnType<typeof createClient>) => Promise<T>): Promise<T | undefined> {
  const client = createClient({ baseUrl: url, rpcPath: profile.rpcPath });
  try {
    try {
      await client.call(wireMethod(profile, 'chain_blockNumber'), []);
    } catch (error) {
      if (!(error instanceof JsonRpcError)) throw targetFailure(command, url, error) ?? error;
    }
    return await then?.(client);
  } finally {
    await client.close();
  }
}

/** The command's first line about a plan: what of the capture goes, how, and what is left out. */
function planLine(command: string, plan: ReturnType<typeof replayPlan>): string {
  const { replayed, exchanges, transformations, leftOut } = plan.summary;
  return `${command}: ${replayed} of ${exchanges} exchanges, ${transformations.join('; ')}${leftOut.length === 0 ? '' : `; left out: ${leftOut.map((l) => `${l.count} ${l.reason}`).join(', ')}`}`;
}

/** The replay's plan under the node's profile: a capture with nothing to replay is a usage error. */
function planFor(command: string, capture: Capture, settings: ReplaySettings, profile: Profile, chainId: bigint | undefined): ReturnType<typeof replayPlan> {
  try {
    return replayPlan(capture, settings, {
      wire: { blockNumber: wireMethod(profile, 'chain_blockNumber'), blockByHeight: wireMethod(profile, 'chain_getBlockByHeight'), sendRawTransaction: wireMethod(profile, 'chain_sendRawTransaction') },
      chainId: chainId ?? null,
      chainIdOf: profile.codec.chainIdOf?.bind(profile.codec),
    });
  } catch (error) {
    if (error instanceof ReplayPlanError) throw new CliError(`${command}: ${settings.capture}: ${error.message}`);
    throw error;
  }
}

/** The scenario a replay is reported under: its thresholds, pool and timeout (what is sent and when is the plan's). */
function replayScenario(command: string, thresholds: readonly string[], values: { connections?: number | undefined; 'max-in-flight'?: number | undefined }): ResolvedScenario {
  const definition = {
    name: 'replay',
    description: 'A recorded capture sent again at its recorded times (chainrpc load replay).',
    arrivals: { model: 'open', rate: 1 },
    duration: '1s',
    warmup: '0s',
    connections: values.connections ?? 64,
    maxInFlight: values['max-in-flight'] ?? 1024,
    timeout: '10s',
    mix: [{ method: 'chain_blockNumber' }],
  };
  // Thresholds are read here, not by the scenario: a replay may judge any method its capture calls.
  const parsed = thresholds.map((text) => {
    try {
      return parseThreshold(text);
    } catch (error) {
      throw new CliError(`${command}: --threshold ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return { ...resolveScenario(definition, {}, 'replay'), definition: { ...definition, mix: [], thresholds: [...thresholds] } as unknown as LoadScenario, mix: [], reads: new Set(), thresholds: parsed };
}

/**
 * A replay's measured window without --duration: one pass, its span plus one mean gap (the plan's period), so n
 * requests g ms apart are n / (n g) = 1 / g a second, as recorded (over the span alone they would be n / (n - 1)
 * times that), and the last request has a gap's time to be answered within the window.
 */
const passMs = (periodMs: number): number => Math.max(1, Math.ceil(periodMs));

/**
 * The rate the recorded times keep, second by second, as the report's target rate: a stage per second of the run
 * with as many requests as are due in it; the window is [0, durationMs), as the source sends (one due at its end is
 * not sent, so --rate r --loop --duration d is r·d requests).
 */
export function recordedStages(atMs: readonly number[], periodMs: number, durationMs: number, loop: boolean): RateStage[] {
  const seconds = Math.max(1, Math.ceil(durationMs / 1000));
  const counts = new Array<number>(seconds).fill(0);
  for (let pass = 0; pass === 0 || (loop && periodMs > 0 && pass * periodMs < durationMs); pass++) {
    for (const t of atMs) {
      const at = pass * periodMs + t;
      if (dueWithin(at, durationMs)) counts[Math.min(seconds - 1, Math.floor(at / 1000))] = (counts[Math.min(seconds - 1, Math.floor(at / 1000))] ?? 0) + 1;
    }
  }
  return counts.map((n, i) => {
    const ms = Math.min(1000, durationMs - i * 1000);
    const perSecond = ms > 0 ? (n * 1000) / ms : 0;
    return { from: perSecond, to: perSecond, durationMs: Math.max(0, ms) };
  });
}
