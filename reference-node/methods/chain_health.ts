import type { MethodHandler } from '../rpc/types.js';
import { toJsonInt } from '../node/toRpcError.js';
import type { NodeContext } from './NodeContext.js';

/** chain_health -> {status, mode, chain_id} (profile: docs/reference-profile.md). */
export const chain_health = (ctx: NodeContext): MethodHandler => () => {
  const status = ctx.isSyncing() ? 'syncing' : 'ok';
  const chainId = ctx.chain.chainId;
  // Fault injection, TEST-ONLY (docs/faults.md): health-no-mode, health-chain-id-string.
  if (ctx.faults.has('health-no-mode')) return { status, chain_id: toJsonInt(chainId) };
  return { status, mode: ctx.kind, chain_id: ctx.faults.has('health-chain-id-string') ? chainId.toString() : toJsonInt(chainId) };
};
