/**
 * The ground truth of `chainrpc load replay`'s timing (issue 26), shared by its timing test
 * (load/replay/replay.timing.test.ts) and its benchmark (`npm run bench:replay`): a known schedule recorded through
 * `chainrpc record`, the capture replayed (the build, as a user runs it) through a relay that stamps when each
 * request reached the node, and each arrival compared with its recorded offset divided by the speed.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson } from '../../core/json/index.js';
import type { LoadReport } from '../../load/model.js';
import { readCapture, type Capture } from '../../load/capture/readCapture.js';
import { runChainrpc, startChainrpc, type ChainrpcRun } from '../runChainrpc.js';
import { runK6 } from './k6.js';
import { startStampingRelay, type StampedRequest } from './stampingRelay.js';

/** The report of the one load run written under `reportDir`. */
export function reportIn(reportDir: string): LoadReport {
  const [run] = readdirSync(reportDir).filter((d) => d.startsWith('load-'));
  return parseJson(readFileSync(join(reportDir, run ?? '', 'report.json'), 'utf8')) as unknown as LoadReport;
}

/** The value at quantile `p` of an ascending list (NaN when empty). */
export const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;

/** A known schedule recorded: the capture, where it is, and the report of the load run that sent it. */
export interface KnownRecording {
  capturePath: string;
  capture: Capture;
  load: ChainrpcRun;
  /** The load run's report (undefined when the run wrote none). */
  report: LoadReport | undefined;
}

/**
 * Records a known schedule: `chainrpc load` sends 150 calls/s, evenly, for 4 s (three read methods), through
 * `chainrpc record --upstream nodeUrl`, into `dir/known.ndjson`. The load's trust bound is loose (--max-lag
 * 100ms): what is judged later is the replay against the offsets the capture holds, whatever they were.
 */
export async function recordKnownSchedule(nodeUrl: string, dir: string): Promise<KnownRecording> {
  const scenario = join(dir, 'known.json');
  writeFileSync(scenario, JSON.stringify({ name: 'known', arrivals: { model: 'open', rate: 150, distribution: 'uniform' }, duration: '4s', warmup: '0s', timeout: '5s', mix: [{ method: 'chain_blockNumber', weight: 2 }, { method: 'chain_getBlockByHeight', weight: 2 }, { method: 'chain_health', weight: 1 }], thresholds: ['errors < 1%'] }));
  const capturePath = join(dir, 'known.ndjson');
  const recorder = startChainrpc(['record', '--upstream', nodeUrl, '--listen', '0', '--out', capturePath]);
  const proxy = /^recording: (\S+)/.exec(await recorder.waitFor(/^recording: /))?.[1] ?? '';
  const reportDir = join(dir, 'recorded');
  const load = await runChainrpc('load', scenario, '--url', proxy, '--head-hz', '0', '--max-lag', '100ms', '--report-dir', reportDir);
  recorder.child.kill('SIGINT');
  if (!(await recorder.closed(15_000))) throw new Error(`chainrpc record did not stop within 15 s of SIGINT\n${recorder.stderr()}`);
  let report: LoadReport | undefined;
  try {
    report = reportIn(reportDir);
  } catch {
    report = undefined;
  }
  return { capturePath, capture: readCapture(capturePath), load, report };
}

/** Runs `send` against a fresh stamping relay in front of `nodeUrl`; the requests it stamped, in order of arrival. */
export async function throughRelay(nodeUrl: string, send: (url: string) => Promise<void>): Promise<StampedRequest[]> {
  const relay = await startStampingRelay(nodeUrl);
  try {
    await send(relay.url);
  } catch (error) {
    await relay.stop();
    throw error;
  }
  return relay.stop();
}

/** A capture's arrivals against its recorded offsets. */
export interface Arrivals {
  /** The arrived rate against `speed` times the recorded rate (1 is exact). */
  rateRatio: number;
  /** Each request's offset error, ms, ascending. */
  errors: number[];
  /** The figures in one line. */
  said: string;
}

/**
 * Each recorded request matched with its arrival at the relay (by its exact body: the last arrivals, after any
 * probe the replay sends first); the arrived rate (the least-squares slope of arrivals against recorded times)
 * against `speed` times the recorded one, and each arrival's error from its recorded offset divided by `speed`
 * (offsets aligned at their median: the replay's start aside).
 */
