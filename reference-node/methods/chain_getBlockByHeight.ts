import type { JsonValue } from '../../core/json/index.js';
import type { MethodHandler } from '../rpc/types.js';
import { toRpcBlock } from '../chain/toRpcBlock.js';
import { jsonInteger } from '../../core/json/index.js';
import { rpcError } from './rpcError.js';
import type { NodeContext } from './NodeContext.js';

/** chain_getBlockByHeight [height] -> the block; BlockNotFound above the tip (params checked by schema: a u64). */
export const chain_getBlockByHeight = (ctx: NodeContext): MethodHandler => (params) => {
  const height = BigInt(params[0] as number | bigint);
  const block = ctx.chain.getBlock(height);
  if (!block) {
    const latest = ctx.chain.height();
    throw rpcError('BlockNotFound', { reason: `no block at height ${height}; the latest is ${latest}`, height: jsonInteger(height), latest: jsonInteger(latest) });
  }
  // RpcBlock is a plain JSON object (strings, numbers, bigints); its interface lacks JsonValue's index signature.
  return toRpcBlock(block) as unknown as JsonValue;
};
