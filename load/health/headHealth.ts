/**
 * The head lag, stalls and heights gone backwards of each node, from its HeadFollower's samples. docs/load.md,
 * "The node's health", defines them; in short:
 * - A sample saw its height at the middle of its call (the node answered at some instant within it, so the
 *   error is at most half the call, and the follower's interval at most separates two samples).
 * - A node reached height h when it first served h or more (a node that takes two blocks at once reached both).
 * - Heights judged: those no source had reached when the followers started, up to the highest any reached.
 *   The earliest time any source (the targets and the `--head-reference`) reached h is h's time; a node's
 *   head lag for h is the time it reached h minus that. A node that never reached h is at least the end of the
 *   following minus h's time behind: that lower bound is counted (a node that fell behind must not look fast).
 * - A stall: the node's head held at H while the others had H + 1 for more than STALL_BLOCKS block times (the
 *   block time: the median time between successive heights' times); it ends when the node's head rises.
 * - A height gone backwards: a sample lower than one the node served before, kept with the two samples.
 */
import type { HeadHealth, HeadRegression, HeadStall } from '../model.js';
import { fitLine, MIN_LEAK_POINTS } from './leakFit.js';

/** Block times a node's head may hold while the others' rises before it is stalled. */
export const STALL_BLOCKS = 3;
/** Points kept in a lag series (the largest lag of each bucket), and examples kept of each kind. */
const SERIES_POINTS = 1_000;
const WORST_KEPT = 5;
const REGRESSIONS_KEPT = 20;

/** One answer of a head follower: asked at `sentMs`, answered at `answeredMs` (ms since the followers' origin). */
export interface HeadSample {
  sentMs: number;
  answeredMs: number;
  height: number;
}

/** One followed node: its samples in the order they were asked (every answer, or only those that changed the height). */
export interface FollowedHead {
  url: string;
  samples: readonly HeadSample[];
  failed: number;
  lastFailure?: string | undefined;
  /** Calls answered, when `samples` keeps only the changes (default: the samples' count). */
  answered?: number;
  /** The median time between two calls' starts, when `samples` cannot tell it (default: from the samples). */
  medianIntervalMs?: number;
}

export interface HeadHealthOptions {
  /** The follower's interval, as asked. */
  intervalMs: number;
  /** ms since the followers' origin when following stopped. */
  endMs: number;
  /** Epoch ms of the followers' origin (t = 0). */
  startedAtMs: number;
  /** The --head-reference's URL, when one was followed (a source of heights' times, judged itself by nothing). */
  reference?: string;
  /** Where the lag's trend starts (ms since the origin): the warm-up's end; never before a tenth of the following. */
  trendFromMs?: number;
}

const seenAt = (s: HeadSample): number => (s.sentMs + s.answeredMs) / 2;

