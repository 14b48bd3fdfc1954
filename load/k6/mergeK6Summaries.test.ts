import { describe, expect, it } from 'vitest';
import { Histogram } from '../metrics/Histogram.js';
import { K6_TEST_DEFINITION, k6BucketOf, k6SummaryErrorOf as errorOf, splitIntoSegments, testK6Summary, testRequests, type TestRequest } from '../../test/support/k6Summaries.js';
import { K6_SUMMARY_FORMAT_V1, type K6Exact, type K6RunFacts, type K6Summary } from './K6Summary.js';
import { k6BucketMiddleUs, mergeK6, mergeK6Summaries } from './mergeK6Summaries.js';

const requests = testRequests(3000);
const thirds = splitIntoSegments(requests, 3).map((p) => testK6Summary(p));
const whole = testK6Summary({ segment: null, requests });

describe('mergeK6Summaries: the figures', () => {
  const run = mergeK6Summaries(thirds);

  it('adds every count of the segments exactly', () => {
    const sum = (f: (s: K6Summary) => number): number => thirds.reduce((n, s) => n + f(s), 0);
    expect(thirds.map((s) => s.requests.count)).toEqual([1000, 1000, 1000]);
    expect(run.schedule).toMatchObject({ scheduled: 3000, sent: 3000, dropped: 0, queuedMax: 0 });
    expect(run.latency.count).toBe(3000);
    expect(run.failures).toEqual({ timeouts: sum((s) => s.failures.timeouts), transport: 0, httpStatus: {}, malformed: 0, extraElements: 0, missingElements: 0 });
    // Known by construction: every 97th request timed out, every 50th (not timed out) had one error.
    expect(run.failures.timeouts).toBe(30);
    const byName = Object.fromEntries(run.methods.map((m) => [m.method, m]));
    expect(Object.keys(byName)).toEqual(['chain_blockNumber', 'chain_getAccount']);
    for (const name of ['chain_blockNumber', 'chain_getAccount']) {
      const m = byName[name];
      expect(m).toMatchObject({
        calls: sum((s) => s.methods[name]?.calls ?? 0),
        ok: sum((s) => s.methods[name]?.ok ?? 0),
        unanswered: sum((s) => s.methods[name]?.unanswered ?? 0),
        errors: { '-32005': sum((s) => s.methods[name]?.errors['-32005'] ?? 0) },
        validated: 0,
        invalid: 0,
      });
      expect(m?.latency.count).toBe(m?.calls);
    }
    // 1000 singles of each method and 1000 batches of 5.
    expect(byName.chain_blockNumber?.calls).toBe(1000 + 5000);
    expect(byName.chain_getAccount?.calls).toBe(1000);
    expect(run.batchSizes.map((b) => [b.size, b.requests, b.latency.count])).toEqual([['single', 2000, 2000], ['5', 1000, 1000]]);
  });

  it('gives the same figures as one summary of the combined data, whichever way it was split', () => {
    const one = mergeK6Summaries([whole]);
    expect(run.latency).toEqual(one.latency);
    expect(run.service).toEqual(one.service);
    expect(run.methods).toEqual(one.methods);
    expect(run.batchSizes).toEqual(one.batchSizes);
    expect(run.failures).toEqual(one.failures);
    expect(run.schedule).toEqual(one.schedule);
    expect(run.thresholds).toEqual(one.thresholds);
    // Quarters, and uneven pieces, give the same again.
    const quarters = splitIntoSegments(requests, 4).map((p) => testK6Summary(p));
    expect(mergeK6Summaries(quarters).latency).toEqual(one.latency);
    const uneven = [
      testK6Summary({ segment: '0:0.1', requests: requests.slice(0, 100) }),
      testK6Summary({ segment: '0.1:75%', requests: requests.slice(100, 2900) }),
      testK6Summary({ segment: '3/4:1', requests: requests.slice(2900) }),
    ];
    expect(mergeK6Summaries(uneven).latency).toEqual(one.latency);
  });

  it('is exact to the bucket: each bucket stands for its geometric middle, within 0.5% of the true value', () => {
    // The merged histogram is the bucket middles recorded with their counts.
    const direct = new Histogram();
    for (const r of requests) direct.record(k6BucketMiddleUs(k6BucketOf(r.latencyUs)));
    expect(run.latency).toEqual(direct.toData());
    const sorted = requests.map((r) => r.latencyUs).sort((a, b) => a - b);
    const truth = (p: number): number => sorted[Math.ceil((p / 100) * sorted.length) - 1] ?? 0;
    for (const [p, value] of [[50, run.latency.p50], [90, run.latency.p90], [99, run.latency.p99]] as const) {
      expect(Math.abs(value - truth(p)) / truth(p)).toBeLessThan(0.005 + 0.001);
    }
    // A value of 1000 µs counts in bucket 697 ([2^(697/70), 2^(698/70)) = [994.0, 1003.9) µs), whose middle is 999 µs.
    expect(k6BucketOf(1000)).toBe(697);
    expect(k6BucketMiddleUs(697)).toBe(999);
    // Without exact figures (a summary that does not carry them), min, max and percentiles are the middle.
    const flat = mergeK6Summaries([testK6Summary({ segment: null, requests: [{ id: 0, latencyUs: 1000 }, { id: 3, latencyUs: 1002 }] })]);
    expect(flat.latency).toMatchObject({ count: 2, min: 999, p50: 999, p99: 999, max: 999 });
  });

  it('fills the run as the harness defines it, with what k6 cannot say left empty', () => {
    expect(run).toMatchObject({
      url: 'http://127.0.0.1:8545',
      scenario: 'k6-reads',
      model: { kind: 'open', distribution: 'uniform', stages: [{ from: 300, to: 300, durationMs: 10_000 }] },
      // The latest end, less the measured window and the warm-up.
      startedAt: '2026-12-01T10:00:00.000Z',
      endedAt: '2026-12-01T10:00:11.000Z',
      warmupMs: 1000,
      durationMs: 10_000,
      valid: true,
      invalid: [],
      timeline: [],
      stop: { reason: 'completed', atMs: 10_000 },
    });
    expect(run.schedule.targetRate).toBe(300);
    // Requests served (answered as JSON-RPC, a result or an error) per second of the measured window: the 30
    // timeouts were not served (counted before, an achieved rate of 300/s).
    expect(run.schedule.achievedRate).toBe(297);
    expect(run.schedule.lagUs.count).toBe(0);
    expect(run.inclusion).toBeUndefined();
  });

  it('counts toward the achieved rate the warm-up\'s requests the node served inside the window, as the Node engine does', () => {
    // A node answering in 200 ms at 50/s over 10 s: the window's last 10 answers come after its end, and the warm-up's
    // last 10 inside it. Without them an outside tester's run got 98.0%, FAILED achieved >= 99%, where the engine said 100%.
    const served = thirds.map((s) => ({ ...s, requests: { ...s.requests, served: 990, servedBefore: 10 } }));
    expect(mergeK6Summaries(served).schedule.achievedRate).toBe(300);
    expect(mergeK6Summaries(served).thresholds.find((t) => t.name === 'achieved >= 99%')?.ok).toBe(true);
  });

  it('takes the achieved rate from the requests the runtime counted served, when every summary counts them', () => {
    // A JSON answer that answers none of its calls (another id, an empty batch) is not served, as in the Node
    // engine; a batch answer holding one non-response element beside answers is served though malformed.
    const served = thirds.map((s, i) => ({ ...s, requests: { ...s.requests, served: 900 + i } }));
    expect(mergeK6Summaries(served).schedule.achievedRate).toBe((900 + 901 + 902) / 10);
    // One summary from before served was counted: ended less whole failures, for every part.
    expect(mergeK6Summaries([...served.slice(0, 2), thirds[2] as K6Summary]).schedule.achievedRate).toBe(297);
  });

  it('judges the definition\'s thresholds on the merged run', () => {
    // 3000 requests in 10 s at a target of 300/s, 2970 served: achieved 99%; under 2% of the calls failed.
    expect(run.thresholds.map((t) => [t.name, t.ok])).toEqual([
      ['p99 < 250ms', true],
      ['errors < 5%', true],
      ['achieved >= 99%', true],
      ['dropped == 0', true],
    ]);
    const strict = { ...K6_TEST_DEFINITION, thresholds: ['p99 < 1ms', 'dropped == 0', 'chain_getAccount:p50 < 100ms'] };
    const parts = splitIntoSegments(requests, 2).map((p, i) => testK6Summary({ ...p, definition: strict, dropped: i }));
    const judged = mergeK6Summaries(parts).thresholds;
    expect(judged.map((t) => [t.name, t.actual, t.ok])).toEqual([
      ['p99 < 1ms', expect.any(Number), false],
      ['dropped == 0', 1, false],
      ['chain_getAccount:p50 < 100ms', expect.any(Number), true],
    ]);
  });

  it('finds a method-scoped threshold\'s method under the profile\'s wire name', () => {
    const definition = { ...K6_TEST_DEFINITION, thresholds: ['chain_getAccount:p50 < 100ms'] };
    const profile = { name: 'acme', wire: { chain_blockNumber: 'acme_blockNumber', chain_getAccount: 'acme_account' } };
    const merged = mergeK6Summaries([testK6Summary({ segment: null, requests, definition, profile })]);
    expect(merged.methods.map((m) => m.method)).toEqual(['acme_account', 'acme_blockNumber']);
    expect(merged.thresholds[0]).toMatchObject({ metric: 'chain_getAccount:p50', ok: true });
    expect(merged.thresholds[0]?.actual).not.toBeNull();
  });

  it('a closed model has no target rate', () => {
    const closed = { ...K6_TEST_DEFINITION, arrivals: { model: 'closed', connections: 4 }, thresholds: ['p99 < 250ms'] };
    const merged = mergeK6Summaries([testK6Summary({ segment: null, requests, definition: closed })]);
    expect(merged.schedule.targetRate).toBeNull();
    expect(merged.model).toEqual({ kind: 'closed', connections: 4 });
  });

  it('marks the figures untrusted when the instances did not run together', () => {
    const parts = splitIntoSegments(requests, 2).map((p, i) => testK6Summary({ ...p, endedAt: i === 0 ? '2026-12-01T10:00:11.000Z' : '2026-12-01T10:01:00.000Z' }));
    const merged = mergeK6Summaries(parts);
    expect(merged.valid).toBe(false);
    expect(merged.invalid).toEqual([expect.stringContaining('the k6 instances did not run together: their ends lie 49.0 s apart (more than 5.0 s)')]);
    expect(merged.endedAt).toBe('2026-12-01T10:01:00.000Z');
    // A second apart is clock skew, not a separate run.
    const close = splitIntoSegments(requests, 2).map((p, i) => testK6Summary({ ...p, endedAt: i === 0 ? '2026-12-01T10:00:11.000Z' : '2026-12-01T10:00:12.000Z' }));
    expect(mergeK6Summaries(close).valid).toBe(true);
  });
});

