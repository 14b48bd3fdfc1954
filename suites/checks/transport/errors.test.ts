import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../../core/json/index.js';
import type { JsonValue } from '../../../core/json/index.js';
import { runChecks, startTestNode, testProfile } from '../../../test/support/suites.js';
import type { TestNode } from '../../../test/support/suites.js';
import { errors } from './errors.js';
import { expectAllPass, expectFailure, expectFaultCaught, faultCasesFor, notPassing, resultOf, runThroughProxy } from '../../../test/support/transportChecks.js';

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

  it('error-object-shape judges the node\'s own refusals too: a code of its range written as a string, or an answer without "jsonrpc" and with id null', async () => {
    const own = (res: { body: string }): boolean => /"code":-320[0-9][0-9],/.test(res.body) && !/"code":-3200[0-9]{2}/.test(res.body);
    const stringCode = await runThroughProxy(errors, node.url, (res, req) => (req.body.includes('"chain_sendRawTransaction"') && own(res) ? { ...res, body: rewriteError(res.body, (e) => ({ ...e, code: JSON.stringify(e.code) })) } : res));
    expectFailure(stringCode, 'transport/error-object-shape', /chain_sendRawTransaction \["00"\] \(bytes no transaction is\): malformed error object: "error\.code" is "-320\d\d", not an integer/);
    const envelope = await runThroughProxy(errors, node.url, (res, req) => {
      if (!req.body.includes('"chain_sendRawTransaction"')) return res;
      const v = parseJson(res.body);
      if (typeof v !== 'object' || v === null || Array.isArray(v) || v.error === undefined) return res;
      const { jsonrpc: _j, ...rest } = v;
      return { ...res, body: stringifyJson({ ...rest, id: null }) };
    });
    expectFailure(envelope, 'transport/error-object-shape', /the error response's "jsonrpc" is \(absent\), not "2\.0"/);
  });

  it('by-name-params is skipped when the profile names no InvalidParams code', async () => {
    const { InvalidParams: _drop, ...codes } = testProfile().errorCodes;
    const results = await runChecks(errors, [node.url], { profile: testProfile({ errorCodes: codes }) });
    const r = resultOf(results, 'transport/by-name-params');
    expect([r.status, r.evidence.message]).toEqual(['skip', 'the profile names no InvalidParams code']);
    expect(notPassing(results)).toEqual(['transport/by-name-params']);
  });

  it('by-name-params passes against a node that serves by-name params when the profile says they are accepted (the fault case below shows it fails when the profile says refused)', async () => {
    const node2 = await startTestNode({ faults: ['by-name-params-accepted'] });
    try {
      const lenient = await runChecks(errors, [node2.url], { profile: testProfile({ params: { ...testProfile().params, byName: 'accepted' } }) });
      expect(resultOf(lenient, 'transport/by-name-params').status).toBe('pass');
      // Served by-name params still carry the request's id: the MUST check holds either way.
      expect(resultOf(lenient, 'transport/by-name-params-id-echoed').status).toBe('pass');
    } finally {
      await node2.stop();
    }
  });

  it('by-name-params says a node served by-name params when it answers them as the same params in order, whatever the error (an outside tester\'s node)', async () => {
    // The node serves by-name params, and answers an unseen account with an error of its own (-32044) in either form.
    const node2 = await startTestNode({ faults: ['by-name-params-accepted'] });
    try {
      const results = await runThroughProxy(errors.filter((c) => c.id === 'transport/by-name-params'), node2.url, (res, req) => {
        const call = parseJson(req.body);
        if (typeof call !== 'object' || call === null || Array.isArray(call) || call.method !== 'chain_getAccount') return res;
        return { ...res, body: stringifyJson({ jsonrpc: '2.0', id: call.id ?? null, error: { code: -32044, message: 'Unknown account' } }) };
      });
      expectFailure(results, 'transport/by-name-params', /chain_getAccount served by-name params \{"address": \.\.\.\} as it serves the same params in order \(both answered -32044, "Unknown account"\), though the profile says by-name params are refused$/);
    } finally {
      await node2.stop();
    }
  });

  it('empty-post-answered takes a 4xx refusal (411 Length Required) as HTTP allows, and fails a 500', async () => {
    const bodyless = (req: { method: string; headers: Record<string, string | string[] | undefined> }): boolean => req.method === 'POST' && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined;
    const refused = await runThroughProxy(errors, node.url, (res) => res, (req) => (bodyless(req) ? { status: 411, headers: {}, body: '' } : undefined));
    expect(resultOf(refused, 'transport/empty-post-answered').status).toBe('pass');
    const failed = await runThroughProxy(errors, node.url, (res) => res, (req) => (bodyless(req) ? { status: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream failed' } : undefined));
    expectFailure(failed, 'transport/empty-post-answered', /was answered with HTTP 503: a server failure/);
  });

  it('no-internal-details fails on a stack trace, a server path or exception text in an error, and passes on plain messages', async () => {
    const leak = async (data: JsonValue): Promise<string> => {
      const results = await runThroughProxy(errors, node.url, (res) => ({ ...res, body: rewriteError(res.body, (e) => (e.code === -32601 ? { ...e, data } : e)) }));
      const r = resultOf(results, 'transport/no-internal-details');
      return `${r.status}: ${r.evidence.message}`;
    };
    expect(await leak('Error: boom\n    at dispatch (/srv/node/dist/server.js:41:13)')).toMatch(/^fail: a call of chainrpc_noSuchMethod: the answer shows a stack trace/);
    expect(await leak({ file: '/home/ci/node/src/rpc.py' })).toMatch(/^fail: .*the answer shows a server file path/);
    expect(await leak('TypeError: Cannot read properties of undefined')).toMatch(/^fail: .*internal exception text/);
    expect(await leak({ reason: 'no such method; see the list with rpc.discover' })).toMatch(/^pass: /);
  });

  describe('fail on the faults they are meant to catch', () => {
    for (const { fault, catches } of faultCasesFor(errors)) {
      it(`${fault}: ${catches.map(([id]) => id).join(', ')}`, () => expectFaultCaught(errors, fault, catches));
    }
  });
});
