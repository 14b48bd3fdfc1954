/**
 * One check run once against one node, under its own timeout and the run's deadline, and its outcome
 * told apart (pass, fail, skip, error: suites/checkOutcomes.ts) into a result. Apart from the runner
 * because it is the part that meets the check's code: the scheduling around it only orders and counts.
 */
import { setMaxListeners } from 'node:events';
import type { Check } from '../Check.js';
import { CheckContext } from '../CheckContext.js';
import type { RunShared } from '../CheckContext.js';
import { CheckError, CheckFailure, CheckSkip } from '../checkOutcomes.js';
import type { CheckResult, Exchange } from '../model.js';
import { resultOf } from './planJobs.js';
import { INTERRUPTED_MESSAGE } from './verdict.js';

/** What every check of a run is run with. */
export interface CheckRunEnv {
  shared: RunShared;
  /** Aborts when the run's deadline passes. */
  deadline: AbortSignal;
  deadlineMs: number;
  checkTimeoutMs: number;
  /** The targets that answered: a network check runs bound to the first. */
  reachable: string[];
  /** Where a failed result's showing exchange is noted (the one its failure names, else its context's last shown). */
  shownBy: WeakMap<CheckResult, Exchange>;
}

/** The reason the run's deadline signal carries when Ctrl-C, not the deadline, aborted it. */
export const INTERRUPTED = Symbol('interrupted');

export async function runCheck(check: Check, node: string, env: CheckRunEnv): Promise<CheckResult> {
  const { deadline, deadlineMs, checkTimeoutMs } = env;
  const profile = env.shared.profile;
  const begin = Date.now();
  if (deadline.aborted) return resultOf(check, node, 'error', deadline.reason === INTERRUPTED ? `${INTERRUPTED_MESSAGE}: not run` : `not run: the run's deadline (${deadlineMs} ms) passed`);
  if (check.needs?.includes('crafted-transactions') && !profile.codec.crafted) return resultOf(check, node, 'skip', `the profile's codec (${profile.codec.name}) has no crafted variants`);
  const controller = new AbortController();
  // Each exchange under way listens to the check's signal: a network check reads every node at once, and more
  // (one transfer per node, each watched on every node), so a handful of listeners is no leak.
  setMaxListeners(16 + 8 * env.shared.targets.length ** 2, controller.signal);
  const onDeadline = (): void => controller.abort();
  deadline.addEventListener('abort', onDeadline);
  const target = node === 'network' ? (env.reachable[0] ?? node) : node;
  const ctx = new CheckContext(env.shared, check, target, controller.signal, Date.now() + checkTimeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve('timeout');
    }, checkTimeoutMs);
  });
  try {
    const outcome = await Promise.race([check.run(ctx).then((note) => ({ note })), timedOut]);
    if (outcome === 'timeout') return resultOf(check, node, 'error', `the check did not finish within ${checkTimeoutMs} ms (a slow node may need longer: --timeout <ms>)`, ctx.exchanges, Date.now() - begin);
    return resultOf(check, node, 'pass', outcome.note ?? check.title, ctx.exchanges, Date.now() - begin);
  } catch (err) {
    const ms = Date.now() - begin;
    if (err instanceof CheckFailure) {
      const r = resultOf(check, node, 'fail', err.message, ctx.exchanges, ms);
      if (err.expected !== undefined) r.evidence.expected = err.expected;
      if (err.actual !== undefined) r.evidence.actual = err.actual;
      const shown = err.shown ?? ctx.lastShown();
      if (shown !== undefined) env.shownBy.set(r, shown);
      return r;
    }
    if (err instanceof CheckSkip) return resultOf(check, node, 'skip', err.message, ctx.exchanges, ms);
    if (controller.signal.aborted) {
      const why = deadline.aborted ? (deadline.reason === INTERRUPTED ? `${INTERRUPTED_MESSAGE}: stopped under way` : `the run's deadline (${deadlineMs} ms) passed`) : `the check did not finish within ${checkTimeoutMs} ms (a slow node may need longer: --timeout <ms>)`;
      return resultOf(check, node, 'error', why, ctx.exchanges, ms);
    }
    const message = err instanceof CheckError ? err.message : `the check itself failed (a bug in the suite or an unexpected answer): ${(err as Error).message}`;
    return resultOf(check, node, 'error', message, ctx.exchanges, ms);
  } finally {
    clearTimeout(timer);
    deadline.removeEventListener('abort', onDeadline);
  }
}
