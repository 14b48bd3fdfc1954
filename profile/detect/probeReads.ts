/**
 * The detection's steps that only read the node, after the endpoint and the method names: the block time
 * (sampling the height, then timing blocks), the results and encodings, the params and the HTTP statuses.
 * Apart from detectProfile.ts, which runs them first, before the steps that send (probeSends.ts).
 */
import { randomBytes } from 'node:crypto';
import { REFERENCE_SETTINGS } from '../referenceProfile.js';
import { decideBlockTime } from './decideBlockTime.js';
import type { Detection } from './Detection.js';
import { detectEncodings } from './detectEncodings.js';
import { detectHealth } from './detectHealth.js';
import { detectHttp } from './detectHttp.js';
import type { StandardErrorAnswer } from './detectHttp.js';
import type { MethodsDetected } from './detectMethods.js';
import { detectParams } from './detectParams.js';
import { detectUnknowns } from './detectUnknowns.js';
import { readResults } from './readResults.js';
import type { Observed } from './readResults.js';
import { readTimestampDeltas } from './readTimestampDeltas.js';
import { sampleHeights, tipOf } from './sampleHeights.js';
import type { HeightSamples } from './sampleHeights.js';

/** What the reads found that the later steps use. */
export interface Reads {
  readonly observed: Observed;
  /** chain_health's chain id, when it carries one. */
  readonly chainId: bigint | undefined;
  /** The block time found, else the reference's. */
  readonly blockTimeMs: number;
}

/** The read steps, in order; each adds its findings to the detection. */
export async function probeReads(d: Detection, m: MethodsDetected, unknownMethod: StandardErrorAnswer | undefined): Promise<Reads> {
  const { prober, found } = d;
  const fresh = randomBytes(32).toString('hex');
  d.sentAddresses.push(fresh);

  let samples: HeightSamples = { rises: [], first: undefined, polls: 0, spentMs: 0 };
  await d.step('block time (sampling the height)', async () => {
    if (m.served('chain_blockNumber')) samples = await sampleHeights(prober, m);
    d.heightReads = samples.polls;
  });

  let observed: Observed = { genesisEvidence: '' };
  let chainId: bigint | undefined;
  await d.step('results and encodings', async () => {
    observed = await readResults(prober, m, fresh);
    d.add(detectEncodings(observed));
    const health = detectHealth(observed.health);
    d.add(health.findings);
    chainId = health.chainId;
    d.add(await detectUnknowns(prober, m, observed));
  });
  const genesisHeight = observed.genesisHeight ?? 0n;

  await d.step('params', async () => {
    const address = randomBytes(32).toString('hex');
    d.sentAddresses.push(address);
    d.add(await detectParams(prober, m, address, genesisHeight));
  });
  await d.step('HTTP statuses', async () => d.add(await detectHttp(prober, m, unknownMethod)));

  await d.step('block time', async () => {
    const timestamps = found.get('timestamps');
    // The tip now (the chain went on while the other probes ran): more recent blocks to time.
    const tip = timestamps?.basis === 'probed' ? await tipOf(prober, m) : undefined;
    const deltas = tip !== undefined ? await readTimestampDeltas(prober, m, tip, genesisHeight) : [];
    d.add([decideBlockTime(samples, deltas)]);
  });
  const blockTimeMs = typeof found.get('blockTimeMs')?.value === 'number' ? (found.get('blockTimeMs')?.value as number) : REFERENCE_SETTINGS.blockTimeMs;
  return { observed, chainId, blockTimeMs };
}