/**
 * A summary of `requests` as the runtime writes it since 2026-11-29: each histogram with its exact sum, min and max
 * beside its buckets (per method once per call, as testK6Summary counts its buckets).
 */
function withExact(s: K6Summary, requests: readonly TestRequest[]): K6Summary {
  const exactOf = (values: readonly number[]): K6Exact => ({ sumUs: values.reduce((n, v) => n + v, 0), minUs: Math.min(...values), maxUs: Math.max(...values) });
  const all = requests.map((r) => r.latencyUs);
  const ofKind = (kinds: number[]): number[] => requests.filter((r) => kinds.includes(r.id % 3)).map((r) => r.latencyUs);
  const perCall = requests.flatMap((r) => (r.id % 3 === 1 ? [] : Array.from({ length: r.id % 3 === 2 ? 5 : 1 }, () => r.latencyUs)));
  const methods = Object.fromEntries(Object.entries(s.methods).map(([name, m]) => [name, { ...m, latencyExact: exactOf(name === 'chain_getAccount' ? ofKind([1]) : perCall) }]));
  const batchSizes = Object.fromEntries(Object.entries(s.batchSizes).map(([size, b]) => [size, { ...b, latencyExact: exactOf(size === '5' ? ofKind([2]) : ofKind([0, 1])) }]));
  return { ...s, requests: { ...s.requests, latencyExact: exactOf(all) }, methods, batchSizes };
}

