/**
 * blockTransactions: what a block's transactions list holds, the transactions' hashes (reference) or an object
 * for each. Read after the faucet and the transactions were probed: from the height before the first of them up
 * (where they went), the first block whose list is not empty decides.
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
const BLOCKS_READ = 64;

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

/** The node's height now, or undefined. */
export async function tipOf(prober: Prober, m: MethodsDetected): Promise<bigint | undefined> {
  if (!m.served('chain_blockNumber')) return undefined;
  const now = await prober.call(m.wire('chain_blockNumber'), []);
  return now.kind === 'result' ? integerOf(now.result)?.value : undefined;
}

/** `from`: the height before the detection's first transaction; the blocks above it are read first, up, where that transaction went. */
export async function detectBlockTransactions(prober: Prober, m: MethodsDetected, from: bigint | undefined, blockTimeMs: number): Promise<Finding> {
  const reference = referenceProfile().blockTransactions;
  if (!m.served('chain_getBlockByHeight')) return fallback('blockTransactions', reference, 'chain_getBlockByHeight not served');
  let tip = await tipOf(prober, m);
  // The sends may have taken less than a block: wait (three block times at most) for a block above them.
  for (let waited = 0; from !== undefined && tip !== undefined && tip <= from && waited < 3 * blockTimeMs; waited += blockTimeMs / 4) {
    await new Promise((resolve) => setTimeout(resolve, blockTimeMs / 4));
    tip = await tipOf(prober, m);
  }
  if (tip === undefined) return fallback('blockTransactions', reference, 'no height to read blocks from');
  const step = from === undefined ? -1n : 1n;
  let read = 0;
  for (let h = from === undefined ? tip : from + 1n; read < BLOCKS_READ && h >= 0n && h <= tip; h += step, read++) {
    const block = await prober.call(m.wire('chain_getBlockByHeight'), [jsonInteger(h)]);
    const list = block.kind === 'result' ? transactionsOf(block.result) : undefined;
    if (list !== undefined && list.length > 0) return decideBlockTransactions(list, h);
  }
  return fallback('blockTransactions', reference, `none of the ${read} blocks read (${from === undefined ? "from the tip down" : `from ${from + 1n} up`}) lists a transaction`);
}
