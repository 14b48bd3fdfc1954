/**
 * A node's resources through a load run: its CPU (user + system, every thread), resident memory, open file
 * descriptors and threads, from a ProcessSource every `intervalMs`, on the main thread while the engine sends from
 * its worker: /proc for a node on this machine (`--pid`, pidSource: core/process/procStat.ts), or the node's
 * Prometheus metrics from anywhere (`--metrics-url`, metricsSource.ts). `resources` makes the report's
 * figures: the node's CPU per answered call over the measured windows only (a node idles while another is loaded,
 * and warm-ups are left out as every figure leaves them out), the peak RSS, and the RSS trend fitted with the
 * slope's confidence interval (leakFit.ts).
 */
import { processSample } from '../../core/process/procStat.js';
import type { NodeResources, ResourcePoint } from '../model.js';
import { downsample, lastingTrend, MIN_LEAK_POINTS, trendHalf } from './leakFit.js';
import { epochNow } from '../../core/epochNow.js';

/** Points kept in the report's series (downsampled by bucket means past it). */
const SERIES_POINTS = 1_000;
/** Samples kept in memory before the oldest half is thinned: the sampler stays bounded however long the run. */
const KEPT_SAMPLES = 20_000;

/**
 * One reading of a process: CPU seconds so far, resident bytes, and what the source can tell besides. /proc gives
 * both always; a metrics page may lack either (its other figures are still read).
 */
export interface ProcessReading {
  cpuSeconds?: number | undefined;
  rssBytes?: number | undefined;
  openFds?: number | undefined;
  threads?: number | undefined;
  /** Other metrics asked for by name (--metric), where the source has them. */
  metrics?: Record<string, number> | undefined;
}

/** Where readings come from; `read` resolves undefined when there was none to take (no process, a failed scrape). */
export interface ProcessSource {
  /** What the report names: `pid 123`, or the metrics URL. */
  label: string;
  read(): ProcessReading | undefined | Promise<ProcessReading | undefined>;
  close?(): void;
}

/** A process on this machine, through /proc. */
export const pidSource = (pid: number): ProcessSource => ({ label: `pid ${pid}`, read: () => processSample(pid) });

/**
 * A node on this machine whose process may be replaced (a devnet node restarted in a run with faults): `pidOf`
 * names its process now. Its CPU seconds run on across processes (each new one counts from the last reading of
 * the one before), so the CPU per call and the series stay whole; its memory is the process's of the moment.
 */
export function followedPidSource(pidOf: () => number | undefined): ProcessSource {
  const pids: number[] = [];
  let before = 0;
  let lastCpu = 0;
  return {
    get label(): string {
      return pids.length <= 1 ? `pid ${pids[0] ?? '?'}` : `pid ${pids.join(', then ')}`;
    },
    read: () => {
      const pid = pidOf();
      if (pid === undefined) return undefined;
      if (pids.at(-1) !== pid) {
        if (pids.length > 0) before += lastCpu;
        lastCpu = 0;
        pids.push(pid);
      }
      const s = processSample(pid);
      if (s === undefined) return undefined;
      lastCpu = s.cpuSeconds;
      return { ...s, cpuSeconds: before + s.cpuSeconds };
    },
  };
}

interface Sample extends ProcessReading {
  /** Epoch ms. */
  atMs: number;
}

/** A sample that read the CPU, or the memory. */
type WithCpu = Sample & { cpuSeconds: number };
type WithRss = Sample & { rssBytes: number };
const hasCpu = (s: Sample): s is WithCpu => s.cpuSeconds !== undefined;
const hasRss = (s: Sample): s is WithRss => s.rssBytes !== undefined;

/** A measured window of this node's run (epoch ms), and the calls answered in it. */
export interface MeasuredWindow {
  fromMs: number;
  toMs: number;
}

