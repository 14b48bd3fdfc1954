import type { HistogramData } from '../model.js';

/**
 * What the inclusion tracker needs of a histogram. load/metrics/Histogram.ts (HdrHistogram, mergeable,
 * encoded) is the harness's own; until it is wired in, ExactHistogram stands in with the same two calls.
 */
export interface InclusionHistogram {
  record(value: number): void;
  toData(): HistogramData;
}

/**
 * Every value kept and sorted on demand: exact percentiles, no encoding (`encoded` is ''). Percentiles
 * follow HdrHistogram's definition: the smallest recorded value v such that at least p% of values are <= v.
 */
export class ExactHistogram implements InclusionHistogram {
  private readonly values: number[] = [];

  record(value: number): void {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`a histogram records non-negative finite values; got ${value}`);
    this.values.push(value);
  }

  toData(): HistogramData {
    const n = this.values.length;
    if (n === 0) return { count: 0, min: 0, max: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, encoded: '' };
    const sorted = Float64Array.from(this.values).sort();
    // The rank ceil(p% of n), with a little slack: 99.9 / 100 * 1000 is 999.0000000000001 in doubles.
    const at = (p: number): number => sorted[Math.max(0, Math.ceil((p / 100) * n - 1e-9) - 1)] ?? 0;
    const sum = this.values.reduce((a, b) => a + b, 0);
    return { count: n, min: sorted[0] ?? 0, max: sorted[n - 1] ?? 0, mean: sum / n, p50: at(50), p90: at(90), p99: at(99), p999: at(99.9), encoded: '' };
  }
}
