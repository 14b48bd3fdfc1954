/**
 * `chainrpc load merge`: the summaries that k6 instances of one chainrpc scenario wrote (load/k6/K6Summary.ts,
 * one per --execution-segment or k6-operator pod) read, checked, and added up into one LoadRun of the load
 * harness (load/model.ts), so k6 runs get the same reports, thresholds and baseline comparison as the engine's.
 *
 * Counters add exactly. Histograms travel as counts per logarithmic bucket (K6Summary.ts); the merge adds the
 * counts bucket by bucket first, then records each bucket's geometric middle, 2^((i + 0.5) / 8) µs rounded,
 * `count` times into the harness's HDR histogram (load/metrics/Histogram.ts). A merged percentile is therefore
 * exact to the bucket resolution: it is the middle of the bucket that holds the true percentile, within 4.4%
 * of any value in that bucket (plus HDR's 0.1%), and it is the same whichever way the data was split across
 * instances, since only the summed counts reach the histogram.
 *
 * What k6 cannot say is said plainly in the run: no scheduled-time latency (k6's http_req_duration runs from
 * the write, so `latency` and `service` are the same histogram; docs/load.md explains), no schedule lag
 * (`lagUs` is empty), no result validation (`validated` and `invalid` are 0), no timeline (k6 summaries are
 * totals). Thresholds are judged again on the merged run, with the scenario definition's thresholds.
 */
