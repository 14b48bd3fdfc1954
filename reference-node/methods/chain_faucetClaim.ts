import type { MethodHandler } from '../rpc/types.js';
import type { NodeContext } from './NodeContext.js';

/** chain_faucetClaim [address] -> {transaction_hash, amount}; the transfer appears in a block. */
export const chain_faucetClaim = (ctx: NodeContext): MethodHandler => (params) => ctx.claimFaucet((params[0] as string).toLowerCase());
