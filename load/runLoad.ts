/**
 * One `chainrpc load` run: for each node, what the scenario needs from the live chain (recent heights,
 * funded accounts, a corpus), then the engine, inclusion tracking for transactions, and the SLO judged.
 * Several nodes are interleaved in time (A, B, A, B, ...): each gets the same share of the machine's noise.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isUnreachable, rpcEndpoint, unreachableMessage } from '../core/client/baseUrl.js';
import { JsonRpcError, TransportError, createClient, isErrorPage, type RpcClient } from '../core/client/index.js';
import { keypairFromSeed } from '../core/codec/index.js';
import type { JsonValue } from '../core/json/index.js';
import type { Profile } from '../profile/Profile.js';
import type { ProfileSource } from '../profile/loadProfile.js';
import { wireMethod } from '../profile/Profile.js';
import { asInteger } from '../profile/readWire.js';
import { fundSenders, type Funding } from './corpus/fundSenders.js';
import { makeCorpus } from './corpus/makeCorpus.js';
import { runEngine, type EngineResult } from './engine/runEngine.js';
import type { TrackedOutcome } from './engine/RequestSource.js';
import { InclusionTracker, type InclusionPoint } from './inclusion/InclusionTracker.js';
import type { MeasuredWindow } from './health/ResourceSampler.js';
import { followHeads, startSamplers } from './health/watchers.js';
import { checkMetricsPage, lacksNote, missingNote } from './health/metricsSource.js';
import { mergeRuns } from './mergeRuns.js';
import type { ArrivalModel, LoadProgress, LoadRun, ReadRegressions, TimelinePoint } from './model.js';
import type { ResolvedScenario } from './scenario/loadScenario.js';
import type { ScenarioSourceOptions } from './scenario/scenarioSource.js';
import type { ReplaySettings } from './replay/replayPlan.js';
import type { ReplaySourceOptions } from './replay/replaySource.js';
import { asU64, readField } from '../profile/readWire.js';
import { evaluateThresholds } from './scenario/Threshold.js';
import { ChainrpcError } from '../core/errors/ChainrpcError.js';
import type { ChaosNetwork } from './chaos/ChaosNetwork.js';
import { ChainView } from './chaos/ChainView.js';
import { runChaos } from './chaos/runChaos.js';
import { chainAfterFaults, consistencyAfter, headPoints, stepsOf, type HeadPoint } from './chaos/chainAfterFaults.js';
import { clientsAtFaults, faultsNotDone } from './chaos/clientsAtFaults.js';
import { outagesForReport } from './metrics/OutageLog.js';
import type { HeadWatch } from './health/watchers.js';
import type { ChaosReport, ChaosStep, LaneLedger, Outage } from './model.js';
import type { TransactionLedger } from './inclusion/InclusionTracker.js';
import { epochNow } from '../core/epochNow.js';

/** No node answered JSON-RPC at the start (exit 3). */
export class TargetUnreachableError extends ChainrpcError {
  override readonly name = 'TargetUnreachableError';
  readonly kind = 'target';
  constructor(
    message: string,
    /** The node's base URL. */
    readonly url: string,
    /** Something answered HTTP, but not as a JSON-RPC endpoint: the endpoint path may be the wrong one. */
    readonly notJsonRpc = false,
  ) {
    super(message);
  }
}

/** The probe's failure as a TargetUnreachableError: nothing answered (is the node running?), or not JSON-RPC. */
function probeFailed(url: string, what: string, error: unknown): TargetUnreachableError {
  if (isUnreachable(error)) return new TargetUnreachableError(unreachableMessage(url, error.message), url);
  const answeredHttp = (error instanceof TransportError && (error.code === 'HTTP_STATUS' || error.code === 'NOT_JSON') && error.response !== undefined) || (error instanceof JsonRpcError && isErrorPage(error));
  return new TargetUnreachableError(`${url} did not answer ${what}: ${error instanceof Error ? error.message : String(error)}`, url, answeredHttp);
}

