import { referenceProfile } from '../referenceProfile.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import type { HeightSamples } from './sampleHeights.js';

/** The middle value (the mean of the two middle ones for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Rounded to two significant digits (1234 -> 1200, 101 -> 100, 8 -> 8), at least 1. */
export const twoDigits = (ms: number): number => Math.max(1, Number(ms.toPrecision(2)));

/**
 * Time per block across the rises sampled: from the first rise to the last, over the blocks between.
 * Each rise is seen up to one read late, so the error is at most a read's period over that many blocks
 * (consecutive intervals would each carry it whole). undefined below two rises.
 */
export function blockTimeOfRises(samples: HeightSamples): number | undefined {
  const first = samples.rises[0];
  const last = samples.rises[samples.rises.length - 1];
  if (first === undefined || last === undefined || last.height <= first.height) return undefined;
  return (last.atMs - first.atMs) / Number(last.height - first.height);
}

/**
 * blockTimeMs: the time per block across the height rises sampled (polling resolution ~50 ms, spread over the span),
 * refined by the median difference of recent blocks' own timestamps when those agree (they are the
 * proposer's clock, exact to the millisecond); rounded to two significant digits. No rise and no
 * timestamps: the reference default, low confidence.
 */
export function decideBlockTime(samples: HeightSamples, stampDeltas: readonly number[]): Finding {
  if (samples.polls === 0 && stampDeltas.length === 0) return fallback('blockTimeMs', referenceProfile().blockTimeMs, 'the height was not read (chain_blockNumber not served); set blockTimeMs by hand');
  const sampled = blockTimeOfRises(samples);
  // Timestamps in whole seconds (every gap a multiple of 1000 ms) time a block to the second only: a 1.5 s chain's gaps
  // read 1000, 2000, 1000, ... and their median said 1000 or 2000. Over their span they are good to a second divided by
  // the gaps; the sampled value, to a poll's period, is kept before them.
  const coarse = stampDeltas.length > 0 && stampDeltas.every((d) => d % 1000 === 0);
  const usable = stampDeltas.length >= 3 && (coarse ? stampDeltas.some((d) => d > 0) : stampDeltas.every((d) => d > 0));
  const spanMean = stampDeltas.reduce((a, b) => a + b, 0) / Math.max(1, stampDeltas.length);
  const stamps = !usable ? undefined : coarse ? spanMean : median(stampDeltas);
  const sampleText = `${samples.polls} reads of the height over ${(samples.spentMs / 1000).toFixed(1)} s: ${samples.rises.length} rise(s)${sampled === undefined ? '' : `, ${Math.round(sampled)} ms per block`}`;
  const stampText = stamps === undefined ? '' : coarse ? `; ${stampDeltas.length} timestamp gaps of recent blocks in whole seconds, ${Math.round(stamps)} ms per block over their span` : `; ${stampDeltas.length} timestamp gaps of recent blocks, median ${Math.round(stamps)} ms`;
  if (coarse && stamps !== undefined) {
    if (sampled !== undefined) return probed('blockTimeMs', twoDigits(sampled), samples.rises.length >= 3 && sampled >= 500 ? 'high' : 'medium', `${sampleText}${stampText} (whole seconds: the sampled value is kept)`);
    // Good to a second over the span: medium when that is within a fifth of the value, else low (check it by hand).
    const within = 1000 / stampDeltas.length;
    return probed('blockTimeMs', twoDigits(stamps), within <= stamps / 5 ? 'medium' : 'low', `${sampleText}${stampText} (from the timestamps alone, good to about ${Math.round(within)} ms)`);
  }
  if (sampled !== undefined && stamps !== undefined) {
    // The polled value is within a poll period or so of the truth; timestamps outside that are another clock's story.
    if (Math.abs(stamps - sampled) <= Math.max(75, sampled * 0.5)) return probed('blockTimeMs', twoDigits(stamps), 'high', sampleText + stampText);
    return probed('blockTimeMs', twoDigits(sampled), 'medium', `${sampleText}${stampText} (the timestamps disagree; the sampled value is kept)`);
  }
  if (sampled !== undefined) return probed('blockTimeMs', twoDigits(sampled), samples.rises.length >= 3 && sampled >= 500 ? 'high' : 'medium', sampleText);
  if (stamps !== undefined) return probed('blockTimeMs', twoDigits(stamps), 'medium', `${sampleText}${stampText} (from the timestamps alone)`);
  return fallback('blockTimeMs', referenceProfile().blockTimeMs, `${sampleText}: the height did not rise enough to time a block; set blockTimeMs by hand`);
}
