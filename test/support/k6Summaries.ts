/**
 * Synthetic k6 summaries (load/k6/K6Summary.ts) for the merge's tests, built from known requests the way the
 * script made by `chainrpc load k6` accounts them: each request's latency goes into the bucket
 * floor(log2(µs) x 8), for the whole run, its batch size and each method it carried (once per call).
 *
 * A request's shape and outcome follow from its id alone, so the same requests split into segments or kept
 * in one whole-run summary give the same totals: request id % 3 is 0 for a single chain_blockNumber, 1 for a
 * single chain_getAccount, 2 for a batch of 5 chain_blockNumber; every 50th request is answered with a
 * JSON-RPC error -32005 on its first call; every 97th timed out (all its calls unanswered).
 */
import { expect } from 'vitest';
import { K6_BUCKET_MAX, K6_BUCKET_MIN, K6_BUCKETS_PER_OCTAVE, K6_SUMMARY_FORMAT, type K6Buckets, type K6MethodCounts, type K6Summary } from '../../load/k6/K6Summary.js';
import { K6SummaryError } from '../../load/k6/K6SummaryError.js';
import { resolveScenario } from '../../load/scenario/loadScenario.js';

/** A small open-model scenario: 300 requests/s for 10 s after a 1 s warm-up (3000 requests), singles and batches, four thresholds. */
export const K6_TEST_DEFINITION = {
  name: 'k6-reads',
  arrivals: { model: 'open', rate: 300, distribution: 'uniform' },
  duration: '10s',
  warmup: '1s',
  mix: [
    { method: 'chain_blockNumber', weight: 1 },
    { method: 'chain_getAccount', weight: 1 },
    { batch: { size: 5, mix: [{ method: 'chain_blockNumber' }] }, weight: 1 },
  ],
  thresholds: ['p99 < 250ms', 'errors < 5%', 'achieved >= 99%', 'dropped == 0'],
};

export interface TestRequest {
  id: number;
  latencyUs: number;
}

/** The bucket a latency counts in (K6Summary.ts). */
export function k6BucketOf(us: number): number {
  const i = Math.floor(Math.log2(Math.max(us, 1)) * K6_BUCKETS_PER_OCTAVE);
  return Math.min(K6_BUCKET_MAX, Math.max(K6_BUCKET_MIN, i));
}

function count(into: K6Buckets, us: number, n = 1): void {
  const key = String(k6BucketOf(us));
  into[key] = (into[key] ?? 0) + n;
}

/** Requests 0..n-1 with latencies from a seeded log-normal draw around 2 ms, and a slow tail (every 40th about 10x slower). */
export function testRequests(n: number, seed = 7): TestRequest[] {
  let state = seed >>> 0;
  const next = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 0.5) / 2 ** 32;
  };
  return Array.from({ length: n }, (_, id) => {
    const gauss = Math.sqrt(-2 * Math.log(next())) * Math.cos(2 * Math.PI * next());
    const base = 2000 * Math.exp(0.5 * gauss);
    return { id, latencyUs: Math.round(id % 40 === 39 ? base * 10 : base) };
  });
}

export interface TestSummaryOptions {
  segment: string | null;
  requests: readonly TestRequest[];
  dropped?: number;
  endedAt?: string;
  definition?: unknown;
  url?: string;
  profile?: K6Summary['profile'];
}

/** The summary a k6 instance that sent `requests` would write. */
export function testK6Summary(o: TestSummaryOptions): K6Summary {
  const definition = o.definition ?? K6_TEST_DEFINITION;
  const resolved = resolveScenario(definition as never);
  const latency: K6Buckets = {};
  const methods: Record<string, K6MethodCounts> = {};
  const batchSizes: K6Summary['batchSizes'] = {};
  const failures: K6Summary['failures'] = { timeouts: 0, transport: 0, httpStatus: {}, malformed: 0, extraElements: 0, missingElements: 0 };
  const wire = (m: string): string => o.profile?.wire[m] ?? m;
  for (const r of o.requests) {
    count(latency, r.latencyUs);
    const kind = r.id % 3;
    const method = wire(kind === 1 ? 'chain_getAccount' : 'chain_blockNumber');
    const calls = kind === 2 ? 5 : 1;
    const size = String(calls);
    const b = (batchSizes[size] ??= { requests: 0, latency: {} });
    b.requests++;
    count(b.latency, r.latencyUs);
    const m = (methods[method] ??= { calls: 0, ok: 0, errors: {}, unanswered: 0, latency: {} });
    m.calls += calls;
    count(m.latency, r.latencyUs, calls);
    if (r.id % 97 === 96) {
      failures.timeouts++;
      m.unanswered += calls;
    } else if (r.id % 50 === 49) {
      m.errors['-32005'] = (m.errors['-32005'] ?? 0) + 1;
      m.ok += calls - 1;
    } else m.ok += calls;
  }
  return {
    format: K6_SUMMARY_FORMAT,
    tool: { name: 'chainrpc', version: '0.1.0' },
    scenario: { name: resolved.name, definition },
    url: o.url ?? 'http://127.0.0.1:8545',
    segment: o.segment,
    endedAt: o.endedAt ?? '2026-12-01T10:00:11.000Z',
    durationMs: resolved.durationMs,
    warmupMs: resolved.warmupMs,
    model: resolved.model,
    schedule: { started: o.requests.length, dropped: o.dropped ?? 0 },
    requests: { count: o.requests.length, latency },
    methods,
    batchSizes,
    failures,
    thresholds: { 'p99 < 250ms': true },
    ...(o.profile === undefined ? {} : { profile: o.profile }),
  };
}

/** `requests` cut into `n` equal execution segments of the test ("0:1/3", "1/3:2/3", "2/3:1"), each a run of consecutive ones. */
export function splitIntoSegments(requests: readonly TestRequest[], n: number): { segment: string; requests: TestRequest[] }[] {
  const edge = (i: number): string => (i === 0 ? '0' : i === n ? '1' : `${i}/${n}`);
  const cut = (i: number): number => Math.round((i * requests.length) / n);
  return Array.from({ length: n }, (_, i) => ({ segment: `${edge(i)}:${edge(i + 1)}`, requests: requests.slice(cut(i), cut(i + 1)) }));
}

/** The K6SummaryError that `f` throws (it must throw one, under that name). */
export function k6SummaryErrorOf(f: () => unknown): K6SummaryError {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(K6SummaryError);
    expect((error as Error).name).toBe('K6SummaryError');
    return error as K6SummaryError;
  }
  throw new Error('expected a K6SummaryError');
}
