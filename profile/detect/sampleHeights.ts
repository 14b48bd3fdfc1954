import type { MethodsDetected } from './detectMethods.js';
import { integerOf } from './integerOf.js';
import type { Prober } from './Prober.js';

/**
 * How often the height is read, and for how long at most: until RISES rises that span at least
 * RISES_SPAN_MS (each rise is seen up to one read late, so the span bounds the error per block), or
 * SAMPLE_FOR_MS.
 */
export const SAMPLE_EVERY_MS = 50;
export const SAMPLE_FOR_MS = 5_000;
export const RISES = 3;
export const RISES_SPAN_MS = 500;

export interface HeightSamples {
  /** Each time the height was seen higher than before: when (ms since the first read) and the new height. */
  readonly rises: ReadonlyArray<{ readonly atMs: number; readonly height: bigint }>;
  readonly first: bigint | undefined;
  readonly polls: number;
  readonly spentMs: number;
}

/**
 * Reads chain_blockNumber every ~50 ms until the height has risen 3 times over at least 500 ms, or 5 s
 * have passed: the block time as the node shows it to clients (the spec's examples poll the height too).
 */
export async function sampleHeights(prober: Prober, methods: MethodsDetected): Promise<HeightSamples> {
  const method = methods.wire('chain_blockNumber');
  const started = Date.now();
  const rises: Array<{ atMs: number; height: bigint }> = [];
  let first: bigint | undefined;
  let last: bigint | undefined;
  let polls = 0;
  const enough = (): boolean => rises.length >= RISES && (rises[rises.length - 1]?.atMs ?? 0) - (rises[0]?.atMs ?? 0) >= RISES_SPAN_MS;
  while (!enough() && Date.now() - started < SAMPLE_FOR_MS) {
    const before = Date.now();
    const outcome = await prober.call(method, []);
    polls++;
    const height = outcome.kind === 'result' ? integerOf(outcome.result)?.value : undefined;
    if (height !== undefined) {
      first ??= height;
      // The request's midpoint is the best guess of when the node read the height.
      const at = Math.round((before + Date.now()) / 2) - started;
      if (last !== undefined && height > last) rises.push({ atMs: at, height });
      last = height;
    }
    await prober.sleep(Math.max(0, SAMPLE_EVERY_MS - (Date.now() - before)));
  }
  return { rises, first, polls, spentMs: Date.now() - started };
}

/** The node's height now, or undefined. */
export async function tipOf(prober: Prober, m: MethodsDetected): Promise<bigint | undefined> {
  if (!m.served('chain_blockNumber')) return undefined;
  const now = await prober.call(m.wire('chain_blockNumber'), []);
  return now.kind === 'result' ? integerOf(now.result)?.value : undefined;
}
