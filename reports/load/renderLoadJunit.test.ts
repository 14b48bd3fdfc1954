import { describe, expect, it } from 'vitest';
import { LOAD_FIXTURE_KINDS, LOAD_HOSTILE, LOAD_NODE_A, LOAD_NODE_B, loadReportFixture } from '../../test/support/loadReportFixture.js';
import { parseXml, xmlFindAll, xmlText } from '../../test/support/parseXml.js';
import type { XmlElement } from '../../test/support/parseXml.js';
import { renderLoadJunit } from './renderLoadJunit.js';

const suites = (root: XmlElement): XmlElement[] => xmlFindAll(root, 'testsuite');
const cases = (el: XmlElement): XmlElement[] => xmlFindAll(el, 'testcase');
const named = (el: XmlElement, name: string): XmlElement => {
  const found = cases(el).find((c) => c.attributes.name === name);
  if (!found) throw new Error(`no testcase "${name}" in ${el.attributes.name}: ${cases(el).map((c) => c.attributes.name).join(', ')}`);
  return found;
};
const only = <T>(items: readonly T[]): T => {
  if (items.length !== 1 || items[0] === undefined) throw new Error(`expected one, got ${items.length}`);
  return items[0];
};

describe('renderLoadJunit', () => {
  it.each(LOAD_FIXTURE_KINDS)('writes well-formed XML whose counts agree with its elements (%s)', (kind) => {
    const root = parseXml(renderLoadJunit(loadReportFixture(kind)));
    expect(root.name).toBe('testsuites');
    for (const el of [root, ...suites(root)]) {
      expect(cases(el)).toHaveLength(Number(el.attributes.tests));
      expect(xmlFindAll(el, 'failure')).toHaveLength(Number(el.attributes.failures));
      expect(xmlFindAll(el, 'error')).toHaveLength(Number(el.attributes.errors));
    }
  });

  it('has a suite per run with "run valid" and a case per threshold; a broken threshold fails with actual against limit', () => {
    const report = loadReportFixture('compared');
    const root = parseXml(renderLoadJunit(report));
    expect(suites(root).map((s) => s.attributes.name)).toEqual([`reads-mixed @ ${LOAD_NODE_A}`, `reads-mixed @ ${LOAD_NODE_B}`]);
    const b = suites(root)[1] as XmlElement;
    expect(cases(b).map((c) => c.attributes.name)).toEqual(['run valid', 'threshold: p99 < 50ms', 'threshold: p50 < 10ms', 'threshold: errors < 1%']);
    const broken = only(xmlFindAll(named(b, 'threshold: p99 < 50ms'), 'failure'));
    const run = report.runs[1];
    expect(broken.attributes.type).toBe('threshold');
    expect(broken.attributes.message).toMatch(/^p99 < 50ms broken: actual \d+(\.\d+)? ms, limit 50\.0 ms$/);
    expect(xmlText(broken)).toContain(`actual: ${run?.thresholds[0]?.actual}`);
    expect(xmlFindAll(named(b, 'threshold: p50 < 10ms'), 'failure')).toEqual([]);
    expect(xmlFindAll(named(b, 'run valid'), 'error')).toEqual([]);
    const properties = new Map(xmlFindAll(b, 'property').map((p): [string | undefined, string | undefined] => [p.attributes.name, p.attributes.value]));
    expect(properties.get('url')).toBe(LOAD_NODE_B);
    expect(properties.get('verdict')).toMatch(/^FAILED \(exit 99\): thresholds broken: p99 < 50ms \(actual [\d,]+ ms at http:\/\/10\.0\.0\.7:8545\)$/);
  });

  it('reports an invalid run as an error (no verdict), with why and how it stopped', () => {
    const root = parseXml(renderLoadJunit(loadReportFixture('interrupted')));
    const valid = named(only(suites(root)), 'run valid');
    const error = only(xmlFindAll(valid, 'error'));
    expect(error.attributes.message).toContain('run invalid: the generator fell behind its schedule');
    expect(xmlText(error)).toContain('interrupted after 12.4 s of measurement');
    // The user's and the node's text, escaped: it reads back exactly as written (the escape character shown as a picture).
    expect(xmlText(error)).toContain(LOAD_HOSTILE.split('\u001b').join('␛'));
    // Its thresholds are skipped, not kept or broken: they speak of the whole window.
    const thresholds = cases(only(suites(root))).filter((c) => c.attributes.name?.startsWith('threshold: '));
    expect(thresholds.length).toBeGreaterThan(0);
    for (const t of thresholds) {
      expect(xmlFindAll(t, 'failure')).toEqual([]);
      expect(only(xmlFindAll(t, 'skipped')).attributes.message).toMatch(/^not judged: the run was interrupted \(actual so far .+, limit .+\)$/);
    }
  });

  it('has a case per baseline figure, a regression failing with the change and what was allowed', () => {
    const root = parseXml(renderLoadJunit(loadReportFixture('baseline')));
    const baseline = suites(root).find((s) => s.attributes.name?.startsWith('baseline '));
    if (!baseline) throw new Error('no baseline suite');
    expect(cases(baseline)).toHaveLength(4);
    const p99 = only(xmlFindAll(named(baseline, `no regression: ${LOAD_NODE_A} reads-mixed p99`), 'failure'));
    expect(p99.attributes.type).toBe('regression');
    expect(p99.attributes.message).toMatch(/^regression: 5\.10 ms → \d+(\.\d+)? ms \(\+\d+\.\d%, allowed ±15\.0%\)$/);
    expect(xmlFindAll(named(baseline, `no regression: ${LOAD_NODE_A} reads-mixed achievedRate`), 'failure')).toEqual([]);
    expect(baseline.attributes.failures).toBe('2');
  });

  it('writes the failed-call share\'s change in points and an improvement as improved', () => {
    const report = loadReportFixture('baseline');
    const errors = { metric: `${LOAD_NODE_A} reads-mixed errors%`, unit: '%' as const, baseline: 10, current: 0, change: -0.1, allowed: 0.01, regression: false };
    const root = parseXml(renderLoadJunit({ ...report, baseline: { ...(report.baseline as NonNullable<typeof report.baseline>), deltas: [errors] } }));
    const baseline = suites(root).find((s) => s.attributes.name?.startsWith('baseline '));
    if (!baseline) throw new Error('no baseline suite');
    expect(xmlText(only(xmlFindAll(named(baseline, `no regression: ${LOAD_NODE_A} reads-mixed errors%`), 'system-out')))).toBe('10.0% → 0% (−10.0 points, allowed ±1.0 points): improved');
  });

  it('has a case per sweep step and "knee found", and fails "knee found" when the SLO held nowhere', () => {
    const report = loadReportFixture('sweep');
    const sweep = only(suites(parseXml(renderLoadJunit(report))));
    expect(cases(sweep).map((c) => c.attributes.name)).toEqual(['rate 500 req/s', 'rate 1,000 req/s', 'rate 2,000 req/s', 'rate 2,500 req/s', 'rate 2,750 req/s', 'rate 3,000 req/s', 'rate 4,000 req/s', 'knee found']);
    expect(sweep.attributes.failures).toBe('0');
    expect(xmlText(named(sweep, 'rate 4,000 req/s'))).toContain('SLO broken: achieved 3162 req/s');
    expect(xmlText(named(sweep, 'knee found')).trim()).toBe('knee at 2,750 req/s');

    const first = report.sweeps[0];
    if (!first) throw new Error('no sweep');
    first.knee = null;
    const noKnee = only(suites(parseXml(renderLoadJunit(report))));
    expect(only(xmlFindAll(named(noKnee, 'knee found'), 'failure')).attributes.message).toBe('the SLO held at no rate tried');
  });
});
