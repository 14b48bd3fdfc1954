/**
 * junit.xml of a fuzz run, read back with the test XML parser: a suite per node, a failure per standing finding
 * with its message and minimal case, a flaky sighting skipped and never a failure (a run with only those has
 * no failure at all), a passing case per oracle with no standing finding (so a clean run is not an empty
 * suite), tool errors as errors and never failures, and counts that agree with the elements.
 */
import { describe, expect, it } from 'vitest';
import { ORACLES } from '../../fuzz/model.js';
import { FUZZ_FIXTURE_KINDS, FUZZ_HOSTILE, FUZZ_NODE_A, FUZZ_NODE_B, fuzzRunFixture } from '../../test/support/fuzzRunFixture.js';
import { parseXml, xmlFindAll, xmlText } from '../../test/support/parseXml.js';
import type { XmlElement } from '../../test/support/parseXml.js';
import { renderFuzzJunit } from './renderFuzzJunit.js';

const suites = (root: XmlElement): XmlElement[] => xmlFindAll(root, 'testsuite');
const cases = (el: XmlElement): XmlElement[] => xmlFindAll(el, 'testcase');
const names = (el: XmlElement): (string | undefined)[] => cases(el).map((c) => c.attributes.name);
const only = <T>(items: readonly T[]): T => {
  if (items.length !== 1 || items[0] === undefined) throw new Error(`expected one, got ${items.length}`);
  return items[0];
};
const suiteOf = (root: XmlElement, name: string): XmlElement => {
  const found = suites(root).find((s) => s.attributes.name === name);
  if (!found) throw new Error(`no suite ${name}`);
  return found;
};
const caseOf = (suite: XmlElement, prefix: string): XmlElement => only(cases(suite).filter((c) => c.attributes.name?.startsWith(prefix) === true));

