import { describe, expect, it } from 'vitest';
import { Histogram, HISTOGRAM_MAX, histogramDataOfMs, mergeHistogramData } from './Histogram.js';

describe('Histogram', () => {
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
});
