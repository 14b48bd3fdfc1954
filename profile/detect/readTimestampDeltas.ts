import { jsonInteger } from '../../core/json/index.js';
import { classifyTimestamp } from './classifyTimestamp.js';
import type { MethodsDetected } from './detectMethods.js';
import { fieldOf, RESULT_FIELDS } from './findKeys.js';
import type { Prober } from './Prober.js';

/** How many recent blocks' timestamps are read. */
export const RECENT_BLOCKS = 8;

/**
 * The gaps, in ms, between the timestamps of up to 8 consecutive recent blocks (never the genesis block,
 * whose timestamp may be 0). Empty when the blocks carry no timestamp in a known form.
 */
export async function readTimestampDeltas(prober: Prober, methods: MethodsDetected, tip: bigint, genesisHeight: bigint): Promise<number[]> {
  if (!methods.served('chain_getBlockByHeight')) return [];
  const method = methods.wire('chain_getBlockByHeight');
  const from = tip - BigInt(RECENT_BLOCKS - 1) > genesisHeight ? tip - BigInt(RECENT_BLOCKS - 1) : genesisHeight + 1n;
  const times: number[] = [];
  const now = Date.now();
  for (let h = from; h <= tip; h++) {
    const outcome = await prober.call(method, [jsonInteger(h)]);
    if (outcome.kind !== 'result') return [];
    const reading = classifyTimestamp(fieldOf(outcome.result, RESULT_FIELDS.block, 'timestamp'), now);
    if (reading === undefined) return [];
    times.push(reading.ms);
  }
  return times.slice(1).map((t, i) => t - (times[i] ?? t));
}
