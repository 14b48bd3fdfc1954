/**
 * How each read method's params are drawn under load, by the spec's method name: one file per method that
 * takes params (load/requests/<method>.ts), none for the methods that take none. chain_sendRawTransaction's
 * params come from a corpus (load/requests/chain_sendRawTransaction.ts).
 */
import type { JsonValue } from '../../core/json/index.js';
import type { ReadMethod } from '../scenario/Scenario.generated.js';
import { drawGetAccount } from './chain_getAccount.js';
import { drawGetBlockByHeight } from './chain_getBlockByHeight.js';
import type { DrawContext } from './DrawContext.js';

const none = (): JsonValue[] => [];

export const DRAW_PARAMS: Readonly<Record<ReadMethod, (ctx: DrawContext) => JsonValue[]>> = {
  chain_blockNumber: none,
  chain_getBlockByHeight: drawGetBlockByHeight,
  chain_getAccount: drawGetAccount,
  chain_health: none,
  chain_pouLocal: none,
  chain_pouPeers: none,
  net_peerCount: none,
  'rpc.discover': none,
};
