/**
 * How many of a lag histogram's values were beyond a bound: what the validity rules count before they call a run
 * one whose generator fell behind (runEngine.ts).
 */
import { Histogram } from '../metrics/Histogram.js';
import type { HistogramData } from '../model.js';

/** Values of `lag` (µs) beyond `boundUs`: every bucket that starts past it. */
export function lateBeyond(lag: HistogramData, boundUs: number): number {
  if (lag.count === 0 || lag.max <= boundUs) return 0;
  return Histogram.decode(lag.encoded)
    .buckets()
    .reduce((n, b) => n + (b.from > boundUs ? b.count : 0), 0);
}

/**
 * Whether a lag's p99 is over its bound in a way that says the generator fell behind: more than 1% of the values
 * beyond it (its p99 over it), and at least two. In a run of under 200 sends the p99 is one value: a short run at
 * 20 calls/s (60 sends) with one send 5.4 ms late was untrustworthy for it, on a machine that paused once (an
 * outside tester's smoke runs, one in ten). One send far late is caught apart (a stall, over 200 ms).
 */
export function fellBehind(lag: HistogramData, boundUs: number): boolean {
  return lag.count > 0 && lag.p99 > boundUs && lateBeyond(lag, boundUs) >= 2;
}
