import type { MethodName } from '../../core/schema/types.generated.js';
import type { MethodHandler, MethodTable } from '../rpc/types.js';
import type { NodeContext } from './NodeContext.js';
import { chain_blockNumber } from './chain_blockNumber.js';
import { chain_faucetClaim } from './chain_faucetClaim.js';
import { chain_getAccount } from './chain_getAccount.js';
import { chain_getBlockByHeight } from './chain_getBlockByHeight.js';
import { chain_health } from './chain_health.js';
import { chain_pouLocal } from './chain_pouLocal.js';
import { chain_pouPeers } from './chain_pouPeers.js';
import { chain_sendRawTransaction } from './chain_sendRawTransaction.js';
import { net_peerCount } from './net_peerCount.js';
import { rpc_discover } from './rpc.discover.js';

/**
 * Every method of the reference profile, one file each (reference-node/methods/<method>.ts). The
 * Record over MethodName makes a method added to schemas/ without a handler a type error.
 */
export function createMethodTable(ctx: NodeContext): MethodTable {
  const table: Record<MethodName, MethodHandler> = {
    chain_health: chain_health(ctx),
    chain_blockNumber: chain_blockNumber(ctx),
    chain_getBlockByHeight: chain_getBlockByHeight(ctx),
    chain_getAccount: chain_getAccount(ctx),
    chain_sendRawTransaction: chain_sendRawTransaction(ctx),
    chain_faucetClaim: chain_faucetClaim(ctx),
    chain_pouLocal: chain_pouLocal(ctx),
    chain_pouPeers: chain_pouPeers(ctx),
    net_peerCount: net_peerCount(ctx),
    'rpc.discover': rpc_discover(ctx),
  };
  return table;
}
