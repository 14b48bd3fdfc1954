/**
 * Reads a scenario (a built-in by name, or a JSON file), applies the command line's overrides, checks it
 * against schemas/load/scenario.schema.json and the rules the schema cannot say, and resolves it into what
 * the run needs: times in ms, the arrival model of load/model.ts, weights, parsed thresholds.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { packageRoot, schemasDir } from '../../core/paths.js';
import { validatorsFor, type SchemaDocument, type Validators } from '../../core/schema/validators.js';
import type { ArrivalModel } from '../model.js';
import { parseDuration } from './parseDuration.js';
import type { LoadScenario, Method, ReadMethod } from './Scenario.generated.js';
import { ScenarioError } from './ScenarioError.js';
import { parseChaosStep } from '../chaos/chaosPlan.js';
import { parseThreshold, type Threshold } from './Threshold.js';

/** Where the built-in scenarios live: load/scenarios/<name>.json. */
export const BUILT_IN_DIR = join(packageRoot, 'load', 'scenarios');

export const DEFAULTS = {
  warmupMs: 2000,
  timeoutMs: 10_000,
  maxInFlight: 256,
  maxConnections: 64,
  recentBlocks: 64,
  accounts: 16,
  senders: 32,
  batchSize: 1,
  validate: 0.01,
  seed: 1,
} as const;

/** What a command line may change in a scenario (each overrides the field it names). */
export interface ScenarioOverrides {
  /** Open model at this fixed rate (replaces the scenario's rate or stages). */
  rate?: number;
  duration?: string;
  warmup?: string;
  /** Closed model: its loops; open model: the connection pool. */
  connections?: number;
  maxInFlight?: number;
  /** The size of every batch of the mix, and transactions per request. */
  batchSize?: number;
  /** A corpus file for chain_sendRawTransaction. */
  corpus?: string;
  seed?: number;
  /** Added to the scenario's own thresholds. */
  thresholds?: readonly string[];
}

export interface ResolvedCall {
  /** The spec's name; the profile gives the wire name. */
  method: Method;
  weight: number;
  params?: JsonValue[];
}

export type ResolvedEntry =
  | { kind: 'call'; call: ResolvedCall }
  | { kind: 'batch'; weight: number; size: number; mix: (ResolvedCall & { method: ReadMethod })[] }
  | { kind: 'transactions'; weight: number };

export interface ResolvedScenario {
  name: string;
  /** The definition as it runs (overrides applied), for the report. */
  definition: LoadScenario;
  model: ArrivalModel;
  durationMs: number;
  warmupMs: number;
  timeoutMs: number;
  maxInFlight: number;
  connections: number;
  mix: ResolvedEntry[];
  recentBlocks: number;
  accounts: number;
  /** Present when the mix sends transactions. */
  transactions?: { senders: number; perSender?: number; corpus?: string; batchSize: number };
  validate: number;
  seed: number;
  thresholds: Threshold[];
  /** Its faults, as written (load/chaos/chaosPlan.ts reads them against the network they act on). */
  chaos: string[];
  /** The spec methods the mix reads (chain_sendRawTransaction aside), for setup: heights, funded accounts. */
  reads: Set<Method>;
}

/** The names of the built-in scenarios, sorted. */
export function builtInScenarios(): string[] {
  return readdirSync(BUILT_IN_DIR).filter((f) => f.endsWith('.json')).map((f) => basename(f, '.json')).sort();
}

let schema: SchemaDocument | undefined;
const scenarioSchema = (): SchemaDocument => (schema ??= parseJson(readFileSync(join(schemasDir, 'load', 'scenario.schema.json'), 'utf8')) as SchemaDocument);

let validator: Validators | undefined;
function scenarioValidator(): Validators {
  validator ??= validatorsFor([scenarioSchema()]);
  return validator;
}

/**
 * The highest open-model rate a scenario may ask for, in requests/s: the schema's bound on an arrival rate
 * (schemas/load/scenario.schema.json, /arrivals rate), which --rate and a sweep's rates are held to too.
 */
export function maxRate(): number {
  const arrivals = (scenarioSchema().properties as { arrivals?: { oneOf?: { properties?: { rate?: { maximum?: unknown } } }[] } } | undefined)?.arrivals;
  const bound = arrivals?.oneOf?.find((alternative) => alternative.properties?.rate !== undefined)?.properties?.rate?.maximum;
  if (typeof bound !== 'number') throw new Error('schemas/load/scenario.schema.json gives an arrival rate no maximum');
  return bound;
}

