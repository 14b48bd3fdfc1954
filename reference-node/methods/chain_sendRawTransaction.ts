import type { MethodHandler } from '../rpc/types.js';
import type { NodeContext } from './NodeContext.js';

/** chain_sendRawTransaction [hex] -> the transaction hash, once admitted to the mempool (rules: docs/chain.md). */
export const chain_sendRawTransaction = (ctx: NodeContext): MethodHandler => (params) => ctx.submitTransaction(params[0] as string);
