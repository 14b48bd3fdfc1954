/**
 * `chainrpc load sweep`: the scenario at rising open-model rates, and the knee, the highest rate at which
 * the SLO holds. Rates are given, or searched: doubled from the start rate until the SLO breaks, then
 * bisected between the last rate that held and the first that did not, until they are within 2%.
 *
 * A step at which the generator itself fell behind its schedule measured the machine, not the node: it is
 * run again (up to GENERATOR_TRIES times), and if the generator never keeps up it is kept as
 * `generatorLimited`, never counted against the node, and the search stops there.
 */
import { errorCode, wireMethod, type Profile } from '../../profile/Profile.js';
import { formatCount, formatPercent, thresholdSaid } from '../figures.js';
import type { LoadRun, SweepResult, SweepStep } from '../model.js';
import { runLoad, TargetUnreachableError, type RunLoadOptions } from '../runLoad.js';
import { isGeneratorReason } from '../engine/runEngine.js';
import type { ResolvedScenario } from '../scenario/loadScenario.js';
import { parseDuration } from '../scenario/parseDuration.js';
import { achievedWithinOneRequest } from '../scenario/Threshold.js';
import { connectionPoolReason, type ServiceReference } from './connectionPool.js';

export interface SweepOptions extends Omit<RunLoadOptions, 'urls'> {
  url: string;
  /** The rates to run, in order; absent: searched. */
  rates?: number[];
  startRate?: number;
  maxRate?: number;
  /** Each step's measured window ("10s"). */
  step?: string;
  /** Bisection ends when the bracket is this narrow, relative to its low end (default 0.02). */
  resolution?: number;
}

/**
 * The sweep's own bound on failed calls, in % of the calls of a step (`errors < 1%`, as the built-in scenarios
 * write it): a node's capacity is the rate it serves, so a rate at which it refuses calls, by an HTTP status or
 * by a JSON-RPC error object alike, is past the knee. An honest node at a rate it sustains fails none (the
 * reference node fails 0 calls of reads, batch and mixed, also at rates it cannot keep up with), so 1% leaves room for the odd
 * failure and none for load shed. The scenario's own `errors` thresholds replace it where they apply.
 */
export const SWEEP_ERRORS_LIMIT = 1;

/** What the sweep's built-in error bound needs besides the run (sweepJudgement makes it from the scenario and the profile). */
export interface SloJudgement {
  /** The node's name for a spec method (the profile's renames), to match a per-method threshold; default: the same name. */
  wire?: (method: string) => string;
  /**
   * Per method (wire name), the JSON-RPC error codes that answer what the scenario asked on purpose, not failures:
   * the node's "not found" for an unknown height or account asked with fixed params.
   */
  answers?: ReadonlyMap<string, ReadonlySet<number>>;
}

/**
 * The built-in error bound's judgement of a step: a reason when too many calls failed (empty: it held or does
 * not apply). A call failed when it is not ok (the `errors` metric's definition): a JSON-RPC error, no answer
 * (timeout, transport, an HTTP status, malformed, missing from its batch) or an invalid result; an error code of
 * `answers` for its method is an answer, not a failure. A scenario threshold on `errors` judges in its place:
 * a whole-run one replaces it, a per-method one (`chain_getAccount:errors < 5%`) takes that method out of it.
 */
