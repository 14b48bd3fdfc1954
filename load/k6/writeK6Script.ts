/**
 * `chainrpc load k6`: a scenario of the load harness as a runnable k6 test. The folder holds script.js (a
 * few generated lines), chainrpc.k6.js (the runtime, copied as it is), data.json (the mix with wire names,
 * the params' sources, k6's scenarios and thresholds) and, when the mix sends transactions, corpus.json (the
 * pre-signed lanes, read into a SharedArray). What k6 cannot express is refused with the feature named
 * (K6Unsupported); what only the Node engine measures (inclusion, schedule lag, result validation) is left
 * out of k6's thresholds and listed in `notJudged`.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rpcEndpoint } from '../../core/client/baseUrl.js';
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
import { fileHead } from '../../core/files/ownedFolder.js';
import type { FolderRules } from '../../core/files/ownedFolder.js';
import { stringifyJson, type JsonValue } from '../../core/json/index.js';
import { packageRoot } from '../../core/paths.js';
import type { Profile } from '../../profile/Profile.js';
import { wireMethod } from '../../profile/Profile.js';
import type { ArrivalModel, RateStage } from '../model.js';
import { drawOf, paramNamesOf, type K6Draw, type ParamsDraw } from '../requests/drawParams.js';
import type { ResolvedCall, ResolvedScenario } from '../scenario/loadScenario.js';
import type { ScenarioSourceOptions } from '../scenario/scenarioSource.js';
import type { Threshold, ThresholdOp } from '../scenario/Threshold.js';
import { K6_BUCKET_MAX, K6_BUCKET_MIN, K6_BUCKETS_PER_OCTAVE, K6_UNMEASURED_METRICS } from './K6Summary.js';

export const K6_DATA_FORMAT = 'chainrpc-k6-data/1';
/** The k6 runtime, a plain JavaScript file of the package (the build does not touch it). */
export const K6_RUNTIME = join(packageRoot, 'load', 'k6', 'chainrpc.k6.js');

/** The first line of every script.js this file writes (scriptText): how a test chainrpc made is recognised. */
const SCRIPT_HEAD = '// k6 test of the chainrpc scenario "';

/**
 * The folder a k6 test goes into (chainrpc load k6 --out): a new or empty folder, or one chainrpc load k6
 * made (its marker, or from before markers its script.js), whose files of an earlier test are replaced and
 * whose k6 summaries are kept. A folder of anything else is refused (core/files/ownedFolder.ts).
 */
export const K6_FOLDER: FolderRules = {
  madeBy: 'chainrpc load k6',
  recognise: (dir) => fileHead(join(dir, 'script.js'), SCRIPT_HEAD.length) === SCRIPT_HEAD,
  advice: 'give --out a new or empty folder, or one chainrpc load k6 made',
};

/** The setup's scratch folder inside a k6 test's folder, removed once the test is written. */
export const K6_WORK_FOLDER = '.work';

/** A scenario k6 cannot run as written: names the feature and what to do. */
export class K6Unsupported extends ChainrpcError {
  readonly kind = 'usage';
}

/**
 * JSON-RPC error codes and HTTP statuses the runtime counts with counters made beforehand (the standard codes and the
 * profile range; the usual statuses). It counts any other exactly too, by a k6 check named after it
 * (load/k6/chainrpc.k6.js, CHECK_ERROR and CHECK_HTTP): these lists only spare the common ones a check.
 */
export const CODES = [-32700, -32600, -32601, -32602, -32603, ...Array.from({ length: 21 }, (_, i) => -32000 - i)];
export const STATUSES = [400, 401, 403, 404, 405, 408, 411, 413, 414, 415, 429, 431, 500, 501, 502, 503, 504];

/**
 * The k6 runtime's draw of a call's params (load/k6/chainrpc.k6.js `paramsOf`), read from the table the Node
 * engine draws from (load/requests/drawParams.ts): `none` for a method that takes no params. A method that
 * takes params the runtime cannot draw is refused, never sent `[]`.
 */
