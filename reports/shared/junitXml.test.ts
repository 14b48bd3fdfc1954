import { describe, expect, it } from 'vitest';
import { parseXml, xmlFindAll, xmlText } from '../../test/support/parseXml.js';
import { renderJunitXml } from './junitXml.js';
import type { JunitCase, JunitSuite } from './junitXml.js';

const hostile = '<a b="c">&amp; ]]> \u0000\u001b[31m';
const cases: JunitCase[] = [
  { classname: 'reads', name: 'passes', timeMs: 1500 },
  { classname: 'reads', name: 'fails', timeMs: 2, failure: { element: 'failure', message: hostile, type: 'MUST', text: `evidence ${hostile}` } },
  { classname: 'reads', name: 'errs', timeMs: 3, failure: { element: 'error', message: 'no answer', type: 'SHOULD', text: 'refused' } },
  { classname: 'writes', name: 'skipped', timeMs: 0, skipped: { message: 'not applicable' } },
  { classname: 'writes', name: 'excused', timeMs: 4, skipped: { message: 'expected failure: ticket 1' }, systemOut: 'the evidence' },
];
const suite = (name: string, list: JunitCase[]): JunitSuite => ({ name, timeMs: 1505, timestamp: '2026-01-01T00:00:00.000Z', properties: [['verdict', 'FAILED'], ['tool', hostile]], cases: list });

describe('renderJunitXml', () => {
  const text = renderJunitXml({ name: 'chainrpc x', timeMs: 6234.5, timestamp: '2026-01-01T00:00:00.000Z', suites: [suite('a', cases), suite('b', cases.slice(0, 2))] });
  const root = parseXml(text);

  it('is well-formed, with counts that follow the elements in each suite and in total', () => {
    expect(root.attributes).toMatchObject({ name: 'chainrpc x', tests: '7', failures: '2', errors: '1', skipped: '2', time: '6.234' });
    const [a, b] = xmlFindAll(root, 'testsuite');
    expect(a?.attributes).toMatchObject({ name: 'a', tests: '5', failures: '1', errors: '1', skipped: '2', time: '1.505' });
    expect(b?.attributes).toMatchObject({ name: 'b', tests: '2', failures: '1', errors: '0', skipped: '0' });
    expect(xmlFindAll(a!, 'property').map((p) => p.attributes.value)).toEqual(['FAILED', '<a b="c">&amp; ]]> ␀␛[31m']);
  });

  it('writes a case as CI servers read it: self-closing when it passes, else its failure, error, skip and output', () => {
    expect(text).toContain('    <testcase classname="reads" name="passes" time="1.500"/>');
    const [, fails, errs, , excused] = xmlFindAll(root, 'testcase');
    expect(xmlFindAll(fails!, 'failure')[0]?.attributes).toEqual({ message: '<a b="c">&amp; ]]> ␀␛[31m', type: 'MUST' });
    expect(xmlText(xmlFindAll(fails!, 'failure')[0]!)).toBe('evidence <a b="c">&amp; ]]> ␀␛[31m');
    expect(xmlFindAll(errs!, 'error')[0]?.attributes.type).toBe('SHOULD');
    expect(excused?.children.flatMap((c) => (typeof c === 'string' ? [] : [c.name]))).toEqual(['skipped', 'system-out']);
  });
});