export function sweepErrorsReason(run: LoadRun, judge: SloJudgement = {}): string | undefined {
  const wire = judge.wire ?? ((m: string): string => m);
  const own = run.thresholds.map((t) => /^(?:(.+):)?errors$/.exec(t.metric)).filter((m) => m !== null);
  if (own.some((m) => m[1] === undefined)) return undefined;
  const judged = new Set(own.map((m) => wire(m[1] ?? '')));
  let calls = 0;
  let failed = 0;
  let unanswered = 0;
  let invalid = 0;
  const codes = new Map<string, number>();
  for (const m of run.methods) {
    if (judged.has(m.method)) continue;
    const answers = judge.answers?.get(m.method);
    let answered = 0;
    for (const [code, n] of Object.entries(m.errors)) {
      if (answers?.has(Number(code)) === true) answered += n;
      else codes.set(code, (codes.get(code) ?? 0) + n);
    }
    calls += m.calls;
    failed += m.calls - m.ok - answered;
    unanswered += m.unanswered;
    invalid += m.invalid;
  }
  if (calls === 0 || (failed / calls) * 100 < SWEEP_ERRORS_LIMIT) return undefined;
  const kinds = [
    ...[...codes].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]).map(([code, n]) => `${formatCount(n)} JSON-RPC error ${code}`),
    ...(unanswered > 0 ? [`${formatCount(unanswered)} unanswered (${unansweredCauses(run.failures) ?? 'timeout, transport, HTTP status, malformed'})`] : []),
    ...(invalid > 0 ? [`${formatCount(invalid)} invalid results`] : []),
  ];
  const scope = judged.size > 0 ? ' of the methods no errors threshold of the scenario judges' : '';
  return `errors ${formatPercent(failed / calls)} over ${SWEEP_ERRORS_LIMIT}%: ${formatCount(failed)} of ${formatCount(calls)} calls${scope} failed${kinds.length > 0 ? ` (${kinds.join(', ')})` : ''}`;
}

/**
 * What the requests left unanswered met, by cause: "HTTP 503 ×400, 2 timed out" (an outside tester's sweep against a
 * node shedding load with 503 said only "timeout, transport, HTTP status, malformed"); undefined when none is counted.
 */
function unansweredCauses(f: LoadRun['failures'] | undefined): string | undefined {
  if (f === undefined) return undefined;
  const parts = [
    ...Object.entries(f.httpStatus).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]).map(([status, n]) => `HTTP ${status} ×${formatCount(n)}`),
    ...(f.timeouts > 0 ? [`${formatCount(f.timeouts)} timed out`] : []),
    ...(f.transport > 0 ? [`${formatCount(f.transport)} transport failure${f.transport === 1 ? '' : 's'}`] : []),
    ...(f.malformed > 0 ? [`${formatCount(f.malformed)} malformed`] : []),
  ];
  return parts.length === 0 ? undefined : `requests: ${parts.join(', ')}`;
}

/**
 * The judgement of errors a sweep of this scenario makes (sweepErrorsReason): the profile's method names, and the
 * "not found" answers to reads the scenario gives fixed params, which may ask for an unknown height or account on
 * purpose (the draws from the chain never do: they read recent heights and funded accounts).
 */
export function sweepJudgement(scenario: ResolvedScenario, profile: Profile): SloJudgement {
  const wire = (m: string): string => wireMethod(profile, m);
  const notFound: Partial<Record<string, number | null | undefined>> = {
    ...(profile.unknownHeight === 'error' ? { chain_getBlockByHeight: errorCode(profile, 'BlockNotFound') } : {}),
    ...(profile.unknownAccount === 'error' ? { chain_getAccount: errorCode(profile, 'AccountNotFound') } : {}),
  };
  const answers = new Map<string, Set<number>>();
  const calls = scenario.mix.flatMap((e) => (e.kind === 'call' ? [e.call] : e.kind === 'batch' ? e.mix : []));
  for (const call of calls) {
    const code = notFound[call.method];
    if (call.params === undefined || typeof code !== 'number') continue;
    answers.set(wire(call.method), new Set([code]));
  }
  return { wire, answers };
}

/**
 * Why the SLO did not hold at a step (empty: it held): the achieved rate, drops, validity, an early stop, the
 * sweep's bound on failed calls (sweepErrorsReason) and the scenario's thresholds.
 */
