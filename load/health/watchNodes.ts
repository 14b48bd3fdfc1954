/**
 * `chainrpc watch`: the nodes' health without any load. The same followers and samplers a load run starts
 * (HeadFollower for each --url and the --head-reference, ResourceSampler for each --pid or --metrics-url), for a
 * duration or until stopped, with a live snapshot each tick; at the end each node's NodeHealth, made exactly as a
 * load run makes it (headHealth.ts, ResourceSampler.resources). Beside a distributed k6 run (whose instances
 * cannot see the nodes), or on a live network.
 */
import type { NodeHealth } from '../model.js';
import type { Profile } from '../../profile/Profile.js';
import type { HeadFollower } from './HeadFollower.js';
import { followHeads, startSamplers } from './watchers.js';
import { epochNow } from '../../core/epochNow.js';

export interface WatchOptions {
  /** The nodes' base URLs. */
  urls: readonly string[];
  profile: Profile;
  /** The heads' follow interval (ms); null: heads not followed. */
  headIntervalMs: number | null;
  /** A node trusted to be at the tip, followed beside the others (heights' times count its own). */
  reference?: string | undefined;
  /** Per --url in order (fewer: the last nodes have none; undefined: none for that node). */
  pids?: readonly (number | undefined)[];
  metricsUrls?: readonly (string | undefined)[];
  /** Other metrics to read from each --metrics-url by name (--metric). */
  metricNames?: readonly string[];
  /** How long to watch; null: until `signal` aborts. */
  durationMs: number | null;
  signal?: AbortSignal;
  /** A live snapshot every `tickMs` (default 1 s). */
  onTick?: (snapshot: WatchSnapshot) => void;
  tickMs?: number;
  /** A line for the console: a --pid's process gone while it is watched. */
  say?: (line: string) => void;
}

/** The nodes at one moment of a watch. */
export interface WatchSnapshot {
  /** ms since the watch began. */
  atMs: number;
  nodes: {
    url: string;
    /** The node's latest height; null before its first answer. */
    height: number | null;
    /** Heights behind the highest any followed node (or the reference) has served. */
    behind: number | null;
    /** Reads of its head that got no height so far. */
    failed: number;
    /** Its process, when read: the latest resident memory and CPU (% of one core). */
    rssBytes?: number;
    cpuPercent?: number;
  }[];
}

export interface WatchResult {
  startedAt: string;
  endedAt: string;
  durationMs: number;
  /** The duration ran out, or the watch was stopped (Ctrl-C). */
  stop: 'duration' | 'interrupted';
  nodes: { url: string; health: NodeHealth }[];
}

export async function watchNodes(o: WatchOptions): Promise<WatchResult> {
  const startedAtMs = epochNow();
  const originMs = performance.now();
  const heads = o.headIntervalMs === null ? undefined : followHeads({ urls: o.urls, profile: o.profile, intervalMs: o.headIntervalMs, reference: o.reference, startedAtMs });
  const followers = heads?.followers ?? new Map<string, HeadFollower>();
  const samplers = startSamplers(o.urls, o.pids, o.metricsUrls, o.metricNames, o.say);

  const snapshot = (): WatchSnapshot => {
    const top = Math.max(-1, ...[...followers.values()].map((f) => f.samples.at(-1)?.height ?? -1));
    return {
      atMs: Math.round(performance.now() - originMs),
      nodes: o.urls.map((url) => {
        const height = followers.get(url)?.samples.at(-1)?.height ?? null;
        const latest = samplers.get(url)?.latest();
        return { url, height, behind: height === null || top < 0 ? null : top - height, failed: followers.get(url)?.failed ?? 0, ...(latest === undefined ? {} : latest) };
      }),
    };
  };
  const ticker = setInterval(() => o.onTick?.(snapshot()), o.tickMs ?? 1_000);
  const stop = await new Promise<WatchResult['stop']>((resolve) => {
    if (o.signal?.aborted === true) return resolve('interrupted');
    const timer = o.durationMs === null ? undefined : setTimeout(() => resolve('duration'), o.durationMs);
    o.signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve('interrupted');
    }, { once: true });
  });
  clearInterval(ticker);
  const endedAtMs = epochNow();
  const [health] = await Promise.all([heads?.stop(), ...[...samplers.values()].map((s) => s.stop())]);
  const nodes = o.urls.map((url) => {
    const head = health?.get(url);
    const sampler = samplers.get(url);
    // No load: the node's CPU over the watch, from its first sample on (one interval in); per call unknown (it
    // answered calls chainrpc did not count).
    const resources = sampler?.resources([{ fromMs: Math.min(endedAtMs, startedAtMs + sampler.intervalMs), toMs: endedAtMs }], 0, startedAtMs);
    return { url, health: { ...(head === undefined ? {} : { head }), ...(resources === undefined ? {} : { resources }) } };
  });
  return { startedAt: new Date(startedAtMs).toISOString(), endedAt: new Date(endedAtMs).toISOString(), durationMs: endedAtMs - startedAtMs, stop, nodes };
}
