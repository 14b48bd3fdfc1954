/**
 * The detection's size-limit steps: the body size limit, then the batch size limit under it. Apart from
 * detectProfile.ts, which runs them after the transactions; they can be turned off (DetectOptions.limits).
 */
import type { Detection } from './Detection.js';
import { detectBatchLimit } from './detectBatchLimit.js';
import { detectBodyLimit } from './detectBodyLimit.js';
import type { MethodsDetected } from './detectMethods.js';
import { fallback } from './Finding.js';

/** The body and batch size limits (unless `limits` is false), probed with a method that takes no params. */
export async function probeLimits(d: Detection, m: MethodsDetected, limits: boolean | undefined): Promise<void> {
  if (limits === false) d.add([fallback('maxBodyBytes', null, 'not probed (--no-limits)'), fallback('maxBatch', null, 'not probed (--no-limits)')]);
  else {
    // A method the node serves with no params: its answers are what a served probe looks like.
    const quiet = (['chain_blockNumber', 'net_peerCount', 'chain_health'] as const).find((spec) => m.served(spec));
    if (quiet === undefined) d.add([fallback('maxBodyBytes', null, 'no method that takes no params is served to probe with'), fallback('maxBatch', null, 'no method that takes no params is served to probe with')]);
    else {
      let maxBodyBytes: number | undefined;
      await d.step('body size limit', async () => {
        const body = await detectBodyLimit(d.prober, m.wire(quiet));
        d.add(body.findings);
        maxBodyBytes = body.maxBodyBytes;
      });
      await d.step('batch size limit', async () => d.add(await detectBatchLimit(d.prober, m.wire(quiet), maxBodyBytes)));
    }
  }
}
