import type { MethodHandler } from '../rpc/types.js';
import { bodyHash, isHexPairs, madeUpTxHash } from '../faults/faultHooks.js';
import type { NodeContext } from './NodeContext.js';

/** chain_sendRawTransaction [hex] -> the transaction hash, once admitted to the mempool (rules: docs/chain.md). */
export const chain_sendRawTransaction = (ctx: NodeContext): MethodHandler => async (params) => {
  const hex = params[0] as string;
  // Fault tx-param-lenient (TEST-ONLY, docs/faults.md): text that is not hex pairs gets a made-up hash; nothing is queued.
  if (ctx.faults.has('tx-param-lenient') && !isHexPairs(hex)) return madeUpTxHash(hex);
  const hash = await ctx.submitTransaction(hex);
  // Fault tx-hash-wrong (TEST-ONLY, docs/faults.md): the hash of the body, not of the wire bytes.
  return ctx.faults.has('tx-hash-wrong') ? bodyHash(hex) : hash;
};
