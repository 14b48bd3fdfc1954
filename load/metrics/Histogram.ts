/**
 * The harness's one histogram: HdrHistogram (hdr-histogram-js, its pure-JS implementation), the only file that
 * imports the library. Values are integers of one unit (microseconds for latencies; the inclusion tracker uses
 * milliseconds), from 1 to 2^32 - 1 units (71 minutes in µs), at 3 significant digits: a value is kept within
 * 0.1% of itself. Values below 1 record as 1 and values above the range as its top, so a record never throws
 * and never disappears. Histograms merge exactly (bucket counts add), so worker threads and runs combine.
 */
import hdr from 'hdr-histogram-js';
import type { HistogramData } from '../model.js';

type HdrHistogram = ReturnType<typeof hdr.build>;

/** The highest value kept: 2^32 - 1 units (71.6 minutes in microseconds; 49.7 days in milliseconds). */
export const HISTOGRAM_MAX = 2 ** 32 - 1;

/** Values in [from, to) were recorded `count` times: one bucket of a histogram, in its unit. */
export interface HistogramBucket {
  from: number;
  to: number;
  count: number;
}

const EMPTY: HistogramData = { count: 0, min: 0, max: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, encoded: '' };

/**
 * Where a value is counted, as HdrHistogram counts it at 3 significant digits from 1: 2048 sub-buckets (the
 * lowest 1024 in the first bucket of width 1, then 1024 per power of two), so a count recorded here at index i
 * and given to hdr-histogram-js as `valueAtIndex(i)` lands in the very bucket its own recordValue would use.
 */
const SUB_BUCKET_HALF_MAGNITUDE = 10;
const SUB_BUCKET_HALF = 1 << SUB_BUCKET_HALF_MAGNITUDE;
const SUB_BUCKET_MASK = 2 * SUB_BUCKET_HALF - 1;
/** Counts an in-place histogram keeps for values up to HISTOGRAM_MAX: the first 1024, then 22 buckets of 1024. */
const PENDING_LENGTH = (32 - (SUB_BUCKET_HALF_MAGNITUDE + 1) + 2) * SUB_BUCKET_HALF;

/** The index of an integer value from 1 to 2^32 - 1. */
function indexOf(v: number): number {
  const bucket = 32 - Math.clz32(v | SUB_BUCKET_MASK) - (SUB_BUCKET_HALF_MAGNITUDE + 1);
  return ((bucket + 1) << SUB_BUCKET_HALF_MAGNITUDE) + ((v >>> bucket) - SUB_BUCKET_HALF);
}

/** The lowest value counted at `index`. */
function valueAtIndex(index: number): number {
  let bucket = (index >> SUB_BUCKET_HALF_MAGNITUDE) - 1;
  let sub = (index & (SUB_BUCKET_HALF - 1)) + SUB_BUCKET_HALF;
  if (bucket < 0) {
    sub -= SUB_BUCKET_HALF;
    bucket = 0;
  }
  return sub * 2 ** bucket;
}

export class Histogram {
  readonly #h: HdrHistogram;
  /**
   * Records land here first, in place (an increment: a record is on every request's path, and hdr-histogram-js's
   * recordValue costs about ten times as much), and are handed to the HdrHistogram in one pass before it is read.
   */
  #pending: Int32Array | undefined;
  #pendingCount = 0;
  #pendingLow = PENDING_LENGTH;
  #pendingHigh = -1;

  constructor(from?: HdrHistogram) {
    // 32-bit counters: 2^31 records in one bucket would take a 6-hour run at 100,000 requests/s.
    this.#h = from ?? hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: HISTOGRAM_MAX, numberOfSignificantValueDigits: 3, autoResize: false, bitBucketSize: 32 });
  }

