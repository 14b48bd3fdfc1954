/**
 * Reading a k6 summary file (K6Summary.ts, `chainrpc-k6-summary/2`, and format 1 as written before 2026-11-29) back: the JSON is checked field by field
 * into a K6Summary, and anything else (k6's own end-of-test summary, a chainrpc load report, another format
 * version, a missing or ill-typed field) is refused with a K6SummaryError naming the file and the field's path.
 */
import { readFileSync } from 'node:fs';
import { parseJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import type { ArrivalModel, LeftOutReason, ReplayReport } from '../model.js';
import { parseExecutionSegment } from './executionSegments.js';
import { K6_SUMMARY_FORMAT, K6_SUMMARY_FORMAT_V1, k6BucketsOf, type K6BucketLayout, type K6Buckets, type K6Exact, type K6MethodCounts, type K6RunFacts, type K6Summary, type K6SummaryFormat } from './K6Summary.js';
import { K6SummaryError, show } from './K6SummaryError.js';

/** A field's path as a message names it: requests.latency["300"], methods["chain_getAccount"].calls. */
const child = (parent: string, key: string | number): string =>
  typeof key === 'number' ? `${parent}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? (parent === '' ? key : `${parent}.${key}`) : `${parent}[${JSON.stringify(key)}]`;

type Obj = Record<string, unknown>;
const isInstant = (t: string): boolean => /^\d{4}-\d\d-\d\dT/.test(t) && !Number.isNaN(Date.parse(t));
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why an "other" key is refused: what wrote it, and what to do. */
const LUMPED =
  '; "other" was written by a chainrpc k6 runtime from before 2026-11-28, which lumped together the codes and statuses its data.json did not list, so which they were is lost: make the test again with `chainrpc load k6` (its runtime counts every code and status) and run it again';

/** Checks fields of one file; every problem names the file and the field's path. */
class FieldReader {
  constructor(
    private readonly where: string,
    private readonly layout: K6BucketLayout,
  ) {}

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
      if (key !== undefined && !key.pattern.test(k)) throw new K6SummaryError(`${this.where}: ${child(path, k)}: the key must be ${key.expected}${k === 'other' ? LUMPED : ''}`);
      out[k] = this.count(n, child(path, k));
    }
    return out;
  }

  buckets(v: unknown, path: string): K6Buckets {
    const o = this.obj(v, path);
    const out: K6Buckets = {};
    for (const [k, n] of Object.entries(o)) {
      const index = /^\d{1,4}$/.test(k) ? Number(k) : Number.NaN;
      const { min, max, perOctave } = this.layout;
      if (!(index >= min && index <= max)) {
        throw new K6SummaryError(`${this.where}: ${child(path, k)}: a bucket index must be a whole number from ${min} to ${max} (log2 of µs x ${perOctave})`);
      }
      out[k] = this.count(n, child(path, k));
    }
    return out;
  }

  /** A histogram's exact figures (K6Exact), or undefined when absent. */
  exact(v: unknown, path: string): K6Exact | undefined {
    if (v === undefined) return undefined;
    const o = this.obj(v, path);
    const exact = { sumUs: this.num(o.sumUs, child(path, 'sumUs'), 0), minUs: this.num(o.minUs, child(path, 'minUs'), 0), maxUs: this.num(o.maxUs, child(path, 'maxUs'), 0) };
    if (exact.minUs > exact.maxUs) this.fail(child(path, 'minUs'), `at most maxUs (${exact.maxUs})`, exact.minUs);
    return exact;
  }

  /** The report's replay section a replay's test carries (load/model.ts ReplayReport). */
  replay(v: unknown, path: string): ReplayReport {
    const o = this.obj(v, path);
    const pace = this.obj(o.pace, child(path, 'pace'));
    const at = (k: string): string => child(path, k);
    if (typeof o.loop !== 'boolean') this.fail(at('loop'), 'true or false', o.loop);
    if (!Array.isArray(o.leftOut)) this.fail(at('leftOut'), 'an array', o.leftOut);
    if (!Array.isArray(o.transformations)) this.fail(at('transformations'), 'an array of strings', o.transformations);
    return {
      capture: this.str(o.capture, at('capture'), true),
      exchanges: this.count(o.exchanges, at('exchanges')),
      replayed: this.count(o.replayed, at('replayed')),
      pace: pace.speed !== undefined ? { speed: this.num(pace.speed, child(at('pace'), 'speed'), 0, true) } : { rate: this.num(pace.rate, child(at('pace'), 'rate'), 0, true) },
      loop: o.loop === true,
      spanMs: this.num(o.spanMs, at('spanMs'), 0),
      rate: this.num(o.rate, at('rate'), 0),
      leftOut: (o.leftOut as unknown[]).map((l, i) => {
        const e = this.obj(l, child(at('leftOut'), i));
        const reason = this.str(e.reason, child(child(at('leftOut'), i), 'reason'), true);
        if (!LEFT_OUT_REASONS.includes(reason as LeftOutReason)) this.fail(child(child(at('leftOut'), i), 'reason'), LEFT_OUT_REASONS.map((x) => `"${x}"`).join(', '), reason);
        return { reason: reason as LeftOutReason, count: this.count(e.count, child(child(at('leftOut'), i), 'count')) };
      }),
      transformations: (o.transformations as unknown[]).map((t, i) => this.str(t, child(at('transformations'), i), true)),
    };
  }

  /** What k6 ran (K6RunFacts). */
  runFacts(v: unknown, path: string): K6RunFacts {
    const o = this.obj(v, path);
    const at = (k: string): string => child(path, k);
    if (typeof o.windowDrops !== 'boolean') this.fail(at('windowDrops'), 'true or false', o.windowDrops);
    const started = o.windowStartedAt === null ? null : this.str(o.windowStartedAt, at('windowStartedAt'));
    if (started !== null && !isInstant(started)) this.fail(at('windowStartedAt'), 'an ISO 8601 instant, or null', started);
    return {
      testRunDurationMs: o.testRunDurationMs === null ? null : this.num(o.testRunDurationMs, at('testRunDurationMs'), 0),
      planned: o.planned ?? null,
      ran: o.ran ?? null,
      windowStartedAt: started,
      droppedInTest: this.count(o.droppedInTest, at('droppedInTest')),
      windowDrops: o.windowDrops === true,
      ...(o.rps === undefined ? {} : { rps: o.rps === null ? null : this.num(o.rps, at('rps'), 0) }),
    };
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
    if (distribution !== 'uniform' && distribution !== 'poisson' && distribution !== 'recorded') return this.fail(child(path, 'distribution'), '"uniform", "poisson" or "recorded"', distribution);
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

/** Why a replay leaves an exchange out (load/model.ts LeftOutReason), every one. */
const LEFT_OUT: Record<LeftOutReason, true> = { 'not a JSON-RPC POST': true, 'not JSON-RPC': true, 'notifications only': true, 'ids the engine cannot match': true, 'methods not chosen': true, 'signed for another chain': true, 'chain not known': true, 'cut short': true };
const LEFT_OUT_REASONS = Object.keys(LEFT_OUT) as LeftOutReason[];

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
  if (!isObj(value) || (value.format !== K6_SUMMARY_FORMAT && value.format !== K6_SUMMARY_FORMAT_V1)) {
    const format = isObj(value) ? value.format : undefined;
    const version = typeof format === 'string' ? /^chainrpc-k6-summary\/(\d+)$/.exec(format) : null;
    if (version !== null) {
      const newer = Number(version[1]) > 2;
      throw new K6SummaryError(`${where} is a chainrpc k6 summary of format ${format as string}, ${newer ? 'written by a newer chainrpc' : 'a version this chainrpc never wrote'}; this one reads ${K6_SUMMARY_FORMAT} and ${K6_SUMMARY_FORMAT_V1}${newer ? ' (merge with the chainrpc that made the script)' : ''}`);
    }
    if (isObj(value) && isObj(value.metrics) && (isObj(value.root_group) || isObj(value.state))) {
      throw new K6SummaryError(
        `${where} is k6's own end-of-test summary (its "metrics" and "root_group", as --summary-export writes them or handleSummary receives them), not a chainrpc k6 summary: ` +
          `its percentiles are final and cannot be added up across instances. Expected ${EXPECTED}.`,
      );
    }
    if (isObj(value) && typeof value.format === 'string' && value.format.startsWith('chainrpc-load/')) throw new K6SummaryError(`${where} is a chainrpc load report (report.json, format ${value.format}), not a k6 summary; expected ${EXPECTED}`);
    throw new K6SummaryError(`${where} is not a chainrpc k6 summary: it holds ${describeJson(value)}; expected ${EXPECTED}`);
  }
  const v = value;
  const format = v.format as K6SummaryFormat;
  const r = new FieldReader(where, k6BucketsOf(format));

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
  if (!isInstant(endedAt)) r.fail('endedAt', 'an ISO 8601 instant ("2026-12-01T10:00:00.000Z")', endedAt);

  const schedule = r.obj(v.schedule, 'schedule');
  const requests = r.obj(v.requests, 'requests');
  const failures = r.obj(v.failures, 'failures');
  const methods = r.obj(v.methods, 'methods');
  const batchSizes = r.obj(v.batchSizes, 'batchSizes');
  const thresholds = r.obj(v.thresholds, 'thresholds');
  const failureCount = (k: string): number => r.count(failures[k], child('failures', k));

  const summary: K6Summary = {
    format,
    tool: { name: 'chainrpc', version: r.str(tool.version, 'tool.version') },
    scenario: { name: r.str(scenario.name, 'scenario.name', true), definition: scenario.definition },
    url: r.str(v.url, 'url', true),
    segment,
    endedAt,
    durationMs: r.num(v.durationMs, 'durationMs', 0, true),
    warmupMs: r.num(v.warmupMs, 'warmupMs', 0),
    model: r.model(v.model, 'model'),
    schedule: {
      started: r.count(schedule.started, 'schedule.started'),
      dropped: r.count(schedule.dropped, 'schedule.dropped'),
      ...optionalCounts(r, schedule, 'schedule', ['sent', 'noLane', 'laneSpent']),
    },
    requests: {
      count: r.count(requests.count, 'requests.count'),
      ...optionalCounts(r, requests, 'requests', ['served', 'servedBefore']),
      latency: r.buckets(requests.latency, 'requests.latency'),
      ...withExact(r.exact(requests.latencyExact, 'requests.latencyExact')),
    },
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
            ...withExact(r.exact(o.latencyExact, child(at, 'latencyExact'))),
          },
        ];
      }),
    ),
    batchSizes: Object.fromEntries(
      Object.entries(batchSizes).map(([size, b]) => {
        const at = child('batchSizes', size);
        if (!/^[1-9]\d{0,5}$/.test(size)) throw new K6SummaryError(`${where}: ${at}: a batch size must be a whole number from 1 ("1" for single calls)`);
        const o = r.obj(b, at);
        return [size, { requests: r.count(o.requests, child(at, 'requests')), latency: r.buckets(o.latency, child(at, 'latency')), ...withExact(r.exact(o.latencyExact, child(at, 'latencyExact'))) }];
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
  if (v.replay !== undefined) summary.replay = r.replay(v.replay, 'replay');
  if (v.k6 !== undefined) summary.k6 = r.runFacts(v.k6, 'k6');
  checkConsistent(summary, where);
  return summary;
}

/** The optional counts `keys` of `o` (at `path`) that are present, checked. */
function optionalCounts(r: FieldReader, o: Obj, path: string, keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = r.count(o[k], child(path, k));
  return out;
}

const withExact = (exact: K6Exact | undefined): { latencyExact?: K6Exact } => (exact === undefined ? {} : { latencyExact: exact });

/**
 * Counts that the script writes from the same requests must agree: a summary whose counts contradict each other was
 * not written so (an outside tester's hand-edited ones merged with a failed-call share of -9.998% and an achieved
 * rate of 167% of the target).
 */
function checkConsistent(s: K6Summary, where: string): void {
  const sum = (b: Readonly<Record<string, number>>): number => Object.values(b).reduce((n, c) => n + c, 0);
  const contradicts = (what: string): never => {
    throw new K6SummaryError(`${where}: ${what}: the summary contradicts itself (not as chainrpc's k6 script writes one)`);
  };
  const inBuckets = sum(s.requests.latency);
  if (inBuckets !== s.requests.count) contradicts(`requests.latency holds ${inBuckets} requests, requests.count says ${s.requests.count}`);
  if (s.requests.served !== undefined && s.requests.served > s.requests.count) contradicts(`requests.served (${s.requests.served}) is more than requests.count (${s.requests.count})`);
  for (const [name, m] of Object.entries(s.methods)) {
    const ended = m.ok + sum(m.errors) + m.unanswered;
    if (ended > m.calls) contradicts(`methods.${name}: ok, errors and unanswered add up to ${ended}, more than its ${m.calls} calls`);
  }
}