import { readFileSync } from 'node:fs';
import { parseJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { Histogram } from '../metrics/Histogram.js';
import type { ArrivalModel, BatchSizeStats, HistogramData, LoadRun, MethodStats, RequestFailures } from '../model.js';
import { resolveScenario } from '../scenario/loadScenario.js';
import { ScenarioError } from '../scenario/ScenarioError.js';
import { evaluateThresholds, type Threshold } from '../scenario/Threshold.js';
import { K6_BUCKET_MAX, K6_BUCKET_MIN, K6_BUCKETS_PER_OCTAVE, K6_SUMMARY_FORMAT, K6_UNMEASURED_METRICS, type K6Buckets, type K6MethodCounts, type K6Summary } from './K6Summary.js';
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';

/** A summary that cannot be read or merged; the message says which file, which field and what is expected. */
export class K6SummaryError extends ChainrpcError {
  readonly kind = 'usage';
  override readonly name = 'K6SummaryError';
}

/**
 * Instances whose ends lie further apart than this (or than 10% of warm-up plus measured window, if longer)
 * did not run together: the node never took the whole scenario's rate, and the merged figures say otherwise.
 */
export const K6_MAX_END_SPREAD_MS = 5000;

/** The thresholds of a scenario that a k6 run cannot keep, because k6 does not measure their metric. */
export function k6UnmeasuredThresholds(thresholds: readonly Threshold[]): Threshold[] {
  return thresholds.filter((t) => K6_UNMEASURED_METRICS.has(t.metric));
}

/** The value a bucket stands for in the merged histogram: its geometric middle, in whole µs. */
export function k6BucketMiddleUs(index: number): number {
  return Math.round(2 ** ((index + 0.5) / K6_BUCKETS_PER_OCTAVE));
}

// ---------------------------------------------------------------------------------------------------------
// Reading and checking one summary

const show = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  if (typeof v === 'bigint') return v.toString();
  const text = JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** A field's path as a message names it: requests.latency["300"], methods["chain_getAccount"].calls. */
const child = (parent: string, key: string | number): string =>
  typeof key === 'number' ? `${parent}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? (parent === '' ? key : `${parent}.${key}`) : `${parent}[${JSON.stringify(key)}]`;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks fields of one file; every problem names the file and the field's path. */
class FieldReader {
  constructor(private readonly where: string) {}

  fail(path: string, expected: string, got: unknown): never {
    if (got === undefined) throw new K6SummaryError(`${this.where}: ${path} is missing (expected ${expected})`);
    throw new K6SummaryError(`${this.where}: ${path} must be ${expected}; got ${show(got)}`);
  }

  obj(v: unknown, path: string): Obj {
    return isObj(v) ? v : this.fail(path, 'an object', v);
  }

  str(v: unknown, path: string, nonEmpty = false): string {
    return typeof v === 'string' && (!nonEmpty || v !== '') ? v : this.fail(path, nonEmpty ? 'a non-empty string' : 'a string', v);
  }

  /** A non-negative whole number (a count). */
  count(v: unknown, path: string): number {
    return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : this.fail(path, 'a count (a whole number, 0 or more)', v);
  }

  /** A finite number, at least `min` (above it when `above`). */
  num(v: unknown, path: string, min: number, above = false): number {
    return typeof v === 'number' && Number.isFinite(v) && (above ? v > min : v >= min) ? v : this.fail(path, `a number ${above ? 'above' : 'of at least'} ${min}`, v);
  }

  counts(v: unknown, path: string, key?: { pattern: RegExp; expected: string }): Record<string, number> {
    const o = this.obj(v, path);
    const out: Record<string, number> = {};
    for (const [k, n] of Object.entries(o)) {
      if (key !== undefined && !key.pattern.test(k)) throw new K6SummaryError(`${this.where}: ${child(path, k)}: the key must be ${key.expected}`);
      out[k] = this.count(n, child(path, k));
    }
    return out;
  }

  buckets(v: unknown, path: string): K6Buckets {
    const o = this.obj(v, path);
    const out: K6Buckets = {};
    for (const [k, n] of Object.entries(o)) {
      const index = /^\d{1,4}$/.test(k) ? Number(k) : Number.NaN;
      if (!(index >= K6_BUCKET_MIN && index <= K6_BUCKET_MAX)) {
        throw new K6SummaryError(`${this.where}: ${child(path, k)}: a bucket index must be a whole number from ${K6_BUCKET_MIN} to ${K6_BUCKET_MAX} (log2 of µs x ${K6_BUCKETS_PER_OCTAVE})`);
      }
      out[k] = this.count(n, child(path, k));
    }
    return out;
  }

  model(v: unknown, path: string): ArrivalModel {
    const o = this.obj(v, path);
    if (o.kind === 'closed') {
      const connections = this.count(o.connections, child(path, 'connections'));
      if (connections === 0) this.fail(child(path, 'connections'), 'at least 1', connections);
      return { kind: 'closed', connections };
    }
    if (o.kind !== 'open') this.fail(child(path, 'kind'), '"open" or "closed"', o.kind);
    const distribution = o.distribution;
    if (distribution !== 'uniform' && distribution !== 'poisson') return this.fail(child(path, 'distribution'), '"uniform" or "poisson"', distribution);
    const stagesPath = child(path, 'stages');
    if (!Array.isArray(o.stages) || o.stages.length === 0) return this.fail(stagesPath, 'a non-empty array of stages', o.stages);
    const stages = o.stages.map((s: unknown, i) => {
      const at = child(stagesPath, i);
      const st = this.obj(s, at);
      return { from: this.num(st.from, child(at, 'from'), 0), to: this.num(st.to, child(at, 'to'), 0), durationMs: this.num(st.durationMs, child(at, 'durationMs'), 0, true) };
    });
    return { kind: 'open', distribution, stages };
  }
}

/** What the value looks like, for a message about a file that is not a summary. */
function describeJson(v: JsonValue): string {
  if (Array.isArray(v)) return `a JSON array of ${v.length} item${v.length === 1 ? '' : 's'}`;
  if (v === null) return 'JSON null';
  if (typeof v !== 'object') return `a JSON ${typeof v === 'bigint' ? 'number' : typeof v} (${show(v)})`;
  const keys = Object.keys(v);
  if (keys.length === 0) return 'an empty JSON object';
  const listed = keys.slice(0, 6).map((k) => JSON.stringify(k)).join(', ');
  return `a JSON object with the keys ${listed}${keys.length > 6 ? `, ... (${keys.length} in all)` : ''}${typeof v.format === 'string' ? ` and "format": ${show(v.format)}` : ''}`;
}

const EXPECTED = `a chainrpc k6 summary ("format": "${K6_SUMMARY_FORMAT}"), the file that the handleSummary of a script made by chainrpc load k6 writes at the end of each k6 instance`;

/** Reads and checks a summary file; throws K6SummaryError naming the file and, for a bad field, its path. */
export function readK6Summary(path: string): K6Summary {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new K6SummaryError(`${path}: cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch (error) {
    throw new K6SummaryError(`${path} is not JSON (${error instanceof Error ? error.message : String(error)}); expected ${EXPECTED}`);
  }
  return checkK6Summary(value, path);
}