export function k6DrawOf(method: string, table?: Readonly<Record<string, ParamsDraw>>): K6Draw | 'none' {
  const draw = drawOf(method, table);
  if (draw === 'none') return 'none';
  const params = paramNamesOf(method).join(', ');
  if (draw === undefined) {
    throw new K6Unsupported(`${method} under k6: it takes params (${params}) and load/requests/drawParams.ts has no draw for them; give its call fixed "params" in the scenario`);
  }
  if (draw.k6 === undefined) {
    throw new K6Unsupported(`${method} under k6: it takes params (${params}), which only the Node engine draws (load/requests/drawParams.ts gives no k6 draw); give its call fixed "params", or run it with the Node engine (chainrpc load)`);
  }
  return draw.k6;
}

const TREND_STAT: Record<string, string> = { p50: 'p(50)', p90: 'p(90)', p99: 'p(99)', p999: 'p(99.9)', max: 'max', mean: 'avg', 'service-p50': 'p(50)', 'service-p99': 'p(99)' };

const ms = (n: number): string => `${Math.round(n)}ms`;

/** k6's rate and timeUnit for `perSecond` (k6 rates are integers per time unit). */
function rateOf(perSecond: number): { rate: number; timeUnit: string } {
  if (Number.isInteger(perSecond)) return { rate: perSecond, timeUnit: '1s' };
  return { rate: Math.round(perSecond * 1000), timeUnit: '1000s' };
}

/** k6's scenario whose iterations are measured (the runtime, the summary and the merge know it by this name). */
export const K6_MEASURED_SCENARIO = 'chainrpc';
/** An open model's warm-up: its own scenario before the measured one, so that k6 counts the two's drops apart. */
export const K6_WARMUP_SCENARIO = 'warmup';
/**
 * What a request still in flight when the measured scenario ends gets beyond the scenario's timeout before k6
 * stops it (its gracefulStop): every request then ends, answered or timed out, and is counted. A shorter stop
 * cut requests off unanswered and uncounted (5 s against a 10 s timeout lost 40 of 121 requests).
 */
export const K6_STOP_MARGIN_MS = 2_000;

/**
 * Where the runtime's measured window lies: the iterations of `scenario` that begin `afterMs` or more after it
 * starts. An open model's warm-up is a scenario of its own (afterMs 0); a closed model's is the start of its one
 * scenario (constant-vus drops nothing, so nothing needs counting apart).
 */
export interface K6MeasuredWindow {
  scenario: string;
  afterMs: number;
}

export const k6MeasuredWindow = (s: ResolvedScenario): K6MeasuredWindow => ({ scenario: K6_MEASURED_SCENARIO, afterMs: s.model.kind === 'closed' || warmsUpInWindow(s) ? s.warmupMs : 0 });

/**
 * An open model that signs transactions warms up inside its measured scenario, not in a scenario of its own: a VU's
 * id names its sender's lane, and k6 gives two scenarios the same VUs only when they do not overlap, so a warm-up
 * scenario of its own would have to stop at once, and a transaction abandoned in flight there (its lane's nonce
 * taken, the node maybe never reached) left a gap that the lane's next transaction met in the window, refused (a CI
 * run broke errors < 1% so). Its window's drops then include the warm-up's, said in docs/load.md.
 */
const warmsUpInWindow = (s: ResolvedScenario): boolean => s.model.kind === 'open' && s.transactions !== undefined && s.warmupMs > 0;

/**
 * k6's scenarios option. The measured window is the scenario K6_MEASURED_SCENARIO, stopped gracefully after
 * the timeout and a margin (K6_STOP_MARGIN_MS). An open model's warm-up runs before it as K6_WARMUP_SCENARIO, at
 * the first rate, so that k6's dropped_iterations of the measured scenario are the window's own. The warm-up stops
 * gracefully too, so that its requests in flight at the window's start end there and count toward the achieved
 * rate, as the Node engine counts them (they stand for the window's own still in flight at its end). Until
 * 2026-11-29 it stopped at once (gracefulStop 0), abandoning them: the achieved rate fell short by latency /
 * window (an outside tester's node answering in 200 ms got 98.0% over 10 s, FAILED achieved >= 99%). The cost: k6
 * adds up the VUs of scenarios that overlap, so it starts both scenarios' pre-allocated VUs.
 */
/** The fewest VUs k6 starts before an open model's run (when maxVUs allows). */
const PRE_ALLOCATED_VUS = 100;

