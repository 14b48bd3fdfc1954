import type { MethodHandler } from '../rpc/types.js';
import { toJsonInt } from './rpcError.js';
import type { NodeContext } from './NodeContext.js';

/** chain_pouLocal -> {local_score, leader, local_is_leader} (scoring: reference-node/node/UsageMeter.ts). */
export const chain_pouLocal = (ctx: NodeContext): MethodHandler => () => {
  const leader = ctx.leader();
  return { local_score: toJsonInt(ctx.score()), leader, local_is_leader: leader === ctx.id };
};
