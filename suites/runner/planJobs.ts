/**
 * The plan of a run: which checks run, grouped into jobs (a flow's checks in order, every other check on
 * its own), and which get their result at once without running (a target that is down, a network check
 * that cannot run). Apart from the runner because it decides what runs before anything is scheduled.
 */
import type { Check } from '../Check.js';
import type { CheckResult, Exchange, Status } from '../model.js';
import type { Unreachable } from './findUnreachable.js';

/** Checks run in order, one after the other, against one node (or 'network'). */
export interface Job {
  checks: Check[];
  node: string;
}

/** The jobs to run, in order, and the results known without running. */
export interface JobPlan {
  jobs: Job[];
  immediate: CheckResult[];
}

/** A check's result on a node. */
export function resultOf(check: Check, node: string, status: Status, message: string, exchanges: Exchange[] = [], durationMs = 0): CheckResult {
  return {
    id: check.id,
    level: check.level,
    category: check.category,
    title: check.title,
    spec: check.spec,
    scope: check.scope,
    node,
    status,
    evidence: { message, exchanges },
    durationMs,
  };
}

/**
 * Node checks per target (an unreachable target's all get its error), then network checks (all targets
 * reachable, and two of them where the check needs several nodes).
 */
export function planJobs(checks: Check[], targets: string[], unreachable: Map<string, Unreachable>): JobPlan {
  const reachable = targets.filter((t) => !unreachable.has(t));
  const jobs: Job[] = [];
  const immediate: CheckResult[] = [];
  for (const node of targets) {
    const down = unreachable.get(node);
    const flows = new Map<string, Check[]>();
    for (const check of checks.filter((c) => c.scope === 'node')) {
      if (down) {
        immediate.push(resultOf(check, node, 'error', down.message, down.exchanges));
      } else if (check.flow) {
        const list = flows.get(check.flow) ?? [];
        list.push(check);
        if (list.length === 1) jobs.push({ checks: list, node });
        flows.set(check.flow, list);
      } else {
        jobs.push({ checks: [check], node });
      }
    }
  }
  for (const check of checks.filter((c) => c.scope === 'network')) {
    if (reachable.length === 0) immediate.push(resultOf(check, 'network', 'error', 'no target is reachable'));
    else if (check.needs?.includes('several-nodes') && targets.length < 2) immediate.push(resultOf(check, 'network', 'skip', 'needs at least two --url'));
    else if (reachable.length < targets.length) immediate.push(resultOf(check, 'network', 'error', `not every target is reachable: ${[...unreachable.keys()].join(', ')}`));
    else jobs.push({ checks: [check], node: 'network' });
  }
  // Checks that wait for the chain (blocks, inclusion) start first, so that they wait together while the quick ones
  // run beside them: a run lasts about as long as its longest wait, not the sum of the waits that queued.
  const waits = (job: Job): boolean => job.checks.some((c) => WAITING_CATEGORIES.has(c.category));
  return { jobs: [...jobs.filter(waits), ...jobs.filter((j) => !waits(j))], immediate };
}

/** Categories whose checks wait for blocks (a height to rise, a transaction to be included). */
const WAITING_CATEGORIES: ReadonlySet<string> = new Set(['chain', 'state']);