describe('mergeK6Summaries: exact mean, min and max beside the buckets', () => {
  /** Every request answered in `us` µs, give or take 0.2% (a server of fixed latency), split into 3 instances. */
  const fixed = (us: number, definition: object): K6Summary[] => {
    const reqs = testRequests(300).map((r) => ({ ...r, latencyUs: us + (r.id % 5) * (us / 2000) }));
    return splitIntoSegments(reqs, 3).map((p) => withExact(testK6Summary({ ...p, definition }), p.requests));
  };
  const definition = (thresholds: string[]): object => ({ ...K6_TEST_DEFINITION, thresholds });

  it('gives the exact min, max and mean, and no percentile outside them, whichever way the requests were split', () => {
    const parts = splitIntoSegments(requests, 3).map((p) => withExact(testK6Summary(p), p.requests));
    const run = mergeK6Summaries(parts);
    const values = requests.map((r) => r.latencyUs);
    expect(run.latency.min).toBe(Math.min(...values));
    expect(run.latency.max).toBe(Math.max(...values));
    expect(run.latency.mean).toBeCloseTo(values.reduce((n, v) => n + v, 0) / values.length, 2);
    expect(mergeK6Summaries([withExact(whole, requests)]).latency).toEqual(run.latency);
    for (const m of run.methods) expect(m.latency.min).toBeGreaterThanOrEqual(Math.min(...values));
  });

  it('a server answering in exactly 200 ms: p50 and mean are 200 ms, not a bucket middle below every value', () => {
    // An outside tester's: 9%-wide buckets put p50 = p90 at 193.66 ms and the mean at 193.86 ms, so the merge kept
    // p50 < 196ms where k6 broke it; at 187 ms it broke p50 < 191ms and mean < 192ms where k6 kept both.
    const at200 = mergeK6Summaries(fixed(200_000, definition(['p50 < 196ms', 'mean < 196ms'])));
    expect(at200.latency.p50).toBeGreaterThanOrEqual(200_000);
    expect(at200.latency.p90).toBeLessThanOrEqual(200_400);
    expect(at200.latency.mean).toBeCloseTo(200_000 + 200_000 / 1000, 0);
    expect(at200.thresholds.map((t) => [t.name, t.ok])).toEqual([['p50 < 196ms', false], ['mean < 196ms', false]]);
    const at187 = mergeK6Summaries(fixed(187_000, definition(['p50 < 191ms', 'mean < 192ms'])));
    expect(at187.latency.p50).toBeLessThanOrEqual(187_400);
    expect(at187.thresholds.map((t) => [t.name, t.ok])).toEqual([['p50 < 191ms', true], ['mean < 192ms', true]]);
  });

  it('refuses a format 1 summary (9%-wide buckets) among format 2 ones: they are not parts of one test', () => {
    const old: K6Summary = { ...(thirds[2] as K6Summary), format: K6_SUMMARY_FORMAT_V1, requests: { count: 1000, latency: { '80': 1000 } } };
    expect(errorOf(() => mergeK6Summaries([thirds[0] as K6Summary, thirds[1] as K6Summary, old], ['a.json', 'b.json', 'c.json'])).message).toMatch(
      /^a\.json is of format chainrpc-k6-summary\/2 and c\.json of chainrpc-k6-summary\/1: they were written by different chainrpc k6 runtimes/,
    );
    // On its own, a format 1 summary merges at its own resolution: bucket 80 of 8 per octave, middle 2^(80.5/8) µs.
    const merged = mergeK6([{ ...whole, format: K6_SUMMARY_FORMAT_V1, requests: { count: 3000, latency: { '80': 3000 } } }]);
    expect(merged.run.latency).toMatchObject({ min: 1069, p50: 1069, max: 1069 });
    // And says so: a threshold near its limit may be judged otherwise than k6 judged it (an outside tester's FAILED).
    expect(merged.notes.join('\n')).toMatch(/format chainrpc-k6-summary\/1 .*buckets 9% wide.*a threshold near its limit may be judged otherwise than k6 judged it/);
  });
});

