import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks, startTestNode, testProfile } from '../../../test/support/suites.js';
import type { TestNode } from '../../../test/support/suites.js';
import { http } from './http.js';
import { transportChecks } from './index.js';
import { expectAllPass, expectFailure, expectFaultCaught, faultCasesFor, notPassing, resultOf, runThroughProxy } from '../../../test/support/transportChecks.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.stop();
});

describe('transport HTTP checks', () => {
  it('all pass against the reference node', async () => {
    expectAllPass(await runChecks(http, [node.url]), http.length);
  });

  it('response-content-type fails on answers sent as text/plain', async () => {
    const results = await runThroughProxy(http, node.url, (res) => (res.headers['content-type'] === undefined ? res : { ...res, headers: { ...res.headers, 'content-type': 'text/plain' } }));
    expectFailure(results, 'transport/response-content-type', /a call answered with a result was answered with content-type "text\/plain"/);
    expect(notPassing(results)).toEqual(['transport/response-content-type']);
  });

  it('content-type-parameters-accepted fails on a node that takes only the exact "application/json"', async () => {
    const results = await runThroughProxy(
      http,
      node.url,
      (res) => res,
      (req) => (req.method === 'POST' && req.headers['content-type'] !== 'application/json' ? { status: 415, headers: {}, body: '' } : undefined),
    );
    expectFailure(results, 'transport/content-type-parameters-accepted', /a call sent with content-type "application\/json; charset=utf-8": the answer is not JSON \(nothing was sent back\)/);
    expect(notPassing(results)).toEqual(['transport/content-type-parameters-accepted']);
  });

  it('wrong-method-status fails on a 405 without Allow', async () => {
    const results = await runThroughProxy(http, node.url, (res) => {
      const { allow: _allow, ...headers } = res.headers;
      return { ...res, headers };
    });
    expectFailure(results, 'transport/wrong-method-status', /GET \/rpc was answered 405 without an Allow header listing POST \(allow: none\)/);
    expect(notPassing(results)).toEqual(['transport/wrong-method-status']);
  });

  it('wrong-method-status asks for Allow with 405 only: a node that answers 400 without it passes under a profile that says 400 (RFC 9110 §15.5.6)', async () => {
    const results = await runThroughProxy(
      http,
      node.url,
      (res, req) => {
        if (req.method === 'POST') return res;
        const { allow: _allow, ...headers } = res.headers;
        return { ...res, status: 400, headers };
      },
      undefined,
      testProfile({ http: { ...testProfile().http, wrongMethod: 400 } }),
    );
    expect(resultOf(results, 'transport/wrong-method-status').status).toBe('pass');
    expect(notPassing(results)).toEqual([]);
  });

  it('no MUST check of the folder depends on the status policy: a node that answers everything with 500 fails PROFILE checks only', async () => {
    const results = await runThroughProxy(transportChecks, node.url, (res) => ({ ...res, status: res.status === 204 ? 204 : 500 }));
    expect(results.filter((r) => r.level === 'MUST' && r.status !== 'pass').map((r) => r.id)).toEqual([]);
    expect(notPassing(results)).toEqual(['transport/answer-status', 'transport/wrong-method-status', 'transport/wrong-content-type-status', 'transport/body-limit']);
  });

  it('non-post-refused leaves GET to the status policy: a node that answers GET with 200 for health checks passes it', async () => {
    const results = await runThroughProxy(http, node.url, (res, req) => (req.method === 'GET' ? { status: 200, headers: {}, body: 'ok' } : res));
    expect(resultOf(results, 'transport/non-post-refused').status).toBe('pass');
    expectFailure(results, 'transport/wrong-method-status', /GET \/rpc was answered with HTTP 200, not 405/);
  });

  it('body-limit is skipped without a maxBodyBytes in the profile', async () => {
    const { maxBodyBytes: _drop, ...profile } = testProfile();
    const results = await runChecks(http, [node.url], { profile });
    const r = resultOf(results, 'transport/body-limit');
    expect([r.status, r.evidence.message]).toEqual(['skip', 'the profile gives no maxBodyBytes']);
  });

  it('body-limit compares with the profile\'s limit (a profile that says 1 KiB fails against a node that takes 1 MiB)', async () => {
    const results = await runChecks(http, [node.url], { profile: testProfile({ maxBodyBytes: 1024 }) });
    expectFailure(results, 'transport/body-limit', /a body of 1025 bytes \(maxBodyBytes 1024\) was answered with HTTP 200, not 413/);
  });

  describe('fail on the faults they are meant to catch', () => {
    for (const { fault, catches } of faultCasesFor(http)) {
      it(`${fault}: ${catches.map(([id]) => id).join(', ')}`, () => expectFaultCaught(http, fault, catches));
    }
  });
});
