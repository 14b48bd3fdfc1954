import type { MethodHandler } from '../rpc/types.js';
import { jsonInteger } from '../../core/json/index.js';
import type { NodeContext } from './NodeContext.js';

/** chain_pouLocal -> {local_score, leader, local_is_leader} (scoring: reference-node/node/UsageMeter.ts). */
export const chain_pouLocal = (ctx: NodeContext): MethodHandler => () => {
  const leader = ctx.leader();
  return { local_score: jsonInteger(ctx.score()), leader, local_is_leader: leader === ctx.id };
};
