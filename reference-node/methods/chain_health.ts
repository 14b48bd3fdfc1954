import type { MethodHandler } from '../rpc/types.js';
import { jsonInteger } from '../../core/json/index.js';
import type { NodeContext } from './NodeContext.js';

/** chain_health -> {status, mode, chain_id} (profile: docs/reference-profile.md). */
export const chain_health = (ctx: NodeContext): MethodHandler => () => ({
  status: ctx.isSyncing() ? 'syncing' : 'ok',
  mode: ctx.kind,
  chain_id: jsonInteger(ctx.chain.chainId),
});
