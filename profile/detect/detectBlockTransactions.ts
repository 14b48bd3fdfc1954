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
import type { Prober } from './Prober.js';
import { tipOf } from './sampleHeights.js';
import { RESULT_FIELDS, fieldOf } from './findKeys.js';

/** Blocks read at most, from the tip down. */
const BLOCKS_READ = 64;

/**
 * The block's transactions list, found as `fields.transactions` is (findKeys: the spec's name in any spelling, its
 * camelCase, or a known synonym such as `txs`), so that the list is read under the key the draft names for it.
 */
export function transactionsOf(block: JsonValue): JsonValue[] | undefined {
  const list = fieldOf(block, RESULT_FIELDS.block, 'transactions');
  return Array.isArray(list) ? list : undefined;
}

export function decideBlockTransactions(list: readonly JsonValue[], height: bigint): Finding {
  const objects = list.filter((t) => typeof t === 'object' && t !== null && !Array.isArray(t)).length;
  const strings = list.filter((t) => typeof t === 'string').length;
  const evidence = `block ${height} lists ${list.length}: ${strings} string(s), ${objects} object(s)`;
  if (objects === list.length) return probed('blockTransactions', 'objects', 'high', evidence);
  if (strings === list.length) return probed('blockTransactions', 'hashes', 'high', evidence);
  return fallback('blockTransactions', referenceProfile().blockTransactions, `${evidence}: neither all hashes nor all objects`);
}

/** `from`: the height before the detection's first transaction; the blocks above it are read first, up, where that transaction went. */
export async function detectBlockTransactions(prober: Prober, m: MethodsDetected, from: bigint | undefined, blockTimeMs: number): Promise<Finding> {
  const reference = referenceProfile().blockTransactions;
  if (!m.served('chain_getBlockByHeight')) return fallback('blockTransactions', reference, 'chain_getBlockByHeight not served');
  let tip = await tipOf(prober, m);
  if (tip === undefined) return fallback('blockTransactions', reference, 'no height to read blocks from');
  if (from === undefined) {
    for (let h = tip, read = 0; h >= 0n && read < BLOCKS_READ; h--, read++) {
      const list = await listAt(prober, m, h);
      if (list !== undefined && list.length > 0) return decideBlockTransactions(list, h);
    }
    return fallback('blockTransactions', reference, `none of the ${BLOCKS_READ} latest blocks lists a transaction`);
  }
  // Up from the height before the sends, as blocks come: the sends may not be in a block yet (a busy node, a
  // chain faster than the sends). Ten block times at most, and BLOCKS_READ blocks.
  const until = Date.now() + 10 * blockTimeMs;
  let read = 0;
  for (let h = from + 1n; read < BLOCKS_READ; ) {
    if (h <= tip) {
      const list = await listAt(prober, m, h);
      if (list !== undefined && list.length > 0) return decideBlockTransactions(list, h);
      h++;
      read++;
      continue;
    }
    if (Date.now() > until) break;
    await new Promise((resolve) => setTimeout(resolve, blockTimeMs / 4));
    tip = (await tipOf(prober, m)) ?? tip;
  }
  return fallback('blockTransactions', reference, `none of the ${read} blocks above ${from} lists a transaction`);
}

/** A block's transactions list, if it has one. */
async function listAt(prober: Prober, m: MethodsDetected, height: bigint): Promise<JsonValue[] | undefined> {
  const block = await prober.call(m.wire('chain_getBlockByHeight'), [jsonInteger(height)]);
  return block.kind === 'result' ? transactionsOf(block.result) : undefined;
}
