import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Histogram } from '../metrics/Histogram.js';
import { K6_TEST_DEFINITION, k6BucketOf, splitIntoSegments, testK6Summary, testRequests } from '../../test/support/k6Summaries.js';
import type { K6Summary } from './K6Summary.js';
import { K6SummaryError, k6BucketMiddleUs, mergeK6Summaries, parseExecutionSegment, readK6Summary } from './mergeK6Summaries.js';

const requests = testRequests(3000);
const thirds = splitIntoSegments(requests, 3).map((p) => testK6Summary(p));
const whole = testK6Summary({ segment: null, requests });

const errorOf = (f: () => unknown): K6SummaryError => {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(K6SummaryError);
    expect((error as Error).name).toBe('K6SummaryError');
    return error as K6SummaryError;
  }
  throw new Error('expected a K6SummaryError');
};

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

  it('is exact to the bucket: each bucket stands for its geometric middle, within 4.4% of the true value', () => {
    // The merged histogram is the bucket middles recorded with their counts.
    const direct = new Histogram();
    for (const r of requests) direct.record(k6BucketMiddleUs(k6BucketOf(r.latencyUs)));
    expect(run.latency).toEqual(direct.toData());
    const sorted = requests.map((r) => r.latencyUs).sort((a, b) => a - b);
    const truth = (p: number): number => sorted[Math.ceil((p / 100) * sorted.length) - 1] ?? 0;
    for (const [p, value] of [[50, run.latency.p50], [90, run.latency.p90], [99, run.latency.p99]] as const) {
      expect(Math.abs(value - truth(p)) / truth(p)).toBeLessThan(0.045 + 0.001);
    }
    // A value of 1000 µs counts in bucket 79 ([2^(79/8), 2^(80/8)) = [935, 1024) µs), whose middle is 981 µs.
    expect(k6BucketOf(1000)).toBe(79);
    expect(k6BucketMiddleUs(79)).toBe(981);
    const flat = mergeK6Summaries([testK6Summary({ segment: null, requests: [{ id: 0, latencyUs: 1000 }, { id: 3, latencyUs: 1010 }] })]);
    expect(flat.latency).toMatchObject({ count: 2, min: 981, p50: 981, p99: 981, max: 981 });
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
    // Ended exchanges (answered or failed) per second of the measured window.
    expect(run.schedule.achievedRate).toBe(300);
    expect(run.schedule.lagUs.count).toBe(0);
    expect(run.service).toEqual(run.latency);
    expect(run.inclusion).toBeUndefined();
  });

  it('judges the definition\'s thresholds on the merged run', () => {
    // 3000 requests in 10 s at a target of 300/s: achieved 100%; under 2% of the calls failed.
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

describe('readK6Summary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainrpc-k6-summary-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
  const good = JSON.parse(JSON.stringify(thirds[0])) as Record<string, unknown>;
  const edited = (edit: (s: Record<string, unknown>) => void): Record<string, unknown> => {
    const copy = JSON.parse(JSON.stringify(good)) as Record<string, unknown>;
    edit(copy);
    return copy;
  };

  it('reads a summary back as it was written', () => {
    expect(readK6Summary(file('good.json', good))).toEqual(thirds[0]);
  });

  it('says so when the file is missing or not JSON', () => {
    expect(errorOf(() => readK6Summary(join(dir, 'absent.json'))).message).toMatch(/absent\.json: cannot be read: ENOENT/);
    const path = file('text.json', 'p99=3ms\n');
    expect(errorOf(() => readK6Summary(path)).message).toMatch(
      new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not JSON \\(.*\\); expected a chainrpc k6 summary \\("format": "chainrpc-k6-summary/1"\\), the file that the handleSummary of a script made by chainrpc load k6 writes`),
    );
  });

  it('tells k6\'s own summary from a chainrpc one', () => {
    const exported = { root_group: { name: '', path: '', id: 'd41d8cd98f00b204e9800998ecf8427e', groups: {}, checks: {} }, metrics: { http_req_duration: { avg: 2.1, min: 0.5, med: 1.9, max: 30, 'p(90)': 3, 'p(95)': 4 } } };
    const path = file('export.json', exported);
    expect(errorOf(() => readK6Summary(path)).message).toBe(
      `${path} is k6's own end-of-test summary (its "metrics" and "root_group", as --summary-export writes them or handleSummary receives them), not a chainrpc k6 summary: ` +
        'its percentiles are final and cannot be added up across instances. Expected a chainrpc k6 summary ("format": "chainrpc-k6-summary/1"), the file that the handleSummary of a script made by chainrpc load k6 writes at the end of each k6 instance.',
    );
    const data = file('data.json', { metrics: {}, root_group: {}, options: {}, state: { testRunDurationMs: 1000 } });
    expect(errorOf(() => readK6Summary(data)).message).toContain('is k6\'s own end-of-test summary');
  });

  it('says what any other JSON looks like', () => {
    const array = file('array.json', [1, 2]);
    expect(errorOf(() => readK6Summary(array)).message).toBe(
      `${array} is not a chainrpc k6 summary: it holds a JSON array of 2 items; expected a chainrpc k6 summary ("format": "chainrpc-k6-summary/1"), the file that the handleSummary of a script made by chainrpc load k6 writes at the end of each k6 instance`,
    );
    const object = file('object.json', { hello: 'world', format: 'other/1' });
    expect(errorOf(() => readK6Summary(object)).message).toContain('it holds a JSON object with the keys "hello", "format" and "format": "other/1"; expected a chainrpc k6 summary');
    const report = file('report.json', { format: 'chainrpc-load/1', runs: [] });
    expect(errorOf(() => readK6Summary(report)).message).toContain('is a chainrpc load report (report.json, format chainrpc-load/1), not a k6 summary');
  });

  it('refuses another format version', () => {
    const newer = file('v2.json', { ...good, format: 'chainrpc-k6-summary/2' });
    expect(errorOf(() => readK6Summary(newer)).message).toBe(`${newer} is a chainrpc k6 summary of format chainrpc-k6-summary/2, written by a newer chainrpc; this one reads chainrpc-k6-summary/1 (merge with the chainrpc that made the script)`);
    const zero = file('v0.json', { ...good, format: 'chainrpc-k6-summary/0' });
    expect(errorOf(() => readK6Summary(zero)).message).toBe(`${zero} is a chainrpc k6 summary of format chainrpc-k6-summary/0, a version this chainrpc never wrote; this one reads chainrpc-k6-summary/1`);
  });

  it('names the path of a missing or ill-typed field', () => {
    const cases: [string, (s: Record<string, unknown>) => void, string][] = [
      ['no-url.json', (s) => delete s.url, 'url is missing (expected a non-empty string)'],
      ['count.json', (s) => ((s.requests as Record<string, unknown>).count = -1), 'requests.count must be a count (a whole number, 0 or more); got -1'],
      ['bucket.json', (s) => ((s.requests as { latency: Record<string, unknown> }).latency['80'] = 1.5), 'requests.latency["80"] must be a count (a whole number, 0 or more); got 1.5'],
      ['bucket-key.json', (s) => ((s.requests as { latency: Record<string, unknown> }).latency['9'] = 1), 'requests.latency["9"]: a bucket index must be a whole number from 26 to 213 (log2 of µs x 8)'],
      ['method.json', (s) => ((s.methods as Record<string, Record<string, unknown>>).chain_getAccount!.ok = '5'), 'methods.chain_getAccount.ok must be a count (a whole number, 0 or more); got "5"'],
      ['method-errors.json', (s) => ((s.methods as Record<string, Record<string, unknown>>).chain_getAccount!.errors = { oops: 1 }), 'methods.chain_getAccount.errors.oops: the key must be a JSON-RPC error code ("-32602")'],
      ['status.json', (s) => ((s.failures as Record<string, unknown>).httpStatus = { '503': 'x' }), 'failures.httpStatus["503"] must be a count (a whole number, 0 or more); got "x"'],
      ['no-timeouts.json', (s) => delete (s.failures as Record<string, unknown>).timeouts, 'failures.timeouts is missing (expected a count (a whole number, 0 or more))'],
      ['model.json', (s) => ((s.model as Record<string, unknown>).kind = 'burst'), 'model.kind must be "open" or "closed"; got "burst"'],
      ['stage.json', (s) => ((s.model as { stages: Record<string, unknown>[] }).stages[0]!.durationMs = 0), 'model.stages[0].durationMs must be a number above 0; got 0'],
      ['segment.json', (s) => (s.segment = '2/3:1/3'), 'segment "2/3:1/3" is not a k6 execution segment: its start is not below its end'],
      ['ended.json', (s) => (s.endedAt = 'yesterday'), 'endedAt must be an ISO 8601 instant ("2026-12-01T10:00:00.000Z"); got "yesterday"'],
      ['tool.json', (s) => (s.tool = { name: 'k6', version: '1' }), 'tool.name must be "chainrpc"; got "k6"'],
      ['definition.json', (s) => delete (s.scenario as Record<string, unknown>).definition, 'scenario.definition is missing (expected the scenario definition (a JSON object))'],
      ['threshold.json', (s) => (s.thresholds = { 'p99 < 250ms': 'yes' }), 'thresholds["p99 < 250ms"] must be true or false; got "yes"'],
      ['batch.json', (s) => ((s.batchSizes as Record<string, unknown>).single = { requests: 1, latency: {} }), 'batchSizes.single: a batch size must be a whole number from 1 ("1" for single calls)'],
      ['profile.json', (s) => (s.profile = { name: 'acme', wire: { chain_getAccount: 3 } }), 'profile.wire.chain_getAccount must be a non-empty string; got 3'],
    ];
    for (const [name, edit, message] of cases) {
      const path = file(name, edited(edit));
      expect(errorOf(() => readK6Summary(path)).message).toBe(`${path}: ${message}`);
    }
  });
});

describe('parseExecutionSegment', () => {
  it('reads fractions, decimals and whole percentages, and a single value as from 0', () => {
    const show = (text: string): string => {
      const s = parseExecutionSegment(text);
      return typeof s === 'string' ? s : `${s.from.n}/${s.from.d}:${s.to.n}/${s.to.d}`;
    };
    expect(show('0:1/3')).toBe('0/1:1/3');
    expect(show('1/3:2/3')).toBe('1/3:2/3');
    expect(show('2/4:75%')).toBe('1/2:3/4');
    expect(show('0.25:.5')).toBe('1/4:1/2');
    expect(show('1/2')).toBe('0/1:1/2');
    expect(show('0:1')).toBe('0/1:1/1');
    expect(show('0:4/3')).toBe('it ends beyond the whole test (1)');
    expect(show('1/2:1/2')).toBe('its start is not below its end');
    expect(show('a:b')).toBe('"a" is not a fraction ("1/3"), a decimal ("0.5") or a whole percentage ("50%")');
    expect(show('0:1/0')).toBe('"1/0" is not a fraction ("1/3"), a decimal ("0.5") or a whole percentage ("50%")');
    expect(show('0:1:2')).toBe('more than one ":" (write from:to, e.g. "1/3:2/3")');
  });
});