describe('mergeK6Summaries: summaries that are not one test', () => {
  const [a, b, c] = thirds as [K6Summary, K6Summary, K6Summary];

  it('refuses a part of the test left out, naming what is missing', () => {
    expect(errorOf(() => mergeK6Summaries([a, c])).message).toBe('segments 0:1/3 and 2/3:1 cover 2/3 of the test; 1/3:2/3 is missing');
    expect(errorOf(() => mergeK6Summaries([b])).message).toBe('segment 1/3:2/3 covers 1/3 of the test; 0:1/3 and 2/3:1 are missing');
    const halves = [testK6Summary({ segment: '0:0.5', requests: [] })];
    expect(errorOf(() => mergeK6Summaries(halves)).message).toBe('segment 0:0.5 covers 1/2 of the test; 1/2:1 is missing');
  });

  it('refuses the same segment twice, however it is written', () => {
    expect(errorOf(() => mergeK6Summaries([a, b, c, b], ['a.json', 'b.json', 'c.json', 'b-again.json'])).message).toBe(
      'b.json and b-again.json hold the same segment, 1/3:2/3: one part of the test twice (give each instance\'s summary once)',
    );
    const half = testK6Summary({ segment: '0:1/2', requests: [] });
    const sameHalf = testK6Summary({ segment: '0%:0.5', requests: [] });
    expect(errorOf(() => mergeK6Summaries([half, sameHalf])).message).toBe('summary 1 and summary 2 hold the same segment, 0:1/2: one part of the test twice (give each instance\'s summary once)');
  });

  it('refuses overlapping segments', () => {
    const parts = [testK6Summary({ segment: '0:1/2', requests: [] }), testK6Summary({ segment: '1/3:1', requests: [] })];
    expect(errorOf(() => mergeK6Summaries(parts, ['x.json', 'y.json'])).message).toBe('segments 0:1/2 (x.json) and 1/3:1 (y.json) overlap: a part of the test would count twice');
  });

  it('refuses a whole run merged with anything else', () => {
    expect(errorOf(() => mergeK6Summaries([whole, a], ['whole.json', 'a.json'])).message).toBe('whole.json is the summary of a whole run (no --execution-segment): it cannot be merged with segments (0:1/3 in a.json)');
    expect(errorOf(() => mergeK6Summaries([whole, whole], ['w1.json', 'w2.json'])).message).toBe('w1.json and w2.json are both summaries of a whole run (no --execution-segment): the same test twice; give one');
  });

  it('refuses summaries of different scenarios, definitions or nodes', () => {
    const other = testK6Summary({ segment: '1/3:2/3', requests: [], definition: { ...K6_TEST_DEFINITION, name: 'other' } });
    expect(errorOf(() => mergeK6Summaries([a, other, c], ['a.json', 'o.json', 'c.json'])).message).toBe(
      'the summaries are of different scenarios: k6-reads (a.json) and other (o.json); merge each scenario\'s summaries on their own',
    );
    const faster = testK6Summary({ segment: '1/3:2/3', requests: [], definition: { ...K6_TEST_DEFINITION, arrivals: { model: 'open', rate: 200, distribution: 'uniform' } } });
    expect(errorOf(() => mergeK6Summaries([a, faster, c])).message).toBe('summary 1 and summary 2 ran scenario k6-reads with different definitions (they differ at /arrivals/rate): they are not parts of one test');
    const elsewhere = testK6Summary({ segment: '1/3:2/3', requests: [], url: 'http://10.0.0.2:8545' });
    expect(errorOf(() => mergeK6Summaries([a, elsewhere, c])).message).toBe(
      'the summaries are of different nodes: http://127.0.0.1:8545 (summary 1) and http://10.0.0.2:8545 (summary 2); merge each node\'s summaries on their own',
    );
    // A trailing slash is the same node.
    const slash = testK6Summary({ ...splitIntoSegments(requests, 3)[1]!, url: 'http://127.0.0.1:8545/' });
    expect(mergeK6Summaries([a, slash, c]).latency).toEqual(mergeK6Summaries(thirds).latency);
  });

  it('refuses a summary whose figures are not its definition\'s, and a definition that does not resolve', () => {
    const wrong = { ...whole, durationMs: 5000 };
    expect(errorOf(() => mergeK6Summaries([wrong], ['w.json'])).message).toBe('w.json: durationMs is 5000, but the scenario definition it carries gives 10000');
    const broken = { ...whole, scenario: { name: 'k6-reads', definition: { ...K6_TEST_DEFINITION, duration: 'soon' } } };
    expect(errorOf(() => mergeK6Summaries([broken], ['b.json'])).message).toMatch(/^the scenario in b\.json: \/duration .*\(the definition a summary carries is the scenario as it ran\)$/);
    expect(errorOf(() => mergeK6Summaries([])).message).toBe('no summary to merge');
  });
});

