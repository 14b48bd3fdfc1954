/**
 * The head lag, stalls and heights gone backwards of each node, from its HeadFollower's samples. docs/load.md,
 * "The node's health", defines them; in short:
 * - A sample is dated by its answer's arrival: the node served that height at some instant within the call, so
 *   the height existed no later than the arrival, and nothing tells how much earlier. The middle of the call
 *   would be a guess that can be early by half the call: one node answering slowly would then date heights
 *   before they existed and make every other node look late. The arrival is never early; it can be late by the
 *   call's time plus the follower's interval, and only for the node whose answer it is.
 * - A node reached height h when it first served h or more (a node that takes two blocks at once reached both).
 * - Heights judged: those no source had reached when the followers started, up to the highest any reached.
 *   The earliest time any source (the targets and the `--head-reference`) reached h is h's time; a node's
 *   head lag for h is the time it reached h minus that. A node that never reached h is at least the end of the
 *   following minus h's time behind: that lower bound is counted (a node that fell behind must not look fast).
 *   With one source alone (one node, no reference) there is nothing to compare with: no lag and no stalls are
 *   made (HeadHealth.alone), rather than figures that are 0 whatever the node does.
 * - A stall: the node's own head held at H for more than STALL_BLOCKS block times (the block time: the median
 *   time between successive heights' times) after another source had H + 1: from the later of the node reaching
 *   H and another having H + 1, until the node's head rises. A node steadily behind but advancing at the
 *   chain's pace holds each height about a block time once the chain has the next: lag, not stalls.
 * - A height gone backwards: a sample lower than the sample before it (a step down), kept with the two samples.
 */
import type { HeadHealth, HeadRegression, HeadStall } from '../model.js';
import { lastingTrend, MIN_LEAK_POINTS, trendHalf } from './leakFit.js';

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

/** When a sample saw its height: no later than its answer's arrival (the module's doc says why not the middle). */
const seenAt = (s: HeadSample): number => s.answeredMs;

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
 * Heights a node served lower than the answer before (a step down): each move backwards once. Answers that
 * repeat the lower height, and the climb back from it (11, 9, 10, 11: one move, not two), are not moves
 * backwards; a node that flaps between two heights steps down each time it flaps.
 */
function regressionsOf(samples: readonly HeadSample[]): { count: number; kept: HeadRegression[] } {
  let previous: HeadSample | undefined;
  let count = 0;
  const kept: HeadRegression[] = [];
  for (const s of samples) {
    if (previous !== undefined && s.height < previous.height) {
      count++;
      if (kept.length < REGRESSIONS_KEPT) kept.push({ kind: 'height', atMs: round(seenAt(s)), height: s.height, previous: { atMs: round(seenAt(previous)), height: previous.height } });
    }
    // The answer stepped from is the first of its height (a follower keeps only the changes: the same either way).
    if (previous?.height !== s.height) previous = s;
  }
  return { count, kept };
}

/**
 * Stalls of one node: where its own head held one height for more than STALL_BLOCKS block times after the chain
 * had the next. `chainHad(h)` is when some source first had h (0 for a height one had when following began;
 * undefined for one no source reached). A stall of height H runs from the later of the node reaching H and the
 * chain having H + 1 (before both it is lag, not a stall) until the node's head rises; stalls of successive held
 * heights follow one another, never overlap.
 */
function stallsOf(samples: readonly HeadSample[], chainHad: (height: number) => number | undefined, blockTimeMs: number | null, endMs: number, readEveryMs: number): HeadStall[] {
  const first = samples[0];
  if (blockTimeMs === null || first === undefined) return [];
  // A rise is seen at the next read at the latest: a node read every `readEveryMs` holds a height that long more in
  // its samples than it did (an outside tester's chain of 500 ms blocks, read once a second, made a stall of nearly
  // every block of a node steadily two behind).
  const limit = STALL_BLOCKS * blockTimeMs + readEveryMs;
  const stalls: HeadStall[] = [];
  let held = first.height;
  let heldSince = seenAt(first);
  /** The highest height the chain had at `atMs`. */
  const best = (atMs: number): number => {
    let h = held;
    while ((chainHad(h + 1) ?? Infinity) <= atMs) h++;
    return h;
  };
  const check = (untilMs: number, ended: boolean): void => {
    const next = chainHad(held + 1);
    if (next === undefined) return;
    const startMs = Math.max(heldSince, next);
    if (untilMs - startMs <= limit) return;
    stalls.push({ startMs: round(startMs), endMs: ended ? round(untilMs) : null, height: held, behindBlocks: best(untilMs) - held });
  };
  for (const s of samples) {
    if (s.height <= held) continue;
    check(seenAt(s), true);
    held = s.height;
    heldSince = seenAt(s);
  }
  check(endMs, false);
  return stalls;
}

