/**
 * What watches the nodes themselves, started the same way by a load run (runLoad.ts) and by `chainrpc watch`
 * (watchNodes.ts): a head follower per node and for the reference, and a process sampler per node that has a
 * --pid or a --metrics-url.
 */
import type { HeadHealth } from '../model.js';
import type { Profile } from '../../profile/Profile.js';
import { HeadFollower } from './HeadFollower.js';
import { headHealth } from './headHealth.js';
import { metricsSource } from './metricsSource.js';
import { followedPidSource, pidSource, ResourceSampler } from './ResourceSampler.js';
import { epochNow } from '../../core/epochNow.js';

/** How often a --pid's process is read (/proc: three small files and a folder listing). */
const PID_INTERVAL_MS = 250;
/** How often a --metrics-url is scraped (a request the node answers: once a second, as a scraper would). */
const METRICS_INTERVAL_MS = 1_000;

export interface HeadWatch {
  /** The followers by URL (the reference's too), for a live view. */
  readonly followers: ReadonlyMap<string, HeadFollower>;
  /** Epoch ms of t = 0 of the followers' samples. */
  readonly originEpochMs: number;
  /** Ends the following (once; later calls get the same answer) and makes each node's HeadHealth; `measuredFromMs` (epoch): where the lag's trend starts. */
  stop(measuredFromMs?: number): Promise<Map<string, HeadHealth>>;
}

export interface FollowHeadsOptions {
  urls: readonly string[];
  profile: Profile;
  intervalMs: number;
  /** A node trusted to be at the tip, followed beside the others (one that is also a URL is judged like the others). */
  reference?: string | undefined;
  /** Epoch ms that is t = 0 of the heads' times. */
  startedAtMs: number;
}

/** Follows every node's head (and the reference's), started now: every node also while another is loaded. */
export function followHeads(o: FollowHeadsOptions): HeadWatch {
  const originMs = performance.now();
  const reference = o.reference !== undefined && !o.urls.includes(o.reference) ? o.reference : undefined;
  const urls = reference === undefined ? [...o.urls] : [...o.urls, reference];
  const followers = new Map(urls.map((url) => [url, new HeadFollower({ url, profile: o.profile, intervalMs: o.intervalMs, originMs })]));
  for (const f of followers.values()) f.start();
  let stopped: Promise<Map<string, HeadHealth>> | undefined;
  return {
    followers,
    originEpochMs: performance.timeOrigin + originMs,
    stop: (measuredFromMs) =>
      (stopped ??= (async () => {
        await Promise.all([...followers.values()].map((f) => f.stop()));
        const trend = measuredFromMs === undefined ? {} : { trendFromMs: measuredFromMs - o.startedAtMs };
        return headHealth([...followers.values()].map((f) => f.followed()), { intervalMs: o.intervalMs, endMs: performance.now() - originMs, startedAtMs: o.startedAtMs, ...trend, ...(reference === undefined ? {} : { reference }) });
      })()),
  };
}

/**
 * A process sampler per URL that has a pid (read from /proc; a function: the node's process now) or else a
 * metrics URL (scraped), in the order of the URLs; started. `say`: told once of a --pid's process that exits
 * while it is read (its figures stop there), a line for the console.
 */
export function startSamplers(urls: readonly string[], pids: readonly (number | (() => number | undefined) | undefined)[] = [], metricsUrls: readonly (string | undefined)[] = [], metricNames: readonly string[] = [], say?: (line: string) => void): Map<string, ResourceSampler> {
  const started = epochNow();
  const samplers = new Map(
    urls.flatMap((url, i) => {
      const pid = pids[i];
      const metrics = metricsUrls[i];
      // A pid given as a function: a node whose process a run with faults may replace (followedPidSource).
      if (typeof pid === 'function') return [[url, new ResourceSampler(followedPidSource(pid), PID_INTERVAL_MS)] as const];
      const gone = (atMs: number): void => say?.(`the process of ${url} (--pid ${pid ?? ''}) is gone ${((atMs - started) / 1_000).toFixed(1)} s after it was first read (no /proc/${pid ?? ''}): its CPU and memory are not read after that`);
      if (pid !== undefined) return [[url, new ResourceSampler(pidSource(pid), PID_INTERVAL_MS, gone)] as const];
      if (metrics !== undefined) return [[url, new ResourceSampler(metricsSource(metrics, metricNames), METRICS_INTERVAL_MS)] as const];
      return [];
    }),
  );
  for (const sampler of samplers.values()) sampler.start();
  return samplers;
}
