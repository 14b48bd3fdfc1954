import { describe, expect, it } from 'vitest';
import { LOAD_FIXTURE_KINDS, loadReportFixture } from '../test/support/loadReportFixture.js';
import { EXIT } from '../core/errors/exitCodes.js';
import { loadHeadline, loadVerdict, verdictClass } from './loadVerdict.js';
import { thresholdOutcome } from './figures.js';
import type { LoadRun, SweepResult } from './model.js';
import { sloReasons } from './sweep/runSweep.js';

const run = (): LoadRun => {
  const r = loadReportFixture('plain').runs[0];
  if (r === undefined) throw new Error('fixture without a run');
  return structuredClone(r);
};
const keptAll = (): LoadRun => {
  const r = run();
  r.thresholds = r.thresholds.map((t) => ({ ...t, ok: true }));
  return r;
};

describe('loadVerdict', () => {
  it('passes when every threshold is kept, and says how many', () => {
    const r = keptAll();
    const v = loadVerdict([r], [], undefined, false);
    expect(v.exitCode).toBe(EXIT.ok);
    expect(v.summary).toBe(`PASSED: ${r.thresholds.length} thresholds kept`);
  });

  it('fails with 99 on a broken threshold, naming it, what was measured (with its unit) and where', () => {
    const r = keptAll();
    r.thresholds[0] = { name: 'p99 < 1ms', metric: 'p99', unit: 'ms', limit: 1, actual: 14, ok: false };
    const v = loadVerdict([r], [], undefined, false);
    expect(v.exitCode).toBe(99);
    expect(v.summary).toContain(`p99 < 1ms (actual 14.0 ms at ${r.url})`);
  });

  it('prints every threshold value with its unit: a time, a percentage, a count of requests, nothing measured', () => {
    const r = keptAll();
    r.thresholds = [
      { name: 'p99 < 1us', metric: 'p99', unit: 'ms', limit: 0.001, actual: 5.131, ok: false },
      { name: 'errors < 0.1%', metric: 'errors', unit: '%', limit: 0.1, actual: 2.5, ok: false },
      { name: 'dropped < 1', metric: 'dropped', unit: 'count', limit: 1, actual: 3, ok: false },
      { name: 'chain_getAccount:p50 < 1ms', metric: 'chain_getAccount:p50', unit: 'ms', limit: 1, actual: null, ok: false },
    ];
    const { summary } = loadVerdict([r], [], undefined, false);
    expect(summary).toBe(
      `FAILED: thresholds broken: p99 < 1us (actual 5.13 ms at ${r.url}), errors < 0.1% (actual 2.50% at ${r.url}), dropped < 1 (actual 3 requests at ${r.url}), chain_getAccount:p50 < 1ms (nothing measured at ${r.url})`,
    );
  });

  it('a sweep step says why its SLO broke with the same units', () => {
    const r = keptAll();
    r.thresholds = [{ name: 'p99 < 1us', metric: 'p99', unit: 'ms', limit: 0.001, actual: 5.131, ok: false }];
    expect(sloReasons(r)).toContain('p99 < 1us: actual 5.13 ms');
  });

  it('fails with 99 on a regression against the baseline', () => {
    const report = loadReportFixture('baseline');
    const r = keptAll();
    const v = loadVerdict([r], [], report.baseline, false);
    expect(v.exitCode).toBe(99);
    expect(v.summary).toMatch(/regressions against the baseline: .*p99/);
    // A share (errors%) changes in points, as the reports write it; the rest relatively.
    const baseline = report.baseline;
    if (baseline === undefined) throw new Error('the fixture has no baseline');
    const [first] = baseline.deltas;
    if (first === undefined) throw new Error('the fixture has no delta');
    const errors = { ...first, metric: 'http://a errors%', unit: '%' as const, baseline: 0, current: 10, change: 0.1, allowed: 0.01, regression: true };
    const inPoints = loadVerdict([r], [], { ...baseline, deltas: [errors] }, false);
    expect(inPoints.summary).toContain('http://a errors% +10.0 points (allowed ±1.0 points)');
  });

  it('gives 1 when the figures cannot be trusted or the node died mid-run, even with thresholds broken (they may be the generator\'s doing)', () => {
    const behind = keptAll();
    behind.valid = false;
    behind.invalid = ['the generator fell behind its schedule: send lag p99 9.0 ms'];
    const untrusted = loadVerdict([behind], [], undefined, false);
    expect(untrusted.exitCode).toBe(1);
    expect(untrusted.summary).toContain('figures not to be trusted');
    const died = keptAll();
    died.stop = { reason: 'target-unreachable', atMs: 4200, message: 'connect ECONNREFUSED' };
    const dead = loadVerdict([died], [], undefined, false);
    expect(dead.exitCode).toBe(1);
    expect(dead.summary).toContain('stopped answering 4.2 s into the run: connect ECONNREFUSED');
    behind.thresholds[0] = { name: 'errors < 1%', metric: 'errors', unit: '%', limit: 1, actual: 50, ok: false };
    const both = loadVerdict([behind], [], undefined, false);
    expect(both.exitCode).toBe(1);
    expect(both.summary).toMatch(/^NOT TRUSTED: figures not to be trusted: .*; thresholds broken: errors < 1%/);
  });

  it('gives 130 when interrupted, whatever else, and keeps what it knows in the line', () => {
    const r = keptAll();
    r.thresholds[0] = { name: 'p99 < 1ms', metric: 'p99', unit: 'ms', limit: 1, actual: 14, ok: false };
    const v = loadVerdict([r], [], undefined, true);
    expect(v.exitCode).toBe(130);
    expect(v.summary).toMatch(/^INTERRUPTED: .*p99 < 1ms/);
  });

  it('judges no threshold of a run cut by Ctrl-C (they speak of the whole window); a run that completed before it keeps its own', () => {
    const cut = keptAll();
    cut.stop = { reason: 'interrupted', atMs: 2_000 };
    cut.thresholds[0] = { name: 'p99 < 1ms', metric: 'p99', unit: 'ms', limit: 1, actual: 14, ok: false };
    const v = loadVerdict([cut], [], undefined, true);
    expect(v.exitCode).toBe(130);
    expect(v.summary).not.toContain('p99 < 1ms');
    expect(thresholdOutcome(cut, cut.thresholds[0])).toBe('not judged');
    expect(thresholdOutcome(keptAll(), { ok: true })).toBe('kept');
    expect(thresholdOutcome(keptAll(), { ok: false })).toBe('broken');
  });

  it('reports a sweep\'s knee, and does not trust a sweep the generator cut short', () => {
    const sweep = structuredClone(loadReportFixture('sweep').sweeps[0]) as SweepResult;
    const found = loadVerdict([], [sweep], undefined, false);
    expect(found.exitCode).toBe(0);
    expect(found.summary).toContain(`knee at ${sweep.knee ?? ''} requests/s`);
    const top = sweep.steps[sweep.steps.length - 1];
    if (top === undefined) throw new Error('a sweep without steps');
    top.generatorLimited = true;
    const v = loadVerdict([], [sweep], undefined, false);
    expect(v.exitCode).toBe(1);
    expect(v.summary).toContain(`the generator fell behind at ${top.rate} requests/s on every try, so the search stopped there (the knee is at least ${sweep.knee ?? ''} requests/s)`);
  });

  it('fails a sweep whose SLO held at no rate (99), and does not trust one whose node stopped answering between steps (1)', () => {
    const sweep = structuredClone(loadReportFixture('sweep').sweeps[0]) as SweepResult;
    const kneeless = { ...sweep, knee: null, steps: sweep.steps.map((s) => ({ ...s, sloHeld: false })) };
    const v = loadVerdict([], [kneeless], undefined, false);
    expect(v.exitCode).toBe(99);
    expect(v.summary).toContain('the SLO held at no rate tried');
    const stopped = { ...sweep, stopped: 'the node stopped answering before the step at 4000 requests/s: x' };
    const w = loadVerdict([], [stopped], undefined, false);
    expect(w.exitCode).toBe(1);
    expect(w.summary).toContain(`the node stopped answering before the step at 4000 requests/s: x (the knee is at least ${sweep.knee ?? ''} requests/s)`);
  });

  it('says a sweep the generator could not drive at any step measured no rate: untrusted (1), not an SLO held nowhere', () => {
    const sweep = structuredClone(loadReportFixture('sweep').sweeps[0]) as SweepResult;
    const [first] = sweep.steps;
    if (first === undefined) throw new Error('a sweep without steps');
    const unmeasured = { ...sweep, knee: null, steps: [{ ...first, sloHeld: false, generatorLimited: true }] };
    const v = loadVerdict([], [unmeasured], undefined, false);
    expect(v.exitCode).toBe(1);
    expect(v.summary).not.toContain('the SLO held at no rate tried');
    expect(v.knees).toEqual([`${sweep.url}: no rate was measured (the generator fell behind at every step it tried)`]);
  });

  it('does not call the top of a sweep whose SLO held everywhere its knee', () => {
    const sweep = structuredClone(loadReportFixture('sweep').sweeps[0]) as SweepResult;
    const held = { ...sweep, knee: 4000, steps: sweep.steps.map((s) => ({ ...s, sloHeld: true, reasons: [] })) };
    const v = loadVerdict([], [held], undefined, false);
    expect(v.exitCode).toBe(0);
    expect(v.summary).toBe(`PASSED: ${sweep.url}: the SLO held at every rate tried, up to 4000 requests/s (the knee lies above: raise --max-rate or the --rates)`);
  });
});

