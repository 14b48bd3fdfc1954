import type { MethodHandler } from '../rpc/types.js';
import { jsonInteger } from '../../core/json/index.js';
import type { NodeContext } from './NodeContext.js';

/** chain_pouPeers -> {peers: {identifier: score}} for every live peer, this node excluded. */
export const chain_pouPeers = (ctx: NodeContext): MethodHandler => () => ({
  peers: Object.fromEntries(ctx.peers.live().map((p) => [p.id, jsonInteger(p.score)])),
});