/** Checks a parsed summary (`where` names it in messages) and returns it with only the fields of K6Summary. */
export function checkK6Summary(value: JsonValue, where: string): K6Summary {
  if (!isObj(value) || value.format !== K6_SUMMARY_FORMAT) {
    const format = isObj(value) ? value.format : undefined;
    const version = typeof format === 'string' ? /^chainrpc-k6-summary\/(\d+)$/.exec(format) : null;
    if (version !== null) {
      const newer = Number(version[1]) > 1;
      throw new K6SummaryError(`${where} is a chainrpc k6 summary of format ${format as string}, ${newer ? 'written by a newer chainrpc' : 'a version this chainrpc never wrote'}; this one reads ${K6_SUMMARY_FORMAT}${newer ? ' (merge with the chainrpc that made the script)' : ''}`);
    }
    if (isObj(value) && isObj(value.metrics) && (isObj(value.root_group) || isObj(value.state))) {
      throw new K6SummaryError(
        `${where} is k6's own end-of-test summary (its "metrics" and "root_group", as --summary-export writes them or handleSummary receives them), not a chainrpc k6 summary: ` +
          `its percentiles are final and cannot be added up across instances. Expected ${EXPECTED}.`,
      );
    }
    if (isObj(value) && value.format === 'chainrpc-load/1') throw new K6SummaryError(`${where} is a chainrpc load report (report.json, format chainrpc-load/1), not a k6 summary; expected ${EXPECTED}`);
    throw new K6SummaryError(`${where} is not a chainrpc k6 summary: it holds ${describeJson(value)}; expected ${EXPECTED}`);
  }
  const r = new FieldReader(where);
  const v = value;

  const tool = r.obj(v.tool, 'tool');
  if (tool.name !== 'chainrpc') r.fail('tool.name', '"chainrpc"', tool.name);
  const scenario = r.obj(v.scenario, 'scenario');
  if (scenario.definition === undefined) r.fail('scenario.definition', 'the scenario definition (a JSON object)', undefined);
  const segment = v.segment === null ? null : r.str(v.segment, 'segment', true);
  if (segment !== null) {
    const parsed = parseExecutionSegment(segment);
    if (typeof parsed === 'string') throw new K6SummaryError(`${where}: segment ${show(segment)} is not a k6 execution segment: ${parsed}`);
  }
  const endedAt = r.str(v.endedAt, 'endedAt');
  if (!/^\d{4}-\d\d-\d\dT/.test(endedAt) || Number.isNaN(Date.parse(endedAt))) r.fail('endedAt', 'an ISO 8601 instant ("2026-12-01T10:00:00.000Z")', endedAt);

  const schedule = r.obj(v.schedule, 'schedule');
  const requests = r.obj(v.requests, 'requests');
  const failures = r.obj(v.failures, 'failures');
  const methods = r.obj(v.methods, 'methods');
  const batchSizes = r.obj(v.batchSizes, 'batchSizes');
  const thresholds = r.obj(v.thresholds, 'thresholds');
  const failureCount = (k: string): number => r.count(failures[k], child('failures', k));

  const summary: K6Summary = {
    format: K6_SUMMARY_FORMAT,
    tool: { name: 'chainrpc', version: r.str(tool.version, 'tool.version') },
    scenario: { name: r.str(scenario.name, 'scenario.name', true), definition: scenario.definition },
    url: r.str(v.url, 'url', true),
    segment,
    endedAt,
    durationMs: r.num(v.durationMs, 'durationMs', 0, true),
    warmupMs: r.num(v.warmupMs, 'warmupMs', 0),
    model: r.model(v.model, 'model'),
    schedule: { started: r.count(schedule.started, 'schedule.started'), dropped: r.count(schedule.dropped, 'schedule.dropped') },
    requests: { count: r.count(requests.count, 'requests.count'), latency: r.buckets(requests.latency, 'requests.latency') },
    methods: Object.fromEntries(
      Object.entries(methods).map(([name, m]): [string, K6MethodCounts] => {
        const at = child('methods', name);
        const o = r.obj(m, at);
        return [
          name,
          {
            calls: r.count(o.calls, child(at, 'calls')),
            ok: r.count(o.ok, child(at, 'ok')),
            errors: r.counts(o.errors, child(at, 'errors'), { pattern: /^-?\d+$/, expected: 'a JSON-RPC error code ("-32602")' }),
            unanswered: r.count(o.unanswered, child(at, 'unanswered')),
            latency: r.buckets(o.latency, child(at, 'latency')),
          },
        ];
      }),
    ),
    batchSizes: Object.fromEntries(
      Object.entries(batchSizes).map(([size, b]) => {
        const at = child('batchSizes', size);
        if (!/^[1-9]\d{0,5}$/.test(size)) throw new K6SummaryError(`${where}: ${at}: a batch size must be a whole number from 1 ("1" for single calls)`);
        const o = r.obj(b, at);
        return [size, { requests: r.count(o.requests, child(at, 'requests')), latency: r.buckets(o.latency, child(at, 'latency')) }];
      }),
    ),
    failures: {
      timeouts: failureCount('timeouts'),
      transport: failureCount('transport'),
      httpStatus: r.counts(failures.httpStatus, 'failures.httpStatus', { pattern: /^\d{3}$/, expected: 'an HTTP status ("503")' }),
      malformed: failureCount('malformed'),
      extraElements: failureCount('extraElements'),
      missingElements: failureCount('missingElements'),
    },
    thresholds: Object.fromEntries(Object.entries(thresholds).map(([name, kept]) => [name, typeof kept === 'boolean' ? kept : r.fail(child('thresholds', name), 'true or false', kept)])),
  };
  if (v.profile !== undefined) {
    const p = r.obj(v.profile, 'profile');
    const wire = r.obj(p.wire, 'profile.wire');
    summary.profile = { name: r.str(p.name, 'profile.name', true), wire: Object.fromEntries(Object.entries(wire).map(([k, w]) => [k, r.str(w, child('profile.wire', k), true)])) };
  }
  return summary;
}