export class ResourceSampler {
  readonly source: ProcessSource;
  readonly #intervalMs: number;
  #samples: Sample[] = [];
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<unknown> | undefined;
  /** Samples that found no process (it exited mid-run), or scrapes that failed or held none of the series read. */
  missed = 0;
  /** Told once when a source that gave readings gives none (a --pid's process exited): the time, epoch ms. */
  readonly #onGone: ((atMs: number) => void) | undefined;
  #gone = false;
  /** When the last sample, the one `stop` takes after the runs ended, read the process (epoch ms, `epochNow`). */
  #finalAtMs: number | undefined;
  /**
   * The CPU counter as read last, and what its resets took from it: a counter that goes down (the process restarted,
   * process_cpu_seconds_total back at 0) counts from 0 again, as Prometheus's rate() reads one. Without it an outside
   * tester's node restarted mid-run read 50 µs a call against 1,000, and a CPU series of -35%.
   */
  #lastRawCpu: number | undefined;
  #cpuOffset = 0;
  /** Times the CPU counter went down (a restart), said in the report. */
  cpuResets = 0;

  constructor(source: ProcessSource, intervalMs: number, onGone?: (atMs: number) => void) {
    this.source = source;
    this.#intervalMs = intervalMs;
    this.#onGone = onGone;
  }

  /** Between two samples, ms. */
  get intervalMs(): number {
    return this.#intervalMs;
  }

  start(): void {
    this.#tick();
    this.#timer = setInterval(() => this.#tick(), this.#intervalMs);
  }

  /** Stops sampling after one last sample (the end of the last window needs one after it). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#inFlight;
    const final = await this.#take();
    if (final !== undefined) this.#finalAtMs = final;
    this.source.close?.();
  }

  /** One sample at a time: a slow scrape delays the next, never overlaps it. */
  #tick(): void {
    if (this.#inFlight !== undefined) return;
    this.#inFlight = this.#take().finally(() => (this.#inFlight = undefined));
  }

  /** One reading; its time (epoch ms), or undefined when it found no process or nothing to read. */
  async #take(): Promise<number | undefined> {
    // The time of a reading is when it was asked: a scrape's answer describes the process as the request met it.
    const atMs = epochNow();
    const s = await this.source.read();
    if (s === undefined) {
      this.missed++;
      if (this.#samples.length > 0 && !this.#gone) {
        this.#gone = true;
        this.#onGone?.(atMs);
      }
      return undefined;
    }
    let cpuSeconds = s.cpuSeconds;
    if (cpuSeconds !== undefined) {
      if (this.#lastRawCpu !== undefined && cpuSeconds < this.#lastRawCpu) {
        this.#cpuOffset += this.#lastRawCpu;
        this.cpuResets++;
      }
      this.#lastRawCpu = cpuSeconds;
      cpuSeconds += this.#cpuOffset;
    }
    this.#samples.push({ ...s, ...(cpuSeconds === undefined ? {} : { cpuSeconds }), atMs });
    // A soak of hours: every other old sample dropped once the cap is reached (the trend and peaks survive).
    if (this.#samples.length > KEPT_SAMPLES) this.#samples = [...this.#samples.slice(0, KEPT_SAMPLES / 2).filter((_, i) => i % 2 === 0), ...this.#samples.slice(KEPT_SAMPLES / 2)];
    return atMs;
  }

  /**
   * The latest reading, with the CPU (% of one core) since the one before it: for a live line. Undefined before
   * two; each figure absent when the source does not give it.
   */
  latest(): { rssBytes?: number; cpuPercent?: number } | undefined {
    const b = this.#samples.at(-1);
    const a = this.#samples.at(-2);
    if (a === undefined || b === undefined) return undefined;
    return {
      ...(b.rssBytes === undefined ? {} : { rssBytes: b.rssBytes }),
      ...(a.cpuSeconds === undefined || b.cpuSeconds === undefined ? {} : { cpuPercent: ((b.cpuSeconds - a.cpuSeconds) * 100_000) / Math.max(1, b.atMs - a.atMs) }),
    };
  }

