import { jsonInteger } from '../../core/json/index.js';
import type { Block, RpcBlock } from './types.js';

/** The profile's chain_getBlockByHeight result for a block. */
export function toRpcBlock(block: Block): RpcBlock {
  return {
    height: jsonInteger(block.height),
    hash: block.hash,
    parent_hash: block.parentHash,
    timestamp: jsonInteger(block.timestamp),
    proposer: block.proposer,
    transaction_count: block.transactions.length,
    transactions: block.transactions.map((tx) => tx.hash),
  };
}
