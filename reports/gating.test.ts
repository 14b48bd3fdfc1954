import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../suites/model.js';
import { fixtureRun } from '../test/support/fixtureRun.js';
import { isExpectedFailure, isGating, levelGates } from './gating.js';

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
    const [first] = fixtureRun().results;
    const r = (status: CheckResult['status'], state?: 'expected-fail' | 'expired' | 'now-passing'): CheckResult => ({
      ...first!,
      status,
      ...(state ? { baseline: { state, reason: 'r' } } : {}),
    });
    expect(isExpectedFailure(r('fail', 'expected-fail'))).toBe(true);
    expect(isExpectedFailure(r('error', 'expected-fail'))).toBe(true);
    expect(isExpectedFailure(r('pass', 'expected-fail'))).toBe(false);
    expect(isGating(r('fail', 'expired'), 'MUST')).toBe(true);
    expect(isGating(r('fail', 'expected-fail'), 'MUST')).toBe(false);
    expect(isGating(r('skip'), 'MUST')).toBe(false);
  });
});
