import { describe, expect, it } from 'vitest';
import { loadReportFixture } from '../../test/support/loadReportFixture.js';
import { loadHeadline, verdictClass } from './loadVerdict.js';

describe('loadHeadline', () => {
  it.each([
    [0, 'PASSED: 3 thresholds kept', 'PASSED (exit 0): 3 thresholds kept', 'passed'],
    [99, 'FAILED: thresholds broken: p99 < 1ms', 'FAILED (exit 99): thresholds broken: p99 < 1ms', 'failed'],
    [1, 'NOT TRUSTED: figures not to be trusted: x', 'NOT TRUSTED (exit 1): figures not to be trusted: x', 'not-trusted'],
    [130, 'INTERRUPTED: the report holds what ran before Ctrl-C', 'INTERRUPTED (exit 130): the report holds what ran before Ctrl-C', 'interrupted'],
    [0, 'knee at 2,750 req/s', 'PASSED (exit 0): knee at 2,750 req/s', 'passed'],
  ])('exit %s "%s" reads "%s", once', (exitCode, summary, line, css) => {
    const report = { ...loadReportFixture('plain'), verdict: { exitCode, summary } };
    const headline = loadHeadline(report);
    expect(headline.line).toBe(line);
    expect(verdictClass(headline.word)).toBe(css);
  });
});
