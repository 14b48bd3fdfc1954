import { describe, expect, it } from 'vitest';
import type { BaselineMark, CheckResult, Level, Status } from '../model.js';
import { fixtureRun } from '../../test/support/fixtureRun.js';
import { isExpectedFailure, isGating, levelGates, summarize, verdictHeadline } from './verdict.js';

const result = (id: string, status: Status, level: Level = 'MUST', state?: BaselineMark['state']): CheckResult => ({
  id, status, level, node: 'http://n:1', category: 'transport', title: id, spec: '', scope: 'node', durationMs: 1, evidence: { message: '', exchanges: [] },
  ...(state ? { baseline: { state, reason: 'r' } } : {}),
});

describe('gating', () => {
  it('orders the levels MUST (strictest) < SHOULD < PROFILE', () => {
    expect(levelGates('MUST', 'MUST')).toBe(true);
    expect(levelGates('SHOULD', 'MUST')).toBe(false);
    expect(levelGates('SHOULD', 'SHOULD')).toBe(true);
    expect(levelGates('PROFILE', 'SHOULD')).toBe(false);
    expect(levelGates('MUST', 'PROFILE')).toBe(true);
  });

  it('counts the gating results of the fixture as its summary does, at every gate', () => {
    for (const gate of ['MUST', 'SHOULD', 'PROFILE'] as const) {
      const run = fixtureRun({ gate });
      expect(run.results.filter((r) => isGating(r, gate))).toHaveLength(run.summary.gating);
    }
  });

  it('excuses failures and errors an expected-fail entry covers, never an expired one', () => {
    expect(isExpectedFailure(result('a/x', 'fail', 'MUST', 'expected-fail'))).toBe(true);
    expect(isExpectedFailure(result('a/x', 'error', 'MUST', 'expected-fail'))).toBe(true);
    expect(isExpectedFailure(result('a/x', 'pass', 'MUST', 'expected-fail'))).toBe(false);
    expect(isGating(result('a/x', 'fail', 'MUST', 'expired'), 'MUST')).toBe(true);
    expect(isGating(result('a/x', 'fail', 'MUST', 'expected-fail'), 'MUST')).toBe(false);
    expect(isGating(result('a/x', 'skip'), 'MUST')).toBe(false);
  });
});

describe('summarize: the gate and the exit code', () => {
  it('gates on the chosen level and above only', () => {
    const results = [result('a/x', 'pass'), result('b/x', 'fail', 'SHOULD'), result('c/x', 'fail', 'PROFILE')];
    expect(summarize(results, 'MUST', false)).toMatchObject({ passed: true, certified: true, exitCode: 0, gating: 0 });
    expect(summarize(results, 'SHOULD', false)).toMatchObject({ passed: false, exitCode: 1, gating: 1 });
    expect(summarize(results, 'PROFILE', false)).toMatchObject({ passed: false, exitCode: 1, gating: 2 });
  });

  it('counts errors as missing verdicts, excused ones aside, and exits 3 when no target answered', () => {
    const error = result('a/x', 'error');
    expect(summarize([error], 'MUST', false)).toMatchObject({ passed: false, exitCode: 1 });
    expect(summarize([{ ...error, baseline: { reason: 'r', state: 'expected-fail' } }], 'MUST', false)).toMatchObject({ passed: true, exitCode: 0 });
    expect(summarize([error], 'MUST', true)).toMatchObject({ passed: false, exitCode: 3 });
  });

  it('counts every result per level and status, excused or not', () => {
    const { counts } = summarize([result('a/x', 'pass'), result('a/y', 'fail', 'MUST', 'expected-fail'), result('b/x', 'skip', 'SHOULD'), result('c/x', 'error', 'PROFILE')], 'MUST', false);
    expect(counts).toEqual({
      MUST: { pass: 1, fail: 1, error: 0, skip: 0 },
      SHOULD: { pass: 0, fail: 0, error: 0, skip: 1 },
      PROFILE: { pass: 0, fail: 0, error: 1, skip: 0 },
    });
  });

  it('certifies a passing run at any gate, and says what failed otherwise', () => {
    const passing = [result('a/x', 'pass'), result('b/x', 'pass', 'SHOULD'), result('c/x', 'skip', 'SHOULD')];
    expect(summarize(passing, 'MUST', false)).toMatchObject({ certified: true, verdict: 'no failure at MUST level' });
    expect(summarize(passing, 'PROFILE', false)).toMatchObject({ certified: true, verdict: 'no failure at PROFILE level or above' });
    // An expired entry excuses nothing.
    expect(summarize([...passing, result('a/y', 'fail', 'MUST', 'expired')], 'SHOULD', false)).toMatchObject({
      passed: false,
      certified: false,
      gating: 1,
      verdict: '1 check result(s) at SHOULD level or above failed or could not be verified',
    });
    expect(summarize(passing, 'MUST', true)).toMatchObject({ passed: false, certified: false, verdict: 'no target answered JSON-RPC, nothing was verified' });
  });

  it('passes without certifying when a MUST requirement was not seen to hold: skipped, excused by the baseline, or left out', () => {
    const passing = [result('a/x', 'pass'), result('b/x', 'pass', 'SHOULD')];
    const cases: Array<[CheckResult[], number, string]> = [
      [[...passing, result('n/x', 'skip')], 0, '1 MUST check result(s) skipped'],
      [[...passing, result('a/y', 'error', 'MUST', 'expected-fail')], 0, '1 MUST check result(s) excused by the baseline'],
      [[...passing, result('a/y', 'fail', 'MUST', 'expected-fail')], 0, '1 MUST check result(s) excused by the baseline'],
      [passing, 4, '4 MUST check(s) left out by --only/--skip'],
      [[...passing, result('n/x', 'skip'), result('n/y', 'skip'), result('a/y', 'fail', 'MUST', 'expected-fail')], 2, '2 MUST check result(s) skipped, 1 MUST check result(s) excused by the baseline, 2 MUST check(s) left out by --only/--skip'],
    ];
    for (const [results, leftOut, why] of cases) {
      for (const gate of ['MUST', 'PROFILE'] as const) {
        expect(summarize(results, gate, false, leftOut)).toMatchObject({ passed: true, certified: false, exitCode: 0, verdict: `no failure at ${gate === 'MUST' ? 'MUST level' : 'PROFILE level or above'}; not certified: ${why}` });
      }
    }
    // What is not MUST never stands in the way: a skipped SHOULD check, a left-out count of 0.
    expect(summarize([...passing, result('s/x', 'skip', 'SHOULD'), result('p/x', 'fail', 'PROFILE', 'expected-fail')], 'PROFILE', false, 0)).toMatchObject({ passed: true, certified: true });
  });
});

describe('verdictHeadline', () => {
  it('says FAILED, PASSED or CERTIFIED with the gate, from the summary', () => {
    const run = fixtureRun();
    expect(verdictHeadline(run)).toEqual({ word: 'FAILED', line: 'FAILED at gate MUST: 4 check result(s) at MUST level failed or could not be verified' });
    run.summary = { ...run.summary, passed: true, certified: false, verdict: '' };
    run.gate = 'PROFILE';
    expect(verdictHeadline(run)).toEqual({ word: 'PASSED', line: 'PASSED at gate PROFILE' });
    run.summary.certified = true;
    expect(verdictHeadline(run).word).toBe('CERTIFIED');
  });
});
