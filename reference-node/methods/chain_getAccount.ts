import type { MethodHandler } from '../rpc/types.js';
import { jsonInteger } from '../../core/json/index.js';
import type { NodeContext } from './NodeContext.js';

/** chain_getAccount [address] -> {balance, nonce}; an address never seen is an empty account. */
export const chain_getAccount = (ctx: NodeContext): MethodHandler => (params) => {
  const account = ctx.chain.getAccount((params[0] as string).toLowerCase());
  return { balance: account.balance.toString(), nonce: jsonInteger(account.nonce) };
};
