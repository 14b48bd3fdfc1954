import { describe, expect, it } from 'vitest';
import { fuzzVerdict } from './fuzzVerdict.js';
import type { Finding } from './model.js';

const finding = (recheck: Finding['recheck']): Finding => ({ recheck }) as Finding;

describe('fuzzVerdict', () => {
  it('counts findings that stand, says flaky ones apart, and exits by them', () => {
    expect(fuzzVerdict({ findings: [], cases: 10, stop: 'cases' })).toMatchObject({ word: 'CLEAN', exitCode: 0 });
    expect(fuzzVerdict({ findings: [finding('flaky')], cases: 10, stop: 'cases' })).toMatchObject({ word: 'CLEAN', exitCode: 0, flaky: [{ recheck: 'flaky' }] });
    expect(fuzzVerdict({ findings: [finding('reproduced'), finding('flaky')], cases: 10, stop: 'cases' })).toMatchObject({ word: 'FOUND', exitCode: 1 });
    expect(fuzzVerdict({ findings: [finding('not-rechecked')], cases: 10, stop: 'all-targets-stopped' })).toMatchObject({ word: 'FOUND', exitCode: 1 });
    expect(fuzzVerdict({ findings: [], cases: 0, stop: 'all-targets-stopped' })).toMatchObject({ word: 'NOTHING', exitCode: 0 });
    expect(fuzzVerdict({ findings: [finding('reproduced')], cases: 3, stop: 'interrupted' }).exitCode).toBe(130);
  });
});