  /** Records a value (rounded to an integer; below 1 as 1, above the range as its top) `count` times. */
  record(value: number, count = 1): void {
    if (!(count >= 1)) return;
    const v = value < 1 ? 1 : value > HISTOGRAM_MAX ? HISTOGRAM_MAX : Math.round(value);
    const i = indexOf(v);
    const pending = (this.#pending ??= new Int32Array(PENDING_LENGTH));
    // A bucket about to pass 2^31 - 1 here goes to the HdrHistogram first (which holds as much as hdr did alone).
    if (pending[i] as number > 0x7fffffff - count) this.#flush();
    pending[i] = (pending[i] as number) + count;
    this.#pendingCount += count;
    if (i < this.#pendingLow) this.#pendingLow = i;
    if (i > this.#pendingHigh) this.#pendingHigh = i;
  }

  /** The HdrHistogram, every record in it. */
  #hdr(): HdrHistogram {
    if (this.#pendingCount > 0) this.#flush();
    return this.#h;
  }

  #flush(): void {
    const pending = this.#pending as Int32Array;
    const h = this.#h;
    for (let i = this.#pendingLow; i <= this.#pendingHigh; i++) {
      const n = pending[i] as number;
      if (n === 0) continue;
      h.recordValueWithCount(valueAtIndex(i), n);
      pending[i] = 0;
    }
    this.#pendingCount = 0;
    this.#pendingLow = PENDING_LENGTH;
    this.#pendingHigh = -1;
  }

  /** Adds every count of `other` to this one (exact). */
  add(other: Histogram): void {
    if (other.count > 0) this.#hdr().add(other.#hdr());
  }

  get count(): number {
    return this.#h.totalCount + this.#pendingCount;
  }

  /** The value at percentile `p` (0 to 100); 0 when empty. */
  percentile(p: number): number {
    return this.count === 0 ? 0 : this.#hdr().getValueAtPercentile(p);
  }

  reset(): void {
    this.#hdr().reset();
  }

  /** The buckets that hold values, in value order, each with the range of values it stands for. */
  buckets(): HistogramBucket[] {
    const h = this.#hdr();
    // hdr.build without WebAssembly gives a JsHistogram, the one kind with iterators.
    if (!(h instanceof hdr.JsHistogram)) throw new Error('a histogram built without its iterator');
    const out: HistogramBucket[] = [];
    const it = h.recordedValuesIterator;
    it.reset();
    while (it.hasNext()) {
      const step = it.next();
      out.push({ from: h.lowestEquivalentValue(step.valueIteratedTo), to: h.nextNonEquivalentValue(step.valueIteratedTo), count: step.countAddedInThisIterationStep });
    }
    return out;
  }

  /**
   * The counts as they cross threads cheaply: [index, count, index, count, ...] at HdrHistogram's own indices,
   * made without the library or zlib. A tick's histogram crosses from the sending thread every second, and
   * `encode()` there (a deflate, cold the first time) put a send 2 to 3 ms late (docs/load.md, "The engine").
   * A histogram already handed to the library (read, or a bucket near 2^31) crosses encoded instead.
   */
  toCounts(): Int32Array | string {
    if (this.#h.totalCount > 0) return this.encode();
    const pending = this.#pending;
    if (pending === undefined || this.#pendingCount === 0) return new Int32Array(0);
    let buckets = 0;
    for (let i = this.#pendingLow; i <= this.#pendingHigh; i++) if (pending[i] !== 0) buckets++;
    const out = new Int32Array(2 * buckets);
    let k = 0;
    for (let i = this.#pendingLow; i <= this.#pendingHigh; i++) {
      const n = pending[i] as number;
      if (n === 0) continue;
      out[k++] = i;
      out[k++] = n;
    }
    return out;
  }

  /** A histogram from `toCounts()`'s form (exact: the same buckets and counts). */
  static fromCounts(counts: Int32Array | string): Histogram {
    if (typeof counts === 'string') return Histogram.decode(counts);
    const h = new Histogram();
    for (let k = 0; k + 1 < counts.length; k += 2) {
      const i = counts[k] as number;
      const n = counts[k + 1] as number;
      if (i < 0 || i >= PENDING_LENGTH || !(n >= 1)) throw new Error(`a histogram's counts hold bucket ${i} x ${n}, not one of a histogram`);
      h.#h.recordValueWithCount(valueAtIndex(i), n);
    }
    return h;
  }

  /** HdrHistogram's compressed V2 encoding, base64 (what every HdrHistogram library decodes). Empty string when empty. */
  encode(): string {
    return this.count === 0 ? '' : hdr.encodeIntoCompressedBase64(this.#hdr());
  }

  /** A histogram from `encode()`'s text (the empty string gives an empty histogram). */
  static decode(encoded: string): Histogram {
    if (encoded === '') return new Histogram();
    const decoded = hdr.decodeFromCompressedBase64(encoded, 32, false);
    // Re-home the counts in a histogram of the standard range, so any decoded one merges with any other.
    const h = new Histogram();
    h.#h.add(decoded);
    return h;
  }

  /** The summary and the whole encoded histogram, as load/model.ts speaks it. */
  toData(): HistogramData {
    const h = this.#hdr();
    if (h.totalCount === 0) return { ...EMPTY };
    return {
      count: h.totalCount,
      // Bucket bounds (within 0.1%), not the raw extremes: a decoded or merged histogram keeps only buckets,
      // and a figure must not change when it goes through the encoding.
      min: h.getValueAtPercentile(0),
      max: h.getValueAtPercentile(100),
      mean: Math.round(h.mean * 1000) / 1000,
      p50: h.getValueAtPercentile(50),
      p90: h.getValueAtPercentile(90),
      p99: h.getValueAtPercentile(99),
      p999: h.getValueAtPercentile(99.9),
      encoded: this.encode(),
    };
  }

  /** A histogram of `values` (in any one unit: the inclusion tracker's milliseconds, for one). */
  static of(values: Iterable<number>): Histogram {
    const h = new Histogram();
    for (const v of values) h.record(v);
    return h;
  }
}

/** HistogramData of millisecond values (time to inclusion): the same histogram, its unit milliseconds. */
export function histogramDataOfMs(values: Iterable<number>): HistogramData {
  return Histogram.of(values).toData();
}

/** Merges encoded histograms (HistogramData from several runs or threads) exactly. */
export function mergeHistogramData(parts: readonly HistogramData[]): HistogramData {
  const h = new Histogram();
  for (const p of parts) h.add(Histogram.decode(p.encoded));
  return h.toData();
}

/**
 * Runs what a tick does with a histogram (build, record, read, encode; the main thread decodes and adds) on a
 * throwaway one, so the first tick of a run is not the one that compiles it (3 ms cold against 0.7 ms warm, in the
 * middle of a schedule): every engine thread before it starts, and runEngine's own.
 */
export function warmHistograms(): void {
  for (let i = 0; i < 3; i++) {
    const h = new Histogram();
    for (let v = 1; v < 5_000; v += 97) h.record(v);
    h.percentile(99);
    Histogram.decode(h.encode()).add(h);
  }
}