export function k6Scenarios(s: ResolvedScenario, maxVUs: number): Record<string, JsonValue> {
  const model: ArrivalModel = s.model;
  const gracefulStop = ms(s.timeoutMs + K6_STOP_MARGIN_MS);
  if (model.kind === 'closed') return { [K6_MEASURED_SCENARIO]: { executor: 'constant-vus', vus: model.connections, duration: ms(s.warmupMs + s.durationMs), gracefulStop } };
  if (model.distribution === 'poisson') {
    throw new K6Unsupported('Poisson arrivals: k6\'s arrival-rate executors start iterations evenly spaced; give the scenario "distribution": "uniform" to run it under k6, or run it with the Node engine (chainrpc load)');
  }
  // VUs k6 starts before the run: enough for answers within a second at the peak rate (100 at least, maxVUs at most).
  // Beyond them k6 starts VUs during the run and drops the iterations due meanwhile: with 100, an outside tester's
  // node answering in 600 ms at 250/s had 104 to 134 requests dropped that the Node engine sent. Each VU costs k6
  // a few MB (about 4 MB with this script), so not maxVUs whatever the rate.
  const peak = Math.max(...model.stages.map((st) => Math.max(st.from, st.to)));
  const vus = { preAllocatedVUs: Math.min(maxVUs, Math.max(PRE_ALLOCATED_VUS, Math.ceil(peak))), maxVUs };
  const [first] = model.stages;
  if (first === undefined) throw new K6Unsupported('a scenario without stages');
  if (warmsUpInWindow(s)) {
    // The warm-up at the first rate, then the window's stages (one constant rate stays one steady rate throughout).
    const steady = model.stages.length === 1 && first.from === first.to;
    const warmed = steady ? model.stages : [{ ...first, to: first.from, durationMs: s.warmupMs }, ...model.stages];
    return { [K6_MEASURED_SCENARIO]: { ...arrivals(warmed, s.warmupMs + s.durationMs), ...vus, gracefulStop } };
  }
  const measured = { ...arrivals(model.stages, s.durationMs), ...(s.warmupMs > 0 ? { startTime: ms(s.warmupMs) } : {}), ...vus, gracefulStop };
  // A warm-up at a first rate of 0 sends nothing: no scenario for it.
  if (s.warmupMs === 0 || first.from === 0) return { [K6_MEASURED_SCENARIO]: measured };
  const warmup = { ...steadyRate(first.from, s.warmupMs), ...vus, gracefulStop };
  return { [K6_WARMUP_SCENARIO]: warmup, [K6_MEASURED_SCENARIO]: measured };
}

/** A constant rate over `durationMs`: k6's constant-arrival-rate, which lasts 1 s at least; a shorter one a flat ramping-arrival-rate. */
function steadyRate(perSecond: number, durationMs: number): Record<string, JsonValue> {
  const { rate, timeUnit } = rateOf(perSecond);
  if (durationMs >= 1000) return { executor: 'constant-arrival-rate', rate, timeUnit, duration: ms(durationMs) };
  return { executor: 'ramping-arrival-rate', startRate: rate, timeUnit, stages: [{ target: rate, duration: ms(durationMs) }] };
}

/** The executor of an open model's measured window: a constant rate, or its stages (whole rates only). */
function arrivals(stages: readonly RateStage[], durationMs: number): Record<string, JsonValue> {
  const [first] = stages as [RateStage];
  if (stages.length === 1 && first.from === first.to) return steadyRate(first.from, durationMs);
  if (stages.some((st) => !Number.isInteger(st.from) || !Number.isInteger(st.to))) throw new K6Unsupported('fractional rates in stages: k6\'s ramping-arrival-rate takes whole targets per second');
  const out: JsonValue[] = [];
  let at = first.from;
  for (const st of stages) {
    if (st.from !== at) out.push({ target: st.from, duration: '0s' });
    out.push({ target: st.to, duration: ms(st.durationMs) });
    at = st.to;
  }
  return { executor: 'ramping-arrival-rate', startRate: first.from, timeUnit: '1s', stages: out };
}

const K6_OP: Record<string, string> = { '<': '<', '<=': '<=', '>': '>', '>=': '>=', '==': '==' };

/**
 * A threshold on latency or errors as a k6 threshold (the runtime's Trends and Rate); undefined for any other
 * metric. Latency over the run is each request's once (`chainrpc_latency`); a method's is each of its calls'
 * (`chainrpc_call_latency`, tagged by the name it was sent under), as the merged figures count them. Errors are
 * calls' (`chainrpc_call_failed`, tagged by method).
 */