export function sloReasons(run: LoadRun, judge: SloJudgement = {}): string[] {
  const reasons: string[] = [];
  const target = run.schedule.targetRate ?? 0;
  // One request short at the window's end is no shortfall of the node's (achievedWithinOneRequest).
  if (target > 0 && run.schedule.achievedRate < 0.99 * target && !achievedWithinOneRequest(run, 99)) reasons.push(`achieved ${run.schedule.achievedRate.toFixed(1)}/s, under 99% of ${target}/s`);
  if (run.schedule.dropped > 0) reasons.push(`${run.schedule.dropped} requests dropped`);
  const errors = sweepErrorsReason(run, judge);
  if (errors !== undefined) reasons.push(errors);
  if (!run.valid) reasons.push(...run.invalid);
  if (run.stop.reason !== 'completed') reasons.push(`stopped early: ${run.stop.reason}`);
  for (const t of run.thresholds) if (!t.ok) reasons.push(`${t.name}: ${thresholdSaid(t)}`);
  return reasons;
}

function atRate(s: ResolvedScenario, rate: number, durationMs: number): ResolvedScenario {
  // A sweep sets its own rates: a replay's recorded times are no scenario's distribution.
  const distribution = s.model.kind === 'open' && s.model.distribution !== 'recorded' ? s.model.distribution : 'uniform';
  return {
    ...s,
    durationMs,
    model: { kind: 'open', distribution, stages: [{ from: rate, to: rate, durationMs }] },
    definition: { ...s.definition, arrivals: { model: 'open', rate, distribution }, duration: `${durationMs}ms` },
  };
}

/** The node's service time at the lowest rate measured below `rate` (connectionPool.ts compares a step's with it). */
function serviceBelow(steps: readonly SweepStep[], rate: number): ServiceReference | undefined {
  const lower = steps.filter((s) => s.rate < rate && !s.generatorLimited && s.run.service.count > 0).sort((a, b) => a.rate - b.rate)[0];
  return lower === undefined ? undefined : { rate: lower.rate, serviceP50Us: lower.run.service.p50 };
}

/** Runs of one step before it is called generator-limited. */
export const GENERATOR_TRIES = 3;

/** The run is invalid, and only because of the generator. */
const generatorOnly = (run: LoadRun): boolean => !run.valid && run.invalid.length > 0 && run.invalid.every(isGeneratorReason);

/**
 * A rate as the search tries it: whole requests/s from 100, tenths from 0.1, two significant figures below (never
 * 0: a start rate under 0.05/s once doubled to a rounded 0/s, a run of nothing that "held", and the ramp doubled 0
 * for ever).
 */
export const roundRate = (rate: number): number => (rate >= 100 ? Math.round(rate) : rate >= 0.1 ? Math.round(rate * 10) / 10 : Number(rate.toPrecision(2)));

/** How the rates of a searched sweep are chosen (runSweep without --rates). */
export interface RateSearch {
  startRate: number;
  maxRate: number;
  /** Bisection ends when the bracket is this narrow, relative to its low end. */
  resolution: number;
  /** The search stops at once (Ctrl-C, the node gone). */
  aborted: () => boolean;
}

/**
 * The ramp and the bisection: `step(rate)` runs a rate and says whether the SLO held there (undefined: not
 * measured, the generator fell behind; the search ends). Doubles from the start rate while the SLO holds, never
 * above the maximum; then bisects between the last rate that held and the first that broke.
 */
export async function searchRates(step: (rate: number) => Promise<boolean | undefined>, o: RateSearch): Promise<void> {
  const max = o.maxRate;
  let low = 0;
  let high: number | undefined;
  let rate = Math.min(o.startRate, max);
  // Ramp: double while the SLO holds. A rate the generator cannot send ends the search.
  let limited = false;
  while (!o.aborted()) {
    const held = await step(rate);
    if (held === true) {
      low = rate;
      if (rate >= max) break;
      rate = Math.min(roundRate(rate * 2), max);
    } else {
      if (held === false) high = rate;
      else limited = true;
      break;
    }
  }
  // Bisect between the last rate that held and the first that did not.
  while (!o.aborted() && !limited && high !== undefined && (low === 0 ? high > 1 : (high - low) / low > o.resolution)) {
    const mid = roundRate(low === 0 ? high / 2 : (low + high) / 2);
    if (mid <= low || mid >= high) break;
    const held = await step(mid);
    if (held === true) low = mid;
    else if (held === false) high = mid;
    else limited = true;
  }
}

