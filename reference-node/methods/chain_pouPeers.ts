import type { MethodHandler } from '../rpc/types.js';
import { toJsonInt } from '../node/toRpcError.js';
import type { NodeContext } from './NodeContext.js';

/** chain_pouPeers -> {peers: {identifier: score}} for every live peer, this node excluded. */
export const chain_pouPeers = (ctx: NodeContext): MethodHandler => () => {
  const live = ctx.peers.live();
  const { faults } = ctx;
  // Faults peers-empty, peers-as-list, peer-score-fraction (TEST-ONLY, docs/faults.md).
  if (faults.has('peers-empty')) return { peers: {} };
  if (faults.has('peers-as-list')) return { peers: live.map((p) => p.id) };
  return { peers: Object.fromEntries(live.map((p) => [p.id, faults.has('peer-score-fraction') ? Number(p.score) + 0.5 : toJsonInt(p.score)])) };
};
