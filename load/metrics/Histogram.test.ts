import fc from 'fast-check';
// The library itself, as the truth the in-place records are held to (Histogram.ts is its only user otherwise).
import hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { Histogram, HISTOGRAM_MAX, histogramDataOfMs, mergeHistogramData } from './Histogram.js';

describe('Histogram', () => {
  it('counts each record in the very bucket HdrHistogram\'s own recordValue uses, read between records or not', () => {
    const edges = [1, 2, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 65_535, 65_536, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, HISTOGRAM_MAX - 1, HISTOGRAM_MAX];
    const value = fc.oneof(fc.constantFrom(...edges), fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: HISTOGRAM_MAX }));
    fc.assert(
      fc.property(fc.array(fc.tuple(value, fc.integer({ min: 1, max: 3 }), fc.boolean()), { minLength: 1, maxLength: 200 }), (records) => {
        const ours = new Histogram();
        const theirs = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: HISTOGRAM_MAX, numberOfSignificantValueDigits: 3, autoResize: false, bitBucketSize: 32 });
        let total = 0;
        for (const [v, count, read] of records) {
          ours.record(v, count);
          theirs.recordValueWithCount(v, count);
          total += count;
          expect(ours.count).toBe(total);
          // A read hands the records made so far to the HdrHistogram; the next ones land in place again.
          if (read) expect(ours.percentile(50)).toBe(theirs.getValueAtPercentile(50));
        }
        expect(ours.encode()).toBe(hdr.encodeIntoCompressedBase64(theirs));
        expect(ours.toData().p99).toBe(theirs.getValueAtPercentile(99));
      }),
      { numRuns: 100 },
    );
  });

  it('crosses threads as its counts (toCounts, fromCounts) with every bucket and count kept, read before or not', () => {
    const value = fc.oneof(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: HISTOGRAM_MAX }));
    fc.assert(
      fc.property(fc.array(fc.tuple(value, fc.integer({ min: 1, max: 3 })), { maxLength: 200 }), fc.boolean(), (records, read) => {
        const ours = new Histogram();
        for (const [v, count] of records) ours.record(v, count);
        if (read) ours.percentile(50);
        const counts = ours.toCounts();
        // Unread, the counts go as pairs (no zlib on the sending thread); a histogram read before goes encoded.
        expect(typeof counts === 'string').toBe(read && records.length > 0);
        const back = Histogram.fromCounts(counts);
        expect(back.count).toBe(ours.count);
        expect(back.encode()).toBe(ours.encode());
      }),
      { numRuns: 100 },
    );
  });

  it('refuses counts that are not a histogram\'s', () => {
    expect(() => Histogram.fromCounts(Int32Array.of(-1, 3))).toThrow(/bucket -1/);
    expect(() => Histogram.fromCounts(Int32Array.of(5, 0))).toThrow(/not one of a histogram/);
    expect(Histogram.fromCounts(new Int32Array(0)).count).toBe(0);
  });

  it('gives percentiles within 0.1% over 1 µs to an hour', () => {
    const h = new Histogram();
    for (let v = 1; v <= 100_000; v++) h.record(v);
    const d = h.toData();
    expect(d.count).toBe(100_000);
    expect(d.min).toBe(1);
    expect(Math.abs(d.max - 100_000) / 100_000).toBeLessThan(0.001);
    expect(Math.abs(d.p50 - 50_000) / 50_000).toBeLessThan(0.001);
    expect(Math.abs(d.p99 - 99_000) / 99_000).toBeLessThan(0.001);
    expect(Math.abs(d.p999 - 99_900) / 99_900).toBeLessThan(0.001);
    expect(Math.abs(d.mean - 50_000.5) / 50_000).toBeLessThan(0.001);
    const hour = new Histogram();
    hour.record(3_600_000_000);
    expect(Math.abs(hour.toData().max - 3_600_000_000) / 3_600_000_000).toBeLessThan(0.001);
  });

  it('records values below 1 as 1 and beyond the range as its top, never losing a count', () => {
    const h = new Histogram();
    h.record(0);
    h.record(0.2);
    h.record(-5);
    h.record(1e13);
    const d = h.toData();
    expect(d.count).toBe(4);
    expect(d.min).toBe(1);
    expect(d.max).toBeGreaterThanOrEqual(HISTOGRAM_MAX * 0.999);
  });

  it('is all zeros and encodes to the empty string when empty', () => {
    expect(new Histogram().toData()).toEqual({ count: 0, min: 0, max: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, encoded: '' });
    expect(Histogram.decode('').count).toBe(0);
  });

  it('encodes losslessly and merges exactly: two halves merged equal the whole', () => {
    const whole = new Histogram();
    const a = new Histogram();
    const b = new Histogram();
    for (let i = 0; i < 20_000; i++) {
      const v = Math.floor(Math.exp((i % 997) / 60)); // 1 µs to ~16 s
      whole.record(v);
      (i % 2 === 0 ? a : b).record(v);
    }
    const merged = Histogram.decode(a.encode());
    merged.add(Histogram.decode(b.encode()));
    expect(merged.toData()).toEqual(whole.toData());
    expect(mergeHistogramData([a.toData(), b.toData()])).toEqual(whole.toData());
    // The encoding is HdrHistogram's compressed V2 (its cookie, 0x1c849304 | 0x10, opens the bytes).
    expect(Buffer.from(whole.encode(), 'base64').readUInt32BE(0)).toBe((0x1c849304 | 0x10) >>> 0);
  });

  it('keeps milliseconds just as well (time to inclusion)', () => {
    const d = histogramDataOfMs([120, 130, 250, 1_000]);
    expect(d.count).toBe(4);
    expect(d.min).toBe(120);
    expect(d.max).toBe(1_000);
  });

  it('records a count at once', () => {
    const h = new Histogram();
    h.record(500, 100);
    h.record(7, 0);
    expect(h.count).toBe(100);
    expect(h.percentile(50)).toBe(500);
  });

  it('lists its buckets with the counts recorded, values closer than the resolution sharing one', () => {
    const h = new Histogram();
    const recorded: [number, number][] = [[1, 3], [1500, 7], [123_456, 2], [3_000_000, 1], [3_000_001, 4]];
    for (const [value, count] of recorded) h.record(value, count);
    // Through the encoding a report carries, as the report's charts read it.
    const buckets = Histogram.decode(h.encode()).buckets();
    const holding = (value: number) => buckets.find((b) => b.from <= value && value < b.to);
    expect(buckets.reduce((n, b) => n + b.count, 0)).toBe(17);
    expect(holding(1)?.count).toBe(3);
    expect(holding(1500)?.count).toBe(7);
    expect(holding(123_456)?.count).toBe(2);
    expect(holding(3_000_000)).toBe(holding(3_000_001));
    expect(holding(3_000_000)?.count).toBe(5);
    // One unit wide at the bottom, within 0.1% of the value above 2,048 (3 significant digits).
    for (const b of buckets) expect(b.to - b.from).toBeLessThanOrEqual(Math.max(1, b.from * 0.001));
    expect(buckets.map((b) => b.from)).toEqual([...buckets.map((b) => b.from)].sort((a, b) => a - b));
    expect(new Histogram().buckets()).toEqual([]);
  });

  it('places each percentile of its summary in the bucket its cumulative count reaches', () => {
    const h = new Histogram();
    for (let i = 1; i <= 24_000; i++) h.record(Math.round(1000 * Math.exp((i % 997) / 150)));
    const data = h.toData();
    const buckets = Histogram.decode(data.encoded).buckets();
    for (const [p, expected] of [[50, data.p50], [90, data.p90], [99, data.p99], [99.9, data.p999]] as const) {
      const want = Math.max(1, Math.ceil((p / 100) * data.count - 1e-9));
      let seen = 0;
      const bucket = buckets.find((b) => (seen += b.count) >= want);
      expect(bucket !== undefined && bucket.from <= expected && expected < bucket.to, `p${p}`).toBe(true);
    }
  });
});
