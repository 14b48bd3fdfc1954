// The step verdict of a sweep on failed calls (no timing: runs built by hand). A node that sheds load with JSON-RPC
// errors in HTTP 200s keeps its achieved rate (an error object is an answer); before, a sweep with no `errors`
// threshold in its scenario passed it at 800/s with four calls in five refused.
import { describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { loadReportFixture } from '../../test/support/loadReportFixture.js';
import type { LoadRun, MethodStats, ThresholdResult } from '../model.js';
import { resolveScenario } from '../scenario/loadScenario.js';
import { SWEEP_ERRORS_LIMIT, sloReasons, sweepErrorsReason, sweepJudgement } from './runSweep.js';

/** A step at 200/s that held on every other count: served at its rate, nothing dropped, valid, complete, no threshold. */
function step(methods: Pick<MethodStats, 'method' | 'calls' | 'ok' | 'errors' | 'unanswered' | 'invalid'>[], thresholds: ThresholdResult[] = []): LoadRun {
  const base = loadReportFixture('plain').runs[0];
  if (base === undefined) throw new Error('fixture without a run');
  const run = structuredClone(base);
  const empty = run.latency;
  run.valid = true;
  run.invalid = [];
  run.stop = { reason: 'completed', atMs: run.durationMs };
  run.schedule = { ...run.schedule, targetRate: 200, achievedRate: 200, dropped: 0 };
  run.methods = methods.map((m) => ({ validated: 0, latency: empty, service: empty, ...m }));
  run.thresholds = thresholds;
  return run;
}

const refused = (method: string, calls: number, errors: number, code = '-32005'): Pick<MethodStats, 'method' | 'calls' | 'ok' | 'errors' | 'unanswered' | 'invalid'> => ({
  method,
  calls,
  ok: calls - errors,
  errors: errors === 0 ? {} : { [code]: errors },
  unanswered: 0,
  invalid: 0,
});

describe('a sweep step judges failed calls', () => {
  it('breaks at 20% of the calls answered with a JSON-RPC error, and says so', () => {
    // The outside tester's step at 200/s: 79 of 400 calls refused with -32005 "rate limited", achieved 199.5/s.
    const run = step([refused('chain_blockNumber', 206, 38), refused('chain_health', 194, 41)]);
    const reasons = sloReasons(run);
    expect(reasons).toEqual([`errors 19.8% over ${SWEEP_ERRORS_LIMIT}%: 79 of 400 calls failed (79 JSON-RPC error -32005)`]);
  });

  it('holds at 0.5% of the calls failed', () => {
    const run = step([refused('chain_blockNumber', 100, 0), refused('chain_health', 100, 1)]);
    expect(sloReasons(run)).toEqual([]);
  });

  it('counts calls with no answer (an HTTP status, a timeout) as failed too', () => {
    const run = step([{ method: 'chain_health', calls: 200, ok: 180, errors: {}, unanswered: 20, invalid: 0 }]);
    expect(sweepErrorsReason(run)).toBe('errors 10.0% over 1%: 20 of 200 calls failed (20 unanswered (timeout, transport, HTTP status, malformed))');
  });

  it('names what the unanswered requests met: HTTP 503 by count (an outside tester\'s shedding node)', () => {
    const run = step([{ method: 'chain_health', calls: 200, ok: 180, errors: {}, unanswered: 20, invalid: 0 }]);
    run.failures = { ...run.failures, timeouts: 2, transport: 0, httpStatus: { '503': 18 }, malformed: 0 };
    expect(sweepErrorsReason(run)).toBe('errors 10.0% over 1%: 20 of 200 calls failed (20 unanswered (requests: HTTP 503 ×18, 2 timed out))');
  });

  it('gives way to the scenario\'s own errors threshold: whole-run, or per method', () => {
    const methods = [refused('chain_blockNumber', 200, 0), refused('chain_getBlockByHeight', 200, 100, '-32602')];
    const whole: ThresholdResult = { name: 'errors < 50%', metric: 'errors', unit: '%', limit: 50, actual: 25, ok: true };
    expect(sloReasons(step(methods, [whole]))).toEqual([]);
    const perMethod: ThresholdResult = { name: 'chain_getBlockByHeight:errors <= 60%', metric: 'chain_getBlockByHeight:errors', unit: '%', limit: 60, actual: 50, ok: true };
    expect(sloReasons(step(methods, [perMethod]))).toEqual([]);
    // The other methods are still judged by the sweep's bound.
    const shed = [refused('chain_blockNumber', 200, 40), refused('chain_getBlockByHeight', 200, 100, '-32602')];
    expect(sloReasons(step(shed, [perMethod]))).toEqual(['errors 20.0% over 1%: 40 of 200 calls of the methods no errors threshold of the scenario judges failed (40 JSON-RPC error -32005)']);
  });

  it('takes a "not found" asked on purpose (fixed params) as an answer, and nothing else', () => {
    const scenario = resolveScenario({
      name: 'unknown-heights',
      arrivals: { model: 'open', rate: 50 },
      duration: '1s',
      validate: 0,
      mix: [{ method: 'chain_getBlockByHeight', params: [999_999_999] }, { method: 'chain_blockNumber' }],
    });
    const judge = sweepJudgement(scenario, referenceProfile());
    const notFound = String(referenceProfile().errorCodes.BlockNotFound);
    expect(sloReasons(step([refused('chain_getBlockByHeight', 100, 100, notFound), refused('chain_blockNumber', 100, 0)]), judge)).toEqual([]);
    // A rate limit on the same calls is still a failure.
    expect(sweepErrorsReason(step([refused('chain_getBlockByHeight', 100, 30), refused('chain_blockNumber', 100, 0)]), judge)).toMatch(/^errors 15\.0% over 1%/);
    // Drawn params read what exists: a "not found" there is a failure.
    const drawn = resolveScenario({ name: 'drawn', arrivals: { model: 'open', rate: 50 }, duration: '1s', validate: 0, mix: [{ method: 'chain_getBlockByHeight' }] });
    expect(sweepErrorsReason(step([refused('chain_getBlockByHeight', 100, 100, notFound)]), sweepJudgement(drawn, referenceProfile()))).toMatch(/^errors 100.0% over 1%/);
  });
});

describe('a sweep step judges its achieved rate', () => {
  it('holds one request short at the window\'s end, and breaks short by more', () => {
    const at = (targetRate: number, achievedRate: number, durationMs: number): string[] => {
      const run = step([refused('chain_blockNumber', 100, 0)]);
      run.durationMs = durationMs;
      run.schedule = { ...run.schedule, targetRate, achievedRate };
      return sloReasons(run).filter((r) => r.startsWith('achieved'));
    };
    // An outside tester's step at 27/s for 2 s: 53 of 54 requests served in the window (the 54th just after it).
    expect(at(27, 26.5, 2_000)).toEqual([]);
    expect(at(150, 145.3, 3_000)).toEqual(['achieved 145.3/s, under 99% of 150/s']);
  });
});
