import type { JsonValue } from '../../core/json/index.js';
import type { MethodHandler } from '../rpc/types.js';
import { toRpcBlock } from '../chain/toRpcBlock.js';
import type { RpcBlock } from '../chain/types.js';
import { flooredHeight, forkHash } from '../faults/faultHooks.js';
import { rpcError, toJsonInt } from '../node/toRpcError.js';
import type { NodeContext } from './NodeContext.js';

/** chain_getBlockByHeight [height] -> the block; BlockNotFound above the tip (params checked by schema: a u64). */
export const chain_getBlockByHeight = (ctx: NodeContext): MethodHandler => (params) => {
  const { faults } = ctx;
  // Fault height-lenient (TEST-ONLY, docs/faults.md): any JSON number reaches here; negative reads as 0, a fraction is floored.
  const height = faults.has('height-lenient') ? flooredHeight(params[0]) : BigInt(params[0] as number | bigint);
  const block = ctx.chain.getBlock(height);
  if (!block) {
    // Fault unknown-height-null (TEST-ONLY, docs/faults.md): null instead of the error.
    if (faults.has('unknown-height-null')) return null;
    if (faults.has('unknown-height-latest')) return toRpcBlock(ctx.chain.tip()) as unknown as JsonValue;
    const latest = ctx.chain.height();
    throw rpcError('BlockNotFound', { reason: `no block at height ${height}; the latest is ${latest}`, height: toJsonInt(height), latest: toJsonInt(latest) });
  }
  let view: RpcBlock = toRpcBlock(block);
  if (faults.size > 0) {
    // Fault injection, TEST-ONLY (docs/faults.md): each line makes the block view deliberately wrong.
    if (faults.has('fork-view') && height >= 2n && height % 2n === 0n) view = { ...view, hash: forkHash(ctx.id, view.hash) };
    if (faults.has('fork-view') && height >= 3n && height % 2n === 1n) view = { ...view, parent_hash: forkHash(ctx.id, view.parent_hash) };
    if (faults.has('parent-hash-broken') && height >= 1n) view = { ...view, parent_hash: view.hash };
    if (faults.has('tx-count-wrong') && view.transactions.length > 0) view = { ...view, transaction_count: view.transaction_count + 1 };
    if (faults.has('proposer-short')) view = { ...view, proposer: view.proposer.slice(0, 40) };
    if (faults.has('proposer-self') && height >= 1n) view = { ...view, proposer: ctx.id };
    if (faults.has('hash-uppercase')) {
      view = { ...view, hash: view.hash.toUpperCase(), parent_hash: view.parent_hash.toUpperCase(), proposer: view.proposer.toUpperCase(), transactions: view.transactions.map((t) => t.toUpperCase()) };
    }
  }
  // RpcBlock is a plain JSON object (strings, numbers, bigints); its interface lacks JsonValue's index signature.
  return view as unknown as JsonValue;
};