export function k6CallThreshold(t: Threshold, method: string | undefined): { metric: string; expr: string } | undefined {
  const op = K6_OP[t.op] ?? t.op;
  const scoped = (base: string): string => (method === undefined ? base : `${base}{method:${method}}`);
  const stat = TREND_STAT[t.metric];
  if (stat !== undefined) return { metric: method === undefined ? 'chainrpc_latency' : scoped('chainrpc_call_latency'), expr: `${stat}${op}${t.limit}` };
  if (t.metric === 'errors') return { metric: scoped('chainrpc_call_failed'), expr: `rate${op}${t.limit / 100}` };
  return undefined;
}

/**
 * A limit on the measured window's dropped iterations, for the whole test: `count <op> limit`. Each k6 instance
 * judges its own share of an upper limit (`<`, `<=`: the runtime scales it by CHAINRPC_SHARE, the instance's share
 * of the test), so the instances keeping theirs keep the whole's; any other is judged as it is written.
 */
export interface K6DropLimit {
  op: ThresholdOp;
  limit: number;
}

/** The open model's iterations due in the measured window (warm-up left out). */
const measuredIterations = (s: ResolvedScenario): number =>
  s.model.kind === 'open' ? s.model.stages.reduce((n, st) => n + ((st.from + st.to) / 2) * (st.durationMs / 1000), 0) : 0;

/** The scenario's thresholds as k6 thresholds and drop limits; those only the Node engine measures are returned apart. */
export function k6Thresholds(s: ResolvedScenario, profile: Profile): { thresholds: Record<string, string[]>; notJudged: string[]; dropLimits: K6DropLimit[] } {
  const thresholds: Record<string, string[]> = {};
  const notJudged: string[] = [];
  const dropLimits: K6DropLimit[] = [];
  for (const t of s.thresholds) {
    if (K6_UNMEASURED_METRICS.has(t.metric)) {
      notJudged.push(t.text);
      continue;
    }
    const call = k6CallThreshold(t, t.method === undefined ? undefined : wireMethod(profile, t.method));
    if (call !== undefined) (thresholds[call.metric] ??= []).push(call.expr);
    else if (t.metric === 'dropped' && t.unit === 'count') dropLimits.push({ op: t.op, limit: t.limit });
    else if (t.metric === 'achieved' && (t.op === '>=' || t.op === '>') && s.model.kind === 'open') {
      // achieved >= X% of the target: no more than (100 - X)% of the measured window's iterations dropped.
      dropLimits.push({ op: t.op === '>=' ? '<=' : '<', limit: ((100 - t.limit) / 100) * measuredIterations(s) });
    } else throw new K6Unsupported(`threshold "${t.text}": k6 has no figure for it (${t.metric}${t.unit === '%' ? ' as a percentage' : ''}); run it with the Node engine (chainrpc load)`);
  }
  return { thresholds, notJudged, dropLimits };
}

export interface K6ScriptOptions {
  scenario: ResolvedScenario;
  url: string;
  profile: Profile;
  /** What the node's setup gave (load/runLoad.ts prepareTarget): heights, funded accounts, the corpus. */
  prepared: ScenarioSourceOptions;
  out: string;
  version: string;
  /** An n-way split (execution segments): also writes each segment's share of the corpus. */
  segments?: number;
}

export interface WrittenK6Script {
  dir: string;
  files: string[];
  /** Thresholds of the scenario that k6 does not judge (the Node engine's only). */
  notJudged: string[];
  /** The most VUs the test uses: at most the corpus's lanes, when the mix sends transactions. */
  maxVUs: number;
}

const BATCHED_TRANSACTIONS = 'transactions in batches (transactions.batchSize > 1): a k6 VU owns one sender\'s lane and sends its transactions one at a time; give --batch-size 1';

/**
 * Everything k6 cannot run in a scenario, refused (K6Unsupported) from the scenario and the profile alone:
 * transactions in batches, more closed-model connections than senders, Poisson arrivals, fractional staged
 * rates, thresholds k6 has no figure for, params the k6 runtime cannot draw. `chainrpc load k6` calls it before
 * it touches the node or the --out folder (until 2026-11-28 batched transactions were refused only once a whole
 * corpus was funded and signed); writeK6Script calls it again. Returns the test's most VUs: one request in flight
 * per VU, and with transactions no more VUs than senders.
 */
