import type { Check } from '../../Check.js';
import { chain_blockNumber } from './chain_blockNumber.js';
import { chain_faucetClaim } from './chain_faucetClaim.js';
import { chain_getAccount } from './chain_getAccount.js';
import { chain_getBlockByHeight } from './chain_getBlockByHeight.js';
import { chain_health } from './chain_health.js';
import { chain_pouLocal } from './chain_pouLocal.js';
import { chain_pouPeers } from './chain_pouPeers.js';
import { chain_sendRawTransaction } from './chain_sendRawTransaction.js';
import { net_peerCount } from './net_peerCount.js';

export { chain_blockNumber, chain_faucetClaim, chain_getAccount, chain_getBlockByHeight, chain_health, chain_pouLocal, chain_pouPeers, chain_sendRawTransaction, net_peerCount };

/** Every method's checks, in the order of the spec's Methods table. */
export const methodChecks: Check[] = [
  ...chain_health,
  ...chain_blockNumber,
  ...chain_getBlockByHeight,
  ...chain_getAccount,
  ...chain_sendRawTransaction,
  ...chain_faucetClaim,
  ...chain_pouLocal,
  ...chain_pouPeers,
  ...net_peerCount,
];