export async function runSweep(o: SweepOptions): Promise<SweepResult> {
  const durationMs = o.step === undefined ? 10_000 : parseDuration(o.step);
  // Before any node is touched (the command's options refuse these first, exit 2): a step of 0 ms made the engine
  // throw after the first step's probe, a rate of 0 or less runs nothing.
  if (!(durationMs > 0)) throw new RangeError(`runSweep: step must be longer than 0 ms (got ${JSON.stringify(o.step)})`);
  const rates: [string, number | undefined][] = [...(o.rates ?? []).map((r, i): [string, number] => [`rates[${i}]`, r]), ['startRate', o.startRate], ['maxRate', o.maxRate]];
  for (const [name, r] of rates) if (r !== undefined && !(r > 0 && Number.isFinite(r))) throw new RangeError(`runSweep: ${name} must be a rate above 0 (got ${r})`);
  const steps: SweepStep[] = [];
  const judgement = sweepJudgement(o.scenario, o.profile);
  /** The outcome of each rate run: held, broken, or unknown (the generator fell behind on every try). */
  const tried = new Map<number, boolean | undefined>();
  let stopped: string | undefined;
  const step = async (rate: number): Promise<boolean | undefined> => {
    if (tried.has(rate)) return tried.get(rate);
    let run: LoadRun | undefined;
    for (let attempt = 1; attempt <= GENERATOR_TRIES && !aborted(); attempt++) {
      o.log(`sweep: ${rate} requests/s for ${durationMs / 1000} s${attempt > 1 ? ` (try ${attempt} of ${GENERATOR_TRIES}: the generator fell behind)` : ''}`);
      try {
        [run] = await runLoad({ ...o, urls: [o.url], scenario: atRate(o.scenario, rate, durationMs) });
      } catch (error) {
        // Before the first step, nothing was measured: the command says the node is not there. Later, the
        // steps so far are kept and the search ends.
        if (!(error instanceof TargetUnreachableError) || steps.length === 0) throw error;
        stopped = `the node stopped answering before the step at ${rate} requests/s: ${error.message}`;
        o.log(`sweep: ${stopped}`);
        return undefined;
      }
      if (run === undefined || !generatorOnly(run)) break;
    }
    if (run === undefined) return false;
    const reasons = sloReasons(run, judgement);
    const generatorLimited = generatorOnly(run);
    // The generator's pool, not the node, held the step back: said first, as it explains the shortfall after it.
    const pool = generatorLimited || reasons.length === 0 ? undefined : connectionPoolReason(run, rate, o.scenario.connections, serviceBelow(steps, rate));
    if (pool !== undefined) reasons.unshift(pool);
    const held = reasons.length === 0;
    steps.push({ rate, run, sloHeld: held, reasons, generatorLimited });
    o.log(`sweep: ${rate}/s: ${held ? 'SLO held' : generatorLimited ? `not measured: the generator fell behind on every try (${reasons.join('; ')})` : `SLO broken (${reasons.join('; ')})`}`);
    const outcome = generatorLimited ? undefined : held;
    tried.set(rate, outcome);
    return outcome;
  };
  const aborted = (): boolean => o.signal?.aborted === true || stopped !== undefined;

  if (o.rates !== undefined) {
    for (const rate of o.rates) {
      if (aborted()) break;
      await step(rate);
    }
  } else {
    await searchRates(step, { startRate: o.startRate ?? 50, maxRate: o.maxRate ?? 100_000, resolution: o.resolution ?? 0.02, aborted });
  }
  const held = steps.filter((s) => s.sloHeld).map((s) => s.rate);
  return { url: o.url, scenario: o.scenario.name, search: o.rates === undefined ? 'ramp-bisect' : 'given', steps: [...steps].sort((a, b) => a.rate - b.rate), knee: held.length === 0 ? null : Math.max(...held), ...(stopped === undefined ? {} : { stopped }) };
}