// ---------------------------------------------------------------------------------------------------------
// Execution segments, exactly (k6 reads them as big.Rat: fractions, decimals and whole percentages)

/** A non-negative rational, in lowest terms (d > 0). */
interface Rat {
  n: bigint;
  d: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};
const rat = (n: bigint, d: bigint): Rat => {
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
};
const sub = (a: Rat, b: Rat): Rat => rat(a.n * b.d - b.n * a.d, a.d * b.d);
const add = (a: Rat, b: Rat): Rat => rat(a.n * b.d + b.n * a.d, a.d * b.d);
const cmp = (a: Rat, b: Rat): number => {
  const x = a.n * b.d;
  const y = b.n * a.d;
  return x < y ? -1 : x > y ? 1 : 0;
};
const ZERO = rat(0n, 1n);
const ONE = rat(1n, 1n);
const showRat = (r: Rat): string => (r.d === 1n ? r.n.toString() : `${r.n}/${r.d}`);

function parseRat(text: string): Rat | undefined {
  let m = /^(\d+)%$/.exec(text);
  if (m) return rat(BigInt(m[1] ?? '0'), 100n);
  m = /^(\d+)\/(\d+)$/.exec(text);
  if (m) return m[2] === undefined || BigInt(m[2]) === 0n ? undefined : rat(BigInt(m[1] ?? '0'), BigInt(m[2]));
  m = /^(\d*)(?:\.(\d+))?$/.exec(text);
  if (m && text !== '' && text !== '.') {
    const frac = m[2] ?? '';
    return rat(BigInt(`${m[1] ?? ''}${frac}` || '0'), 10n ** BigInt(frac.length));
  }
  return undefined;
}

/** A k6 execution segment: (from, to] of the test, 0 <= from < to <= 1. */
export interface ExecutionSegment {
  from: Rat;
  to: Rat;
}

/**
 * Reads a k6 --execution-segment value as k6 does: "from:to" ("0:1/3", "1/3:2/3", "0:0.5", "50%:100%"), or a
 * single value meaning "0:value". Returns the segment, or what is wrong with the text.
 */
