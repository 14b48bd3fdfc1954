import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../../core/json/index.js';
import type { JsonValue } from '../../../core/json/index.js';
import { runChecks, startTestNode, testProfile } from '../../testSupport.js';
import type { TestNode } from '../../testSupport.js';
import { errors } from './errors.js';
import { expectAllPass, expectFailure, expectFaultCaught, faultCasesFor, notPassing, resultOf, runThroughProxy } from './testSupport.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.stop();
});

/** Rewrites the error object of a single error response. */
const rewriteError = (text: string, f: (e: Record<string, JsonValue>) => Record<string, JsonValue>): string => {
  if (text === '') return text;
  const v = parseJson(text);
  if (typeof v !== 'object' || v === null || Array.isArray(v) || typeof v.error !== 'object' || v.error === null || Array.isArray(v.error)) return text;
  return stringifyJson({ ...v, error: f(v.error) });
};

describe('transport error checks', () => {
  it('all pass against the reference node', async () => {
    expectAllPass(await runChecks(errors, [node.url]), errors.length);
  });

  it('accept id null on -32600 answers to requests that had a valid id', async () => {
    const results = await runThroughProxy(errors, node.url, (res) => {
      if (!res.body.includes('"code":-32600')) return res;
      const v = parseJson(res.body);
      return typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...res, body: stringifyJson({ ...v, id: null }) } : res;
    });
    expectAllPass(results, errors.length);
  });

  it('error-object-shape fails on a string code', async () => {
    const results = await runThroughProxy(errors, node.url, (res) => ({ ...res, body: rewriteError(res.body, (e) => ({ ...e, code: typeof e.code === 'number' ? String(e.code) : 'not a number' })) }));
    expectFailure(results, 'transport/error-object-shape', /invalid JSON: malformed error object: "error\.code" is "-32700", not an integer/);
  });

  it('error-object-shape fails on a missing message', async () => {
    const results = await runThroughProxy(errors, node.url, (res) => ({ ...res, body: rewriteError(res.body, ({ message: _message, ...rest }) => rest) }));
    expectFailure(results, 'transport/error-object-shape', /malformed error object: "error\.message" is \(absent\), not a string/);
  });

  it('by-name-params-refused is skipped when the profile names no InvalidParams code', async () => {
    const { InvalidParams: _drop, ...codes } = testProfile().errorCodes;
    const results = await runChecks(errors, [node.url], { profile: testProfile({ errorCodes: codes }) });
    const r = resultOf(results, 'transport/by-name-params-refused');
    expect([r.status, r.evidence.message]).toEqual(['skip', 'the profile names no InvalidParams code']);
    expect(notPassing(results)).toEqual(['transport/by-name-params-refused']);
  });

  describe('fail on the faults they are meant to catch', () => {
    for (const { fault, catches } of faultCasesFor(errors)) {
      it(`${fault}: ${catches.map(([id]) => id).join(', ')}`, () => expectFaultCaught(errors, fault, catches));
    }
  });
});
