import { u64Json } from './bytes.js';
import type { Block, RpcBlock } from './types.js';

/** The profile's chain_getBlockByHeight result for a block. */
export function toRpcBlock(block: Block): RpcBlock {
  return {
    height: u64Json(block.height),
    hash: block.hash,
    parent_hash: block.parentHash,
    timestamp: u64Json(block.timestamp),
    proposer: block.proposer,
    transaction_count: block.transactions.length,
    transactions: block.transactions.map((tx) => tx.hash),
  };
}
