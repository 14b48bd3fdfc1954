import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../../core/json/index.js';
import type { JsonValue } from '../../../core/json/index.js';
import { runChecks, startTestNode } from '../../../test/support/suites.js';
import type { TestNode } from '../../../test/support/suites.js';
import { ids } from './ids.js';
import { expectAllPass, expectFailure, expectFaultCaught, faultCasesFor, resultOf, runThroughProxy } from '../../../test/support/transportChecks.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.stop();
});

/** Rewrites every response object of a JSON answer (single or batch). */
const eachResponse = (text: string, f: (r: Record<string, JsonValue>) => Record<string, JsonValue>): string => {
  if (text === '') return text;
  const v = parseJson(text);
  const one = (r: JsonValue): JsonValue => (typeof r === 'object' && r !== null && !Array.isArray(r) ? f(r) : r);
  return stringifyJson(Array.isArray(v) ? v.map(one) : one(v));
};

describe('transport id checks', () => {
  it('all pass against the reference node', async () => {
    expectAllPass(await runChecks(ids, [node.url]), ids.length);
  });

  it('accept extra members in response objects and result objects', async () => {
    const results = await runThroughProxy(ids, node.url, (res) => ({
      ...res,
      body: eachResponse(res.body, (r) => ({ node: 'extra', ...r, ...(typeof r.result === 'object' && r.result !== null && !Array.isArray(r.result) ? { result: { ...r.result, extra: true } } : {}) })),
    }));
    expectAllPass(results, ids.length);
  });

  it('judge each id on its own: a node that turns numeric ids into strings fails the numeric echo, not the null one (the setup reads its answer whatever the id)', async () => {
    const results = await runThroughProxy(ids, node.url, (res) => ({ ...res, body: res.body.replace(/"id":(\d+)/, '"id":"$1"') }));
    expectFailure(results, 'transport/id-integer-echoed', /./);
    expect(results.find((r) => r.id === 'transport/id-null-answered')?.status).toBe('pass');
  });

  it('answers to calls that carry no id: the id checks fail saying so, and no check breaks on them (an outside tester\'s proxy made 49 end in error)', async () => {
    const results = await runThroughProxy(ids, node.url, (res) => ({ ...res, body: eachResponse(res.body, ({ id: _id, ...r }) => ('result' in r ? r : { ...r, id: _id ?? null })) }));
    expect(results.filter((r) => r.status === 'error').map((r) => `${r.id}: ${r.evidence.message}`)).toEqual([]);
    expectFailure(results, 'transport/id-integer-echoed', /./);
    expect(results.map((r) => r.evidence.message).join('\n')).not.toMatch(/no JSON representation|neither result nor error/);
  });

  it('id-integer-echoed catches an id past 32 bits echoed as a 32-bit integer (an outside tester\'s node wrapped 3000000000)', async () => {
    const wrap = (id: string): string => String(BigInt.asIntN(32, BigInt(id)));
    const results = await runThroughProxy(ids, node.url, (res) => ({ ...res, body: res.body.replace(/"id":(\d{10,16})(?=[,}])/, (_m, id: string) => `"id":${BigInt(id) < 2n ** 53n ? wrap(id) : id}`) }));
    expectFailure(results, 'transport/id-integer-echoed', /answered with id 1 \(number\), not 4294967297 \(number\)/);
  });

  it('catch an id sent back in exponent form (9.007199254740993e15 reads as a rounded double)', async () => {
    const results = await runThroughProxy(ids, node.url, (res) => ({ ...res, body: res.body.replace('"id":9007199254740993', '"id":9.007199254740993e15') }));
    expectFailure(results, 'transport/id-large-integer-echoed', /answered with id 9007199254740992 \(number\), not 9007199254740993 \(number\)/);
    expect(results.filter((r) => r.status !== 'pass').map((r) => r.id)).toEqual(['transport/id-large-integer-echoed']);
  });

  it('ids-echoed-under-concurrency: calls refused for the load (HTTP 503, no response object) are a limit, not judged; too many and there is no verdict', async () => {
    const concurrency = ids.filter((c) => c.id === 'transport/ids-echoed-under-concurrency');
    const busy = { status: 503, headers: { 'content-type': 'text/plain' }, body: 'busy' };
    let n = 0;
    const some = await runThroughProxy(concurrency, node.url, (res) => res, (req) => (/"id":7\d{6}/.test(req.body) && n++ % 4 === 0 ? busy : undefined));
    const r = resultOf(some, 'transport/ids-echoed-under-concurrency');
    expect(`${r.status}: ${r.evidence.message}`).toMatch(/^pass: all 96 calls answered with their own id, 16 in flight at a time \(32 more refused with HTTP 503, not judged\)$/);
    const most = await runThroughProxy(concurrency, node.url, (res) => res, (req) => (/"id":7\d{6}/.test(req.body) ? busy : undefined));
    const e = resultOf(most, 'transport/ids-echoed-under-concurrency');
    expect(`${e.status}: ${e.evidence.message}`).toMatch(/^error: only 0 of 128 calls at 16 in flight were answered with a response object; 128 were refused with HTTP 503 \(the node's limit on load\): too few to judge, no verdict$/);
  });

  it('ids-echoed-under-concurrency: a node slower than its time allows is judged on the calls sent in half of it, saying so', async () => {
    // 20 calls/s and 3 s for the check: sending stops after about 1.5 s, some 30 calls.
    const concurrency = ids.filter((c) => c.id === 'transport/ids-echoed-under-concurrency');
    const r = resultOf(await runChecks(concurrency, [node.url], { maxRatePerNode: 20, checkTimeoutMs: 3_000 }), 'transport/ids-echoed-under-concurrency');
    expect(`${r.status}: ${r.evidence.message}`).toMatch(/^pass: all \d+ calls answered with their own id, 16 in flight at a time \(sending stopped at half the check's time after \d+ calls\)$/);
  });

  describe('fail on the faults they are meant to catch', () => {
    for (const { fault, catches } of faultCasesFor(ids)) {
      it(`${fault}: ${catches.map(([id]) => id).join(', ')}`, () => expectFaultCaught(ids, fault, catches));
    }
  });
});