export interface RunLoadOptions {
  scenario: ResolvedScenario;
  urls: readonly string[];
  profile: Profile;
  /** The profile as given (a file, a detected profile's JSON; null: the reference profile), for the source threads to load. */
  profileSource: ProfileSource;
  threads: number;
  /** The generator's send lag p99 and read lag p99 (µs) above which a run is invalid (default the engine's, 5 ms). */
  maxLagP99Us?: number;
  /** How long signed transactions still pending are followed after the run (InclusionTrackerOptions.graceMs); default: the tracker's. */
  inclusionGraceMs?: number;
  /** Where a corpus made for the run is kept (default: a folder under the OS temp dir). */
  workDir?: string;
  /**
   * Every node's head followed through the run (load/health/): a call every `intervalMs` per node, and to
   * `reference` (a node trusted to be at the tip) beside them. Undefined or null: not followed.
   */
  health?: { intervalMs: number; reference?: string } | null;
  /** Per --url (in order), the pid of its node's process on this machine, read from /proc through the run (undefined: none). */
  pids?: readonly (number | undefined)[];
  /** Per --url (in order), its node's Prometheus metrics URL, scraped through the run where no pid is given. */
  metricsUrls?: readonly (string | undefined)[];
  /** Other metrics to read from each --metrics-url by name (--metric). */
  metricNames?: readonly string[];
  /**
   * Faults injected while the load runs (docs/chaos.md): the schedule and the network it acts on. The nodes are
   * then loaded together (the scenario's rate shared between them), not in turn, and a node that stops answering
   * does not end its load: what its clients see is the measure. `onChaos` receives the network's report.
   */
  chaos?: { steps: readonly ChaosStep[]; network: ChaosNetwork; onChaos: (report: ChaosReport) => void };
  /**
   * A capture replayed instead of the scenario's mix (`chainrpc load replay`, docs/replay.md): its requests at their
   * own times (the scenario's model is then the `recorded` distribution), once per node, in turn.
   */
  replay?: ReplaySettings;
  signal?: AbortSignal;
  onProgress?: (progress: LoadProgress) => void;
  log: (line: string) => void;
}

/** Rounds of an interleaved comparison: enough to spread the noise, few enough that each segment is long. */
const ROUNDS = 3;

