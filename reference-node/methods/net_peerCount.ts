import type { MethodHandler } from '../rpc/types.js';
import type { NodeContext } from './NodeContext.js';

/** net_peerCount -> the number of live peers, this node excluded: the size of chain_pouPeers' map. */
export const net_peerCount = (ctx: NodeContext): MethodHandler => () => {
  // Faults peer-count-off, peer-count-hex, peer-count-negative (TEST-ONLY, docs/faults.md).
  const count = ctx.peers.live().length + (ctx.faults.has('peer-count-off') ? 1 : 0);
  if (ctx.faults.has('peer-count-negative')) return -1 - count;
  return ctx.faults.has('peer-count-hex') ? `0x${count.toString(16)}` : count;
};