/**
 * The chain's block time from the times heights were first seen: the median, over runs of BLOCK_TIME_RUN successive
 * times at which the highest height seen rose, of the time taken per height. Heights seen together (the followers
 * read less often than blocks come: several heights in one answer) share one time, so a median of the gaps between
 * successive heights was 0 (an outside tester's 500 ms blocks read once a second: a block time of 0, and a stall of
 * every held height); a run of a few reads averages the heights over them, and the median keeps a stall of the chain
 * out. Null with fewer than two times.
 */
export function blockTimeOf(heights: readonly number[], earliest: ReadonlyMap<number, number>): number | null {
  const rises: { t: number; h: number }[] = [];
  for (const h of heights) {
    const t = earliest.get(h);
    if (t === undefined) continue;
    const last = rises.at(-1);
    if (last !== undefined && t <= last.t) last.h = Math.max(last.h, h);
    else rises.push({ t, h });
  }
  if (rises.length < 2) return null;
  const run = Math.min(BLOCK_TIME_RUN, rises.length - 1);
  const perHeight: number[] = [];
  for (let k = 0; k + run < rises.length; k++) {
    const [a, b] = [rises[k], rises[k + run]];
    if (a !== undefined && b !== undefined && b.h > a.h) perHeight.push((b.t - a.t) / (b.h - a.h));
  }
  return median(perHeight);
}

/**
 * The lag over time: each height the node reached at the time the chain had it, with the time it took; and from the
 * first height it never reached, the lag it was then at (growing with the time since that height came), to the end of
 * the run. Heights never reached plotted by what they waited (the run's end less their time) fell toward 0 as a node
 * stalled for good fell further behind: an outside tester read a node catching up that never did.
 */
function lagSeries(lags: readonly { tMs: number; lagMs: number; reached: boolean }[], endMs: number): { tMs: number; lagMs: number }[] {
  const out = lags.filter((l) => l.reached).map((l) => ({ tMs: round(l.tMs), lagMs: round(l.lagMs) }));
  const since = lags.find((l) => !l.reached)?.tMs;
  if (since === undefined) return out;
  let last = endMs;
  for (const l of lags) {
    if (l.reached || l.tMs < since) continue;
    out.push({ tMs: round(l.tMs), lagMs: round(l.tMs - since) });
    last = Math.max(last, l.tMs);
  }
  out.push({ tMs: round(last), lagMs: round(last - since) });
  return out.sort((a, b) => a.tMs - b.tMs);
}

/** Rises of the highest height seen that one block-time figure averages over (blockTimeOf). */
const BLOCK_TIME_RUN = 5;

/** Each target's HeadHealth; `sources` are the targets and, last, the reference when there is one. */
export function headHealth(sources: readonly FollowedHead[], o: HeadHealthOptions): Map<string, HeadHealth> {
  // Heights any source had already reached at its first answer are not new: their times would be start-up times.
  const from = Math.max(-1, ...sources.map((s) => s.samples[0]?.height ?? -1));
  const reached = new Map(sources.map((s) => [s.url, reachTimes(s.samples, from)]));
  const earliest = new Map<number, number>();
  for (const times of reached.values()) for (const [h, t] of times) earliest.set(h, Math.min(t, earliest.get(h) ?? Infinity));
  const heights = [...earliest.keys()].sort((a, b) => a - b);
  const blockTimeMs = blockTimeOf(heights, earliest);
  const chainHad = (h: number): number | undefined => (h <= from ? 0 : earliest.get(h));
  // One source alone has only its own times to compare with: its lag would be 0 and it could never stall,
  // whatever it did. Nothing is made of it rather than figures that look good.
  const alone = sources.length < 2;
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
    const readEveryMs = source.medianIntervalMs ?? median(intervals) ?? o.intervalMs;
    out.set(source.url, {
      startedAt: new Date(o.startedAtMs).toISOString(),
      intervalMs: o.intervalMs,
      medianIntervalMs: round(readEveryMs),
      samples: source.answered ?? source.samples.length,
      failed: source.failed,
      ...(source.lastFailure === undefined ? {} : { lastFailure: source.lastFailure }),
      ...(o.reference === undefined ? {} : { reference: o.reference }),
      blockTimeMs: blockTimeMs === null ? null : round(blockTimeMs),
      blocks: lags.length,
      ...(alone ? { alone: true as const } : {}),
      lagMs: alone || sorted.length === 0 ? null : { p50: round(quantile(sorted, 0.5)), p90: round(quantile(sorted, 0.9)), p99: round(quantile(sorted, 0.99)), max: round(sorted.at(-1) ?? 0) },
      worst: alone ? [] : [...lags].sort((a, b) => b.lagMs - a.lagMs).slice(0, WORST_KEPT).map((l) => ({ height: l.height, lagMs: round(l.lagMs) })),
      series: alone ? [] : bounded(lagSeries(lags, o.endMs)),
      lagTrend: alone ? null : lagTrend(lags.filter((l) => l.reached), o),
      stalls: alone ? [] : stallsOf(source.samples, chainHad, blockTimeMs, o.endMs, readEveryMs),
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
  const { fit, lastHalf } = lastingTrend(points);
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
    lastHalf: trendHalf(lastHalf),
  };
}

const round = (ms: number): number => Math.round(ms * 10) / 10;
