/**
 * The open model's send times. The rate of each stage changes linearly, so the expected number of arrivals by
 * time t is the integral Λ(t) of the rate; arrival i is where Λ reaches a target: i itself for uniform arrivals
 * (t_i = t0 + i/rate at a constant rate), or the running sum of unit exponential gaps for Poisson arrivals
 * (the time-rescaling of a Poisson process, seeded). Threads split one schedule: thread k of n takes the
 * arrivals k, k + n, k + 2n, ..., so the merged arrivals are exactly those of one thread running it all.
 */
import type { RateStage } from '../model.js';
import type { SourceShare } from './RequestSource.js';
import { seededRandom } from '../../core/seededRandom.js';

interface Segment {
  startMs: number;
  durationMs: number;
  /** Arrivals expected before the segment starts. */
  before: number;
  /** Arrivals expected within it. */
  count: number;
  /** Rate at its start, and its change per ms, in arrivals per ms. */
  r0: number;
  slope: number;
}

export class Schedule {
  readonly #segments: Segment[] = [];
  readonly #total: number;
  readonly #share: SourceShare;
  readonly #poisson: (() => number) | undefined;
  #seg = 0;
  /** Index of the next global arrival and its target of Λ. */
  #index = 0;
  #target = 0;

  /** `stages` in order from time 0 (a warm-up is a stage of its own); arrivals in ms from time 0. */
  constructor(stages: readonly RateStage[], distribution: 'uniform' | 'poisson', seed: number, share: SourceShare = { index: 0, count: 1 }) {
    let startMs = 0;
    let before = 0;
    for (const s of stages) {
      const r0 = s.from / 1000;
      const r1 = s.to / 1000;
      const count = ((r0 + r1) / 2) * s.durationMs;
      this.#segments.push({ startMs, durationMs: s.durationMs, before, count, r0, slope: s.durationMs > 0 ? (r1 - r0) / s.durationMs : 0 });
      startMs += s.durationMs;
      before += count;
    }
    this.#total = before;
    this.#share = share;
    if (distribution === 'poisson') {
      const random = seededRandom(seed);
      this.#poisson = () => -Math.log(1 - random());
      this.#target = this.#poisson();
    }
    // Skip to this thread's first arrival.
    for (let i = 0; i < share.index; i++) this.#advance();
  }

  #advance(): void {
    this.#index++;
    this.#target = this.#poisson === undefined ? this.#index : this.#target + this.#poisson();
  }

  /** The next arrival of this thread, ms from time 0; undefined when the schedule is over. */
  next(): number | undefined {
    const v = this.#target;
    if (v >= this.#total) return undefined;
    for (let n = 0; n < this.#share.count; n++) this.#advance();
    let seg = this.#segments[this.#seg] as Segment;
    while (v >= seg.before + seg.count) seg = this.#segments[++this.#seg] as Segment;
    // Solve r0·τ + slope·τ²/2 = v - before for τ ≥ 0, in the form that stays exact when the slope is 0.
    const a = v - seg.before;
    const tau = a <= 0 ? 0 : (2 * a) / (seg.r0 + Math.sqrt(Math.max(0, seg.r0 * seg.r0 + 2 * seg.slope * a)));
    return seg.startMs + Math.min(tau, seg.durationMs);
  }

  /** The rate (per s) the stages ask for at `ms` from time 0 (0 past the end). */
  static rateAt(stages: readonly RateStage[], ms: number): number {
    let start = 0;
    for (const s of stages) {
      if (ms < start + s.durationMs) return s.durationMs > 0 ? s.from + ((s.to - s.from) * (ms - start)) / s.durationMs : s.from;
      start += s.durationMs;
    }
    return 0;
  }
}
