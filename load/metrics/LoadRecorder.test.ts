import { describe, expect, it } from 'vitest';
import type { PlannedRequest } from '../engine/RequestSource.js';
import { classifyExchange, type Exchange } from './classifyExchange.js';
import { LoadRecorder } from './LoadRecorder.js';
import { TimelineBuilder } from './TimelineBuilder.js';
import { mergeRuns } from '../mergeRuns.js';
import type { LoadRun } from '../model.js';
import { loadReportFixture } from '../../test/support/loadReportFixture.js';

const batchOf = (methods: string[]): PlannedRequest => ({ body: Buffer.from('[]'), calls: methods.map((method, i) => ({ id: i + 1, method })), batch: true });
const single = (method: string): PlannedRequest => ({ body: Buffer.from('{}'), calls: [{ id: 1, method }], batch: false });
const answer = (body: unknown, status = 200): Exchange => ({ kind: 'answer', status, body: Buffer.from(JSON.stringify(body)) });

/** A fixed, varied stream of exchanges: every kind of outcome, deterministic timings. */
function* exchanges(): Generator<[PlannedRequest, Exchange, { scheduledMs: number; writtenMs: number | undefined; endedMs: number }, boolean]> {
  for (let i = 0; i < 3_000; i++) {
    const t = { scheduledMs: i, writtenMs: i + (i % 3) * 0.01, endedMs: i + 0.2 + (i % 97) * 0.37 };
    const measured = i >= 100;
    switch (i % 6) {
      case 0:
        yield [single('a'), answer({ jsonrpc: '2.0', id: 1, result: i }), t, measured];
        break;
      case 1:
        yield [single('b'), answer({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'busy' } }), t, measured];
        break;
      case 2:
        yield [batchOf(['a', 'b', 'a']), answer([{ jsonrpc: '2.0', id: 3, result: 1 }, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: '' } }, { jsonrpc: '2.0', id: 7, result: 0 }]), t, measured];
        break;
      case 3:
        yield [single('a'), answer('x', 502), t, measured];
        break;
      case 4:
        yield [single('c'), { kind: 'timeout' }, t, measured];
        break;
      default:
        yield [single('c'), { kind: 'transport', cause: 'connection refused', reason: 'ECONNREFUSED' }, { ...t, writtenMs: undefined }, measured];
    }
  }
}

