/**
 * The interface's methods as the varying node needs them: their names (which method a response
 * answers decides how it is rewritten) and their params' names and count, read from the method
 * schemas' `x-params` so that leniency follows the schemas rather than a copy of them.
 */
import { schemaCatalog } from '../../core/schema/schemaCatalog.js';

export const METHOD = {
  blockNumber: 'chain_blockNumber',
  faucetClaim: 'chain_faucetClaim',
  getAccount: 'chain_getAccount',
  getBlockByHeight: 'chain_getBlockByHeight',
  health: 'chain_health',
  pouLocal: 'chain_pouLocal',
  pouPeers: 'chain_pouPeers',
  sendRawTransaction: 'chain_sendRawTransaction',
  peerCount: 'net_peerCount',
  discover: 'rpc.discover',
} as const;

let paramNames: ReadonlyMap<string, readonly string[]> | undefined;

/** Method name -> its params' names in order (the method's arity is their count). */
export function methodParamNames(): ReadonlyMap<string, readonly string[]> {
  paramNames ??= new Map(schemaCatalog().methods.map((schema) => [schema.title, schema['x-params'].map((p) => p.name)]));
  return paramNames;
}
