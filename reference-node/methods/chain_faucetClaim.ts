import type { MethodHandler } from '../rpc/types.js';
import { DEFAULT_FAUCET_AMOUNT } from '../chain/Chain.js';
import { isAddress, phantomFaucetClaim } from '../faults/faultHooks.js';
import type { NodeContext } from './NodeContext.js';

/** chain_faucetClaim [address] -> {transaction_hash, amount}; the transfer appears in a block. */
export const chain_faucetClaim = (ctx: NodeContext): MethodHandler => async (params) => {
  const address = (params[0] as string).toLowerCase();
  // Fault faucet-address-lenient (TEST-ONLY, docs/faults.md): any string reaches here; a malformed address gets a made-up claim, and nothing is sent.
  if (ctx.faults.has('faucet-address-lenient') && !isAddress(address)) return phantomFaucetClaim(address, ctx.chain.faucetAmount ?? DEFAULT_FAUCET_AMOUNT);
  const claim = await ctx.claimFaucet(address);
  // Fault faucet-amount-number (TEST-ONLY, docs/faults.md): the amount as a JSON number.
  return ctx.faults.has('faucet-amount-number') ? { ...claim, amount: Number(claim.amount) } : claim;
};
