import type { MethodHandler } from '../rpc/types.js';
import { toJsonInt } from '../node/toRpcError.js';
import type { NodeContext } from './NodeContext.js';

/** chain_pouLocal -> {local_score, leader, local_is_leader} (scoring: reference-node/node/UsageMeter.ts). */
export const chain_pouLocal = (ctx: NodeContext): MethodHandler => () => {
  const { faults } = ctx;
  // Fault two-leaders (TEST-ONLY, docs/faults.md): every faulty node names itself.
  const leader = faults.has('two-leaders') ? ctx.id : ctx.leader();
  const score = ctx.meter.score();
  return {
    // Faults score-negative, leader-not-hex (TEST-ONLY).
    local_score: toJsonInt(faults.has('score-negative') ? -score - 1n : score),
    leader: faults.has('leader-not-hex') && leader !== null ? Number.parseInt(leader.slice(0, 12), 16) : leader,
    local_is_leader: faults.has('pou-flag-string') ? String(leader === ctx.id) : leader === ctx.id,
  };
};