/** Reads a built-in scenario by name, or a scenario file by path; overrides applied; throws ScenarioError. */
export function loadScenario(nameOrPath: string, overrides: ScenarioOverrides = {}): ResolvedScenario {
  const builtIn = join(BUILT_IN_DIR, `${nameOrPath}.json`);
  const isName = /^[A-Za-z0-9_-]+$/.test(nameOrPath) && existsSync(builtIn);
  const path = isName ? builtIn : nameOrPath;
  if (!isName && !existsSync(path)) {
    throw new ScenarioError(`no scenario "${nameOrPath}": neither a built-in (${builtInScenarios().join(', ')}) nor a file`);
  }
  let raw: JsonValue;
  try {
    raw = parseJson(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ScenarioError(`scenario ${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return resolveScenario(raw, overrides, isName ? `built-in scenario ${nameOrPath}` : `scenario ${path}`);
}

type Mutable = { [key: string]: JsonValue };
const isObject = (v: JsonValue | undefined): v is Mutable => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Applies the overrides to a copy of the raw definition, so the schema sees (and names) what will run. */
function applyOverrides(raw: JsonValue, o: ScenarioOverrides, where: string): JsonValue {
  if (!isObject(raw)) return raw;
  const def = structuredClone(raw);
  const arrivals = def.arrivals;
  if (o.rate !== undefined) {
    if (isObject(arrivals) && arrivals.model === 'closed') throw new ScenarioError(`${where}: --rate sets an open model's rate; this scenario is closed (use --connections)`, '/arrivals/model', 'override');
    def.arrivals = { model: 'open', rate: o.rate, ...(isObject(arrivals) && arrivals.distribution !== undefined ? { distribution: arrivals.distribution } : {}) };
    if (def.duration === undefined && isObject(arrivals) && Array.isArray(arrivals.stages)) def.duration = `${totalStagesMs(arrivals.stages)}ms`;
  }
  if (o.duration !== undefined) {
    if (isObject(def.arrivals) && Array.isArray(def.arrivals.stages)) throw new ScenarioError(`${where}: --duration cannot change a staged rate's length (the stages' sum); give --rate too, or edit the stages`, '/arrivals/stages', 'override');
    def.duration = o.duration;
  }
  if (o.warmup !== undefined) def.warmup = o.warmup;
  if (o.connections !== undefined) {
    if (isObject(def.arrivals) && def.arrivals.model === 'closed') def.arrivals = { ...def.arrivals, connections: o.connections };
    else def.connections = o.connections;
  }
  if (o.maxInFlight !== undefined) def.maxInFlight = o.maxInFlight;
  if (o.seed !== undefined) def.seed = o.seed;
  if (o.batchSize !== undefined && Array.isArray(def.mix)) {
    const batches = def.mix.filter((e) => isObject(e) && isObject(e.batch));
    const sends = def.mix.some((e) => isObject(e) && e.method === 'chain_sendRawTransaction');
    if (batches.length === 0 && !sends) throw new ScenarioError(`${where}: --batch-size sets the size of the mix's batches and transactions per request; this scenario has neither`, '/mix', 'override');
    for (const entry of batches) if (isObject(entry) && isObject(entry.batch)) entry.batch.size = o.batchSize;
    if (isObject(def.transactions)) def.transactions.batchSize = o.batchSize;
    else if (sends) def.transactions = { batchSize: o.batchSize };
  }
  if (o.corpus !== undefined) {
    // Said of what the user gave (--corpus and the scenario), not of the /transactions the override would write.
    const sends = Array.isArray(def.mix) && def.mix.some((e) => isObject(e) && e.method === 'chain_sendRawTransaction');
    if (Array.isArray(def.mix) && !sends) throw new ScenarioError(`${where}: --corpus ${o.corpus}: this scenario sends no chain_sendRawTransaction, so it has no use for a corpus of signed transactions (give a scenario that sends them, such as send-raw-tx or mixed, or leave --corpus out)`, undefined, 'override');
    def.transactions = { ...(isObject(def.transactions) ? def.transactions : {}), corpus: o.corpus };
  }
  if (o.thresholds !== undefined && o.thresholds.length > 0) def.thresholds = [...(Array.isArray(def.thresholds) ? def.thresholds : []), ...o.thresholds];
  return def;
}

function totalStagesMs(stages: JsonValue[]): number {
  return stages.reduce<number>((sum, s) => sum + (isObject(s) && typeof s.duration === 'string' ? parseDuration(s.duration) : 0), 0);
}

/** Checks and resolves a raw definition (already parsed JSON); `where` names it in messages. */
export function resolveScenario(raw: JsonValue, overrides: ScenarioOverrides = {}, where = 'scenario'): ResolvedScenario {
  const value = applyOverrides(raw, overrides, where);
  const check = scenarioValidator().validate('https://chainrpc.dev/schemas/load/scenario.schema.json', value);
  if (!check.ok) {
    const first = check.problems[0] ?? { pointer: '', rule: 'unknown', message: 'failed validation' };
    const more = check.problems.length > 1 ? ` (and ${check.problems.length - 1} more: ${check.problems.slice(1, 4).map((p) => `${p.pointer || '(scenario)'} ${p.message}`).join('; ')})` : '';
    throw new ScenarioError(`${where}: ${first.pointer || '(scenario)'} ${first.message} [rule: ${first.rule}]${more}`, first.pointer, first.rule);
  }
  const def = value as unknown as LoadScenario;
  const fail = (pointer: string, rule: string, message: string): never => {
    throw new ScenarioError(`${where}: ${pointer} ${message} [rule: ${rule}]`, pointer, rule);
  };

  // The schema says >= 0 (its validator keeps integer bounds exact, so no exclusive bound on a fraction); 0 is refused here.
  const zero = (pointer: string, v: number | undefined): void => {
    if (v === 0) fail(pointer, 'positive', 'must be greater than 0');
  };
  if ('rate' in def.arrivals) zero('/arrivals/rate', def.arrivals.rate);
  if ('stages' in def.arrivals) def.arrivals.stages.forEach((s, i) => { if ('rate' in s) zero(`/arrivals/stages/${i}/rate`, s.rate); else if (s.from === 0 && s.to === 0) fail(`/arrivals/stages/${i}`, 'positive', 'goes from 0 to 0: nothing would be sent'); });
  def.mix.forEach((e, i) => {
    zero(`/mix/${i}/weight`, e.weight);
    if ('batch' in e) e.batch.mix.forEach((c, j) => zero(`/mix/${i}/batch/mix/${j}/weight`, c.weight));
  });

  const arrivals = def.arrivals;
  let model: ArrivalModel;
  let durationMs: number;
  if ('stages' in arrivals) {
    if (def.duration !== undefined) fail('/duration', 'duration-with-stages', 'must be left out when the arrivals have stages: the run lasts their sum');
    const stages = arrivals.stages.map((s) => ({ from: 'rate' in s ? s.rate : s.from, to: 'rate' in s ? s.rate : s.to, durationMs: parseDuration(s.duration) }));
    stages.forEach((s, i) => { if (s.durationMs <= 0) fail(`/arrivals/stages/${i}/duration`, 'positive-duration', 'must be longer than 0'); });
    durationMs = stages.reduce((n, s) => n + s.durationMs, 0);
    model = { kind: 'open', distribution: arrivals.distribution ?? 'uniform', stages };
  } else {
    if (def.duration === undefined) fail('/duration', 'duration-required', 'is required (e.g. "30s") unless the arrivals have stages');
    durationMs = parseDuration(def.duration ?? '0');
    if (durationMs <= 0) fail('/duration', 'positive-duration', 'must be longer than 0');
    model = arrivals.model === 'closed'
      ? { kind: 'closed', connections: arrivals.connections }
      : { kind: 'open', distribution: arrivals.distribution ?? 'uniform', stages: [{ from: arrivals.rate, to: arrivals.rate, durationMs }] };
  }
  if (model.kind === 'closed' && def.connections !== undefined) fail('/connections', 'closed-connections', 'belongs in /arrivals/connections for the closed model');
  if (model.kind === 'closed' && def.maxInFlight !== undefined) fail('/maxInFlight', 'closed-in-flight', 'applies to the open model only: the closed model has one request in flight per connection');

  const reads = new Set<Method>();
  let sendsTransactions = false;
  const mix: ResolvedEntry[] = def.mix.map((entry, i) => {
    if ('batch' in entry) {
      const calls = entry.batch.mix.map((c) => ({ method: c.method, weight: c.weight ?? 1, ...(c.params === undefined ? {} : { params: c.params as JsonValue[] }) }));
      calls.forEach((c) => reads.add(c.method));
      return { kind: 'batch', weight: entry.weight ?? 1, size: entry.batch.size, mix: calls };
    }
    if (entry.method === 'chain_sendRawTransaction') {
      if (entry.params !== undefined) fail(`/mix/${i}/params`, 'corpus-params', 'must be left out: chain_sendRawTransaction sends the corpus\'s pre-signed transactions');
      sendsTransactions = true;
      return { kind: 'transactions', weight: entry.weight ?? 1 };
    }
    reads.add(entry.method);
    return { kind: 'call', call: { method: entry.method, weight: entry.weight ?? 1, ...(entry.params === undefined ? {} : { params: entry.params as JsonValue[] }) } };
  });
  if (def.transactions !== undefined && !sendsTransactions) fail('/transactions', 'transactions-unused', 'is set but the mix sends no chain_sendRawTransaction');

  const thresholds = (def.thresholds ?? []).map((text, i) => {
    try {
      return parseThreshold(text);
    } catch (error) {
      return fail(`/thresholds/${i}`, 'threshold', error instanceof Error ? error.message.replace(/^threshold /, '') : String(error));
    }
  });
  thresholds.forEach((t, i) => {
    const at = `/thresholds/${i}`;
    if (t.method !== undefined && !reads.has(t.method as Method) && !(t.method === 'chain_sendRawTransaction' && sendsTransactions)) fail(at, 'threshold-method', `names ${t.method}, which the mix never calls`);
    if (t.metric === 'achieved' && model.kind === 'closed') fail(at, 'threshold-achieved', 'achieved compares with a target rate: the closed model has none');
    if (t.metric === 'lag-p99' && model.kind === 'closed') fail(at, 'threshold-lag', 'lag-p99 is the lag behind a schedule: the closed model has none');
    if ((t.metric === 'inclusion' || t.metric.startsWith('tti-') || t.metric === 'lost-tx' || t.metric === 'duplicate-tx') && !sendsTransactions) fail(at, 'threshold-inclusion', `${t.metric} needs transactions in the mix`);
    if (t.metric === 'mismatches') fail(at, 'threshold-mismatches', 'judges the diff of a replay against a second node (chainrpc load replay --diff-url), not a scenario');
  });

  (def.chaos ?? []).forEach((text, i) => {
    try {
      parseChaosStep(text);
    } catch (error) {
      fail(`/chaos/${i}`, 'chaos', error instanceof Error ? error.message : String(error));
    }
  });

  const maxInFlight = def.maxInFlight ?? DEFAULTS.maxInFlight;
  const tx = def.transactions;
  return {
    name: def.name,
    definition: def,
    model,
    durationMs,
    warmupMs: def.warmup === undefined ? DEFAULTS.warmupMs : parseDuration(def.warmup),
    timeoutMs: def.timeout === undefined ? DEFAULTS.timeoutMs : parseDuration(def.timeout),
    maxInFlight: model.kind === 'closed' ? model.connections : maxInFlight,
    connections: model.kind === 'closed' ? model.connections : (def.connections ?? Math.min(maxInFlight, DEFAULTS.maxConnections)),
    mix,
    recentBlocks: def.params?.recentBlocks ?? DEFAULTS.recentBlocks,
    accounts: def.params?.accounts ?? DEFAULTS.accounts,
    ...(sendsTransactions
      ? { transactions: { senders: tx?.senders ?? DEFAULTS.senders, ...(tx?.perSender === undefined ? {} : { perSender: tx.perSender }), ...(tx?.corpus === undefined ? {} : { corpus: tx.corpus }), batchSize: tx?.batchSize ?? DEFAULTS.batchSize } }
      : {}),
    validate: def.validate ?? DEFAULTS.validate,
    seed: def.seed ?? DEFAULTS.seed,
    thresholds,
    chaos: (def.chaos ?? []).map((text) => text.trim()),
    reads,
  };
}