export function arrivals(capture: Capture, stamped: readonly StampedRequest[], speed: number): Arrivals {
  const arrived = stamped.slice(stamped.length - capture.exchanges.length);
  const queues = new Map<string, number[]>();
  for (const r of arrived) queues.set(r.body, [...(queues.get(r.body) ?? []), r.atMs]);
  const pairs = capture.exchanges.map((e) => {
    const body = 'text' in e.request ? e.request.text : '';
    const at = queues.get(body)?.shift();
    if (at === undefined) throw new Error(`a recorded request never reached the node: ${body}`);
    return { recordedMs: e.t, arrivedMs: at };
  });
  const first = pairs[0] as { recordedMs: number; arrivedMs: number };
  const last = pairs.at(-1) as { recordedMs: number; arrivedMs: number };
  const recordedRate = ((pairs.length - 1) * 1000) / (last.recordedMs - first.recordedMs);
  // The arrived rate as the least-squares slope of arrivals against recorded times (every request counts, not
  // only the first and the last: a generator's first request, on a connection still to open, may go late).
  const mean = (f: (p: { recordedMs: number; arrivedMs: number }) => number): number => pairs.reduce((n, p) => n + f(p), 0) / pairs.length;
  const mr = mean((p) => p.recordedMs);
  const ma = mean((p) => p.arrivedMs);
  const slope = mean((p) => (p.recordedMs - mr) * (p.arrivedMs - ma)) / mean((p) => (p.recordedMs - mr) ** 2);
  const arrivedRate = recordedRate / slope;
  const offsets = pairs.map((p) => p.arrivedMs - first.arrivedMs - (p.recordedMs - first.recordedMs) / speed);
  const shift = percentile([...offsets].sort((a, b) => a - b), 0.5);
  const errors = offsets.map((o) => Math.abs(o - shift)).sort((a, b) => a - b);
  const said = `arrived at ${arrivedRate.toFixed(2)}/s against ${speed} x ${recordedRate.toFixed(2)}/s recorded; offset errors: p50 ${percentile(errors, 0.5).toFixed(3)} ms, p90 ${percentile(errors, 0.9).toFixed(3)} ms, p99 ${percentile(errors, 0.99).toFixed(3)} ms, max ${errors.at(-1)?.toFixed(3) ?? ''} ms over ${errors.length}`;
  return { rateRatio: arrivedRate / (speed * recordedRate), errors, said };
}

/** One replay of a capture through the stamping relay: the run, its report, and the arrivals against the capture. */
export interface ReplayArrivals {
  run: ChainrpcRun;
  report: LoadReport;
  arrivals: Arrivals;
  /** The engine's own send lag, ms, as its report says (what it measured of its own lateness). */
  sendLagMs: { p90: number; p99: number; max: number };
}

/**
 * `chainrpc load replay capturePath --speed <speed>` (the build) to `nodeUrl` through a fresh stamping relay,
 * its report under `reportDir`. The run's lag guard is wide (--max-lag 100ms): the arrivals are what is judged,
 * with the run's own send lag beside them. Throws when the replay exits other than 0.
 */
export async function replayThroughRelay(nodeUrl: string, recording: Pick<KnownRecording, 'capturePath' | 'capture'>, reportDir: string, speed = 2): Promise<ReplayArrivals> {
  let run: ChainrpcRun | undefined;
  const stamped = await throughRelay(nodeUrl, async (url) => {
    run = await runChainrpc('load', 'replay', recording.capturePath, '--url', url, '--speed', String(speed), '--head-hz', '0', '--max-lag', '100ms', '--report-dir', reportDir);
  });
  if (run === undefined || run.code !== 0) throw new Error(`chainrpc load replay exited ${String(run?.code)}\n${run?.stderr ?? ''}\n${run?.stdout.slice(-2_000) ?? ''}`);
  const report = reportIn(reportDir);
  const lag = report.runs[0]?.schedule.lagUs;
  return { run, report, arrivals: arrivals(recording.capture, stamped, speed), sendLagMs: { p90: (lag?.p90 ?? 0) / 1000, p99: (lag?.p99 ?? 0) / 1000, max: (lag?.max ?? 0) / 1000 } };
}

/**
 * The same capture written as a k6 test (`chainrpc load replay --k6 out`) and run by `k6` through a fresh stamping
 * relay: the arrivals against the capture. Throws when either step exits other than 0.
 */
export async function replayOnK6ThroughRelay(nodeUrl: string, recording: Pick<KnownRecording, 'capturePath' | 'capture'>, out: string, k6: string, speed = 2): Promise<Arrivals> {
  const stamped = await throughRelay(nodeUrl, async (url) => {
    const written = await runChainrpc('load', 'replay', recording.capturePath, '--url', url, '--speed', String(speed), '--k6', out);
    if (written.code !== 0) throw new Error(`chainrpc load replay --k6 exited ${String(written.code)}\n${written.stderr}`);
    const run = await runK6(k6, ['script.js'], out);
    if (run.code !== 0) throw new Error(`k6 run exited ${String(run.code)}\n${run.stderr}`);
  });
  return arrivals(recording.capture, stamped, speed);
}