describe('loadHeadline', () => {
  // The fixtures are judged by loadVerdict, as the command judges: each headline is the line the command prints, with its exit code.
  it.each(LOAD_FIXTURE_KINDS)('%s: the headline is the summary the command prints, with its exit code', (kind) => {
    const report = loadReportFixture(kind);
    const { word, exitCode, reasons, summary } = report.verdict;
    expect(summary).toBe(`${word}: ${reasons.join('; ')}`);
    const headline = loadHeadline(report);
    expect(headline.word).toBe(word);
    expect(headline.line).toBe(`${word} (exit ${exitCode})${reasons.length === 0 ? '' : `: ${reasons.join('; ')}`}`);
  });

  it.each([
    ['plain', 'PASSED', 0, 'passed'],
    ['compared', 'FAILED', 99, 'failed'],
    ['empty', 'NOT TRUSTED', 1, 'not-trusted'],
    ['interrupted', 'INTERRUPTED', 130, 'interrupted'],
    ['sweep', 'PASSED', 0, 'passed'],
  ] as const)('%s reads %s (exit %s), class verdict-%s', (kind, word, exitCode, css) => {
    const headline = loadHeadline(loadReportFixture(kind));
    expect(headline.word).toBe(word);
    expect(headline.line.startsWith(`${word} (exit ${exitCode})`)).toBe(true);
    expect(verdictClass(headline.word)).toBe(css);
  });

  it('a sweep\'s headline is its knee sentence', () => {
    const report = loadReportFixture('sweep');
    expect(report.verdict.knees).toEqual(['http://127.0.0.1:8545: knee at 2750 requests/s']);
    expect(loadHeadline(report).line).toBe('PASSED (exit 0): http://127.0.0.1:8545: knee at 2750 requests/s');
  });
});
