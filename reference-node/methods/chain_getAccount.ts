import type { MethodHandler } from '../rpc/types.js';
import { RpcMethodError } from '../rpc/RpcMethodError.js';
import { toJsonInt } from '../node/toRpcError.js';
import type { NodeContext } from './NodeContext.js';

/** chain_getAccount [address] -> {balance, nonce}; an address never seen is an empty account. */
export const chain_getAccount = (ctx: NodeContext): MethodHandler => (params) => {
  const address = (params[0] as string).toLowerCase();
  // Fault address-lenient (TEST-ONLY): any string reaches here; a malformed one reads as an empty account.
  if (ctx.faults.has('address-lenient') && !/^[0-9a-f]{64}$/.test(address)) return { balance: '0', nonce: 0 };
  const account = ctx.chain.getAccount(address);
  const { faults } = ctx;
  if (faults.size === 0) return { balance: account.balance.toString(), nonce: toJsonInt(account.nonce) };
  // Fault injection, TEST-ONLY (docs/faults.md): each line makes the answer deliberately wrong.
  if (faults.has('unknown-account-error') && account.balance === 0n && account.nonce === 0n) {
    throw new RpcMethodError(-32001, 'Account not found', { reason: `no account ${address} on this chain` });
  }
  const nonce = faults.has('nonce-not-incremented') && account.nonce > 0n ? account.nonce - 1n : account.nonce;
  return {
    balance: faults.has('balance-as-number') ? toJsonInt(account.balance) : faults.has('balance-padded') ? `000${account.balance}` : account.balance.toString(),
    nonce: faults.has('nonce-as-string') ? nonce.toString() : toJsonInt(nonce),
  };
};