export function parseExecutionSegment(text: string): ExecutionSegment | string {
  const parts = text.split(':');
  if (parts.length > 2) return 'more than one ":" (write from:to, e.g. "1/3:2/3")';
  const [fromText, toText] = parts.length === 1 ? ['0', parts[0] ?? ''] : [parts[0] ?? '', parts[1] ?? ''];
  const from = parseRat(fromText.trim());
  const to = parseRat(toText.trim());
  if (from === undefined || to === undefined) return `"${from === undefined ? fromText : toText}" is not a fraction ("1/3"), a decimal ("0.5") or a whole percentage ("50%")`;
  if (cmp(to, ONE) > 0) return 'it ends beyond the whole test (1)';
  if (cmp(from, to) >= 0) return 'its start is not below its end';
  return { from, to };
}

const listed = (items: readonly string[]): string => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`);

/** Refuses whole runs mixed with others, a segment given twice, overlapping segments, and segments that leave a part of the test out. */
function checkSegments(summaries: readonly K6Summary[], name: (i: number) => string): void {
  const whole = summaries.map((s, i) => (s.segment === null ? i : -1)).filter((i) => i >= 0);
  if (whole.length > 0 && summaries.length > 1) {
    const [a = 0, b] = whole;
    if (b !== undefined) throw new K6SummaryError(`${name(a)} and ${name(b)} are both summaries of a whole run (no --execution-segment): the same test twice; give one`);
    throw new K6SummaryError(`${name(a)} is the summary of a whole run (no --execution-segment): it cannot be merged with segments (${listed(summaries.flatMap((s, i) => (i === a ? [] : [`${s.segment ?? ''} in ${name(i)}`])))})`);
  }
  if (whole.length > 0) return;
  const segments = summaries
    .map((s, i) => ({ i, text: s.segment ?? '', seg: parseExecutionSegment(s.segment ?? '') }))
    .map(({ i, text, seg }) => {
      if (typeof seg === 'string') throw new K6SummaryError(`${name(i)}: segment "${text}" is not a k6 execution segment: ${seg}`);
      return { i, text, ...seg };
    })
    .sort((a, b) => cmp(a.from, b.from) || cmp(a.to, b.to));
  let cursor = ZERO;
  let reach: (typeof segments)[number] | undefined;
  const gaps: string[] = [];
  let covered = ZERO;
  for (const s of segments) {
    if (reach !== undefined && cmp(s.from, cursor) < 0) {
      if (cmp(s.from, reach.from) === 0 && cmp(s.to, reach.to) === 0) {
        throw new K6SummaryError(`${name(reach.i)} and ${name(s.i)} hold the same segment, ${showRat(s.from)}:${showRat(s.to)}: one part of the test twice (give each instance's summary once)`);
      }
      throw new K6SummaryError(`segments ${reach.text} (${name(reach.i)}) and ${s.text} (${name(s.i)}) overlap: a part of the test would count twice`);
    }
    if (cmp(s.from, cursor) > 0) gaps.push(`${showRat(cursor)}:${showRat(s.from)}`);
    covered = add(covered, sub(s.to, s.from));
    cursor = s.to;
    reach = s;
  }
  if (cmp(cursor, ONE) < 0) gaps.push(`${showRat(cursor)}:1`);
  if (gaps.length > 0) {
    const texts = segments.map((s) => s.text);
    throw new K6SummaryError(`${texts.length === 1 ? 'segment' : 'segments'} ${listed(texts)} ${texts.length === 1 ? 'covers' : 'cover'} ${showRat(covered)} of the test; ${listed(gaps)} ${gaps.length === 1 ? 'is' : 'are'} missing`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Merging

/** The JSON pointer of the first place where two JSON values differ, or null when they are equal. */
function firstDifference(a: unknown, b: unknown, pointer = ''): string | null {
  if (a === b) return null;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return pointer || '/';
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(ao), ...Object.keys(bo)])];
  for (const k of keys) {
    const d = firstDifference(ao[k], bo[k], `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (d !== null) return d;
  }
  return null;
}

const baseUrl = (url: string): string => url.replace(/\/+$/, '');

/** Refuses summaries of different scenarios, definitions, nodes or profiles. */
function checkSameRun(summaries: readonly K6Summary[], name: (i: number) => string): void {
  const [first] = summaries as [K6Summary];
  summaries.forEach((s, i) => {
    if (i === 0) return;
    if (s.scenario.name !== first.scenario.name) throw new K6SummaryError(`the summaries are of different scenarios: ${first.scenario.name} (${name(0)}) and ${s.scenario.name} (${name(i)}); merge each scenario's summaries on their own`);
    if (baseUrl(s.url) !== baseUrl(first.url)) throw new K6SummaryError(`the summaries are of different nodes: ${first.url} (${name(0)}) and ${s.url} (${name(i)}); merge each node's summaries on their own`);
    const at = firstDifference(first.scenario.definition, s.scenario.definition);
    if (at !== null) throw new K6SummaryError(`${name(0)} and ${name(i)} ran scenario ${first.scenario.name} with different definitions (they differ at ${at}): they are not parts of one test`);
    const figures = (['durationMs', 'warmupMs', 'model'] as const).find((k) => firstDifference(first[k], s[k]) !== null);
    if (figures !== undefined) throw new K6SummaryError(`${name(0)} and ${name(i)} differ in ${figures}: they are not parts of one test`);
    if (firstDifference(first.profile, s.profile) !== null) throw new K6SummaryError(`${name(0)} and ${name(i)} were made with different profiles (${first.profile?.name ?? 'reference'}, ${s.profile?.name ?? 'reference'}): they are not parts of one test`);
  });
}