const moduleBeside = (path: string): string => new URL(`${path}.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href;
const SCENARIO_SOURCE = './scenario/scenarioSource';
const REPLAY_SOURCE = './replay/replaySource';

/** A node's setup: the source's options and, for transactions, the inclusion tracker. */
interface Prepared {
  url: string;
  options: ScenarioSourceOptions;
  /** A replay's source options (then `options` is not used). */
  replay?: ReplaySourceOptions;
  tracker?: InclusionTracker;
  /** Epoch ms that is t = 0 of the tracker's series. */
  trackerOriginMs?: number;
  /** Per sender, the nonce after the last transaction sent: the next segment resumes there, sending none twice. */
  resumeAt: Record<string, number>;
  /** What its lanes did after failed sends, over its segments (absent: no lane stopped). */
  lanes?: LaneLedger;
}

/** A segment's engine result as a run of the node, its lanes' ledger added to the node's. */
function segmentRun(result: EngineResult, p: Prepared, scenario: string): LoadRun {
  const { lanes, ...run } = result;
  if (lanes !== undefined) {
    const sum = p.lanes ?? { resyncs: 0, resent: 0, skipped: 0 };
    p.lanes = { resyncs: sum.resyncs + lanes.resyncs, resent: sum.resent + lanes.resent, skipped: sum.skipped + lanes.skipped };
  }
  return { ...run, url: p.url, scenario, thresholds: [] };
}

async function tipHeight(client: RpcClient, profile: Profile, url: string): Promise<number> {
  let result: JsonValue;
  try {
    result = await client.call<JsonValue>(wireMethod(profile, 'chain_blockNumber'), []);
  } catch (error) {
    throw probeFailed(url, wireMethod(profile, 'chain_blockNumber'), error);
  }
  const height = asInteger(result);
  if (height === undefined) throw new TargetUnreachableError(`${url} answered ${wireMethod(profile, 'chain_blockNumber')} with ${JSON.stringify(result)}, not a height`, url);
  return Number(height);
}

/** Whether the node answers JSON-RPC at all (a result or an error object); -1: no tip known. */
async function reachable(client: RpcClient, profile: Profile, url: string): Promise<number> {
  try {
    const result = await client.call<JsonValue>(wireMethod(profile, 'chain_blockNumber'), []);
    return Number(asInteger(result) ?? -1);
  } catch (error) {
    // A node that serves JSON-RPC may refuse the call (its method names differ): it answers. An error page in
    // JSON-RPC's form (a 404 with an error for no call) does not: the path is likely wrong.
    if (error instanceof JsonRpcError && !isErrorPage(error)) return -1;
    throw probeFailed(url, 'JSON-RPC', error);
  }
}

/** The segments a node's run is cut into: 3 rounds when several nodes share a fixed rate, else 1. */
const roundsOf = (o: RunLoadOptions): number => (o.chaos === undefined && o.replay === undefined && o.urls.length > 1 && (o.scenario.model.kind === 'closed' || o.scenario.model.stages.length === 1) ? ROUNDS : 1);

/** A later round's warm-up: the scenario's, at most 1 s. */
const laterWarmupMs = (s: ResolvedScenario): number => Math.min(s.warmupMs, 1000);

/** Transactions each sender's lane holds beyond its even share of the run. */
const PER_SENDER_MARGIN = 8;

/** Requests the run will send (every round's warm-up included), a bound used to size a corpus it makes (with a margin). */
function expectedTransactions(s: ResolvedScenario, rounds: number): number {
  const total = s.mix.reduce((n, e) => n + (e.kind === 'call' ? e.call.weight : e.weight), 0);
  const txWeight = s.mix.reduce((n, e) => n + (e.kind === 'transactions' ? e.weight : 0), 0);
  const seconds = (s.durationMs + s.warmupMs + (rounds - 1) * laterWarmupMs(s)) / 1000;
  const rate = s.model.kind === 'open' ? Math.max(...s.model.stages.map((st) => Math.max(st.from, st.to))) : s.connections * 200;
  return Math.ceil(rate * seconds * (txWeight / total) * (s.transactions?.batchSize ?? 1) * 1.2) + 16;
}

/** How senders and accounts get their money: from the profile's key, else the faucet where there is one. */
const fundingOf = (profile: Profile): Funding =>
  profile.privateKey !== undefined ? { kind: 'key', privateKey: Buffer.from(profile.privateKey, 'hex') } : profile.faucet ? { kind: 'faucet' } : { kind: 'none' };

const signalOf = (o: { signal?: AbortSignal }): { signal?: AbortSignal } => (o.signal === undefined ? {} : { signal: o.signal });

async function prepare(url: string, index: number, o: RunLoadOptions, workDir: string, track = true, made: string[] = []): Promise<Prepared> {
  const { scenario: s, profile } = o;
  const client = createClient({ baseUrl: url, rpcPath: profile.rpcPath });
  try {
    if (o.replay !== undefined) return await prepareReplay(url, client, o, o.replay);
    // The tip matters to chain_getBlockByHeight's params; otherwise any JSON-RPC answer shows the node is there.
    const tip = s.reads.has('chain_getBlockByHeight') ? await tipHeight(client, profile, url) : await reachable(client, profile, url);
    const from = Math.max(profile.genesisHeight, tip - s.recentBlocks + 1);
    let accounts: string[] = [];
    if (s.reads.has('chain_getAccount')) {
      accounts = Array.from({ length: s.accounts }, (_, i) => profile.codec.addressOf(keypairFromSeed(`chainrpc-load/account/${s.seed}/${i}`).privateKey));
      o.log(`load: ${url}: funding ${accounts.length} accounts for chain_getAccount`);
      await fundSenders({ client, profile, addresses: accounts, need: 1n, funding: fundingOf(profile), chainId: 0n, timeoutMs: 60_000, concurrency: 8, ...signalOf(o) });
    }
    let transactions: ScenarioSourceOptions['transactions'] = null;
    let tracker: InclusionTracker | undefined;
    let trackerOriginMs: number | undefined;
    if (s.transactions !== undefined) {
      let corpus = s.transactions.corpus;
      if (corpus === undefined) {
        // A margin per sender too: k6 gives each VU one lane, and k6 does not spread iterations evenly over VUs.
        const perSender = s.transactions.perSender ?? Math.ceil(expectedTransactions(s, roundsOf(o)) / s.transactions.senders) + PER_SENDER_MARGIN;
        corpus = join(workDir, `corpus-${new URL(url).port || 'default'}-${Date.now()}.json`);
        made.push(corpus);
        o.log(`load: ${url}: signing a corpus of ${s.transactions.senders} senders x ${perSender} transactions (${corpus})`);
        let shown = '';
        await makeCorpus({
          url, profile, out: corpus, senders: s.transactions.senders, perSender,
          // Each node its own senders: nodes of one network would otherwise get the same transactions twice.
          seed: index === 0 ? `chainrpc-load/${s.seed}` : `chainrpc-load/${s.seed}/${index}`,
          funding: fundingOf(profile),
          ...signalOf(o),
          onProgress: (p) => {
            const line = `${p.phase} ${p.done}/${p.total}`;
            if (p.done === p.total && line !== shown) o.log(`load: ${url}: ${(shown = line)}`);
          },
        });
      }
      transactions = { corpus, batchSize: s.transactions.batchSize };
      if (track) {
        trackerOriginMs = epochNow();
        // With faults, the chain is followed through any node that still answers (the one sent to may be down).
        const fallbackUrls = o.chaos === undefined ? [] : o.urls.filter((u) => u !== url);
        tracker = await InclusionTracker.start({ url, profile, originMs: trackerOriginMs, fallbackUrls, ...(o.inclusionGraceMs === undefined ? {} : { graceMs: o.inclusionGraceMs }) });
      }
    }
    const wire = Object.fromEntries([...s.reads, 'chain_sendRawTransaction'].map((m) => [m, wireMethod(profile, m)]));
    return {
      url,
      options: { mix: s.mix, wire, heights: tip >= from ? { from, to: tip } : null, accounts, validate: s.validate, seed: s.seed, profile: o.profileSource, transactions },
      ...(tracker === undefined || trackerOriginMs === undefined ? {} : { tracker, trackerOriginMs }),
      resumeAt: {},
    };
  } finally {
    await client.close();
  }
}

/** The chain a node's transactions must be signed for: the profile's `chainId`, else chain_health's; undefined when neither says. */
export async function nodeChainId(client: RpcClient, profile: Profile): Promise<bigint | undefined> {
  if (profile.chainId !== undefined) return profile.chainId;
  try {
    return asU64(readField(profile, await client.call<JsonValue>(wireMethod(profile, 'chain_health')), 'chain_id'));
  } catch {
    return undefined; // no chain id known: a replay leaves the capture's signed transactions out, and counts them
  }
}

/**
 * A node made ready for a replay: its head (heights are rebased against it) and its chain (transactions signed for
 * another are left out); the scenario's own setup (accounts, a corpus) is not a replay's.
 */
async function prepareReplay(url: string, client: RpcClient, o: RunLoadOptions, settings: ReplaySettings): Promise<Prepared> {
  const { profile } = o;
  const tip = settings.rebaseHeights ? await tipHeight(client, profile, url) : await reachable(client, profile, url);
  const chainId = await nodeChainId(client, profile);
  const replay: ReplaySourceOptions = {
    settings,
    // The scenario's warm-up is the replay's lead-in: connections opened, nothing sent.
    leadMs: o.scenario.warmupMs,
    timeoutMs: o.scenario.timeoutMs,
    wire: { blockNumber: wireMethod(profile, 'chain_blockNumber'), blockByHeight: wireMethod(profile, 'chain_getBlockByHeight'), sendRawTransaction: wireMethod(profile, 'chain_sendRawTransaction') },
    profile: o.profileSource,
    chainId: chainId === undefined ? null : chainId.toString(),
    targetHead: tip >= 0 ? tip : null,
    genesisHeight: profile.genesisHeight,
  };
  const options: ScenarioSourceOptions = { mix: [], wire: {}, heights: null, accounts: [], validate: 0, seed: o.scenario.seed, profile: o.profileSource, transactions: null };
  return { url, options, replay, resumeAt: {} };
}

/** The model of one segment: the scenario's, its time scaled to the segment (interleaved runs). */
function segmentModel(model: ArrivalModel, fraction: number): ArrivalModel {
  if (model.kind === 'closed' || fraction === 1) return model;
  return { ...model, stages: model.stages.map((s) => ({ ...s, durationMs: Math.round(s.durationMs * fraction) })) };
}

/** The source's options for the next segment: its transactions resume after those already sent. */
const withResume = (p: Prepared): ScenarioSourceOptions =>
  p.options.transactions === null ? p.options : { ...p.options, transactions: { ...p.options.transactions, resumeAt: { ...p.resumeAt } } };

/**
 * One engine run of a node. `onMeasureStart` is told when its measured window opens (epoch ms, on the engine's
 * own clock): the engine's first progress tick says how far into the window it closed (`elapsedMs`, negative in
 * the warm-up), so the window opened that long before the tick arrived. The first tick closes at or before the
 * window opens whenever there is a warm-up (ticks are aligned on the window's start); without one, 1 s into it.
 * Late by the tick's passage from the engine's thread only (a few ms): the run's own `startedAt` says it exactly after.
 */
async function runSegment(p: Prepared, o: RunLoadOptions, model: ArrivalModel, durationMs: number, warmupMs: number, share = 1, onMeasureStart?: (epochMs: number) => void): Promise<EngineResult> {
  const s = o.scenario;
  const endpoint = rpcEndpoint(p.url, o.profile.rpcPath);
  let told = onMeasureStart === undefined;
  return runEngine({
    url: endpoint,
    model,
    warmupMs,
    durationMs,
    maxInFlight: Math.max(1, Math.ceil(s.maxInFlight * share)),
    connections: Math.max(1, Math.ceil(s.connections * share)),
    timeoutMs: s.timeoutMs,
    // With faults a node that does not answer is what is measured, not a reason to stop.
    ...(o.chaos === undefined ? {} : { unreachableMs: Number.POSITIVE_INFINITY }),
    source: p.replay === undefined ? { module: moduleBeside(SCENARIO_SOURCE), options: withResume(p) as unknown as JsonValue } : { module: moduleBeside(REPLAY_SOURCE), options: p.replay as unknown as JsonValue },
    threads: o.threads,
    // The generator on a thread of its own: the tracker and the progress stay here, off its schedule.
    worker: true,
    seed: s.seed,
    ...(o.maxLagP99Us === undefined ? {} : { maxLagP99Us: o.maxLagP99Us }),
    ...(o.signal === undefined ? {} : { signal: o.signal }),
    onProgress: (progress) => {
      if (!told) {
        told = true;
        onMeasureStart?.(epochNow() - progress.elapsedMs);
      }
      const inclusion = p.tracker?.progress();
      o.onProgress?.({ ...progress, url: p.url, ...(inclusion === undefined ? {} : inclusion) });
    },
    ...(p.tracker === undefined
      ? {}
      : {
          onTracked: (outcomes: TrackedOutcome[]) => {
            for (const outcome of outcomes) {
              p.tracker?.record(outcome);
              const tag = outcome.tag as { sender?: unknown; nonce?: unknown } | null;
              if (typeof tag?.sender === 'string' && typeof tag.nonce === 'number') p.resumeAt[tag.sender] = Math.max(p.resumeAt[tag.sender] ?? 0, tag.nonce + 1);
            }
          },
        }),
  });
}

/** The engine's tick (runEngine's default tickMs, which runSegment keeps). */
const TICK_MS = 1_000;

/**
 * The tracker's pending and included counts put on the run's timeline, each at its tick's end. The timeline joins the node's segments
 * end to end in measured time; the tracker's series runs on the wall clock, through the other nodes' segments
 * too. Each timeline point is taken back to its wall-clock time through its segment's start.
 */
function withInclusion(timeline: readonly TimelinePoint[], segments: readonly LoadRun[], series: readonly InclusionPoint[], originMs: number): TimelinePoint[] {
  const starts: { fromMs: number; wallMs: number }[] = [];
  let offset = 0;
  for (const seg of segments) {
    starts.push({ fromMs: offset, wallMs: Date.parse(seg.startedAt) + seg.warmupMs });
    offset += seg.durationMs;
  }
  return timeline.map((point, i) => {
    const seg = starts.findLast((st) => point.tMs >= st.fromMs) ?? starts[0];
    if (seg === undefined) return point;
    // At the tick's end (the next point's start, at most a tick on), as the chart draws it.
    const next = timeline[i + 1]?.tMs;
    const end = point.tMs + Math.min(TICK_MS, next !== undefined && next > point.tMs ? next - point.tMs : TICK_MS);
    const t = seg.wallMs + (end - seg.fromMs) - originMs;
    const at = series.findLast((q) => q.tMs <= t);
    return at === undefined ? point : { ...point, pending: at.pending, included: at.included };
  });
}

/**
 * A node made ready for a scenario without running it (what `chainrpc load k6` needs to write k6's data): its
 * recent heights, the accounts funded for it, and for transactions a corpus signed for its senders.
 */
export async function prepareTarget(url: string, o: Omit<RunLoadOptions, 'urls' | 'threads'>, workDir: string): Promise<ScenarioSourceOptions> {
  mkdirSync(workDir, { recursive: true });
  return (await prepare(url, 0, { ...o, urls: [url], threads: 1 }, workDir, false)).options;
}

export async function runLoad(o: RunLoadOptions): Promise<LoadRun[]> {
  // The corpora signed for this run are its own: gone when it ends, however it ends (the default work folder kept
  // every one before, 166 MB on a tester's machine in a day).
  const made: string[] = [];
  try {
    return await loadPrepared(o, made);
  } finally {
    for (const corpus of made) rmSync(corpus, { force: true });
  }
}

async function loadPrepared(o: RunLoadOptions, made: string[]): Promise<LoadRun[]> {
  const s = o.scenario;
  const workDir = o.workDir ?? join(tmpdir(), 'chainrpc-load');
  mkdirSync(workDir, { recursive: true });
  // Each --metrics-url read once before anything is sent, as a --pid is checked: a page that gives nothing is exit 2.
  await checkMetricsPages(o);
  const prepared: Prepared[] = [];
  try {
    for (const [i, url] of o.urls.entries()) {
      o.signal?.throwIfAborted();
      prepared.push(await prepare(url, i, o, workDir, true, made));
    }
  } catch (error) {
    // Interrupted during setup (funding waits for blocks): nothing was sent, so no run; the trackers started stop.
    await Promise.all(prepared.flatMap((p) => (p.tracker === undefined ? [] : [p.tracker.stop()])));
    if (o.signal?.aborted === true) return [];
    throw error;
  }

  // When Ctrl-C came (epoch ms): a run interrupted in its warm-up says how far into it (nothing measured).
  let abortedAtMs: number | undefined;
  const onAbort = (): void => void (abortedAtMs ??= epochNow());
  if (o.signal?.aborted === true) onAbort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  // t = 0 of every health figure (the heads' times and the processes' series).
  const healthOriginMs = epochNow();
  // Every node is followed for the whole run, also while another is loaded: each head lag is measured against all the others at every moment.
  const heads = o.health === undefined || o.health === null ? undefined : followHeads({ urls: o.urls, profile: o.profile, intervalMs: o.health.intervalMs, reference: o.health.reference, startedAtMs: healthOriginMs });
  const samplers = startSamplers(o.urls, pidsOf(o), o.metricsUrls, o.metricNames, (line) => o.log(`load: ${line}`));
  // Staged rates run whole (a stage split in three would not be the same load); otherwise rounds.
  const rounds = roundsOf(o);
  const parts = new Map<string, LoadRun[]>(o.urls.map((u) => [u, []]));
  let faults: Faults | undefined;
  try {
    if (o.chaos !== undefined) faults = await loadTogether(prepared, o, parts, heads);
    else outer: for (let round = 0; round < rounds; round++) {
      for (const p of prepared) {
        if (o.signal?.aborted === true) break outer;
        // Rounded so the rounds add up to the whole duration exactly.
        const durationMs = Math.round(((round + 1) * s.durationMs) / rounds) - Math.round((round * s.durationMs) / rounds);
        if (rounds > 1) o.log(`load: ${p.url}: round ${round + 1} of ${rounds}`);
        const result = await runSegment(p, o, segmentModel(s.model, durationMs / s.durationMs), durationMs, round === 0 ? s.warmupMs : laterWarmupMs(s));
        parts.get(p.url)?.push(segmentRun(result, p, s.name));
        if (result.stop.reason === 'interrupted') break outer;
      }
    }
  } catch (error) {
    // The engine failed (a source that throws, a thread that cannot start): the trackers and followers stop with
    // it, or their polling would keep the process alive after the error is reported.
    await faults?.chain.close();
    await Promise.all([...prepared.flatMap((p) => (p.tracker === undefined ? [] : [p.tracker.stop()])), heads?.stop()]);
    await Promise.all([...samplers.values()].map((sampler) => sampler.stop()));
    throw error;
  }
  // The head lag's trend starts where measuring did (the first warm-up left out).
  const measuredFrom = Math.min(...[...parts.values()].flatMap((list) => list.slice(0, 1).map((seg) => measuredWindow(seg).fromMs)));
  const health = await heads?.stop(Number.isFinite(measuredFrom) ? measuredFrom : undefined);
  await Promise.all([...samplers.values()].map((sampler) => sampler.stop()));
  const runs: LoadRun[] = [];
  const notLoaded: string[] = [];
  for (const p of prepared) {
    const list = parts.get(p.url) ?? [];
    if (list.length === 0) {
      // Interrupted before this node's turn: its tracker has nothing to follow.
      await p.tracker?.stop();
      notLoaded.push(p.url);
      continue;
    }
    const run = nothingMeasured(mergeRuns(list), abortedAtMs);
    let ledger: TransactionLedger | undefined;
    if (p.tracker !== undefined) {
      // Interrupted: what is known now; else follow the chain a little longer for what is still pending.
      // The figures are the measured windows' transactions; the warm-up's are followed too, and counted apart.
      const windows = list.map(measuredWindow);
      const tracked = o.signal?.aborted === true ? await p.tracker.stop(windows) : await p.tracker.finish(windows);
      run.inclusion = p.lanes === undefined ? tracked.stats : { ...tracked.stats, lanes: p.lanes };
      run.timeline = withInclusion(run.timeline, list, tracked.series, p.trackerOriginMs ?? 0);
      ledger = tracked.ledger;
    }
    if (faults !== undefined) {
      // The run's outages on the faults' clock (its engine began measuring a moment apart from the schedule's t = 0).
      const shift = Date.parse(run.startedAt) + run.warmupMs - faults.measureStartMs;
      // Kept on the schedule's clock, as the events are (its t = 0 comes a worker's start-up before the engine's).
      if (run.outages !== undefined) run.outages = { ...run.outages, kept: run.outages.kept.map((x) => shifted(x, shift)) };
      run.chaos = clientsAtFaults(run, o.chaos?.network.nodes.find((n) => n.url === p.url)?.name ?? p.url, faults.events, ledger, faults.consistency);
      const notDone = faultsNotDone(faults.events);
      if (notDone !== undefined) Object.assign(run, { valid: false, invalid: [...run.invalid, notDone] });
    }
    // The report keeps the outages nearest the faults (OutageLog.ts); the figures above were computed from all.
    if (run.outages !== undefined) run.outages = outagesForReport(run.outages, faults?.events.map((e) => e.atMs) ?? []);
    const head = health?.get(p.url);
    const sampler = samplers.get(p.url);
    const resources = sampler?.resources(list.map(measuredWindow), answeredCalls(run), healthOriginMs);
    const reads = run.health?.reads === undefined ? undefined : fromOrigin(run.health.reads, healthOriginMs);
    if (head !== undefined || resources !== undefined || reads !== undefined) run.health = { ...(head === undefined ? {} : { head }), ...(resources === undefined ? {} : { resources }), ...(reads === undefined ? {} : { reads }) };
    run.thresholds = evaluateThresholds(run, s.thresholds, (m) => wireMethod(o.profile, m));
    runs.push(run);
  }
  saidNotLoaded(runs, notLoaded);
  o.signal?.removeEventListener('abort', onAbort);
  if (faults !== undefined) {
    o.chaos?.onChaos({ originAt: new Date(faults.measureStartMs).toISOString(), nodes: o.chaos.network.nodes.map((n) => ({ name: n.name, kind: n.kind, url: n.url })), steps: stepsOf(o.chaos.steps), events: faults.events, consistency: faults.consistency });
    await faults.chain.close();
  }
  return runs;
}

/**
 * Nodes an interrupted comparison never loaded (Ctrl-C before their turn) have no run: the interrupted runs say so
 * in their stop's message, which the verdict and the pages show (an outside tester's second node was left out of the
 * report without a word).
 */
function saidNotLoaded(runs: LoadRun[], urls: readonly string[]): void {
  if (urls.length === 0) return;
  const note = `${urls.join(', ')} not loaded: interrupted before ${urls.length === 1 ? 'its' : 'their'} turn`;
  for (const run of runs) {
    if (run.stop.reason === 'interrupted') run.stop = { ...run.stop, message: run.stop.message === undefined ? note : `${run.stop.message}; ${note}` };
  }
}

const shifted = (x: Outage, by: number): Outage => ({ ...x, fromMs: x.fromMs + by, lastFailedMs: x.lastFailedMs + by, toMs: x.toMs === null ? null : x.toMs + by });

/** A run with faults, once the load is over: the events with the chain's figures, and the chain's consistency. */
interface Faults {
  measureStartMs: number;
  events: ChaosReport['events'];
  consistency: ChaosReport['consistency'];
  chain: ChainView;
}

/**
 * Every node loaded at once, each with its share of the scenario's rate, while the fault schedule runs: the
 * schedule's t = 0 is the start of measurement. Then the chain's side of each event, from the head followers.
 */
async function loadTogether(prepared: readonly Prepared[], o: RunLoadOptions, parts: Map<string, LoadRun[]>, heads: HeadWatch | undefined): Promise<Faults> {
  const chaos = o.chaos;
  if (chaos === undefined) throw new Error('loadTogether without a schedule');
  if (heads === undefined) throw new Error('a run with faults needs the heads followed (--head-hz above 0)');
  const s = o.scenario;
  const share = 1 / prepared.length;
  const chain = new ChainView(chaos.network, o.profile);
  try {
    // Each engine tells when its measured window opened (its worker threads take 0.4 to 2 s to start, so that is
    // not now + the warm-up): the schedule's t = 0 is the moment every node is measured, the latest of them.
    const told = prepared.map(() => deferred<number>());
    const loading = Promise.allSettled(prepared.map((p, i) => runSegment(p, o, sharedModel(s.model, share), s.durationMs, s.warmupMs, share, told[i]?.resolve)));
    const zero = await Promise.race([Promise.all(told.map((t) => t.promise)).then((starts) => Math.max(...starts)), loading.then(() => undefined)]);
    // A load that ended before every engine measured (a failure, Ctrl-C in the warm-up): nothing of the schedule runs.
    const runner = runChaos({ steps: chaos.steps, network: chaos.network, chain, measureStartMs: zero ?? epochNow(), log: o.log });
    const loaded = await loading;
    // Every fault is bounded: what is not yet due is cancelled and a paused node resumed, also when a load failed.
    const acted = await runner.stop();
    const failed = loaded.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const results = loaded.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    prepared.forEach((p, i) => {
      const result = results[i];
      if (result !== undefined) parts.get(p.url)?.push(segmentRun(result, p, s.name));
    });
    // The runs say exactly when their windows opened (the tick that told it came a few ms later): the report's
    // clock is the latest of them, and the events' times are put on it.
    const opened = results.map((r) => Date.parse(r.startedAt) + r.warmupMs);
    const measureStartMs = opened.length === 0 ? (zero ?? epochNow()) : Math.max(...opened);
    const late = (zero ?? measureStartMs) - measureStartMs;
    for (const e of acted) e.atMs = Math.round(e.atMs + late);
    const originMs = heads.originEpochMs;
    const points = new Map<string, HeadPoint[]>();
    for (const n of chaos.network.nodes) {
      const follower = heads.followers.get(n.url);
      if (follower !== undefined) points.set(n.name, headPoints(follower.samples, originMs, measureStartMs));
    }
    const events = await chainAfterFaults(acted, points, chain);
    const consistency = await consistencyAfter(events, chain);
    return { measureStartMs, events, consistency, chain };
  } catch (error) {
    // Its clients would keep the process alive after the error is reported.
    await chain.close();
    throw error;
  }
}

/** A promise and its resolve (Promise.withResolvers is Node 22's). */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** What has been said on a console (its log function): a sweep runs a load per step, and says a page's lacks once. */
const saidOn = new WeakMap<(line: string) => void, Set<string>>();

/** Reads each node's --metrics-url once (a node read by its pid has none): refused when it gives nothing, and what it lacks said. */
async function checkMetricsPages(o: RunLoadOptions): Promise<void> {
  const said = saidOn.get(o.log) ?? new Set<string>();
  saidOn.set(o.log, said);
  for (const [i, url] of o.urls.entries()) {
    const page = o.metricsUrls?.[i];
    if (page === undefined || o.pids?.[i] !== undefined) continue;
    const checked = await checkMetricsPage(page, url, o.metricNames);
    for (const note of [lacksNote(page, checked.lacks), missingNote(page, checked.missing)]) {
      if (note === undefined || said.has(note)) continue;
      said.add(note);
      o.log(`load: ${note}`);
    }
  }
}

/** The nodes' processes: as given, or in a run with faults on a devnet chainrpc started, each node's process of the moment (a restart replaces it). */
function pidsOf(o: RunLoadOptions): readonly (number | (() => number | undefined) | undefined)[] | undefined {
  const network = o.chaos?.network;
  if (network?.pidOf === undefined) return o.pids;
  return o.urls.map((url) => {
    const node = network.nodes.find((n) => n.url === url);
    return node === undefined ? undefined : () => network.pidOf?.(node.name);
  });
}

/** One node's share of the scenario's arrivals: an open model's rates scaled (a closed model's connections are scaled by runSegment). */
function sharedModel(model: ArrivalModel, share: number): ArrivalModel {
  if (model.kind === 'closed' || share === 1) return model;
  return { ...model, stages: model.stages.map((st) => ({ ...st, from: st.from * share, to: st.to * share })) };
}

/** The reads' example times (epoch ms, as the engine threads give them) as ms from the run's health origin. */
function fromOrigin(reads: ReadRegressions, originMs: number): ReadRegressions {
  const at = (ms: number): number => Math.round(ms - originMs);
  return { ...reads, examples: reads.examples.map((e) => ({ ...e, atMs: at(e.atMs), previous: { ...e.previous, atMs: at(e.previous.atMs) } })) };
}

/** A segment's measured window, epoch ms (its warm-up left out). */
function measuredWindow(segment: LoadRun): MeasuredWindow {
  const fromMs = Date.parse(segment.startedAt) + segment.warmupMs;
  return { fromMs, toMs: fromMs + segment.durationMs };
}

/** Calls the node answered (a result or an error object) in a run's measured windows. */
const answeredCalls = (run: LoadRun): number => run.methods.reduce((n, m) => n + m.calls - m.unanswered, 0);

/** The open model's rate as the scenario asks it over its stages (their time-weighted mean); null in the closed model. */
function plannedTargetRate(model: ArrivalModel): number | null {
  if (model.kind !== 'open') return null;
  const ms = model.stages.reduce((n, st) => n + st.durationMs, 0);
  if (ms <= 0) return model.stages[0]?.from ?? 0;
  return model.stages.reduce((n, st) => n + ((st.from + st.to) / 2) * st.durationMs, 0) / ms;
}

/**
 * A run that measured nothing (Ctrl-C, or any stop, before its warm-up ended) said as such: the scenario's target
 * kept (the engine's target over a window of 0 ms is 0), the stop told in the warm-up's terms (not "at -4385 ms of
 * the measured window"), and the run invalid: no figure of it stands for the node. Any other run as it is.
 */
export function nothingMeasured(run: LoadRun, abortedAtMs: number | undefined): LoadRun {
  if (run.durationMs > 0 || run.schedule.scheduled > 0 || run.latency.count > 0) return run;
  const startedMs = Date.parse(run.startedAt);
  const atMs = run.stop.reason === 'interrupted' && abortedAtMs !== undefined ? abortedAtMs : Date.parse(run.endedAt);
  const into = Math.max(0, Math.min(run.warmupMs, Math.round(atMs - startedMs)));
  const what = run.stop.reason === 'interrupted' ? 'interrupted' : `stopped (${run.stop.reason})`;
  const when = run.warmupMs > 0 ? `${into.toLocaleString('en-US')} ms into the ${run.warmupMs.toLocaleString('en-US')} ms warm-up` : 'before it began';
  const message = `${what} ${when}, before the measured window opened: nothing was measured`;
  return {
    ...run,
    schedule: { ...run.schedule, targetRate: plannedTargetRate(run.model) },
    valid: false,
    invalid: [...run.invalid, `nothing was measured: the run was ${what} ${when}`],
    stop: { ...run.stop, atMs: 0, message },
  };
}
