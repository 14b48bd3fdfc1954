import { describe, expect, it } from 'vitest';
import { fixtureRun } from '../test/support/fixtureRun.js';
import { verdictHeadline } from './verdictHeadline.js';

describe('verdictHeadline', () => {
  it('says FAILED, PASSED or CERTIFIED with the gate, from the summary', () => {
    const run = fixtureRun();
    expect(verdictHeadline(run)).toEqual({ word: 'FAILED', line: 'FAILED at gate MUST: 4 gating failures at MUST or stricter' });
    run.summary = { ...run.summary, passed: true, certified: false, verdict: '' };
    run.gate = 'PROFILE';
    expect(verdictHeadline(run)).toEqual({ word: 'PASSED', line: 'PASSED at gate PROFILE' });
    run.summary.certified = true;
    expect(verdictHeadline(run).word).toBe('CERTIFIED');
  });
});