describe('renderFuzzJunit', () => {
  it.each(FUZZ_FIXTURE_KINDS)('writes well-formed XML whose counts agree with its elements (%s)', (kind) => {
    const root = parseXml(renderFuzzJunit(fuzzRunFixture(kind)));
    expect(root.name).toBe('testsuites');
    for (const el of [root, ...suites(root)]) {
      expect(cases(el)).toHaveLength(Number(el.attributes.tests));
      expect(xmlFindAll(el, 'failure')).toHaveLength(Number(el.attributes.failures));
      expect(xmlFindAll(el, 'error')).toHaveLength(Number(el.attributes.errors));
      expect(xmlFindAll(el, 'skipped')).toHaveLength(Number(el.attributes.skipped));
    }
  });

  it('has a suite per node, a failure per standing finding, and a passing case per oracle that found nothing there', () => {
    const run = fuzzRunFixture('findings');
    const root = parseXml(renderFuzzJunit(run));
    expect(suites(root).map((s) => s.attributes.name)).toEqual([FUZZ_NODE_A, FUZZ_NODE_B, 'chainrpc fuzz']);
    // Five standing findings fail; the flaky sighting (F6) is skipped, and its oracle still passes on its node. Node A
    // stopped answering: its oracles without a finding are skipped, with how far they got (no clean pass).
    expect(root.attributes).toMatchObject({ tests: '23', failures: '5', errors: '2', skipped: '7' });
    const a = suiteOf(root, FUZZ_NODE_A);
    expect(names(a)).toEqual([
      'F1 error-expected: chain_getBlockByHeight found by invalid-params/maximum, shrunk',
      'F2 liveness: no method envelope/deep-nesting',
      'F3 disagreement: chain_getAccount valid/chain_getAccount',
      'F5 error-code: chain_getBlockByHeight invalid-params/type',
      ...ORACLES.filter((o) => !['error-expected', 'liveness', 'disagreement', 'error-code'].includes(o)).map((o) => `${o}: no finding`),
    ]);
    expect(a.attributes.failures).toBe('4');
    expect(xmlText(caseOf(a, 'leak: no finding')).trim()).toBe('no finding by the leak oracle in 5,396 cases; the node stopped answering after 5,396 cases, 31.9 s into the run of the 1 min 00 s asked for');
    const properties = new Map(xmlFindAll(a, 'property').map((p): [string | undefined, string | undefined] => [p.attributes.name, p.attributes.value]));
    expect(properties.get('state')).toBe('stopped');
    expect(properties.get('verdict')).toBe(`FUZZ: 5 findings on ${FUZZ_NODE_A} and ${FUZZ_NODE_B} in 10,793 cases (seed 424242; 1 flaky sighting did not reproduce)`);
    const b = suiteOf(root, FUZZ_NODE_B);
    expect(names(b)).toEqual([
      'F4 leak: no method envelope/invalid-utf8',
      'F6 slow: chain_getBlockByHeight valid/chain_getBlockByHeight',
      ...ORACLES.filter((o) => o !== 'leak').map((o) => `${o}: no finding`),
      'tool error 1',
    ]);
    expect(b.attributes).toMatchObject({ tests: '12', failures: '1', errors: '1', skipped: '1' });
  });

  it('fails a finding with its message, and carries the minimal case, the answer, the replay command and the curl', () => {
    const root = parseXml(renderFuzzJunit(fuzzRunFixture('findings'), { reportPath: 'out/fuzz-1/report.json' }));
    const failure = only(xmlFindAll(caseOf(suiteOf(root, FUZZ_NODE_A), 'F1 '), 'failure'));
    expect(failure.attributes).toMatchObject({ type: 'error-expected', message: 'answered an invalid height (2^64, above the u64 maximum) with a result' });
    const text = xmlText(failure);
    expect(text).toContain('minimal case: height 2^64 (shrunk from invalid-params/maximum, seed 424242 case #1812)');
    expect(text).toContain('body:\n{"jsonrpc":"2.0","id":7,"method":"chain_getBlockByHeight","params":["18446744073709551616"]}');
    expect(text).toContain(`answer of ${FUZZ_NODE_A}: HTTP 200 in 2.10 ms\n{"jsonrpc":"2.0","id":7,"result":null}`);
    expect(text).toContain('replay: chainrpc fuzz --replay out/fuzz-1/report.json F1');
    expect(text).toContain("curl: curl -sS -i -X POST -H 'content-type: application/json'");
  });

  it('skips a flaky sighting, never fails it, and keeps its evidence beside it', () => {
    const root = parseXml(renderFuzzJunit(fuzzRunFixture('findings'), { reportPath: 'out/fuzz-1/report.json' }));
    const f6 = caseOf(suiteOf(root, FUZZ_NODE_B), 'F6 ');
    expect(xmlFindAll(f6, 'failure')).toEqual([]);
    expect(xmlFindAll(f6, 'error')).toEqual([]);
    expect(only(xmlFindAll(f6, 'skipped')).attributes.message).toBe('flaky: answered in 2,310 ms, beyond the time bound of 1,000 ms (seen once, not again when re-sent; not counted)');
    const out = xmlText(only(xmlFindAll(f6, 'system-out')));
    expect(out).toContain('oracle: slow; source: chainrpc: max(1 s, 50x the median call)');
    expect(out).toContain('flaky: not seen again when the minimal case was re-sent, so not counted');
    expect(out).toContain(`answer of ${FUZZ_NODE_B}: HTTP 200 in 2.31 s`);
    expect(out).toContain('replay: chainrpc fuzz --replay out/fuzz-1/report.json F6');
    expect(out).toContain(`curl: curl -sS -i -X POST -H 'content-type: application/json' --data-binary`);
    expect(caseOf(suiteOf(root, FUZZ_NODE_B), 'slow: no finding').attributes.name).toBe('slow: no finding');
  });

  it('fails no case of a run whose only finding is a flaky sighting: CLEAN, with the sighting skipped', () => {
    const run = fuzzRunFixture('flaky');
    const root = parseXml(renderFuzzJunit(run));
    expect(root.attributes).toMatchObject({ tests: '10', failures: '0', errors: '0', skipped: '1' });
    expect(xmlFindAll(root, 'failure')).toEqual([]);
    const suite = only(suites(root));
    expect(names(suite)).toEqual(['F1 slow: chain_getBlockByHeight valid/chain_getBlockByHeight', ...ORACLES.filter((o) => o !== 'disagreement').map((o) => `${o}: no finding`)]);
    expect(only(xmlFindAll(caseOf(suite, 'F1 '), 'skipped')).attributes.message).toMatch(/^flaky: answered in 2,310 ms/);
    const properties = new Map(xmlFindAll(suite, 'property').map((p): [string | undefined, string | undefined] => [p.attributes.name, p.attributes.value]));
    expect(properties.get('verdict')).toBe(`FUZZ: no finding in 10,000 cases (seed 424242, 50.0 s, ${FUZZ_NODE_A}; 1 flaky sighting did not reproduce)`);
  });

  it('shows bytes that are not UTF-8 as hex, and a hostile body reads back exactly', () => {
    const root = parseXml(renderFuzzJunit(fuzzRunFixture('findings')));
    const b = suiteOf(root, FUZZ_NODE_B);
    expect(xmlText(caseOf(b, 'F4 '))).toContain('body (hex, not UTF-8):\n00000000  7b 22 69 64 22 3a ff fe');
    expect(xmlText(caseOf(suiteOf(root, FUZZ_NODE_A), 'F5 '))).toContain(`"params":["${FUZZ_HOSTILE}"]`);
  });

  it('reports tool errors as errors, never failures: in their node\'s suite, or in a suite of their own', () => {
    const root = parseXml(renderFuzzJunit(fuzzRunFixture('findings')));
    const funding = only(xmlFindAll(caseOf(suiteOf(root, FUZZ_NODE_B), 'tool error 1'), 'error'));
    expect(funding.attributes.type).toBe('tool');
    expect(funding.attributes.message).toBe(`could not fund an account for valid transactions: the faucet refused (-32005 ${FUZZ_HOSTILE})`);
    const tool = suiteOf(root, 'chainrpc fuzz');
    expect(names(tool)).toEqual(['tool error 2']);
    expect(tool.attributes).toMatchObject({ failures: '0', errors: '1' });
    expect(xmlFindAll(root, 'failure').every((f) => f.attributes.type !== 'tool')).toBe(true);
  });

  it('makes a clean run a suite of passes, one per oracle (no disagreement with one node)', () => {
    const suite = only(suites(parseXml(renderFuzzJunit(fuzzRunFixture('clean')))));
    expect(names(suite)).toEqual(ORACLES.filter((o) => o !== 'disagreement').map((o) => `${o}: no finding`));
    expect(suite.attributes).toMatchObject({ tests: '9', failures: '0', errors: '0', skipped: '0' });
  });

  it('gives a node that never answered an error, and skips its oracles', () => {
    const suite = only(suites(parseXml(renderFuzzJunit(fuzzRunFixture('unreachable')))));
    expect(only(xmlFindAll(caseOf(suite, 'node answered'), 'error')).attributes.message).toBe(`${FUZZ_NODE_A} did not answer: no case was judged`);
    expect(suite.attributes).toMatchObject({ tests: '11', failures: '0', errors: '2', skipped: '9' });
  });
});
