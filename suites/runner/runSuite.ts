import { setMaxListeners } from 'node:events';
import type { Check } from '../Check.js';
import type { CheckResult, Exchange, Level, RunResult } from '../model.js';
import type { Profile } from '../../profile/Profile.js';
import type { Baseline } from './Baseline.js';
import { findUnreachable } from './findUnreachable.js';
import { planJobs } from './planJobs.js';
import type { Job } from './planJobs.js';
import { reproduceFor } from './reproduce.js';
import { INTERRUPTED, runCheck } from './runCheck.js';
import type { CheckRunEnv } from './runCheck.js';
import { runHints } from './runHints.js';
import { runResult } from './runResult.js';
import { createRunShared } from './runShared.js';

export interface SuiteOptions {
  targets: string[];
  profile: Profile;
  /** The checks to run (already filtered by --only / --skip). */
  checks: Check[];
  only?: string[];
  skip?: string[];
  /** How many MUST checks of the catalogue --only / --skip left out (default 0): the run cannot certify without them. */
  mustLeftOut?: number;
  gate: Level;
  baseline?: Baseline;
  /** Checks (or flows) running at once. Default 8. */
  concurrency?: number;
  /** Per-check limit, ms. Default max(20 s, 20 block times). */
  checkTimeoutMs?: number;
  /** Most requests started per second to each node. Default: no limit. */
  maxRatePerNode?: number;
  /** The whole run's limit, ms: what has not finished then gets an error verdict. Default 5 min. */
  deadlineMs?: number;
  /** Ctrl-C: when it aborts, the checks under way stop and those not started are not, each an error saying so; the run is interrupted (exit 130). */
  signal?: AbortSignal;
  version: string;
  onStart?: (total: number) => void;
  onResult?: (result: CheckResult, done: number, total: number) => void;
  /** Extra sink for every exchange (the transcript is also returned). */
  onExchange?: (exchange: Exchange) => void;
  /**
   * The `chainrpc test` options that shape this run (--profile, --rpc-path, ...), for the command that
   * runs a failed check again where its request was too long to keep whole. Default none.
   */
  rerunArgs?: string[];
}

export interface SuiteRun {
  run: RunResult;
  /** Every exchange of the run, in order (bodies capped). */
  transcript: Exchange[];
}

/**
 * Checks running at once per node unless told: enough that every check that waits for blocks (most of the time
 * asleep) waits beside the others instead of queueing behind them (planJobs starts those first).
 */
const DEFAULT_CONCURRENCY_PER_NODE = 16;
/** Without --timeout, a check may take this many times the slowest node's first answer (if more than the default). */
const SLOW_NODE_CALLS = 100;

/** A check's limit without --timeout: the default, or SLOW_NODE_CALLS times the slowest node's first answer when more. */
export const checkTimeoutFor = (defaultMs: number, firstAnswerMs: number): number => Math.max(defaultMs, Math.ceil(firstAnswerMs * SLOW_NODE_CALLS));

/**
 * Runs the checks against the targets: independent checks concurrently (bounded), the checks of one
 * flow in order, each under its own timeout and all under a global deadline, so that a node that hangs,
 * floods or resets still gets a verdict per check and the run always ends.
 */
export async function runSuite(options: SuiteOptions): Promise<SuiteRun> {
  const started = Date.now();
  const profile = options.profile;
  const baseTimeoutMs = options.checkTimeoutMs ?? Math.max(20_000, profile.blockTimeMs * 20);
  const deadlineMs = options.deadlineMs ?? 300_000;
  const deadline = new AbortController();
  const deadlineTimer = setTimeout(() => deadline.abort(), deadlineMs);
  const interrupt = (): void => deadline.abort(INTERRUPTED);
  if (options.signal?.aborted === true) interrupt();
  options.signal?.addEventListener('abort', interrupt, { once: true });
  const { shared, transcript, close } = createRunShared({ profile, targets: options.targets, checkTimeoutMs: baseTimeoutMs, deadline: deadline.signal, onExchange: (exchange) => options.onExchange?.(exchange), maxRatePerNode: options.maxRatePerNode });

  // Reachability: a target that does not answer a JSON-RPC call at all gets an error verdict on every
  // check (exit code 3 when none answers); checks that need it are not run against it.
  const unreachable = await findUnreachable(shared, options.targets, baseTimeoutMs);
  const reachable = options.targets.filter((t) => !unreachable.has(t));
  // A check makes tens of calls one after the other: on a node far away (or slow to answer) the default limit is
  // too short for any of them (a node answering in 400 ms got errors, never a verdict). Without --timeout, the limit
  // grows with the slowest node's first answer (a new connection and a call).
  const firstAnswerMs = Math.max(0, ...transcript.filter((e) => e.response !== undefined && reachable.includes(e.node)).map((e) => e.ms));
  const checkTimeoutMs = options.checkTimeoutMs ?? checkTimeoutFor(baseTimeoutMs, firstAnswerMs);
  const { jobs, immediate } = planJobs(options.checks, options.targets, unreachable);

  const results: CheckResult[] = [];
  const shownBy = new WeakMap<CheckResult, Exchange>();
  const total = immediate.length + jobs.reduce((n, j) => n + j.checks.length, 0);
  options.onStart?.(total);
  const emit = (r: CheckResult): void => {
    const mark = options.baseline?.mark(r);
    if (mark) r.baseline = mark;
    // The exchange that showed the failure: the one the check names, else its last (checks stop at the first wrong answer).
    const reproduce = reproduceFor(r, shownBy.get(r) ?? r.evidence.exchanges[r.evidence.exchanges.length - 1], { targets: options.targets, args: options.rerunArgs ?? [] });
    if (reproduce !== undefined) r.reproduce = reproduce;
    results.push(r);
    options.onResult?.(r, results.length, total);
  };
  for (const r of immediate) emit(r);

  const env: CheckRunEnv = { shared, deadline: deadline.signal, deadlineMs, checkTimeoutMs, reachable, shownBy };
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY_PER_NODE * Math.max(1, options.targets.length);
  // Each running check listens for the deadline: as many listeners as checks at once is no leak.
  setMaxListeners(concurrency + 10, deadline.signal);
  await runJobs(jobs, concurrency, env, emit);
  clearTimeout(deadlineTimer);
  options.signal?.removeEventListener('abort', interrupt);
  await close();

  options.baseline?.settle(results);
  const order = new Map(options.checks.map((c, i) => [c.id, i]));
  results.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0) || a.node.localeCompare(b.node));
  return {
    run: runResult({
      version: options.version,
      startedMs: started,
      finishedMs: Date.now(),
      targets: options.targets,
      profile: { name: profile.name, source: profile.source },
      gate: options.gate,
      options: {
        only: options.only ?? [],
        skip: options.skip ?? [],
        ...(options.baseline ? { baseline: options.baseline.path } : {}),
        deadlineMs,
      },
      results,
      noTarget: reachable.length === 0,
      mustLeftOut: options.mustLeftOut ?? 0,
      interrupted: deadline.signal.reason === INTERRUPTED,
      hints: runHints({ targets: options.targets, profile, results, transcript }),
    }),
    transcript,
  };
}

/**
 * Runs the jobs with `concurrency` workers (at least one), each taking the next job in order and running its
 * checks one after the other; every result is emitted as soon as it is known.
 */
async function runJobs(jobs: Job[], concurrency: number, env: CheckRunEnv, emit: (r: CheckResult) => void): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let job = jobs[next++]; job !== undefined; job = jobs[next++]) {
      for (const check of job.checks) emit(await runCheck(check, job.node, env));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
}