export function checkK6Scenario(s: ResolvedScenario, profile: Profile): number {
  const sends = s.transactions !== undefined;
  if (sends && (s.transactions?.batchSize ?? 1) > 1) throw new K6Unsupported(BATCHED_TRANSACTIONS);
  const senders = s.transactions?.senders ?? 0;
  const maxVUs = sends ? Math.min(s.maxInFlight, senders) : s.maxInFlight;
  if (sends && s.model.kind === 'closed' && s.model.connections > senders) {
    throw new K6Unsupported(`a closed model of ${s.model.connections} connections over ${senders} senders: each k6 VU owns one sender; give at most ${senders} connections`);
  }
  k6Scenarios(s, maxVUs);
  k6Thresholds(s, profile);
  const calls = s.mix.flatMap((e) => (e.kind === 'call' ? [e.call] : e.kind === 'batch' ? e.mix : []));
  for (const c of calls) if (c.params === undefined) k6DrawOf(c.method);
  return maxVUs;
}

/**
 * The most VUs of a test whose mix sends transactions, given the corpus it got (`lanes` senders): no more than its
 * lanes, since a VU sends only its own sender's. The scenario's `senders` is not the corpus's with --corpus: an
 * outside tester's corpus of 6 senders got maxVUs 32, and 26 VUs sent nothing, unsaid (the merge blamed the node).
 */
export function k6LaneVUs(s: ResolvedScenario, maxVUs: number, lanes: number): number {
  if (lanes === 0) throw new K6Unsupported('a corpus without senders: a k6 VU sends only its own sender\'s transactions; give a corpus of at least one sender');
  if (s.model.kind === 'closed' && s.model.connections > lanes) {
    throw new K6Unsupported(`a closed model of ${s.model.connections} connections over a corpus of ${lanes} senders: each k6 VU owns one sender; give at most ${lanes} connections, or a corpus of more senders`);
  }
  return Math.min(maxVUs, lanes);
}

/** Writes the k6 test of a prepared scenario into `out` (created if needed). */
export function writeK6Script(o: K6ScriptOptions): WrittenK6Script {
  const { scenario: s, profile, prepared } = o;
  const sends = s.transactions !== undefined;
  if (sends && (prepared.transactions?.batchSize ?? 1) > 1) throw new K6Unsupported(BATCHED_TRANSACTIONS);
  const corpusFile = sends ? prepared.transactions?.corpus : undefined;
  if (sends && corpusFile === undefined) throw new Error('writeK6Script: the mix sends transactions but the node was prepared without a corpus');
  const corpus = corpusFile === undefined ? undefined : (JSON.parse(readFileSync(corpusFile, 'utf8')) as { senders: unknown[] });
  const checked = checkK6Scenario(s, profile);
  const maxVUs = corpus === undefined ? checked : k6LaneVUs(s, checked, corpus.senders.length);
  const scenarios = k6Scenarios(s, maxVUs);
  const { thresholds, notJudged, dropLimits } = k6Thresholds(s, profile);
  const methods: string[] = [];
  const methodIndex = (spec: string): number => {
    const wire = wireMethod(profile, spec);
    const at = methods.indexOf(wire);
    return at === -1 ? methods.push(wire) - 1 : at;
  };
  const callEntry = (c: ResolvedCall): JsonValue => ({
    kind: 'call',
    weight: c.weight,
    method: methodIndex(c.method),
    params: c.params ?? null,
    draw: c.params !== undefined ? 'none' : k6DrawOf(c.method),
  });
  const batchSizes = new Set<number>();
  const mix = s.mix.map((e): JsonValue => {
    if (e.kind === 'call') {
      batchSizes.add(1);
      return callEntry(e.call);
    }
    if (e.kind === 'batch') {
      batchSizes.add(e.size);
      return { kind: 'batch', weight: e.weight, size: e.size, mix: e.mix.map(callEntry) };
    }
    batchSizes.add(1);
    return { kind: 'transactions', weight: e.weight };
  });
  const sendMethod = sends ? methodIndex('chain_sendRawTransaction') : -1;
  const specMethods = [...s.reads, ...(sends ? ['chain_sendRawTransaction'] : [])];
  const endpoint = rpcEndpoint(o.url, profile.rpcPath);
  const data = {
    format: K6_DATA_FORMAT,
    tool: { name: 'chainrpc', version: o.version },
    scenario: { name: s.name, definition: s.definition },
    profile: { name: profile.name, wire: Object.fromEntries(specMethods.map((m) => [m, wireMethod(profile, m)])) },
    url: o.url,
    endpoint,
    timeoutMs: s.timeoutMs,
    durationMs: s.durationMs,
    warmupMs: s.warmupMs,
    model: s.model,
    scenarios,
    measured: k6MeasuredWindow(s),
    thresholds,
    dropLimits,
    methods,
    sendMethod,
    mix,
    heights: prepared.heights,
    accounts: prepared.accounts,
    batchSizes: [...batchSizes].sort((a, b) => a - b),
    codes: CODES,
    statuses: STATUSES,
    buckets: { perOctave: K6_BUCKETS_PER_OCTAVE, min: K6_BUCKET_MIN, max: K6_BUCKET_MAX },
    notJudged,
  };
  const { files, write } = startTestFolder(o.out, data);
  if (corpusFile !== undefined && corpus !== undefined) {
    copyFileSync(corpusFile, join(o.out, 'corpus.json'));
    files.push('corpus.json');
    const segments = o.segments ?? 1;
    if (segments > 1) {
      // Each instance of an n-way split needs only its own senders' lanes (k % n = i).
      const whole = corpus;
      for (let i = 0; i < segments; i++) {
        write(`corpus-${i}-of-${segments}.json`, JSON.stringify({ ...whole, senders: whole.senders.filter((_, k) => k % segments === i) }));
      }
    }
  }
  write('script.js', scriptText(s.name, sends, notJudged));
  return { dir: o.out, files, notJudged, maxVUs };
}

