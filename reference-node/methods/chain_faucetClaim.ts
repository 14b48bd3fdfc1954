import type { MethodHandler } from '../rpc/types.js';
import type { NodeContext } from './NodeContext.js';

/** chain_faucetClaim [address] -> {transaction_hash, amount}; the transfer appears in a block. */
export const chain_faucetClaim = (ctx: NodeContext): MethodHandler => async (params) => {
  const claim = await ctx.claimFaucet((params[0] as string).toLowerCase());
  // Fault faucet-amount-number (TEST-ONLY, docs/faults.md): the amount as a JSON number.
  return ctx.faults.has('faucet-amount-number') ? { ...claim, amount: Number(claim.amount) } : claim;
};
