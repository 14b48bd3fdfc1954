/**
 * One run out of several parts of it measured at different times: the segments of an interleaved
 * comparison (node A, node B, node A, ...), or the threads of a distributed run. Histograms merge exactly
 * (they travel encoded whole), counters add up, rates are recomputed over the summed measured time, and the
 * timeline runs on from one part to the next.
 */
import { mergeReadRegressions } from './health/ReadWatch.js';
import { sumCpu } from './metrics/generatorCpu.js';
import { mergeHistogramData } from './metrics/Histogram.js';
import { mergeOutages } from './metrics/OutageLog.js';
import type { BatchSizeStats, GeneratorCpu, HistogramData, LoadRun, MethodStats, RequestFailures, TimelinePoint } from './model.js';

const sumRecord = (records: readonly Record<string, number>[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const r of records) for (const [k, v] of Object.entries(r)) out[k] = (out[k] ?? 0) + v;
  return out;
};

function mergeMethods(parts: readonly MethodStats[][]): MethodStats[] {
  const byName = new Map<string, MethodStats[]>();
  for (const list of parts) for (const m of list) byName.set(m.method, [...(byName.get(m.method) ?? []), m]);
  return [...byName.entries()].map(([method, ms]) => ({
    method,
    calls: ms.reduce((n, m) => n + m.calls, 0),
    ok: ms.reduce((n, m) => n + m.ok, 0),
    errors: sumRecord(ms.map((m) => m.errors)),
    unanswered: ms.reduce((n, m) => n + m.unanswered, 0),
    validated: ms.reduce((n, m) => n + m.validated, 0),
    invalid: ms.reduce((n, m) => n + m.invalid, 0),
    latency: mergeHistogramData(ms.map((m) => m.latency)),
    service: mergeHistogramData(ms.map((m) => m.service)),
  }));
}

function mergeBatchSizes(parts: readonly BatchSizeStats[][]): BatchSizeStats[] {
  const bySize = new Map<string, BatchSizeStats[]>();
  for (const list of parts) for (const b of list) bySize.set(b.size, [...(bySize.get(b.size) ?? []), b]);
  return [...bySize.entries()].map(([size, bs]) => ({
    size,
    requests: bs.reduce((n, b) => n + b.requests, 0),
    latency: mergeHistogramData(bs.map((b) => b.latency)),
    service: mergeHistogramData(bs.map((b) => b.service)),
  }));
}

function mergeFailures(parts: readonly RequestFailures[]): RequestFailures {
  const add = (k: Exclude<keyof RequestFailures, 'httpStatus' | 'transportCauses'>): number => parts.reduce((n, f) => n + f[k], 0);
  // The causes add up to the transport count only when every part gave them.
  const causes = parts.every((f) => f.transportCauses !== undefined) ? { transportCauses: sumRecord(parts.map((f) => f.transportCauses ?? {})) } : {};
  return { timeouts: add('timeouts'), transport: add('transport'), ...causes, httpStatus: sumRecord(parts.map((f) => f.httpStatus)), malformed: add('malformed'), extraElements: add('extraElements'), missingElements: add('missingElements') };
}

/**
 * The parts' timelines end to end: each part's measured points shifted by the measured time before it. Warm-up
 * points of later parts are left out, and so are the drain points of every part but the last (ticks that begin at
 * or after the part's window ends): shifted, they would land at the next part's start, inside the merged window,
 * with the last answer or two of a segment, and the baseline's noise would take them for seconds of the window.
 */
function joinTimelines(parts: readonly LoadRun[]): TimelinePoint[] {
  const out: TimelinePoint[] = [];
  let offset = 0;
  const last = parts.length - 1;
  parts.forEach((p, i) => {
    for (const point of p.timeline) {
      if (i > 0 && point.tMs < 0) continue;
      if (i < last && point.tMs >= p.durationMs) continue;
      out.push({ ...point, tMs: point.tMs + offset });
    }
    offset += p.durationMs;
  });
  return out;
}