/** Bucket counts summed across summaries (exact integers). */
function addBuckets(parts: readonly K6Buckets[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const b of parts) for (const [k, n] of Object.entries(b)) out.set(Number(k), (out.get(Number(k)) ?? 0) + n);
  return out;
}

/** The harness's histogram of summed buckets: each bucket's geometric middle recorded with its count (exact to the bucket resolution). */
function histogramOf(buckets: Map<number, number>): HistogramData {
  const h = new Histogram();
  for (const [index, count] of [...buckets.entries()].sort((a, b) => a[0] - b[0])) if (count > 0) h.record(k6BucketMiddleUs(index), count);
  return h.toData();
}

const sumRecords = (records: readonly Record<string, number>[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const r of records) for (const [k, v] of Object.entries(r)) out[k] = (out[k] ?? 0) + v;
  return out;
};

/** The open model's mean rate over the measured window (the time-weighted mean of its stages), requests/s. */
function modelRate(model: ArrivalModel): number | null {
  if (model.kind === 'closed') return null;
  const ms = model.stages.reduce((n, s) => n + s.durationMs, 0);
  return ms === 0 ? 0 : model.stages.reduce((n, s) => n + ((s.from + s.to) / 2) * s.durationMs, 0) / ms;
}

/**
 * One LoadRun out of the summaries of one k6 test: every instance (execution segment) of it, or one whole run.
 * `sources` names the summaries in messages (their files); without it they are "summary 1", "summary 2", ...
 * Throws K6SummaryError when they are not the parts of one test.
 */
