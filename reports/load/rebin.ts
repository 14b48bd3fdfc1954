// A histogram's buckets regrouped into bins of equal width, for a chart of a distribution: HDR buckets widen
// with the value, a chart's bars do not.
import type { HistogramBucket } from '../../load/metrics/index.js';

/**
 * Buckets regrouped into `count` bins of equal width between `from` and `to` (a bucket is put in the bin
 * of its lower end); values outside the range are counted in `below` and `above`.
 */
export function rebin(buckets: readonly HistogramBucket[], from: number, to: number, count: number): { bins: HistogramBucket[]; below: number; above: number } {
  const width = (to - from) / count;
  const bins = Array.from({ length: count }, (_, i): HistogramBucket => ({ from: from + i * width, to: from + (i + 1) * width, count: 0 }));
  let below = 0;
  let above = 0;
  for (const b of buckets) {
    if (b.from < from) below += b.count;
    else if (b.from > to) above += b.count;
    else {
      const bin = bins[Math.min(count - 1, Math.floor((b.from - from) / width))];
      if (bin) bin.count += b.count;
    }
  }
  return { bins, below, above };
}
