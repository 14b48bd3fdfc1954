// Reads the HDR histograms a load report carries (HistogramData.encoded: HdrHistogram's compressed V2
// encoding, base64) back into counts per value range, so the HTML report can draw a distribution. The
// format is HdrHistogram's own and public (a header, a zlib-deflated payload, counts as ZigZag LEB128 with
// runs of zeros as negative numbers); reading it here keeps hdr-histogram-js in its one home (load/metrics)
// while any HdrHistogram library, in any language, still reads the same report.
import { inflateSync } from 'node:zlib';

/** Values in [from, to) were recorded `count` times. */
export interface HistogramBucket {
  from: number;
  to: number;
  count: number;
}

const COMPRESSED_COOKIE_BASE = 0x1c849304;
const COOKIE_BASE = 0x1c849303;
/** The cookie's bits 4..7 carry the word size; the base is what is left. */
const cookieBase = (cookie: number): number => (cookie & ~0xf0) >>> 0;

/** One ZigZag LEB128-64b9B number (HdrHistogram's ZigZagEncoding): 7 bits a byte for 8 bytes, then 8. */
function readZigZag(bytes: Uint8Array, at: number): { value: number; next: number } {
  let raw = 0n;
  let i = at;
  for (let shift = 0n; shift < 56n; shift += 7n) {
    const byte = bytes[i++];
    if (byte === undefined) throw new Error('histogram payload ends inside a number');
    raw |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return { value: unzig(raw), next: i };
  }
  const last = bytes[i++];
  if (last === undefined) throw new Error('histogram payload ends inside a number');
  raw |= BigInt(last) << 56n;
  return { value: unzig(raw), next: i };
}

const unzig = (raw: bigint): number => Number((raw >> 1n) ^ -(raw & 1n));

/**
 * The buckets of an encoded histogram that hold values, in value order. Throws on anything that is not
 * HdrHistogram's compressed V2 encoding. An empty string (a histogram with no values) gives none.
 */
export function decodeHistogram(encoded: string): HistogramBucket[] {
  if (encoded === '') return [];
  const outer = Buffer.from(encoded, 'base64');
  if (outer.length < 8 || cookieBase(outer.readInt32BE(0)) !== COMPRESSED_COOKIE_BASE) throw new Error('not an HdrHistogram compressed V2 encoding');
  const length = outer.readInt32BE(4);
  const inner = inflateSync(outer.subarray(8, 8 + length));
  if (inner.length < 40 || cookieBase(inner.readInt32BE(0)) !== COOKIE_BASE) throw new Error('not an HdrHistogram V2 payload');
  const payloadLength = inner.readInt32BE(4);
  const digits = inner.readInt32BE(12);
  const lowest = Number(inner.readBigInt64BE(16));
  if (digits < 0 || digits > 5 || lowest < 1) throw new Error('histogram header out of range');

  // The bucket layout, as HdrHistogram derives it from the significant digits and the lowest value.
  const subBucketCountMagnitude = Math.ceil(Math.log2(2 * 10 ** digits));
  const halfMagnitude = Math.max(subBucketCountMagnitude, 1) - 1;
  const halfCount = 2 ** halfMagnitude;
  const unitMagnitude = Math.floor(Math.log2(lowest));
  const valueAt = (index: number): number => {
    let bucket = Math.floor(index / halfCount) - 1;
    let sub = (index % halfCount) + halfCount;
    if (bucket < 0) {
      sub -= halfCount;
      bucket = 0;
    }
    return sub * 2 ** (bucket + unitMagnitude);
  };

  const payload = inner.subarray(40, 40 + payloadLength);
  const out: HistogramBucket[] = [];
  let index = 0;
  for (let at = 0; at < payload.length; ) {
    const { value, next } = readZigZag(payload, at);
    at = next;
    if (value < 0) {
      index += -value;
      continue;
    }
    if (value > 0) out.push({ from: valueAt(index), to: valueAt(index + 1), count: value });
    index++;
  }
  return out;
}

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
