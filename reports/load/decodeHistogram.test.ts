import * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { loadReportFixture } from '../../test/support/loadReportFixture.js';
import { decodeHistogram, rebin } from './decodeHistogram.js';
import type { HistogramBucket } from './decodeHistogram.js';

const holding = (buckets: readonly HistogramBucket[], value: number): HistogramBucket | undefined => buckets.find((b) => b.from <= value && value < b.to);

describe('decodeHistogram', () => {
  it.each<[string, hdr.BuildRequest]>([
    ['1 µs resolution, 3 digits', { lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 }],
    ['1 ms units, 2 digits', { lowestDiscernibleValue: 1000, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 2 }],
    ['the library\'s defaults (auto-resizing)', {}],
  ])('gives back the counts hdr-histogram-js recorded (%s)', (_what, options) => {
    const h = hdr.build(options);
    const recorded: [number, number][] = [[1, 3], [1500, 7], [123_456, 2], [3_000_000, 1], [3_000_001, 4]];
    for (const [value, count] of recorded) h.recordValueWithCount(value, count);
    const buckets = decodeHistogram(hdr.encodeIntoCompressedBase64(h));
    expect(buckets.reduce((n, b) => n + b.count, 0)).toBe(h.totalCount);
    // Values closer than the resolution share a bucket: 3,000,000 and 3,000,001 do at any of these settings.
    expect(holding(buckets, 3_000_000)).toBe(holding(buckets, 3_000_001));
    expect(holding(buckets, 3_000_000)?.count).toBe(5);
    expect(holding(buckets, 1500)?.count).toBe(7);
    expect(holding(buckets, 123_456)?.count).toBe(2);
    expect(buckets.map((b) => b.from)).toEqual([...buckets.map((b) => b.from)].sort((a, b) => a - b));
  });

  it('agrees with hdr-histogram-js on the percentiles of a real run\'s histogram', () => {
    const run = loadReportFixture('inclusion').runs[0];
    for (const data of [run?.latency, run?.inclusion?.timeToInclusionMs]) {
      if (!data) throw new Error('fixture without the histogram');
      const buckets = decodeHistogram(data.encoded);
      expect(buckets.reduce((n, b) => n + b.count, 0)).toBe(data.count);
      for (const [p, expected] of [[50, data.p50], [90, data.p90], [99, data.p99], [99.9, data.p999]] as const) {
        // As HdrHistogram counts: rounded up, less float noise (99.9 / 100 * 24000 is 23976.000000000004).
        const want = Math.max(1, Math.ceil((p / 100) * data.count - 1e-9));
        let seen = 0;
        const bucket = buckets.find((b) => (seen += b.count) >= want);
        expect(bucket && bucket.from <= expected && expected < bucket.to, `p${p}`).toBe(true);
      }
    }
  });

  it('gives nothing for an empty histogram, and refuses what is not an HDR encoding', () => {
    expect(decodeHistogram('')).toEqual([]);
    expect(() => decodeHistogram(Buffer.from('not a histogram at all').toString('base64'))).toThrow(/HdrHistogram/);
  });

  it('rebins into equal bins, counting what falls outside', () => {
    const { bins, below, above } = rebin([{ from: 0, to: 1, count: 2 }, { from: 5, to: 6, count: 3 }, { from: 9, to: 10, count: 1 }, { from: 30, to: 31, count: 4 }], 1, 11, 5);
    expect(bins.map((b) => [b.from, b.to, b.count])).toEqual([[1, 3, 0], [3, 5, 0], [5, 7, 3], [7, 9, 0], [9, 11, 1]]);
    expect([below, above]).toEqual([2, 4]);
  });
});