/** The model the parts ran together: an open model's stages as long as all the parts' (each part ran a slice of each). */
function joinModels(parts: readonly LoadRun[]): LoadRun['model'] {
  const [first] = parts;
  if (first === undefined || first.model.kind === 'closed') return first?.model ?? { kind: 'closed', connections: 1 };
  const { stages } = first.model;
  const same = parts.every((p) => p.model.kind === 'open' && p.model.stages.length === stages.length);
  if (!same) return first.model;
  return { ...first.model, stages: stages.map((st, i) => ({ ...st, durationMs: parts.reduce((n, p) => n + (p.model.kind === 'open' ? (p.model.stages[i]?.durationMs ?? 0) : 0), 0) })) };
}

/** Merges parts of one run (same URL and scenario), in time order. */
export function mergeRuns(parts: readonly LoadRun[]): LoadRun {
  const [first] = parts;
  const last = parts[parts.length - 1];
  if (first === undefined || last === undefined) throw new Error('mergeRuns: no parts');
  if (parts.length === 1) return first;
  const durationMs = parts.reduce((n, p) => n + p.durationMs, 0);
  const seconds = durationMs / 1000;
  const completed = parts.reduce((n, p) => n + p.schedule.achievedRate * (p.durationMs / 1000), 0);
  const scheduled = parts.reduce((n, p) => n + p.schedule.scheduled, 0);
  const target = first.schedule.targetRate === null ? null : parts.reduce((n, p) => n + (p.schedule.targetRate ?? 0) * (p.durationMs / 1000), 0) / seconds;
  return {
    ...first,
    model: joinModels(parts),
    endedAt: last.endedAt,
    durationMs,
    valid: parts.every((p) => p.valid),
    invalid: [...new Set(parts.flatMap((p) => p.invalid))],
    schedule: {
      targetRate: target,
      achievedRate: seconds === 0 ? 0 : completed / seconds,
      scheduled,
      sent: parts.reduce((n, p) => n + p.schedule.sent, 0),
      dropped: parts.reduce((n, p) => n + p.schedule.dropped, 0),
      queuedMax: Math.max(...parts.map((p) => p.schedule.queuedMax)),
      lagUs: mergeHistogramData(parts.map((p) => p.schedule.lagUs)),
      // Only when every part measured it: a part without (k6, an older report) would make the merged bound a guess.
      ...(parts.every((p) => p.schedule.readLagUs !== undefined) ? { readLagUs: mergeHistogramData(parts.map((p) => p.schedule.readLagUs as HistogramData)) } : {}),
      // The same for the generator's CPU: the rounds of one node's run, each with its own.
      ...(parts.every((p) => p.schedule.generatorCpu !== undefined) ? { generatorCpu: sumCpu(parts.map((p) => p.schedule.generatorCpu as GeneratorCpu)) } : {}),
    },
    failures: mergeFailures(parts.map((p) => p.failures)),
    latency: mergeHistogramData(parts.map((p) => p.latency)),
    service: mergeHistogramData(parts.map((p) => p.service)),
    methods: mergeMethods(parts.map((p) => p.methods)),
    batchSizes: mergeBatchSizes(parts.map((p) => p.batchSizes)),
    timeline: joinTimelines(parts),
    thresholds: [],
    // The first stop that was not a plain completion says why the run ended early.
    stop: parts.find((p) => p.stop.reason !== 'completed')?.stop ?? { ...last.stop, atMs: durationMs },
    ...mergedReads(parts),
    ...joinOutages(parts),
  };
}

/** The parts' outages on the joined clock (each part's shifted by the measured time before it, as the timeline is). */
function joinOutages(parts: readonly LoadRun[]): Pick<LoadRun, 'outages'> {
  let offset = 0;
  const shifted = parts.map((p) => {
    const at = offset;
    offset += p.durationMs;
    return (p.outages?.kept ?? []).map((o) => ({ ...o, fromMs: o.fromMs + at, lastFailedMs: o.lastFailedMs + at, toMs: o.toMs === null ? null : o.toMs + at }));
  });
  const count = parts.reduce((n, p) => n + (p.outages?.count ?? 0), 0);
  return count === 0 ? {} : { outages: { count, kept: mergeOutages(shifted) } };
}

/** The parts' reads gone backwards (each part judged its own answers), as one. */
function mergedReads(parts: readonly LoadRun[]): Pick<LoadRun, 'health'> {
  const reads = parts.flatMap((p) => (p.health?.reads === undefined ? [] : [p.health.reads]));
  return reads.length === 0 ? {} : { health: { reads: mergeReadRegressions(reads) } };
}
