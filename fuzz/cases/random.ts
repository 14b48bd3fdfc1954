/**
 * The case generators' source of randomness: `Draw`, a small set of draws (integers, picks, weighted picks,
 * hex strings, bigints) over core's seeded PRNG, and `mixSeed`, which turns a run's seed and a case's index
 * (and any other salt) into the seed of that case's own PRNG. Nothing here reads the clock or the OS.
 */
import { seededRandom } from '../../core/seededRandom.js';

/** One 32-bit word from any number of numbers (each taken whole: its low and high 32 bits), well mixed. */
export function mixSeed(...parts: readonly number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const low = part >>> 0;
    const high = Math.floor(Math.abs(part) / 4294967296) >>> 0;
    for (const word of [low, high, part < 0 ? 1 : 0]) {
      h = Math.imul(h ^ word, 0x9e3779b1);
      h ^= h >>> 15;
      h = Math.imul(h, 0x85ebca77);
      h ^= h >>> 13;
    }
  }
  return h >>> 0;
}

const HEX = '0123456789abcdef';

/** Draws over one seeded PRNG. */
export class Draw {
  private readonly next: () => number;

  constructor(next: () => number) {
    this.next = next;
  }

  /** A Draw of its own for (seed, ...salt). */
  static of(...parts: readonly number[]): Draw {
    return new Draw(seededRandom(mixSeed(...parts)));
  }

  /** [0, 1). */
  float(): number {
    return this.next();
  }

  /** An integer in [lo, hi] (both included). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** An integer in [lo, hi], log-uniform: small values as likely as large ones, by order of magnitude. */
  logInt(lo: number, hi: number): number {
    const a = Math.log(Math.max(1, lo));
    const b = Math.log(Math.max(1, hi));
    return Math.min(hi, Math.max(lo, Math.round(Math.exp(a + this.next() * (b - a)))));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Draw.pick: nothing to pick from');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One item, with the chances its weights give it. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    const last = items[items.length - 1];
    if (last === undefined) throw new Error('Draw.weighted: nothing to pick from');
    return last[0];
  }

  /** A bigint in [lo, hi] (both included), uniform enough for test values. */
  bigint(lo: bigint, hi: bigint): bigint {
    if (hi <= lo) return lo;
    const span = hi - lo + 1n;
    let r = 0n;
    for (let bits = 0n; 1n << bits < span * 1024n; bits += 32n) r = (r << 32n) | BigInt(Math.floor(this.next() * 4294967296));
    return lo + (r % span);
  }

  /** `n` lower-case hex characters. */
  hex(n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += HEX[Math.floor(this.next() * 16)];
    return out;
  }

  /** `n` random bytes. */
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = Math.floor(this.next() * 256);
    return out;
  }

  /** A copy of `items` in a random order. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const t = out[i] as T;
      out[i] = out[j] as T;
      out[j] = t;
    }
    return out;
  }
}
