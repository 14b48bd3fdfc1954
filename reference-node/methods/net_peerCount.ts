import type { MethodHandler } from '../rpc/types.js';
import type { NodeContext } from './NodeContext.js';

/** net_peerCount -> the number of live peers, this node excluded: the size of chain_pouPeers' map. */
export const net_peerCount = (ctx: NodeContext): MethodHandler => () => ctx.peers.live().length;