describe('mergeK6Summaries: requests k6 cut off, and the run\'s window', () => {
  const [a, b] = splitIntoSegments(requests, 2).map((p) => testK6Summary(p)) as [K6Summary, K6Summary];
  const blockNumber = a.methods.chain_blockNumber as K6Summary['methods'][string];

  it('counts a request that went but never ended (k6 cut it off at the end of the run) as sent and failed, never lost', () => {
    // Instance a sent 40 requests of chain_blockNumber that k6 stopped before any answer: counted as they went, never as ended.
    const cut: K6Summary = {
      ...a,
      schedule: { started: a.schedule.started + 40, dropped: 0, sent: a.requests.count + 40 },
      methods: { ...a.methods, chain_blockNumber: { ...blockNumber, calls: blockNumber.calls + 40 } },
    };
    const counted = { ...b, schedule: { ...b.schedule, sent: b.requests.count } };
    const whole = mergeK6([a, counted]);
    const merged = mergeK6([cut, counted]);
    expect(merged.run.schedule).toMatchObject({ scheduled: 3040, sent: 3040, dropped: 0 });
    expect(merged.run.failures.transport).toBe(40);
    const unanswered = (m: ReturnType<typeof mergeK6>): number | undefined => m.run.methods.find((x) => x.method === 'chain_blockNumber')?.unanswered;
    expect(unanswered(merged)).toBe((unanswered(whole) ?? 0) + 40);
    const errors = (m: ReturnType<typeof mergeK6>): number | null | undefined => m.run.thresholds.find((t) => t.name === 'errors < 5%')?.actual;
    expect(errors(merged)).toBeGreaterThan(errors(whole) ?? 0);
    // What was ended is still what was measured: the latency holds the requests that ended.
    expect(merged.run.latency.count).toBe(3000);
    expect(merged.notes).toEqual(['40 requests of the measured window cut off at the end of the run (k6 stopped them before any answer): counted as sent and failed, among the transport failures, their calls unanswered']);
    expect(whole.notes).toEqual([]);
    // A summary written before requests were counted as they went: its started iterations that never ended.
    const older: K6Summary = { ...a, schedule: { started: a.schedule.started + 40, dropped: 0 } };
    const fromOlder = mergeK6([older, b]);
    expect(fromOlder.run.schedule.sent).toBe(3040);
    expect(fromOlder.run.failures.transport).toBe(40);
    expect(fromOlder.notes[0]).toMatch(/their calls left out of the methods' figures \(summaries written before calls were counted as they went do not say which methods they carried\)$/);
  });

  const facts = (windowStartedAt: string | null, more: Partial<K6RunFacts> = {}): K6RunFacts => ({
    testRunDurationMs: 11_000,
    planned: null,
    ran: null,
    windowStartedAt,
    droppedInTest: 0,
    windowDrops: true,
    ...more,
  });

  it('places the run by when each instance\'s measured window began, not by its end (late by the drain of what was in flight)', () => {
    // b waited 10 s more for a request that timed out: its end is late, its window was not.
    const parts = [
      { ...a, endedAt: '2026-12-01T10:00:13.000Z', k6: facts('2026-12-01T10:00:01.000Z') },
      { ...b, endedAt: '2026-12-01T10:00:23.000Z', k6: facts('2026-12-01T10:00:01.400Z') },
    ];
    const run = mergeK6Summaries(parts);
    expect(run).toMatchObject({ valid: true, startedAt: '2026-12-01T10:00:00.000Z', endedAt: '2026-12-01T10:00:11.400Z' });
    const apart = mergeK6Summaries([parts[0]!, { ...parts[1]!, k6: facts('2026-12-01T10:00:31.000Z') }]);
    expect(apart.invalid).toEqual([expect.stringContaining('the k6 instances did not run together: their measured windows began 30.0 s apart (more than 5.0 s)')]);
  });
});

describe('mergeK6Summaries: what k6 ran', () => {
  // The script's scenarios (data.json), and the same as k6 gives them back: every option, durations its own way.
  const planned = {
    warmup: { executor: 'constant-arrival-rate', rate: 300, timeUnit: '1s', duration: '1000ms', preAllocatedVUs: 100, maxVUs: 256, gracefulStop: '0s' },
    chainrpc: { executor: 'constant-arrival-rate', rate: 300, timeUnit: '1s', duration: '10000ms', startTime: '1000ms', preAllocatedVUs: 100, maxVUs: 256, gracefulStop: '12000ms' },
  };
  const nulls = { env: null, exec: null, tags: null };
  const asRan = {
    warmup: { ...planned.warmup, ...nulls, startTime: null, duration: '1s' },
    chainrpc: { ...planned.chainrpc, ...nulls, duration: '10s', startTime: '1s', gracefulStop: '12s' },
  };
  const ran = (k6: Partial<K6RunFacts>): K6Summary =>
    ({ ...whole, k6: { testRunDurationMs: 11_050, planned, ran: asRan, windowStartedAt: '2026-12-01T10:00:01.000Z', droppedInTest: 0, windowDrops: true, ...k6 } });

  it('trusts a run of the script\'s own schedule, however k6 writes it back', () => {
    expect(mergeK6Summaries([ran({})]).invalid).toEqual([]);
  });

  it('marks the figures untrusted, saying why, when a command-line option replaced the script\'s scenarios', () => {
    // k6 run --vus 2 --duration 4s script.js: one constant-vus scenario, "default".
    const overridden = ran({ ran: { default: { executor: 'constant-vus', startTime: null, gracefulStop: null, ...nulls, vus: 2, duration: '4s' } }, testRunDurationMs: 4_010 });
    const run = mergeK6Summaries([overridden], ['s.json']);
    expect(run.valid).toBe(false);
    expect(run.invalid).toEqual([
      "s.json: k6 did not run the script's schedule: k6 ran scenario(s) default, not the script's chainrpc, warmup; a command-line option such as --vus, --duration, --iterations or --stages replaces the script's scenarios, so these figures are not the scenario's",
    ]);
    const slower = ran({ ran: { ...asRan, chainrpc: { ...asRan.chainrpc, rate: 30 } } });
    expect(mergeK6Summaries([slower], ['s.json']).invalid[0]).toContain("k6's scenarios differ from the script's at /chainrpc/rate (the script asks 300, k6 ran 30)");
  });

  it('marks the figures untrusted when k6 ran with --rps (a cap on what it sends, whatever the schedule)', () => {
    // An outside tester's k6 run --rps 10: 300 requests never sent showed as transport failures in a report marked valid.
    expect(mergeK6Summaries([ran({ rps: 10 })], ['s.json']).invalid).toEqual([expect.stringMatching(/^s\.json: k6 ran with --rps 10 \(or K6_RPS\), a cap on the requests it sends per second/)]);
    expect(mergeK6Summaries([ran({ rps: null })]).valid).toBe(true);
  });

  it('marks the figures untrusted when k6 stopped early, or could not count the window\'s drops apart', () => {
    expect(mergeK6Summaries([ran({ testRunDurationMs: 4_000 })], ['s.json']).invalid).toEqual([
      's.json: k6 ran for 4.0 s, but the scenario takes 11.0 s (warm-up and measured window): the run was stopped early (interrupted or aborted), so its figures are of part of the window',
    ]);
    expect(mergeK6Summaries([ran({ windowDrops: false, droppedInTest: 7 })], ['s.json']).invalid).toEqual([
      "s.json: k6 ran without thresholds (--no-thresholds), so it did not count the measured window's dropped iterations apart from the warm-up's: its 7 may include the warm-up's",
    ]);
    expect(mergeK6Summaries([ran({ windowDrops: false, droppedInTest: 0 })]).valid).toBe(true);
  });
});

describe('mergeK6Summaries: iterations that found no sender\'s lane', () => {
  it('reports them, and marks the run untrusted: the generator, not the node, left them unsent', () => {
    // An outside tester's corpus of 6 senders under maxVUs 32: "scheduled 120, sent 24", FAILED achieved 20%, nothing said why.
    const parts = thirds.map((s, i) => ({ ...s, schedule: { ...s.schedule, noLane: i === 0 ? 32 : 0, laneSpent: i === 2 ? 1 : 0 } }));
    const merged = mergeK6(parts);
    expect(merged.run.valid).toBe(false);
    expect(merged.run.invalid).toEqual([
      expect.stringMatching(/^32 iterations of the measured window sent nothing: k6 ran them on VUs that had no sender's lane in the corpus/),
      expect.stringMatching(/^1 iteration of the measured window sent nothing: their VU had sent every transaction of its sender's lane/),
    ]);
    expect(merged.notes).toEqual(merged.run.invalid);
    expect(mergeK6(thirds.map((s) => ({ ...s, schedule: { ...s.schedule, noLane: 0, laneSpent: 0 } }))).run.valid).toBe(true);
  });
});

describe('mergeK6Summaries: what k6 measured, and what it did not', () => {
  it('keeps one latency, as k6 measured it, and no service time apart (a copy would pass for a second measurement)', () => {
    const run = mergeK6Summaries([whole]);
    expect(run.latency.count).toBe(3000);
    expect(run.service.count).toBe(0);
    expect(run.methods.map((m) => m.service.count)).toEqual([0, 0]);
    expect(run.batchSizes.map((b) => b.service.count)).toEqual([0, 0]);
    // k6 judges service- thresholds on its latency, which runs from the write (where service time starts): so does the merge.
    const definition = { ...K6_TEST_DEFINITION, thresholds: ['service-p99 < 250ms'] };
    const judged = mergeK6Summaries([testK6Summary({ segment: null, requests, definition })]);
    expect(judged.thresholds).toEqual([expect.objectContaining({ name: 'service-p99 < 250ms', actual: judged.latency.p99 / 1000, ok: true })]);
  });

  it('leaves out, with why, the thresholds only the Node engine measures, and judges the rest', () => {
    const definition = { ...K6_TEST_DEFINITION, thresholds: ['p99 < 250ms', 'lag-p99 < 10ms', 'invalid < 1%'] };
    const { run, notJudged } = mergeK6([testK6Summary({ segment: null, requests, definition })]);
    expect(run.thresholds.map((t) => t.name)).toEqual(['p99 < 250ms']);
    expect(notJudged.map((n) => n.threshold)).toEqual(['lag-p99 < 10ms', 'invalid < 1%']);
    for (const n of notJudged) expect(n.why).toBe('only the Node engine measures it: k6 reports no send lag, no result validation, no inclusion, no node health and no faults');
  });
});
