import type { MethodHandler } from '../rpc/types.js';
import { toJsonInt } from './rpcError.js';
import type { NodeContext } from './NodeContext.js';

/** chain_blockNumber -> the latest committed height (genesis is 0). */
export const chain_blockNumber = (ctx: NodeContext): MethodHandler => () => toJsonInt(ctx.chain.height());