/**
 * A k6 test's folder begun: made if needed, with data.json and the runtime beside it; `write` adds a file, and
 * `files` names every file written, in order.
 */
export function startTestFolder(out: string, data: Parameters<typeof stringifyJson>[0]): { files: string[]; write: (name: string, text: string) => void } {
  mkdirSync(out, { recursive: true });
  const files: string[] = [];
  const write = (name: string, text: string): void => {
    writeFileSync(join(out, name), text);
    files.push(name);
  };
  write('data.json', `${stringifyJson(data)}\n`);
  copyFileSync(K6_RUNTIME, join(out, 'chainrpc.k6.js'));
  files.push('chainrpc.k6.js');
  return { files, write };
}

export function scriptText(name: string, sends: boolean, notJudged: readonly string[], replay = false): string {
  return [
    `${SCRIPT_HEAD}${name.replace(/[^\x20-\x7e]/g, '?')}", generated by chainrpc load k6: do not edit; make it again.`,
    '// Run: K6_NO_USAGE_REPORT=true k6 run script.js   then: chainrpc load merge chainrpc-summary*.json',
    ...(notJudged.length === 0 ? [] : [`// Not judged by k6 (the Node engine measures them): ${notJudged.join('; ')}`]),
    "import { SharedArray } from 'k6/data';",
    "import { chainrpc } from './chainrpc.k6.js';",
    '',
    "const data = JSON.parse(open('./data.json'));",
    sends
      ? [
          '// CHAINRPC_CORPUS=corpus-<i>-of-<n>.json: an instance of an n-way split reads only its own senders\' lanes.',
          "const corpusFile = __ENV.CHAINRPC_CORPUS || 'corpus.json';",
          'const part = /^corpus-(\\d+)-of-(\\d+)\\.json$/.exec(corpusFile);',
          'const share = part === null ? { index: 0, of: 1 } : { index: Number(part[1]), of: Number(part[2]) };',
          "const lanes = new SharedArray('chainrpc lanes', () => JSON.parse(open(`./${corpusFile}`)).senders.map((s) => ({ address: s.address, txs: s.txs.map((t) => t.tx) })));",
        ].join('\n')
      : 'const lanes = [];\nconst share = { index: 0, of: 1 };',
    'const run = chainrpc(data, lanes, share);',
    '',
    'export const options = run.options;',
    ...(replay
      ? ['// A replay reads the node\'s head once before it starts (its heights are rebased on it).', 'export function setup() {', '  return run.setup();', '}', 'export default function (start) {', '  run.iteration(start);', '}']
      : ['export default function () {', '  run.iteration();', '}']),
    'export function handleSummary(end) {',
    '  return run.summary(end);',
    '}',
    '',
  ].join('\n');
}