/** For each height from `from` + 1 to the highest the samples reach, the time the node first reached it. */
function reachTimes(samples: readonly HeadSample[], from: number): Map<number, number> {
  const reached = new Map<number, number>();
  let top = from;
  for (const s of samples) {
    for (let h = top + 1; h <= s.height; h++) reached.set(h, seenAt(s));
    if (s.height > top) top = s.height;
  }
  return reached;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

const median = (values: readonly number[]): number | null => (values.length === 0 ? null : quantile([...values].sort((a, b) => a - b), 0.5));

/** At most SERIES_POINTS points: the largest lag of each run of points, at that point's time. */
function bounded(series: { tMs: number; lagMs: number }[]): { tMs: number; lagMs: number }[] {
  if (series.length <= SERIES_POINTS) return series;
  const per = Math.ceil(series.length / SERIES_POINTS);
  const out: { tMs: number; lagMs: number }[] = [];
  for (let i = 0; i < series.length; i += per) {
    const bucket = series.slice(i, i + per);
    out.push(bucket.reduce((a, b) => (b.lagMs > a.lagMs ? b : a)));
  }
  return out;
}

/**
 * Heights a node served lower than one it served before: each time it went to a lower height (answers that
 * repeat the same lower height are one regression, however often the follower asked).
 */
function regressionsOf(samples: readonly HeadSample[]): { count: number; kept: HeadRegression[] } {
  let top: HeadSample | undefined;
  let previous: HeadSample | undefined;
  let count = 0;
  const kept: HeadRegression[] = [];
  for (const s of samples) {
    const repeat = previous?.height === s.height;
    previous = s;
    if (top !== undefined && s.height < top.height && !repeat) {
      count++;
      if (kept.length < REGRESSIONS_KEPT) kept.push({ kind: 'height', atMs: round(seenAt(s)), height: s.height, previous: { atMs: round(seenAt(top)), height: top.height } });
    }
    if (top === undefined || s.height > top.height) top = s;
  }
  return { count, kept };
}

/** Stalls of one node: where its head held while another source already had the next height for too long. */
function stallsOf(samples: readonly HeadSample[], earliest: ReadonlyMap<number, number>, blockTimeMs: number | null, endMs: number, from: number): HeadStall[] {
  if (blockTimeMs === null) return [];
  const limit = STALL_BLOCKS * blockTimeMs;
  const stalls: HeadStall[] = [];
  let held = from;
  const best = (atMs: number): number => {
    let h = held;
    while (earliest.has(h + 1) && (earliest.get(h + 1) ?? Infinity) <= atMs) h++;
    return h;
  };
  const check = (untilMs: number, ended: boolean): void => {
    const others = earliest.get(held + 1);
    if (others === undefined || untilMs - others <= limit) return;
    stalls.push({ startMs: round(others), endMs: ended ? round(untilMs) : null, height: held, behindBlocks: best(untilMs) - held });
  };
  for (const s of samples) {
    if (s.height <= held) continue;
    check(seenAt(s), true);
    held = s.height;
  }
  check(endMs, false);
  return stalls;
}

/** Each target's HeadHealth; `sources` are the targets and, last, the reference when there is one. */
export function headHealth(sources: readonly FollowedHead[], o: HeadHealthOptions): Map<string, HeadHealth> {
  // Heights any source had already reached at its first answer are not new: their times would be start-up times.
  const from = Math.max(-1, ...sources.map((s) => s.samples[0]?.height ?? -1));
  const reached = new Map(sources.map((s) => [s.url, reachTimes(s.samples, from)]));
  const earliest = new Map<number, number>();
  for (const times of reached.values()) for (const [h, t] of times) earliest.set(h, Math.min(t, earliest.get(h) ?? Infinity));
  const heights = [...earliest.keys()].sort((a, b) => a - b);
  const gaps = heights.slice(1).map((h, i) => (earliest.get(h) ?? 0) - (earliest.get(heights[i] ?? h) ?? 0));
  const blockTimeMs = median(gaps);
  const out = new Map<string, HeadHealth>();
  for (const source of sources) {
    if (source.url === o.reference) continue;
    const times = reached.get(source.url) ?? new Map<number, number>();
    const lags = heights.map((h) => {
      const first = earliest.get(h) ?? 0;
      const at = times.get(h);
      return { height: h, tMs: first, lagMs: Math.max(0, (at ?? o.endMs) - first), reached: at !== undefined };
    });
    const sorted = lags.map((l) => l.lagMs).sort((a, b) => a - b);
    const regressions = regressionsOf(source.samples);
    const intervals = source.samples.slice(1).map((s, i) => s.sentMs - (source.samples[i]?.sentMs ?? s.sentMs));
    out.set(source.url, {
      startedAt: new Date(o.startedAtMs).toISOString(),
      intervalMs: o.intervalMs,
      medianIntervalMs: round(source.medianIntervalMs ?? median(intervals) ?? o.intervalMs),
      samples: source.answered ?? source.samples.length,
      failed: source.failed,
      ...(source.lastFailure === undefined ? {} : { lastFailure: source.lastFailure }),
      ...(o.reference === undefined ? {} : { reference: o.reference }),
      blockTimeMs: blockTimeMs === null ? null : round(blockTimeMs),
      blocks: lags.length,
      lagMs: sorted.length === 0 ? null : { p50: round(quantile(sorted, 0.5)), p90: round(quantile(sorted, 0.9)), p99: round(quantile(sorted, 0.99)), max: round(sorted.at(-1) ?? 0) },
      worst: [...lags].sort((a, b) => b.lagMs - a.lagMs).slice(0, WORST_KEPT).map((l) => ({ height: l.height, lagMs: round(l.lagMs) })),
      series: bounded(lags.map((l) => ({ tMs: round(l.tMs), lagMs: round(l.lagMs) }))),
      lagTrend: lagTrend(lags.filter((l) => l.reached), o),
      stalls: stallsOf(source.samples, earliest, blockTimeMs, o.endMs, from),
      regressions: regressions.kept,
      regressionCount: regressions.count,
    });
  }
  return out;
}

/**
 * Head-lag drift: the lag per height after the warm-up, fitted by least squares (leakFit.ts, as the RSS trend
 * is): a node falling further behind over the run has a slope surely above 0. Only heights the node reached
 * are fitted (their lags are exact; a height never reached is a lower bound that would bend the line down,
 * and a node that stopped is a stall).
 */
function lagTrend(lags: readonly { tMs: number; lagMs: number }[], o: HeadHealthOptions): NonNullable<HeadHealth['lagTrend']> | null {
  const fromMs = Math.max(o.trendFromMs ?? 0, o.endMs / 10);
  const points = lags.filter((l) => l.tMs >= fromMs).map((l) => ({ tMs: l.tMs, value: l.lagMs }));
  if (points.length < MIN_LEAK_POINTS || points[0]?.tMs === points.at(-1)?.tMs) return null;
  const fit = fitLine(points);
  return {
    msPerHour: round(fit.slopePerHour),
    low: round(fit.slopeInterval.low),
    high: round(fit.slopeInterval.high),
    confidence: fit.confidence,
    points: fit.n,
    fromMs: round(fromMs),
    line: [
      { tMs: round(fit.line[0].tMs), lagMs: round(fit.line[0].value) },
      { tMs: round(fit.line[1].tMs), lagMs: round(fit.line[1].value) },
    ],
  };
}

const round = (ms: number): number => Math.round(ms * 10) / 10;
