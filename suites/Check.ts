import type { CheckContext } from './CheckContext.js';
import type { CheckInfo } from './model.js';

/** What a check needs from the target; without it the check is skipped with the reason. */
/**
 * 'leader': judged only on a node that says it leads (chain_pouLocal), the one node whose own identifier the spec lets
 * a client read (as the leader's); another node skips it, saying so.
 */
export type Need = 'funds' | 'several-nodes' | 'crafted-transactions' | 'leader';

/**
 * A conformance check: a stable id, a level, the rule it comes from, and a run that passes (returns,
 * optionally with a sentence saying what was shown), fails (ctx.fail: the node is wrong), errors
 * (CheckError or any other exception: the tool or the network is wrong) or skips (ctx.skip).
 */
export interface Check extends CheckInfo {
  /** Checks sharing a flow run one after another on a node, in catalogue order. */
  flow?: string;
  needs?: Need[];
  run(ctx: CheckContext): Promise<string | undefined | void>;
}

/** Identity function that lets TypeScript check a check's shape where it is written. */
export function defineCheck(check: Check): Check {
  if (!/^[a-z][a-z0-9_.]*\/[a-z0-9-]+$/i.test(check.id)) throw new Error(`check id ${check.id} must look like <area>/<rule-in-kebab-case>`);
  return check;
}
