import type { MethodHandler } from '../rpc/types.js';
import { jsonInteger } from '../../core/json/index.js';
import type { NodeContext } from './NodeContext.js';

/** chain_blockNumber -> the latest committed height (genesis is 0). */
export const chain_blockNumber = (ctx: NodeContext): MethodHandler => () => jsonInteger(ctx.chain.height());