describe('LoadRecorder', () => {
  it('counts every call by method and code, and request failures, over the measured window only', () => {
    const r = new LoadRecorder();
    for (const [req, ex, t, measured] of exchanges()) r.ended(req, classifyExchange(req, ex), t, measured);
    const f = r.figures();
    // 2,900 measured requests (the first 100 are warm-up), 2900/6 of each kind, rounded by position.
    const per = (k: number): number => Array.from({ length: 2_900 }, (_, j) => j + 100).filter((i) => i % 6 === k).length;
    expect(f.schedule.completed).toBe(2_900);
    expect(f.latency.count).toBe(2_900);
    expect(f.service.count).toBe(2_900 - per(5)); // never written: no service time
    const byName = Object.fromEntries(f.methods.map((m) => [m.method, m]));
    // The batch [a#1, b#2, a#3] is answered #3 ok, #1 an error, #2 missing, and an extra #7.
    expect(byName.a).toMatchObject({ calls: per(0) + 2 * per(2) + per(3), ok: per(0) + per(2), unanswered: per(3), errors: { '-32602': per(2) } });
    expect(byName.b).toMatchObject({ calls: per(1) + per(2), ok: 0, errors: { '-32005': per(1) }, unanswered: per(2) });
    expect(byName.c).toMatchObject({ calls: per(4) + per(5), ok: 0, unanswered: per(4) + per(5) });
    // A method's latency histogram holds one value per call.
    expect(byName.a?.latency.count).toBe(byName.a?.calls);
    expect(f.failures).toEqual({ timeouts: per(4), transport: per(5), transportCauses: { 'connection refused': per(5) }, httpStatus: { '502': per(3) }, malformed: 0, extraElements: per(2), missingElements: per(2) });
    expect(f.batchSizes.map((b) => [b.size, b.requests])).toEqual([
      ['single', 2_900 - per(2)],
      ['3', per(2)],
    ]);
  });

  it('merges exactly: two recorders added equal one that saw everything', () => {
    const whole = new LoadRecorder();
    const parts = [new LoadRecorder(), new LoadRecorder()];
    let i = 0;
    for (const [req, ex, t, measured] of exchanges()) {
      const c = classifyExchange(req, ex);
      whole.ended(req, c, t, measured);
      parts[i++ % 2]?.ended(req, c, t, measured);
      for (const r of [whole, parts[i % 2] as LoadRecorder]) {
        r.scheduled(measured);
        r.sent(measured);
        r.lag((i % 50) * 3.3, measured);
      }
    }
    const merged = LoadRecorder.fromFigures((parts[0] as LoadRecorder).figures());
    merged.add(parts[1] as LoadRecorder);
    expect(merged.figures()).toEqual(whole.figures());
  });

  it('keeps the current tick apart (warm-up included) and starts the next one empty', () => {
    const r = new LoadRecorder();
    const req = single('a');
    r.sent(false);
    r.dropped(false);
    r.ended(req, classifyExchange(req, answer({ jsonrpc: '2.0', id: 1, result: 1 })), { scheduledMs: 0, writtenMs: 0, endedMs: 2 }, false);
    const tick = r.closeTick(-1, 3);
    expect(tick).toMatchObject({ index: -1, sent: 1, dropped: 1, completed: 1, okCalls: 1, failedCalls: 0, inFlight: 3 });
    expect(tick.latency.percentile(50)).toBe(2_000);
    expect(r.closeTick(0, 0)).toMatchObject({ sent: 0, completed: 0 });
    expect(r.figures().schedule).toMatchObject({ sent: 0, dropped: 0, completed: 0 });
  });

  it('says apart, in a tick, the calls of the measured window: a progress line that adds them up ends where the figures do (a warm-up request ending in the window is in the tick, not in the run)', () => {
    const r = new LoadRecorder();
    const req = single('a');
    const ok = classifyExchange(req, answer({ jsonrpc: '2.0', id: 1, result: 1 }));
    const refused = classifyExchange(req, answer({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'busy' } }));
    r.ended(req, ok, { scheduledMs: -1, writtenMs: -1, endedMs: 1 }, false); // scheduled in the warm-up
    r.ended(req, ok, { scheduledMs: 0, writtenMs: 0, endedMs: 2 }, true);
    r.ended(req, refused, { scheduledMs: 0, writtenMs: 0, endedMs: 2 }, true);
    r.dropped(false);
    r.dropped(true);
    const tick = r.closeTick(0, 0);
    expect(tick).toMatchObject({ okCalls: 2, failedCalls: 1, dropped: 2, measured: { okCalls: 1, failedCalls: 1, dropped: 1 } });
    expect(r.callTotals()).toEqual({ ok: tick.measured.okCalls, failed: tick.measured.failedCalls });
    expect(r.figures().schedule.dropped).toBe(tick.measured.dropped);
    expect(r.closeTick(1, 0).measured).toEqual({ okCalls: 0, failedCalls: 0, dropped: 0 });
  });

  it("a tick tells the node's answers from failures: refused connections are neither served nor in the tick's latency", () => {
    // A node killed mid-tick: 5 answers in 40 ms, then 45 refused connections that fail in 0.5 ms each.
    const r = new LoadRecorder();
    const req = single('a');
    for (let i = 0; i < 5; i++) r.ended(req, classifyExchange(req, answer({ jsonrpc: '2.0', id: 1, result: 1 })), { scheduledMs: i, writtenMs: i, endedMs: i + 40 }, true);
    r.ended(req, classifyExchange(req, answer({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'busy' } })), { scheduledMs: 0, writtenMs: 0, endedMs: 40 }, true);
    for (let i = 0; i < 45; i++) r.ended(req, classifyExchange(req, { kind: 'transport', cause: 'connection refused', reason: 'ECONNREFUSED' }), { scheduledMs: i, writtenMs: undefined, endedMs: i + 0.5 }, true);
    const tick = r.closeTick(4, 0);
    // Every request ended; the node served 6 (a JSON-RPC error is an answer, as the achieved rate counts it).
    expect(tick).toMatchObject({ completed: 51, served: 6, okCalls: 5, failedCalls: 46 });
    expect(tick.latency.count).toBe(6);
    expect(tick.latency.percentile(50)).toBeGreaterThan(39_000);
    const timeline = new TimelineBuilder(1, 1_000);
    expect(timeline.add(tick)).toMatchObject({ completed: 51, served: 6 });
  });

  it('counts toward the achieved rate only the measured requests that ended before the window closed', () => {
    const r = new LoadRecorder();
    const req = single('a');
    const ok = classifyExchange(req, answer({ jsonrpc: '2.0', id: 1, result: 1 }));
    r.ended(req, ok, { scheduledMs: 0, writtenMs: 0, endedMs: 5 }, true, true);
    r.ended(req, ok, { scheduledMs: 0, writtenMs: 0, endedMs: 5 }, true, false); // ended after the window
    const f = r.figures();
    expect(f.schedule.completed).toBe(1);
    expect(f.latency.count).toBe(2);
  });
});