  /** The standard figures no reading held (a metrics page without them): `cpu`, `rss`, `fds`. Empty before any reading. */
  lacks(): ('cpu' | 'rss' | 'fds')[] {
    const samples = this.#samples;
    if (samples.length === 0) return [];
    return [...(samples.some(hasCpu) ? [] : ['cpu' as const]), ...(samples.some(hasRss) ? [] : ['rss' as const]), ...(samples.some((s) => s.openFds !== undefined) ? [] : ['fds' as const])];
  }

  /** The node's CPU seconds at an instant, interpolated between the samples around it that read it; undefined outside them. */
  cpuAt(atMs: number): number | undefined {
    const samples = this.#samples.filter(hasCpu);
    const after = samples.findIndex((s) => s.atMs >= atMs);
    if (after <= 0) return after === 0 && samples[0]?.atMs === atMs ? samples[0].cpuSeconds : undefined;
    const a = samples[after - 1] as WithCpu;
    const b = samples[after] as WithCpu;
    return a.cpuSeconds + ((b.cpuSeconds - a.cpuSeconds) * (atMs - a.atMs)) / Math.max(1, b.atMs - a.atMs);
  }

  /**
   * The report's figures: CPU per answered call over `windows`, peak RSS, the RSS trend, and the series from
   * `originMs`. A source without CPU gives no CPU figures (null); one without memory no RSS figures (a peak of 0,
   * no `last`, no trend, and no series: a point of it needs its RSS).
   */
  resources(windows: readonly MeasuredWindow[], answered: number, originMs: number): NodeResources {
    const samples = this.#samples;
    const withRss = samples.filter(hasRss);
    let cpuS = 0;
    let covered = true;
    // A run ends when its last call is answered, which can come before its window's nominal end (at 20 calls/s,
    // up to 50 ms before). The last sample was read after every run had ended: a window is read up to it, and
    // every call answered in the window is inside. Without that last reading (the process gone) nothing is assumed.
    const final = this.#finalAtMs;
    for (const w of windows) {
      const from = this.cpuAt(w.fromMs);
      const to = this.cpuAt(final !== undefined && w.toMs > final ? final : w.toMs);
      if (from === undefined || to === undefined) covered = false;
      else cpuS += to - from;
    }
    const points = withRss.map((s, i): ResourcePoint => {
      const prev = withRss[i - 1];
      const cpuPercent = prev?.cpuSeconds === undefined || s.cpuSeconds === undefined ? null : ((s.cpuSeconds - prev.cpuSeconds) * 100_000) / Math.max(1, s.atMs - prev.atMs);
      return { tMs: s.atMs - originMs, cpuPercent: cpuPercent === null ? null : round(cpuPercent), rssBytes: s.rssBytes, ...(s.openFds === undefined ? {} : { openFds: s.openFds }), ...(s.threads === undefined ? {} : { threads: s.threads }) };
    });
    // The trend leaves start-up and warm-up out: from the first measured window, or a tenth of the run if later.
    const first = samples[0]?.atMs ?? 0;
    const span = (samples.at(-1)?.atMs ?? first) - first;
    const fromMs = Math.max(windows[0]?.fromMs ?? first, first + span / 10);
    const rss = withRss.filter((s) => s.atMs >= fromMs).map((s) => ({ tMs: s.atMs, value: s.rssBytes / 1_048_576 }));
    const trend = rss.length >= MIN_LEAK_POINTS && rss[0]?.tMs !== rss.at(-1)?.tMs ? lastingTrend(rss) : undefined;
    const fit = trend?.fit;
    const last = withRss.at(-1);
    return {
      source: this.source.label,
      intervalMs: this.#intervalMs,
      samples: samples.length,
      missed: this.missed,
      cpuSeconds: covered ? round(cpuS, 3) : null,
      answeredCalls: answered,
      ...(this.cpuResets === 0 ? {} : { cpuResets: this.cpuResets }),
      cpuPerCallUs: covered && answered > 0 ? round((cpuS * 1e6) / answered) : null,
      peakRssBytes: withRss.reduce((m, s) => Math.max(m, s.rssBytes), 0),
      ...(last === undefined ? {} : { last: { rssBytes: last.rssBytes, ...(last.openFds === undefined ? {} : { openFds: last.openFds }), ...(last.threads === undefined ? {} : { threads: last.threads }) } }),
      rssTrend:
        fit === undefined
          ? null
          : {
              mbPerHour: round(fit.slopePerHour),
              low: round(fit.slopeInterval.low),
              high: round(fit.slopeInterval.high),
              confidence: fit.confidence,
              points: fit.n,
              fromMs: round(fromMs - originMs),
              line: [
                { tMs: round(fit.line[0].tMs - originMs), mb: round(fit.line[0].value, 2) },
                { tMs: round(fit.line[1].tMs - originMs), mb: round(fit.line[1].value, 2) },
              ],
              lastHalf: trendHalf(trend?.lastHalf ?? null, originMs),
              // Gone before the measured run's end (two sampling intervals of slack): the trend is of a part of it.
              ...(this.#gone && last !== undefined && last.atMs < (windows.at(-1)?.toMs ?? -Infinity) - 2 * this.#intervalMs ? { endedMs: round(last.atMs - originMs) } : {}),
            },
      series: thin(points),
      ...metricsOf(samples, originMs),
    };
  }
}

/** A counter by the Prometheus naming conventions: its rate over the run is what it means. */
const isCounter = (name: string): boolean => /_(total|count|sum)$/.test(name);

/** A counter's increase over its readings, a reset (a value below the one before: a restart) counting from 0 again, as Prometheus's increase() reads one. */
export function counterIncrease(values: readonly number[]): number {
  let increase = 0;
  for (let i = 1; i < values.length; i++) {
    const [before, now] = [values[i - 1] ?? 0, values[i] ?? 0];
    increase += now >= before ? now - before : now;
  }
  return increase;
}

/** The other metrics read (--metric), each over the run: first, last, least, most, a counter's rate, the series. */
function metricsOf(samples: readonly Sample[], originMs: number): Pick<NodeResources, 'metrics'> {
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.metrics ?? {})))];
  if (names.length === 0) return {};
  return {
    metrics: names.map((name) => {
      const points = samples.flatMap((s) => {
        const value = s.metrics?.[name];
        return value === undefined ? [] : [{ tMs: s.atMs - originMs, value }];
      });
      const first = points[0] ?? { tMs: 0, value: 0 };
      const last = points.at(-1) ?? first;
      const values = points.map((p) => p.value);
      const seconds = (last.tMs - first.tMs) / 1000;
      return {
        name,
        samples: points.length,
        first: first.value,
        last: last.value,
        min: Math.min(...values),
        max: Math.max(...values),
        perSecond: isCounter(name) && seconds > 0 ? round(counterIncrease(values) / seconds, 3) : null,
        series: downsample(points, SERIES_POINTS).map((p) => ({ tMs: round(p.tMs), value: p.value })),
      };
    }),
  };
}

/** At most SERIES_POINTS points: CPU and RSS averaged per bucket (leakFit's downsample, one series at a time). */
function thin(points: ResourcePoint[]): ResourcePoint[] {
  if (points.length <= SERIES_POINTS) return points;
  const rss = downsample(points.map((p) => ({ tMs: p.tMs, value: p.rssBytes })), SERIES_POINTS);
  const cpu = downsample(points.flatMap((p) => (p.cpuPercent === null ? [] : [{ tMs: p.tMs, value: p.cpuPercent }])), SERIES_POINTS);
  return rss.map((r, i) => ({ tMs: round(r.tMs), cpuPercent: cpu[i] === undefined ? null : round(cpu[i].value), rssBytes: Math.round(r.value) }));
}

const round = (v: number, digits = 1): number => Math.round(v * 10 ** digits) / 10 ** digits;