export function mergeK6Summaries(summaries: readonly K6Summary[], sources?: readonly string[]): LoadRun {
  const name = (i: number): string => sources?.[i] ?? `summary ${i + 1}`;
  const [first] = summaries;
  if (first === undefined) throw new K6SummaryError('no summary to merge');
  checkSameRun(summaries, name);
  checkSegments(summaries, name);

  let thresholds: Threshold[];
  try {
    const resolved = resolveScenario(first.scenario.definition as JsonValue, {}, `the scenario in ${name(0)}`);
    if (resolved.name !== first.scenario.name) throw new K6SummaryError(`${name(0)}: scenario.name is ${first.scenario.name} but its definition is named ${resolved.name}`);
    for (const k of ['durationMs', 'warmupMs', 'model'] as const) {
      if (firstDifference(resolved[k], first[k]) !== null) throw new K6SummaryError(`${name(0)}: ${k} is ${show(first[k])}, but the scenario definition it carries gives ${show(resolved[k])}`);
    }
    // What only the Node engine measures was never measured here: left out, not broken (chainrpc load k6 says so).
    thresholds = resolved.thresholds.filter((t) => !K6_UNMEASURED_METRICS.has(t.metric));
  } catch (error) {
    if (error instanceof ScenarioError) throw new K6SummaryError(`${error.message} (the definition a summary carries is the scenario as it ran)`);
    throw error;
  }

  const { durationMs, warmupMs, model } = first;
  const seconds = durationMs / 1000;
  const latency = histogramOf(addBuckets(summaries.map((s) => s.requests.latency)));
  const requests = summaries.reduce((n, s) => n + s.requests.count, 0);
  const started = summaries.reduce((n, s) => n + s.schedule.started, 0);
  const dropped = summaries.reduce((n, s) => n + s.schedule.dropped, 0);

  const methodNames = [...new Set(summaries.flatMap((s) => Object.keys(s.methods)))].sort();
  const methods: MethodStats[] = methodNames.map((method) => {
    const parts = summaries.flatMap((s) => (Object.hasOwn(s.methods, method) ? [s.methods[method] as K6MethodCounts] : []));
    const h = histogramOf(addBuckets(parts.map((m) => m.latency)));
    return {
      method,
      calls: parts.reduce((n, m) => n + m.calls, 0),
      ok: parts.reduce((n, m) => n + m.ok, 0),
      errors: sumRecords(parts.map((m) => m.errors)),
      unanswered: parts.reduce((n, m) => n + m.unanswered, 0),
      // k6 does not check results against the method's schema.
      validated: 0,
      invalid: 0,
      latency: h,
      service: { ...h },
    };
  });

  // k6's "1" is a single call (not a batch); the harness names it "single".
  const sizes = [...new Set(summaries.flatMap((s) => Object.keys(s.batchSizes)))].sort((a, b) => Number(a) - Number(b));
  const batchSizes: BatchSizeStats[] = sizes.map((size) => {
    const parts = summaries.flatMap((s) => (Object.hasOwn(s.batchSizes, size) ? [s.batchSizes[size] as K6Summary['batchSizes'][string]] : []));
    const h = histogramOf(addBuckets(parts.map((b) => b.latency)));
    return { size: size === '1' ? 'single' : size, requests: parts.reduce((n, b) => n + b.requests, 0), latency: h, service: { ...h } };
  });

  const failed = (k: Exclude<keyof RequestFailures, 'httpStatus'>): number => summaries.reduce((n, s) => n + s.failures[k], 0);
  const failures: RequestFailures = {
    timeouts: failed('timeouts'),
    transport: failed('transport'),
    httpStatus: sumRecords(summaries.map((s) => s.failures.httpStatus)),
    malformed: failed('malformed'),
    extraElements: failed('extraElements'),
    missingElements: failed('missingElements'),
  };

  const ends = summaries.map((s) => Date.parse(s.endedAt));
  const lastEnd = Math.max(...ends);
  const spreadMs = lastEnd - Math.min(...ends);
  const allowedSpreadMs = Math.max(K6_MAX_END_SPREAD_MS, (warmupMs + durationMs) / 10);
  const invalid: string[] = [];
  if (spreadMs > allowedSpreadMs) {
    invalid.push(
      `the k6 instances did not run together: their ends lie ${(spreadMs / 1000).toFixed(1)} s apart (more than ${(allowedSpreadMs / 1000).toFixed(1)} s), so the node never took the whole scenario's load at once; start every instance together (the k6-operator does)`,
    );
  }

  const run: LoadRun = {
    url: baseUrl(first.url),
    scenario: first.scenario.name,
    model,
    startedAt: new Date(lastEnd - durationMs - warmupMs).toISOString(),
    endedAt: new Date(lastEnd).toISOString(),
    warmupMs,
    durationMs,
    valid: invalid.length === 0,
    invalid,
    schedule: {
      // Open model: the rate the scenario's stages ask for over the measured window; the closed model has none.
      targetRate: modelRate(model),
      // As runEngine defines it: exchanges that ended (answered or failed, any outcome) per second of the
      // measured window. k6 counts a request (http_reqs) when its exchange ends, so that is requests.count.
      achievedRate: seconds > 0 ? requests / seconds : 0,
      scheduled: started + dropped,
      sent: requests,
      dropped,
      // k6 queues nothing: an iteration with no free VU is dropped.
      queuedMax: 0,
      // k6 does not expose how late it started each iteration.
      lagUs: new Histogram().toData(),
    },
    failures,
    latency,
    // k6 times a request from its write (http_req_duration), not from a scheduled time: the one histogram
    // stands for both (docs/load.md, k6 runs).
    service: { ...latency },
    methods,
    batchSizes,
    // k6 summaries are totals: no timeline.
    timeline: [],
    thresholds: [],
    stop: { reason: 'completed', atMs: durationMs },
  };
  const wire = first.profile?.wire ?? {};
  run.thresholds = evaluateThresholds(run, thresholds, (m) => wire[m] ?? m);
  return run;
}