describe('transport failures by cause', () => {
  it('add up to the transport count across a node\'s rounds, and are kept only when every round has them (a k6 merge does not)', () => {
    const round = (causes?: Record<string, number>): LoadRun => {
      const run = loadReportFixture('plain').runs[0] as LoadRun;
      const { transportCauses: _none, ...failures } = run.failures;
      const n = Object.values(causes ?? {}).reduce((a, b) => a + b, 0);
      return { ...run, failures: { ...failures, transport: n, ...(causes === undefined ? {} : { transportCauses: causes }) } };
    };
    expect(mergeRuns([round({ 'connection reset': 2 }), round({ 'connection reset': 1, 'an answer over 16 MiB': 4 })]).failures).toMatchObject({ transport: 7, transportCauses: { 'connection reset': 3, 'an answer over 16 MiB': 4 } });
    expect(mergeRuns([round({ 'connection reset': 2 }), round()]).failures.transportCauses).toBeUndefined();
  });

  it('are counted by a thread and added up across threads exactly', () => {
    const req = single('a');
    const thread = (causes: [string, number][]): LoadRecorder => {
      const r = new LoadRecorder();
      for (const [cause, n] of causes) for (let i = 0; i < n; i++) r.ended(req, classifyExchange(req, { kind: 'transport', cause, reason: cause }), { scheduledMs: i, writtenMs: undefined, endedMs: i + 0.5 }, true);
      return r;
    };
    const merged = thread([['connection refused', 3]]);
    merged.addFigures(thread([['connection refused', 1], ['an answer over 16 MiB', 2]]).figures());
    expect(merged.figures().failures).toMatchObject({ transport: 6, transportCauses: { 'connection refused': 4, 'an answer over 16 MiB': 2 } });
  });
});

describe('TimelineBuilder', () => {
  it('merges the same tick of every thread, with exact percentiles', () => {
    const a = new LoadRecorder();
    const b = new LoadRecorder();
    const req = single('a');
    const ok = classifyExchange(req, answer({ jsonrpc: '2.0', id: 1, result: 1 }));
    for (let i = 1; i <= 100; i++) (i <= 50 ? a : b).ended(req, ok, { scheduledMs: 0, writtenMs: 0, endedMs: i }, true);
    const timeline = new TimelineBuilder(2, 500);
    expect(timeline.add(a.closeTick(2, 1))).toBeUndefined();
    const point = timeline.add(b.closeTick(2, 4));
    expect(point).toMatchObject({ tMs: 1_000, completed: 100, okCalls: 100, inFlight: 5 });
    // Within the histogram's 0.1%.
    expect(Math.abs((point?.p50Us ?? 0) - 50_000)).toBeLessThanOrEqual(50);
    expect(Math.abs((point?.p99Us ?? 0) - 99_000)).toBeLessThanOrEqual(99);
    timeline.add(a.closeTick(3, 0)); // b never reports tick 3 (it stopped a tick earlier): flush gives it
    expect(timeline.points().map((p) => p.tMs)).toEqual([1_000]);
    expect(timeline.flush().map((p) => p.tMs)).toEqual([1_500]);
    expect(timeline.points().map((p) => p.tMs)).toEqual([1_000, 1_500]);
  });
});
