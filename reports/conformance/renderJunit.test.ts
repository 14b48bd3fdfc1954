import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../suites/model.js';
import { HOSTILE_MESSAGE, NODE_A, NODE_B, fixtureRun } from '../../test/support/fixtureRun.js';
import { parseXml, xmlFindAll, xmlText } from '../../test/support/parseXml.js';
import type { XmlElement } from '../../test/support/parseXml.js';
import { renderJunit } from './renderJunit.js';

const suitesOf = (root: XmlElement): XmlElement[] => xmlFindAll(root, 'testsuite');
const counts = (el: XmlElement): Record<string, string | undefined> => {
  const { tests, failures, errors, skipped } = el.attributes;
  return { tests, failures, errors, skipped };
};
const testcase = (suite: XmlElement, id: string): XmlElement => {
  const found = xmlFindAll(suite, 'testcase').find((t) => t.attributes.name?.startsWith(`${id} [`));
  if (!found) throw new Error(`no testcase ${id} in ${suite.attributes.name}`);
  return found;
};

describe('renderJunit', () => {
  const run = fixtureRun();
  const root = parseXml(renderJunit(run));
  const [suiteA, suiteB, network] = suitesOf(root);

  it('is well-formed, with one testsuite per node and one for network checks', () => {
    expect(root.name).toBe('testsuites');
    expect(suitesOf(root).map((s) => s.attributes.name)).toEqual([NODE_A, NODE_B, 'network']);
  });

  it('counts tests, failures, errors and skips per suite and in total (expected failures count as skipped)', () => {
    expect(counts(root)).toEqual({ tests: '17', failures: '6', errors: '1', skipped: '3' });
    expect(counts(suiteA!)).toEqual({ tests: '8', failures: '2', errors: '0', skipped: '2' });
    expect(counts(suiteB!)).toEqual({ tests: '7', failures: '3', errors: '1', skipped: '1' });
    expect(counts(network!)).toEqual({ tests: '2', failures: '1', errors: '0', skipped: '0' });
    // The attributes agree with the elements.
    for (const suite of suitesOf(root)) {
      const cases = xmlFindAll(suite, 'testcase');
      expect(cases).toHaveLength(Number(suite.attributes.tests));
      expect(xmlFindAll(suite, 'failure')).toHaveLength(Number(suite.attributes.failures));
      expect(xmlFindAll(suite, 'error')).toHaveLength(Number(suite.attributes.errors));
      expect(xmlFindAll(suite, 'skipped')).toHaveLength(Number(suite.attributes.skipped));
    }
  });

  it("writes times in seconds: the check's own per testcase, the run's wall time for the whole and per suite", () => {
    expect(root.attributes.time).toBe('6.234');
    // The checks run concurrently: a suite's time is the run's wall time, never the sum of its cases.
    for (const suite of suitesOf(root)) expect(suite.attributes.time).toBe('6.234');
    expect(network?.attributes.time).toBe('6.234');
    expect(testcase(network!, 'network/tx-propagation').attributes.time).toBe('5.010');
    expect(root.attributes.timestamp).toBe(run.startedAt);
  });

  it("never gives a node's suite more time than the run took, however many checks overlapped, and says what the time is", () => {
    const busy: RunResult = { ...run, durationMs: 938, results: run.results.map((r) => ({ ...r, durationMs: 900 })) };
    const busyRoot = parseXml(renderJunit(busy));
    for (const suite of suitesOf(busyRoot)) {
      expect(Number(suite.attributes.time)).toBeLessThanOrEqual(0.938);
      const note = xmlFindAll(suite, 'property').find((p) => p.attributes.name === 'time');
      expect(note?.attributes.value).toMatch(/wall time.*concurrently/);
    }
  });

  it('names a testcase "id [LEVEL]" with the category as classname', () => {
    const tc = testcase(suiteA!, 'chain_getAccount/balance-is-u128-string');
    expect(tc.attributes).toMatchObject({ classname: 'methods', name: 'chain_getAccount/balance-is-u128-string [MUST]' });
  });

  it('puts the evidence into a failure typed with the level: message, expected/actual, exchange, reproduce', () => {
    const [failure] = xmlFindAll(testcase(suiteA!, 'chain_getAccount/balance-is-u128-string'), 'failure');
    expect(failure?.attributes).toEqual({ message: 'result.balance is a JSON number; the spec requires a decimal string (u128)', type: 'MUST' });
    const text = xmlText(failure!);
    expect(text).toContain('expected: a decimal string such as "340282366920938463463374607431768211455"');
    expect(text).toContain('actual: 340282366920938463463374607431768211455 (a number)');
    expect(text).toContain(`request: POST ${NODE_A}/rpc`);
    expect(text).toContain('"balance":340282366920938463463374607431768211455,"nonce":18446744073709551615');
    expect(text).toContain(`reproduce:\ncurl -sS -X POST '${NODE_A}/rpc'`);
  });

  it('notes a failure below the gate, maps error to <error>, skip and expected failures to <skipped>', () => {
    expect(xmlText(testcase(suiteA!, 'chain_getBlockByHeight/unknown-height-error'))).toContain('This PROFILE fail does not fail the run (gate: MUST).');
    const [error] = xmlFindAll(testcase(suiteB!, 'chain_getBlockByHeight/head-height-monotonic'), 'error');
    expect(error?.attributes.type).toBe('MUST');
    expect(xmlText(error!)).toContain('failure: UND_ERR_SOCKET: other side closed');
    const [skip] = xmlFindAll(testcase(suiteA!, 'chain_faucetClaim/grants-funds'), 'skipped');
    expect(skip?.attributes.message).toBe('the profile in use says the faucet is disabled');
    const expected = testcase(suiteA!, 'chain_sendRawTransaction/rejects-bad-signature');
    expect(xmlFindAll(expected, 'skipped')[0]?.attributes.message).toBe('expected failure: ticket #42: signature checks land in v2');
    expect(xmlFindAll(expected, 'failure')).toHaveLength(0);
    expect(xmlText(xmlFindAll(expected, 'system-out')[0]!)).toContain('the transaction was accepted into the mempool');
    expect(xmlText(testcase(suiteA!, 'net_peerCount/is-u64'))).toContain('passes now: remove the entry');
    expect(xmlText(testcase(suiteB!, 'chain_getBlockByHeight/genesis-height-zero'))).toContain('the entry expired (expires 2024-12-31)');
  });

  it('escapes markup and replaces characters XML 1.0 forbids, keeping them visible', () => {
    const hostile = xmlText(testcase(suiteA!, 'chain_getBlockByHeight/unknown-height-error'));
    expect(hostile).toContain(JSON.stringify(HOSTILE_MESSAGE));
    const controls = xmlText(testcase(suiteB!, 'transport/control-characters-answered'));
    expect(controls).toContain('bad ␀␇ input ␛[31mred␛[0m \ufffd');
    expect(controls).toContain('"id":"tab\there"}␍\n');
  });

  it('keeps a newline in a message attribute and survives hostile text everywhere', () => {
    const nasty = '<a b="c">&amp; \'q\' ]]> \u0000\u001f\ud800 \n\ttab';
    const base = fixtureRun();
    const first = base.results[3]!;
    const run2: RunResult = {
      ...base,
      profile: { name: nasty, source: nasty },
      results: [{ ...first, id: `transport/${nasty}`, category: 'transport', evidence: { ...first.evidence, message: nasty } }],
    };
    const doc = parseXml(renderJunit(run2));
    const [failure] = xmlFindAll(doc, 'failure');
    expect(failure?.attributes.message).toBe('<a b="c">&amp; \'q\' ]]> ␀␟\ufffd \n\ttab');
  });

  it('has a suite per target even when it has no results', () => {
    const empty = { ...fixtureRun(), results: [] };
    const doc = parseXml(renderJunit(empty));
    expect(suitesOf(doc).map((s) => [s.attributes.name, s.attributes.tests])).toEqual([
      [NODE_A, '0'],
      [NODE_B, '0'],
    ]);
  });
});
