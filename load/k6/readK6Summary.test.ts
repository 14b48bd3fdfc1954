import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { k6SummaryErrorOf as errorOf, splitIntoSegments, testK6Summary, testRequests } from '../../test/support/k6Summaries.js';
import { readK6Summary } from './readK6Summary.js';

const thirds = splitIntoSegments(testRequests(3000), 3).map((p) => testK6Summary(p));

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

  it('reads a replay\'s section back, and names what is wrong in one', () => {
    const replay = { capture: 'traffic.ndjson', exchanges: 31, replayed: 30, pace: { speed: 4 }, loop: false, spanMs: 480, rate: 61.5, leftOut: [{ reason: 'notifications only', count: 1 }], transformations: ['sent at the recorded offsets divided by 4 (4x speed)'] };
    expect(readK6Summary(file('replay.json', edited((s) => (s.replay = replay)))).replay).toEqual(replay);
    const badReason = file('replay-reason.json', edited((s) => (s.replay = { ...replay, leftOut: [{ reason: 'too old', count: 1 }] })));
    expect(errorOf(() => readK6Summary(badReason)).message).toMatch(/replay\.leftOut\[?\.?0\]?\.reason.*"not a JSON-RPC POST"/);
    const noLoop = file('replay-loop.json', edited((s) => (s.replay = { ...replay, loop: 'no' })));
    expect(errorOf(() => readK6Summary(noLoop)).message).toMatch(/replay\.loop/);
  });

  it('reads back what k6 ran and the requests sent, and names what is wrong in them', () => {
    const k6 = { testRunDurationMs: 11_050, planned: { chainrpc: { executor: 'constant-vus', vus: 2, duration: '11000ms' } }, ran: { chainrpc: { executor: 'constant-vus', vus: 2, duration: '11s', env: null } }, windowStartedAt: '2026-12-01T10:00:01.000Z', droppedInTest: 3, windowDrops: true };
    const read = readK6Summary(file('ran.json', edited((s) => Object.assign(s, { k6, schedule: { started: 1000, dropped: 0, sent: 998 } }))));
    expect(read.k6).toEqual(k6);
    expect(read.schedule).toEqual({ started: 1000, dropped: 0, sent: 998 });
    const cases: [string, unknown, string][] = [
      ['ran-drops.json', { ...k6, windowDrops: 'yes' }, 'k6.windowDrops must be true or false; got "yes"'],
      ['ran-start.json', { ...k6, windowStartedAt: 'soon' }, 'k6.windowStartedAt must be an ISO 8601 instant, or null; got "soon"'],
      ['ran-dropped.json', { ...k6, droppedInTest: -1 }, 'k6.droppedInTest must be a count (a whole number, 0 or more); got -1'],
    ];
    for (const [name, bad, message] of cases) {
      const path = file(name, edited((s) => (s.k6 = bad)));
      expect(errorOf(() => readK6Summary(path)).message).toBe(`${path}: ${message}`);
    }
  });

  it('reads a format 1 summary (from before 2026-11-29) at its own bucket layout, and format 2\'s new figures', () => {
    // Format 1: 8 buckets per octave, 26 to 213; its old keys still read, and refused as format 2's.
    const v1 = { ...good, format: 'chainrpc-k6-summary/1', requests: { count: 3, latency: { '80': 3 } }, methods: {}, batchSizes: {} };
    expect(readK6Summary(file('v1.json', v1))).toMatchObject({ format: 'chainrpc-k6-summary/1', requests: { latency: { '80': 3 } } });
    expect(errorOf(() => readK6Summary(file('v2-old-keys.json', { ...v1, format: 'chainrpc-k6-summary/2' }))).message).toMatch(/requests\.latency\["80"\]: a bucket index must be a whole number from 227 to 1864/);
    // Format 2: exact figures, the warm-up's requests served in the window, iterations with no lane or a spent one, k6's --rps.
    const requests = { ...(good.requests as object), servedBefore: 4, latencyExact: { sumUs: 1234.5, minUs: 10, maxUs: 900.25 } };
    const read = readK6Summary(file('v2.json', edited((s) => Object.assign(s, { requests, schedule: { started: 1000, dropped: 0, sent: 990, noLane: 7, laneSpent: 3 } }))));
    expect(read.requests).toMatchObject({ servedBefore: 4, latencyExact: { sumUs: 1234.5, minUs: 10, maxUs: 900.25 } });
    expect(read.schedule).toEqual({ started: 1000, dropped: 0, sent: 990, noLane: 7, laneSpent: 3 });
    const inverted = file('v2-inverted.json', edited((s) => (s.requests = { ...requests, latencyExact: { sumUs: 1, minUs: 5, maxUs: 4 } })));
    expect(errorOf(() => readK6Summary(inverted)).message).toBe(`${inverted}: requests.latencyExact.minUs must be at most maxUs (4); got 5`);
  });

  it('reads back the requests served, and refuses an "other" code or status, saying what wrote it and what to do', () => {
    const requests = { ...(good.requests as object), served: 990 };
    expect(readK6Summary(file('served.json', edited((s) => (s.requests = requests)))).requests.served).toBe(990);
    expect(readK6Summary(file('no-served.json', good)).requests.served).toBeUndefined();
    const badServed = file('served-bad.json', edited((s) => (s.requests = { ...requests, served: -1 })));
    expect(errorOf(() => readK6Summary(badServed)).message).toBe(`${badServed}: requests.served must be a count (a whole number, 0 or more); got -1`);
    // What a runtime from before 2026-11-28 wrote for codes and statuses its data.json did not list.
    const status = file('other-status.json', edited((s) => ((s.failures as { httpStatus: Record<string, number> }).httpStatus = { other: 3 })));
    expect(errorOf(() => readK6Summary(status)).message).toMatch(/failures\.httpStatus\.other: the key must be an HTTP status \("503"\); "other" was written by a chainrpc k6 runtime from before 2026-11-28, .*make the test again with `chainrpc load k6`/);
  });

  it('refuses a summary whose counts contradict each other, saying which (an outside tester\'s hand-edited ones merged)', () => {
    const requests = good.requests as { count: number; latency: Record<string, number> };
    const [bucket = '0', n = 0] = Object.entries(requests.latency)[0] ?? [];
    const moreInBuckets = file('buckets.json', edited((s) => (s.requests = { ...requests, latency: { ...requests.latency, [bucket]: n + 1000 } })));
    expect(errorOf(() => readK6Summary(moreInBuckets)).message).toBe(`${moreInBuckets}: requests.latency holds ${requests.count + 1000} requests, requests.count says ${requests.count}: the summary contradicts itself (not as chainrpc's k6 script writes one)`);
    const servedMore = file('served-more.json', edited((s) => (s.requests = { ...requests, served: requests.count * 3 })));
    expect(errorOf(() => readK6Summary(servedMore)).message).toMatch(/requests\.served \(\d+\) is more than requests\.count \(\d+\): the summary contradicts itself/);
    const okMore = file('ok-more.json', edited((s) => {
      const methods = s.methods as Record<string, { calls: number; ok: number }>;
      const [name = ''] = Object.keys(methods);
      const m = methods[name];
      if (m !== undefined) m.ok = m.calls + 5;
    }));
    expect(errorOf(() => readK6Summary(okMore)).message).toMatch(/methods\.\w+: ok, errors and unanswered add up to \d+, more than its \d+ calls: the summary contradicts itself/);
  });

  it('says so when the file is missing or not JSON', () => {
    expect(errorOf(() => readK6Summary(join(dir, 'absent.json'))).message).toMatch(/absent\.json: cannot be read: ENOENT/);
    const path = file('text.json', 'p99=3ms\n');
    expect(errorOf(() => readK6Summary(path)).message).toMatch(
      new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not JSON \\(.*\\); expected a chainrpc k6 summary \\("format": "chainrpc-k6-summary/2"\\), the file that the handleSummary of a script made by chainrpc load k6 writes`),
    );
  });

  it('tells k6\'s own summary from a chainrpc one', () => {
    const exported = { root_group: { name: '', path: '', id: 'd41d8cd98f00b204e9800998ecf8427e', groups: {}, checks: {} }, metrics: { http_req_duration: { avg: 2.1, min: 0.5, med: 1.9, max: 30, 'p(90)': 3, 'p(95)': 4 } } };
    const path = file('export.json', exported);
    expect(errorOf(() => readK6Summary(path)).message).toBe(
      `${path} is k6's own end-of-test summary (its "metrics" and "root_group", as --summary-export writes them or handleSummary receives them), not a chainrpc k6 summary: ` +
        'its percentiles are final and cannot be added up across instances. Expected a chainrpc k6 summary ("format": "chainrpc-k6-summary/2"), the file that the handleSummary of a script made by chainrpc load k6 writes at the end of each k6 instance.',
    );
    const data = file('data.json', { metrics: {}, root_group: {}, options: {}, state: { testRunDurationMs: 1000 } });
    expect(errorOf(() => readK6Summary(data)).message).toContain('is k6\'s own end-of-test summary');
  });

  it('says what any other JSON looks like', () => {
    const array = file('array.json', [1, 2]);
    expect(errorOf(() => readK6Summary(array)).message).toBe(
      `${array} is not a chainrpc k6 summary: it holds a JSON array of 2 items; expected a chainrpc k6 summary ("format": "chainrpc-k6-summary/2"), the file that the handleSummary of a script made by chainrpc load k6 writes at the end of each k6 instance`,
    );
    const object = file('object.json', { hello: 'world', format: 'other/1' });
    expect(errorOf(() => readK6Summary(object)).message).toContain('it holds a JSON object with the keys "hello", "format" and "format": "other/1"; expected a chainrpc k6 summary');
    const report = file('report.json', { format: 'chainrpc-load/1', runs: [] });
    expect(errorOf(() => readK6Summary(report)).message).toContain('is a chainrpc load report (report.json, format chainrpc-load/1), not a k6 summary');
  });

  it('refuses another format version', () => {
    const newer = file('v3.json', { ...good, format: 'chainrpc-k6-summary/3' });
    expect(errorOf(() => readK6Summary(newer)).message).toBe(`${newer} is a chainrpc k6 summary of format chainrpc-k6-summary/3, written by a newer chainrpc; this one reads chainrpc-k6-summary/2 and chainrpc-k6-summary/1 (merge with the chainrpc that made the script)`);
    const zero = file('v0.json', { ...good, format: 'chainrpc-k6-summary/0' });
    expect(errorOf(() => readK6Summary(zero)).message).toBe(`${zero} is a chainrpc k6 summary of format chainrpc-k6-summary/0, a version this chainrpc never wrote; this one reads chainrpc-k6-summary/2 and chainrpc-k6-summary/1`);
  });

  it('names the path of a missing or ill-typed field', () => {
    const cases: [string, (s: Record<string, unknown>) => void, string][] = [
      ['no-url.json', (s) => delete s.url, 'url is missing (expected a non-empty string)'],
      ['count.json', (s) => ((s.requests as Record<string, unknown>).count = -1), 'requests.count must be a count (a whole number, 0 or more); got -1'],
      ['bucket.json', (s) => ((s.requests as { latency: Record<string, unknown> }).latency['800'] = 1.5), 'requests.latency["800"] must be a count (a whole number, 0 or more); got 1.5'],
      ['bucket-key.json', (s) => ((s.requests as { latency: Record<string, unknown> }).latency['9'] = 1), 'requests.latency["9"]: a bucket index must be a whole number from 227 to 1864 (log2 of µs x 70)'],
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
