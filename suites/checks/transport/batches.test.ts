import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../../core/json/index.js';
import type { JsonValue } from '../../../core/json/index.js';
import { runChecks, startTestNode, testProfile } from '../../../test/support/suites.js';
import type { TestNode } from '../../../test/support/suites.js';
import { batches } from './batches.js';

/** The mixed batch of transport/mixed-batch (its invalid element {"foo":"boo"} is its own). */
const isMixedBatch = (body: string): boolean => body.startsWith('[') && body.includes('{"foo":"boo"}');
import { expectAllPass, expectFailure, expectFaultCaught, faultCasesFor, notPassing, resultOf, runThroughProxy } from '../../../test/support/transportChecks.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.stop();
});

describe('transport batch checks', () => {
  it('all pass against the reference node', async () => {
    expectAllPass(await runChecks(batches, [node.url]), batches.length);
  });

  it('accept batch responses in any order, with extra members', async () => {
    const results = await runThroughProxy(batches, node.url, (res) => {
      if (!res.body.startsWith('[')) return res;
      const list = parseJson(res.body) as JsonValue[];
      return { ...res, body: stringifyJson(list.reverse().map((r) => (typeof r === 'object' && r !== null && !Array.isArray(r) ? { ...r, served_by: 'proxy' } : r))) };
    });
    expectAllPass(results, batches.length);
    expect(resultOf(results, 'transport/mixed-batch').evidence.message).toBe('5 responses, in the order 9, 5, null, 2, 1');
  });

  it('mixed-batch fails on a duplicated response', async () => {
    const results = await runThroughProxy(batches, node.url, (res, req) => {
      if (!res.body.startsWith('[') || !isMixedBatch(req.body)) return res;
      const list = parseJson(res.body) as JsonValue[];
      return { ...res, body: stringifyJson([...list, list[0] ?? null]) };
    });
    expectFailure(results, 'transport/mixed-batch', /got 6 responses, expected 5; unexpected or repeated responses with id 1/);
  });

  // An outside tester's mutants: both passed every check before mixed-batch asked each call's answer to be the one it gets alone.
  it('mixed-batch fails on a batch answer whose results are swapped between two calls (ids kept)', async () => {
    const results = await runThroughProxy(batches, node.url, (res, req) => {
      if (!res.body.startsWith('[') || !isMixedBatch(req.body)) return res;
      const list = parseJson(res.body) as Record<string, JsonValue>[];
      const [a, b] = [list.find((r) => r.id === 1), list.find((r) => r.id === 2)];
      if (a === undefined || b === undefined) return res;
      [a.result, b.result] = [b.result as JsonValue, a.result as JsonValue];
      return { ...res, body: stringifyJson(list) };
    });
    expectFailure(results, 'transport/mixed-batch', /chain_blockNumber \[\] \(id 1\) was answered with a result that breaks chain_blockNumber's spec schema, which its answer alone keeps \(.*\): another call's result, or its own written otherwise in a batch/);
  });

  it('mixed-batch fails on a node that answers -32603 to every call of a batch after the first', async () => {
    const results = await runThroughProxy(batches, node.url, (res, req) => {
      if (!res.body.startsWith('[') || !isMixedBatch(req.body)) return res;
      const list = parseJson(res.body) as Record<string, JsonValue>[];
      return { ...res, body: stringifyJson(list.map((r, i) => (i === 0 || !('result' in r) ? r : { jsonrpc: '2.0', id: r.id ?? null, error: { code: -32603, message: 'Internal error' } }))) };
    });
    expectFailure(results, 'transport/mixed-batch', /was answered with error -32603 \(Internal error\), alone with a result/);
  });

  it('the limit checks are skipped without a maxBatch in the profile', async () => {
    const { maxBatch: _drop, ...profile } = testProfile();
    const results = await runChecks(batches, [node.url], { profile });
    expect(notPassing(results)).toEqual(['transport/batch-limit', 'transport/batch-at-limit-served']);
    for (const id of notPassing(results)) expect(resultOf(results, id).evidence.message).toBe('the profile gives no maxBatch');
    expect(resultOf(results, 'transport/batch-limit').status).toBe('skip');
  });

  it('batch-limit compares with the profile\'s maxBatch (a profile that says 10 fails against a node that takes 1000)', async () => {
    const results = await runChecks(batches, [node.url], { profile: testProfile({ maxBatch: 10 }) });
    expectFailure(results, 'transport/batch-limit', /a batch of 11 calls \(maxBatch 10\): the batch was served \(11 of its calls answered with a result\), not refused/);
    expect(notPassing(results)).toEqual(['transport/batch-limit']);
  });

  it('the limit checks are skipped when such a batch would be over the body limit', async () => {
    const results = await runChecks(batches, [node.url], { profile: testProfile({ maxBatch: 50_000 }) });
    expect(results.filter((r) => r.status === 'skip').map((r) => r.id)).toEqual(['transport/batch-limit', 'transport/batch-at-limit-served']);
    expect(resultOf(results, 'transport/batch-limit').evidence.message).toMatch(/over the profile's body limit \(1048576 bytes\)/);
  });

  describe('fail on the faults they are meant to catch', () => {
    for (const { fault, catches } of faultCasesFor(batches)) {
      it(`${fault}: ${catches.map(([id]) => id).join(', ')}`, () => expectFaultCaught(batches, fault, catches));
    }
  });
  /**
   * A node with a small batch limit (a legal choice: the spec leaves batch limits open) refuses larger batches whole,
   * as an outside tester's did at 4; `dropLast` also leaves out the last answer of a batch of three calls or more.
   */
  const limited = (limit: number, dropLast = false) =>
    [
      (res: { status: number; headers: Record<string, string>; body: string }) => {
        if (!dropLast || !res.body.startsWith('[')) return res;
        const list = parseJson(res.body) as JsonValue[];
        const calls = list.filter((r) => typeof r === 'object' && r !== null && !Array.isArray(r) && 'result' in r).length;
        return calls >= 3 ? { ...res, body: stringifyJson(list.slice(0, -1)) } : res;
      },
      (req: { method: string; body: string }) => {
        if (req.method !== 'POST' || !req.body.startsWith('[')) return undefined;
        let list: unknown;
        try {
          list = parseJson(req.body);
        } catch {
          return undefined;
        }
        if (!Array.isArray(list) || list.length <= limit) return undefined;
        return { status: 400, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Batch too large"}}' };
      },
    ] as const;
  const { maxBatch: _noLimit, ...noLimitProfile } = testProfile();

  it('mixed-batch judges a node whose batch limit is below six, with or without the limit in the profile: batches of four, or of two', async () => {
    for (const [limit, form] of [[4, 'the mixed batches of four'], [2, 'the mixed batches of two']] as const) {
      for (const profile of [noLimitProfile, testProfile({ maxBatch: limit })]) {
        const results = await runThroughProxy(batches, node.url, ...limited(limit), profile);
        const mixed = resultOf(results, 'transport/mixed-batch');
        expect(`${mixed.status}: ${mixed.evidence.message}`).toMatch(new RegExp(`^pass: ${form}: `));
      }
    }
  });

  it('batch-answers-every-call: a batch limit (whole refusals, plain or wrapped in an array) is the node\'s; batches it serves are judged, and with none it skips', async () => {
    const limit10 = await runThroughProxy(batches, node.url, ...limited(10), noLimitProfile);
    expect(resultOf(limit10, 'transport/batch-answers-every-call').evidence.message).toMatch(/^batches of 5 calls: one response per call; left out: 20: refused as a whole .*; 100: refused as a whole/);
    const wrapped = await runThroughProxy(batches, node.url, (res, req) => (req.body.startsWith('[') && (parseJson(req.body) as JsonValue[]).length > 20 ? { ...res, body: '[{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"batch too large"}}]' } : res), undefined, noLimitProfile);
    const every = resultOf(wrapped, 'transport/batch-answers-every-call');
    expect(`${every.status}: ${every.evidence.message}`).toMatch(/^pass: batches of 5, 20 calls: one response per call; left out: 100: refused as a whole/);
    const none = await runThroughProxy(batches, node.url, ...limited(1), noLimitProfile);
    expect(resultOf(none, 'transport/batch-answers-every-call').status).toBe('skip');
  });

  it('batch-answers-every-call fails on a node that answers only the first calls of a larger batch, and on one that adds a response', async () => {
    const cut = (keep: number) => (res: { status: number; headers: Record<string, string>; body: string }) => {
      if (!res.body.startsWith('[')) return res;
      const list = parseJson(res.body) as JsonValue[];
      return list.length > keep ? { ...res, body: stringifyJson(list.slice(0, keep)) } : res;
    };
    expectFailure(await runThroughProxy(batches, node.url, cut(10), undefined, noLimitProfile), 'transport/batch-answers-every-call', /a batch of 20 chain_blockNumber calls: got 10 responses, expected 20; no response for id 11, 12, 13, 14, 15, 16, 17, 18 and 2 more/);
    const doubled = (res: { status: number; headers: Record<string, string>; body: string }) => {
      if (!res.body.startsWith('[')) return res;
      const list = parseJson(res.body) as JsonValue[];
      return list.length === 100 ? { ...res, body: stringifyJson([...list, list[0] ?? null]) } : res;
    };
    expectFailure(await runThroughProxy(batches, node.url, doubled, undefined, noLimitProfile), 'transport/batch-answers-every-call', /a batch of 100 chain_blockNumber calls: got 101 responses, expected 100; unexpected or repeated responses with id 1/);
  });

  it('mixed-batch fails, under a batch limit of four, on a node that leaves out the last answer of three calls', async () => {
    const results = await runThroughProxy(batches, node.url, ...limited(4, true), noLimitProfile);
    expectFailure(results, 'transport/mixed-batch', /the mixed batches of four, batch 2 of 2: got 2 responses, expected 3/);
  });
});
