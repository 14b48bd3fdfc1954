/**
 * blockTransactions: what a block's transactions list holds, the transactions' hashes (reference) or an object
 * for each. Read after the faucet and the transactions were probed, when recent blocks are the likeliest to hold
 * one: from the tip down, the first block whose list is not empty decides.
 */
import type { JsonValue } from '../../core/json/index.js';
import { jsonInteger } from '../../core/json/index.js';
import { referenceProfile } from '../referenceProfile.js';
import type { MethodsDetected } from './detectMethods.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { integerOf } from './integerOf.js';
import type { Prober } from './Prober.js';

/** Blocks read at most, from the tip down. */
const BLOCKS_READ = 12;

/** The list under the spec's name `transactions` in any spelling (transactions, Transactions, TRANSACTIONS). */
function transactionsOf(block: JsonValue): JsonValue[] | undefined {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return undefined;
  for (const [key, value] of Object.entries(block)) if (key.replace(/_/g, '').toLowerCase() === 'transactions' && Array.isArray(value)) return value;
  return undefined;
}

export function decideBlockTransactions(list: readonly JsonValue[], height: bigint): Finding {
  const objects = list.filter((t) => typeof t === 'object' && t !== null && !Array.isArray(t)).length;
  const strings = list.filter((t) => typeof t === 'string').length;
  const evidence = `block ${height} lists ${list.length}: ${strings} string(s), ${objects} object(s)`;
  if (objects === list.length) return probed('blockTransactions', 'objects', 'high', evidence);
  if (strings === list.length) return probed('blockTransactions', 'hashes', 'high', evidence);
  return fallback('blockTransactions', referenceProfile().blockTransactions, `${evidence}: neither all hashes nor all objects`);
}

export async function detectBlockTransactions(prober: Prober, m: MethodsDetected): Promise<Finding> {
  const reference = referenceProfile().blockTransactions;
  if (!m.served('chain_blockNumber') || !m.served('chain_getBlockByHeight')) return fallback('blockTransactions', reference, 'chain_blockNumber or chain_getBlockByHeight not served');
  const now = await prober.call(m.wire('chain_blockNumber'), []);
  const tip = now.kind === 'result' ? integerOf(now.result) : undefined;
  if (tip === undefined) return fallback('blockTransactions', reference, 'no height to read blocks from');
  for (let h = tip.value, read = 0; h >= 0n && read < BLOCKS_READ; h--, read++) {
    const block = await prober.call(m.wire('chain_getBlockByHeight'), [jsonInteger(h)]);
    const list = block.kind === 'result' ? transactionsOf(block.result) : undefined;
    if (list !== undefined && list.length > 0) return decideBlockTransactions(list, h);
  }
  return fallback('blockTransactions', reference, `none of the ${BLOCKS_READ} latest blocks lists a transaction`);
}
