import { readFileSync } from 'node:fs';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import type {
  BaselineComparison,
  ChaosEvent,
  ChaosReport,
  ReplayReport,
  ReplayDiff,
  ChaosStep,
  Outage,
  RunChaos,
  BaselineDelta,
  BatchSizeStats,
  HeadHealth,
  HeadRegression,
  HeadStall,
  HistogramData,
  InclusionStats,
  InclusionTracking,
  LoadReport,
  LoadRun,
  MethodStats,
  NodeHealth,
  NodeResources,
  RateStage,
  ResourcePoint,
  RequestFailures,
  RunStop,
  ScheduleStats,
  GeneratorCpu,
  SweepResult,
  SweepStep,
  ThresholdResult,
  TimelinePoint,
} from '../../load/model.js';
import { LOAD_FIXTURE_KINDS, loadReportFixture } from '../../test/support/loadReportFixture.js';
import { renderLoadJson } from './renderLoadJson.js';

// Both ship CommonJS with `exports.default`; under NodeNext the default import is the module object.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  definitions?: Record<string, SchemaNode>;
  oneOf?: SchemaNode[];
  items?: SchemaNode;
}
const schema = JSON.parse(readFileSync(new URL('./load-report.schema.json', import.meta.url), 'utf8')) as SchemaNode & { $schema: string };
const ajv = new Ajv({ strict: true, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);

const problems = (value: unknown): string[] =>
  validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? e.keyword}`);

const parsed = (report: LoadReport): LoadReport => JSON.parse(renderLoadJson(report)) as LoadReport;
const firstRun = (r: LoadReport): LoadRun => {
  const run = r.runs[0];
  if (!run) throw new Error('the fixture has no run');
  return run;
};

describe('renderLoadJson and load-report.schema.json', () => {
  it('is a draft-07 schema, like the conformance report\'s, that ajv compiles in strict mode', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });

  it.each(LOAD_FIXTURE_KINDS)('renders the %s fixture as JSON that the schema accepts', (kind) => {
    expect(problems(parsed(loadReportFixture(kind)))).toEqual([]);
  });

  it('round-trips the report exactly, indented like JSON.stringify(report, null, 2)', () => {
    const report = loadReportFixture('inclusion');
    const text = renderLoadJson(report);
    expect(JSON.parse(text)).toEqual(report);
    expect(text).toBe(`${JSON.stringify(report, null, 2)}\n`);
  });

  it('carries each histogram whole: decoded, it gives back the count and percentiles of its summary', () => {
    const run = firstRun(parsed(loadReportFixture('plain')));
    for (const h of [run.latency, run.service, run.schedule.lagUs, ...run.methods.map((m) => m.latency)]) {
      const decoded = hdr.decodeFromCompressedBase64(h.encoded);
      expect(decoded.totalCount).toBe(h.count);
      expect(decoded.getValueAtPercentile(99)).toBe(h.p99);
      expect(decoded.getValueAtPercentile(50)).toBe(h.p50);
      expect(decoded.getValueAtPercentile(99.9)).toBe(h.p999);
    }
  });

  it.each<[string, (r: LoadReport & Record<string, unknown>) => void]>([
    ['a wrong format', (r) => ((r as { format: string }).format = 'chainrpc-report/3')],
    ['a missing verdict', (r) => delete (r as Partial<LoadReport>).verdict],
    ['a run without its latency histogram', (r) => delete (firstRun(r) as Partial<LoadRun>).latency],
    ['a histogram without its encoding', (r) => delete (firstRun(r).latency as Partial<HistogramData>).encoded],
    ['a histogram encoded as something else than base64', (r) => (firstRun(r).latency.encoded = 'not base64!')],
    ['an unknown top-level field', (r) => (r.extra = 1)],
    ['an unknown field in a run', (r) => ((firstRun(r) as unknown as Record<string, unknown>).p99 = 1)],
    ['an unknown stop reason', (r) => ((firstRun(r).stop as { reason: string }).reason = 'crashed')],
    ['an error code that is not a number', (r) => ((firstRun(r).methods[0] as MethodStats).errors.oops = 1)],
    ['a negative call count', (r) => ((firstRun(r).methods[0] as MethodStats).calls = -1)],
    ['an open model without stages', (r) => delete (firstRun(r).model as { stages?: unknown }).stages],
    ['exit code 2', (r) => ((r.verdict as { exitCode: number }).exitCode = 2)],
    ['a start time that is not a date-time', (r) => (firstRun(r).startedAt = 'yesterday')],
    ['a timeline point without p99', (r) => delete (firstRun(r).timeline[0] as Partial<TimelinePoint>).p99Us],
  ])('refuses a report with %s', (_what, breakIt) => {
    const report = parsed(loadReportFixture('plain')) as LoadReport & Record<string, unknown>;
    breakIt(report);
    expect(problems(report)).not.toEqual([]);
  });

  // Objects with every field of the model's types, optional ones included: when load/model.ts gains or
  // loses a field, `satisfies Required<...>` stops compiling until this test (and then the schema) follow.
  it('lists exactly the fields of the model types', () => {
    const h = { count: 0, min: 0, max: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, encoded: '' } satisfies Required<HistogramData>;
    const stage = { from: 0, to: 0, durationMs: 0 } satisfies Required<RateStage>;
    const generatorCpu = { seconds: 0, wallSeconds: 0, requests: 0, percentOfCore: 0, perRequestUs: 0 } satisfies Required<GeneratorCpu>;
    const schedule = { targetRate: 0, achievedRate: 0, scheduled: 0, sent: 0, dropped: 0, queuedMax: 0, lagUs: h, readLagUs: h, generatorCpu } satisfies Required<ScheduleStats>;
    const method = { method: '', calls: 0, ok: 0, errors: {}, unanswered: 0, validated: 0, invalid: 0, latency: h, service: h } satisfies Required<MethodStats>;
    const batch = { size: '', requests: 0, latency: h, service: h } satisfies Required<BatchSizeStats>;
    const failures = { timeouts: 0, transport: 0, transportCauses: {}, httpStatus: {}, malformed: 0, extraElements: 0, missingElements: 0 } satisfies Required<RequestFailures>;
    const point = { tMs: 0, sent: 0, completed: 0, served: 0, okCalls: 0, failedCalls: 0, dropped: 0, inFlight: 0, p50Us: 0, p99Us: 0, pending: 0, included: 0 } satisfies Required<TimelinePoint>;
    const inclusion = {
      method: 'sender-nonce', pollIntervalMs: 0, accepted: 0, refused: {}, included: 0, pending: 0, ratio: 0, timeToInclusionMs: h, chainTps: 0,
      perBlock: { blocks: 0, mean: 0, max: 0 }, lanes: { resyncs: 1, resent: 0, skipped: 0 }, warmup: { accepted: 0, included: 0, refused: 0 }, followedAfterMs: 0,
      tracking: { endedBy: 'grace', unanswered: 0, hashMismatches: 0, reorgs: 0, deepestReorg: 0, reorgsBeyondHeld: 0, pollErrors: 0, lastPollError: null } satisfies Required<InclusionTracking>,
    } satisfies Required<InclusionStats>;
    const threshold = { name: '', metric: '', unit: 'ms', limit: 0, actual: 0, ok: true } satisfies Required<ThresholdResult>;
    const stop = { reason: 'completed', atMs: 0, message: '' } satisfies Required<RunStop>;
    const stall = { startMs: 0, endMs: null, height: 0, behindBlocks: 0 } satisfies Required<HeadStall>;
    const regression = { kind: 'height', atMs: 0, height: 0, previous: { atMs: 0, height: 0 } } satisfies Required<HeadRegression>;
    const head = {
      startedAt: '', intervalMs: 50, medianIntervalMs: 0, samples: 0, failed: 0, lastFailure: '', reference: '', blockTimeMs: null, blocks: 0, alone: true,
      lagMs: { p50: 0, p90: 0, p99: 0, max: 0 }, worst: [{ height: 0, lagMs: 0 }], series: [{ tMs: 0, lagMs: 0 }],
      lagTrend: { msPerHour: 0, low: 0, high: 0, confidence: 0.95, points: 10, fromMs: 0, line: [{ tMs: 0, lagMs: 0 }, { tMs: 1, lagMs: 0 }] }, stalls: [stall], regressions: [regression], regressionCount: 0,
    } satisfies Required<HeadHealth>;
    const sample = { tMs: 0, cpuPercent: null, rssBytes: 0, openFds: 0, threads: 1 } satisfies Required<ResourcePoint>;
    const resources = {
      source: 'pid 1', intervalMs: 250, samples: 0, missed: 0, cpuSeconds: null, answeredCalls: 0, cpuResets: 1, cpuPerCallUs: null, peakRssBytes: 0,
      last: { rssBytes: 0, openFds: 0, threads: 1 }, rssTrend: { mbPerHour: 0, low: 0, high: 0, confidence: 0.95, points: 10, fromMs: 0, line: [{ tMs: 0, mb: 0 }, { tMs: 1, mb: 0 }] }, series: [sample],
      metrics: [{ name: 'chainrpc_rpc_calls_total', samples: 2, first: 0, last: 10, min: 0, max: 10, perSecond: 5, series: [{ tMs: 0, value: 0 }] }],
    } satisfies Required<NodeResources>;
    const reads = { observed: { height: 1, block: 1, nonce: 1 }, counts: { height: 1, block: 0, nonce: 0 }, examples: [{ kind: 'height' as const, key: '', atMs: 1, value: '4', previous: { atMs: 0, value: '5' } }] };
    const health = { head, resources, reads } satisfies Required<NodeHealth>;
    const outage = { fromMs: 0, lastFailedMs: 1, toMs: 2, failedCalls: 1, byMethod: { chain_blockNumber: 1 } } satisfies Required<Outage>;
    const outages = { count: 1, kept: [outage] };
    const runEvent = { text: '1s:kill:mn1', atMs: 1000, failedCalls: 1, byMethod: {}, firstFailureMs: 0, recoveryMs: 10 };
    const runChaos = { events: [runEvent], recoveryMs: 10, failoverMs: 100, forks: 0, lostTx: 0, duplicateTx: 0, lostExamples: [], duplicateExamples: [] } satisfies Required<RunChaos>;
    const diffMethod = { method: 'chain_health', compared: 1, mismatches: 1, setAside: 0, notCompared: 0 };
    const diffExample = { method: 'chain_health', request: '', answer: '', other: '', why: '' };
    const diff = { url: '', compared: 1, mismatches: 1, setAside: 0, notCompared: 0, byMethod: [diffMethod], examples: [diffExample] } satisfies Required<ReplayDiff>;
    const run = {
      url: '', scenario: '', model: { kind: 'closed', connections: 1 }, startedAt: '', endedAt: '', warmupMs: 0, durationMs: 0, valid: true, invalid: [],
      schedule, failures, latency: h, service: h, methods: [], batchSizes: [], timeline: [], inclusion, health, thresholds: [], stop, outages, chaos: runChaos, diff,
    } satisfies Required<LoadRun>;
    const chaosStep = { text: '1s:kill:mn1', atMs: 1000, action: 'kill', target: 'mn1', forMs: null, command: '', delayMs: 0, loss: 0 } satisfies Required<ChaosStep>;
    const chaosEvent = { text: '1s:kill:mn1', action: 'kill', node: 'mn1', atMs: 1000, error: '', exitCode: null, output: '', leaderBefore: 'mn1', leaderAfter: 'mn2', headBefore: 5, nextBlockMs: 100, nextBlockAt: null, catchUpMs: null } satisfies Required<ChaosEvent>;
    const consistency = { fromHeight: 1, toHeight: 2, nodes: ['mn1'], forks: [{ height: 2, hashes: { mn1: 'ab' } }], error: '' };
    const chaos = { originAt: '2026-11-27T00:00:00.000Z', nodes: [{ name: 'mn1', kind: 'MN' as const, url: 'http://127.0.0.1:1' }], steps: [chaosStep], events: [chaosEvent], consistency } satisfies Required<ChaosReport>;
    const step = { rate: 0, run, sloHeld: true, reasons: [], generatorLimited: false } satisfies Required<SweepStep>;
    const sweep = { url: '', scenario: '', search: 'given', steps: [], knee: null, stopped: '' } satisfies Required<SweepResult>;
    const delta = { metric: '', unit: '%', baseline: 0, current: 0, change: 0, allowed: 0, regression: false } satisfies Required<BaselineDelta>;
    const baseline = { file: '', createdAt: '', deltas: [] } satisfies Required<BaselineComparison>;
    const replay = { capture: '', exchanges: 1, replayed: 1, pace: { speed: 1 }, loop: false, spanMs: 0, rate: 1, leftOut: [{ reason: 'not JSON-RPC' as const, count: 1 }], transformations: [] } satisfies Required<ReplayReport>;
    const report = {
      format: 'chainrpc-load/2', tool: { name: 'chainrpc', version: '' }, createdAt: '', command: '', scenario: { name: '', definition: null }, profile: '',
      runs: [], sweeps: [], baseline, chaos, replay, verdict: { word: 'PASSED', exitCode: 0, reasons: [], knees: [], summary: '' },
    } satisfies Required<LoadReport>;

    const defs = schema.definitions ?? {};
    const keysOf = (node: SchemaNode | undefined): string[] => Object.keys(node?.properties ?? {}).sort();
    const sorted = (o: object): string[] => Object.keys(o).sort();
    expect(keysOf(schema)).toEqual(sorted(report));
    expect(keysOf(schema.properties?.tool)).toEqual(sorted(report.tool));
    expect(keysOf(schema.properties?.scenario)).toEqual(sorted(report.scenario));
    expect(keysOf(schema.properties?.verdict)).toEqual(sorted(report.verdict));
    expect(keysOf(defs.HistogramData)).toEqual(sorted(h));
    expect(keysOf(defs.RateStage)).toEqual(sorted(stage));
    expect(keysOf(defs.ArrivalModel?.oneOf?.[0])).toEqual(['distribution', 'kind', 'stages']);
    expect(keysOf(defs.ArrivalModel?.oneOf?.[1])).toEqual(['connections', 'kind']);
    expect(keysOf(defs.ScheduleStats)).toEqual(sorted(schedule));
    expect(keysOf(defs.ScheduleStats?.properties?.generatorCpu)).toEqual(sorted(generatorCpu));
    expect(keysOf(defs.NodeHealth)).toEqual(sorted(health));
    expect(keysOf(defs.HeadHealth)).toEqual(sorted(head));
    expect(keysOf(defs.NodeResources)).toEqual(sorted(resources));
    expect(keysOf(defs.ResourcePoint)).toEqual(sorted(sample));
    expect(keysOf(defs.NodeResources?.properties?.last)).toEqual(sorted(resources.last));
    expect(keysOf(defs.HeadHealth?.properties?.stalls?.items)).toEqual(sorted(stall));
    expect(keysOf(defs.HeadHealth?.properties?.regressions?.items)).toEqual(sorted(regression));
    expect(keysOf(defs.MethodStats)).toEqual(sorted(method));
    expect(keysOf(defs.BatchSizeStats)).toEqual(sorted(batch));
    expect(keysOf(defs.RequestFailures)).toEqual(sorted(failures));
    expect(keysOf(defs.TimelinePoint)).toEqual(sorted(point));
    expect(keysOf(defs.InclusionStats)).toEqual(sorted(inclusion));
    expect(keysOf(defs.InclusionStats?.properties?.perBlock)).toEqual(sorted(inclusion.perBlock));
    expect(keysOf(defs.InclusionStats?.properties?.lanes)).toEqual(sorted(inclusion.lanes));
    expect(keysOf(defs.InclusionStats?.properties?.tracking)).toEqual(sorted(inclusion.tracking));
    expect(keysOf(defs.ThresholdResult)).toEqual(sorted(threshold));
    expect(keysOf(defs.RunStop)).toEqual(sorted(stop));
    expect(keysOf(defs.LoadRun)).toEqual(sorted(run));
    expect(keysOf(defs.SweepStep)).toEqual(sorted(step));
    expect(keysOf(defs.SweepResult)).toEqual(sorted(sweep));
    expect(keysOf(defs.BaselineDelta)).toEqual(sorted(delta));
    expect(keysOf(defs.BaselineComparison)).toEqual(sorted(baseline));
    expect(keysOf(defs.Outage)).toEqual(sorted(outage));
    expect(keysOf(defs.LoadRun?.properties?.outages)).toEqual(sorted(outages));
    expect(keysOf(defs.RunChaos)).toEqual(sorted(runChaos));
    expect(keysOf(defs.RunChaos?.properties?.events?.items)).toEqual(sorted(runEvent));
    expect(keysOf(defs.ChaosStep)).toEqual(sorted(chaosStep));
    expect(keysOf(defs.ReplayReport)).toEqual(sorted(replay));
    expect(keysOf(defs.ReplayDiff)).toEqual(sorted(diff));
    expect(keysOf(defs.ReplayDiff?.properties?.byMethod?.items)).toEqual(sorted(diffMethod));
    expect(keysOf(defs.ReplayDiff?.properties?.examples?.items)).toEqual(sorted(diffExample));
    expect(keysOf(defs.ReplayReport?.properties?.leftOut?.items)).toEqual(sorted(replay.leftOut[0] ?? {}));
    expect(keysOf(defs.ChaosEvent)).toEqual(sorted(chaosEvent));
    expect(keysOf(defs.ChaosReport)).toEqual(sorted(chaos));
    expect(keysOf(defs.ChaosReport?.properties?.consistency?.oneOf?.[1])).toEqual(sorted(consistency));
  });
});
