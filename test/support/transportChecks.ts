/**
 * Test helpers for the transport and discovery checks: faulty reference nodes (docs/faults.md) and a
 * rewriting proxy for the faults the catalogue does not have (a wrong content type, a malformed error
 * object), so that every check is shown to fail on a node that breaks its rule.
 */
import { expect } from 'vitest';
import { startProxy } from './suites.js';
import type { ProxiedRequest, ProxiedResponse } from './suites.js';
import { faultInfo } from '../../reference-node/faults/faultCatalogue.js';
import type { FaultName } from '../../reference-node/faults/faultCatalogue.js';
import type { Check } from '../../suites/Check.js';
import type { CheckResult } from '../../suites/model.js';
import type { Profile } from '../../profile/Profile.js';
import { describeResults, runChecks, startTestNode } from './suites.js';
import type { TestNode } from './suites.js';

/** Runs the checks against a node that has the faults; stops the node afterwards. */
export async function runOnFaultyNode(checks: Check[], faults: string[], profile?: Profile): Promise<CheckResult[]> {
  const node: TestNode = await startTestNode({ faults });
  try {
    return await runChecks(checks, [node.url], profile === undefined ? {} : { profile });
  } finally {
    await node.stop();
  }
}

/** The result of one check, by id (fails the test when the check did not run). */
export function resultOf(results: CheckResult[], id: string): CheckResult {
  const r = results.find((x) => x.id === id);
  if (r === undefined) throw new Error(`no result for ${id}; ran ${results.map((x) => x.id).join(', ')}`);
  return r;
}

/** Asserts that every result passed, with the failures readable in the assertion message. */
export function expectAllPass(results: CheckResult[], count: number): void {
  expect(describeResults(results).filter((l) => !l.includes(': pass:'))).toEqual([]);
  expect(results).toHaveLength(count);
}

/** Asserts that `id` failed with evidence matching `message`, and that the evidence holds the exchange. */
export function expectFailure(results: CheckResult[], id: string, message: RegExp): CheckResult {
  const r = resultOf(results, id);
  expect(`${r.id}: ${r.status}: ${r.evidence.message}`).toMatch(new RegExp(`^${id.replace(/[/.-]/g, '\\$&')}: fail: .*${message.source}`));
  expect(r.evidence.exchanges.length).toBeGreaterThan(0);
  return r;
}

/** Ids of the checks that did not pass. */
export const notPassing = (results: CheckResult[]): string[] => results.filter((r) => r.status !== 'pass').map((r) => r.id);

export { startProxy };
export type { Proxy, ProxiedRequest, ProxiedResponse } from './suites.js';

/** Runs the checks through a proxy in front of `target`; closes the proxy afterwards. */
export async function runThroughProxy(
  checks: Check[],
  target: string,
  rewrite: (res: ProxiedResponse, req: ProxiedRequest) => ProxiedResponse,
  intercept?: (req: ProxiedRequest) => ProxiedResponse | undefined,
  profile?: Profile,
): Promise<CheckResult[]> {
  const proxy = await startProxy(target, rewrite, intercept);
  try {
    return await runChecks(checks, [proxy.url], profile === undefined ? {} : { profile });
  } finally {
    await proxy.close();
  }
}

/**
 * Which checks each fault must make fail, and what their evidence must say (docs/faults.md). Every
 * transport and discovery check appears at least once here or in PROXY_CAUGHT (index.test.ts proves it).
 */
export const FAULT_CASES: readonly { fault: FaultName; catches: Readonly<Record<string, RegExp>> }[] = [
  {
    fault: 'id-type-changed',
    catches: {
      'transport/single-call-envelope': /the response id is "1", not 1/,
      'transport/id-integer-echoed': /answered with id "42" \(string\), not 42 \(number\)/,
      'transport/id-string-echoed': /answered with id 42 \(number\), not "42" \(string\)/,
      'transport/id-fraction-echoed': /answered with id "1\.5" \(string\), not 1\.5 \(number\)/,
      'transport/method-not-found': /id is "1", not 1/,
      'transport/batch-of-one': /no response for id 11; unexpected or repeated responses with id "11"/,
    },
  },
  { fault: 'id-crossed-now-and-then', catches: { 'transport/ids-echoed-under-concurrency': /of 128 calls \(16 in flight at a time\) were answered with an id not theirs; the first: id \S+ answered with id \S+/ } },
  { fault: 'batch-cut-at-16', catches: { 'transport/batch-answers-every-call': /a batch of 20 chain_blockNumber calls: got 16 responses, expected 20; no response for id 17, 18, 19, 20/ } },
  { fault: 'large-id-rounded', catches: { 'transport/id-large-integer-echoed': /answered with id 9007199254740992 \(number\), not 9007199254740993 \(number\)/ } },
  { fault: 'null-id-dropped', catches: { 'transport/id-null-answered': /a call with id null: the answer is not JSON \(nothing was sent back\)/ } },
  { fault: 'absent-params-refused', catches: { 'transport/params-omitted': /a call of chain_blockNumber without params was refused with -32600 \("Invalid Request: params is required"\): params may be omitted/ } },
  { fault: 'null-id-refused', catches: { 'transport/id-null-answered': /a call with id null was refused, not served/ } },
  { fault: 'dies-on-null', catches: { 'transport/invalid-request-not-an-object': /the node died after this request \(the body null\)/, 'transport/invalid-batch-elements': /the node died after this request \(the batch \[null\]\)/ } },
  { fault: 'scalars-parse-error', catches: { 'transport/invalid-request-not-an-object': /the body 1: error code -32700, not -32600 \(Invalid Request\)/ } },
  { fault: 'by-name-id-lost', catches: { 'transport/by-name-params-id-echoed': /was answered with id null, not 10/ } },
  { fault: 'stack-trace-leak', catches: { 'transport/no-internal-details': /chain_getBlockByHeight \["one"\]: the answer shows internal exception text/ } },
  {
    fault: 'empty-post-500',
    catches: {
      'transport/empty-post-answered': /a POST with no body and no Content-Length was answered with HTTP 500: a server failure/,
      'transport/no-internal-details': /a POST with no body and no Content-Length: the answer shows a stack trace/,
    },
  },
  { fault: 'put-accepted', catches: { 'transport/non-post-refused': /PUT \/rpc was served as a call: answered with HTTP 200 and a result/, 'transport/wrong-method-status': /PUT \/rpc was answered with HTTP 200, not 405/ } },
  { fault: 'batch-one-unwrapped', catches: { 'transport/batch-of-one': /the answer is not an array/, 'transport/invalid-batch-elements': /the batch \[1\]: the answer is not an array/ } },
  { fault: 'batch-answered-with-first', catches: { 'transport/batch-answers-every-call': /a batch of 5 chain_blockNumber calls: the answer is not an array/ } },
  { fault: 'empty-batch-array', catches: { 'transport/empty-batch': /the answer is an array, not a single response object/ } },
  {
    fault: 'notification-answered',
    catches: {
      'transport/notification-not-answered': /the node answered with a JSON value/,
      'transport/failed-notification-not-answered': /unknown method .*: the node answered with a JSON value/,
      'transport/notification-batch-not-answered': /a batch of two notifications: the node answered with a JSON value/,
      'transport/notification-status': /a notification was answered with HTTP 200, not 204/,
      'transport/mixed-batch': /got 6 responses, expected 5; unexpected or repeated responses with id null/,
    },
  },
  { fault: 'parse-error-code', catches: { 'transport/parse-error': /error code -32600, not -32700 \(Parse error\)/, 'transport/parse-error-empty-body': /error code -32600, not -32700/ } },
  { fault: 'parse-error-id', catches: { 'transport/parse-error': /id is 0, not null/, 'transport/parse-error-empty-body': /id is 0, not null/ } },
  {
    fault: 'invalid-request-ignored',
    catches: {
      'transport/invalid-request-not-an-object': /the body 1: the answer is not JSON \(nothing was sent back\)/,
      'transport/invalid-request-no-method': /\{"foo":"bar"\}: the answer is not JSON/,
      'transport/invalid-request-wrong-version': /"jsonrpc": "1\.0": the answer is not JSON/,
      'transport/invalid-request-method-not-string': /"method": 1.*the answer is not JSON/,
      'transport/error-object-shape': /\{"foo":"bar"\}: the answer is not JSON/,
      'transport/invalid-batch-elements': /the batch \[1\]: the answer is not JSON/,
      'transport/mixed-batch': /got 4 responses, expected 5; no response for id null/,
    },
  },
  { fault: 'unknown-method-code', catches: { 'transport/method-not-found': /error code -32600, not -32601 \(Method not found\)/, 'transport/mixed-batch': /error code -32600, not -32601/ } },
  { fault: 'invalid-params-code', catches: { 'transport/invalid-params': /error code -32603, not -32602 \(Invalid params\)/, 'transport/by-name-params': /refused by-name params .* with code -32603, not the profile's InvalidParams\/by-name/ } },
  { fault: 'missing-param-internal', catches: { 'transport/missing-param-refused': /chain_getAccount \[\] \(its param missing\) was refused with -32603 \(Internal error\), not -32602 \(Invalid params\)/ } },
  {
    fault: 'result-and-error',
    catches: {
      'transport/error-response-envelope': /both "result" and "error" members/,
      'transport/parse-error': /both "result" and "error" members/,
      'transport/method-not-found': /both "result" and "error" members/,
      'transport/empty-batch': /both "result" and "error" members/,
      'transport/mixed-batch': /response \[\d\] is not a valid response object: both "result" and "error" members/,
    },
  },
  {
    fault: 'jsonrpc-missing',
    catches: {
      'transport/single-call-envelope': /no "jsonrpc" member/,
      'transport/error-response-envelope': /no "jsonrpc" member/,
      'transport/id-integer-echoed': /no "jsonrpc" member/,
      'transport/invalid-request-not-an-object': /no "jsonrpc" member/,
      'transport/batch-of-one': /response \[0\] is not a valid response object: no "jsonrpc" member/,
      'transport/mixed-batch': /no "jsonrpc" member/,
      'transport/content-type-parameters-accepted': /no "jsonrpc" member/,
    },
  },
  {
    fault: 'jsonrpc-missing-on-results',
    catches: {
      'transport/single-call-envelope': /no "jsonrpc" member/,
      'transport/id-integer-echoed': /no "jsonrpc" member/,
      'transport/id-string-echoed': /no "jsonrpc" member/,
      'transport/id-fraction-echoed': /no "jsonrpc" member/,
    },
  },
  { fault: 'error-code-string', catches: { 'transport/error-object-shape': /"error\.code" is "-32700", not an integer/ } },
  { fault: 'content-type-params-refused', catches: { 'transport/content-type-parameters-accepted': /content-type "application\/json; charset=utf-8" was not answered/ } },
  { fault: 'response-content-type', catches: { 'transport/response-content-type': /a call answered with a result was answered with content-type "text\/plain; charset=utf-8"/ } },
  { fault: 'http-500-on-error', catches: { 'transport/answer-status': /was answered with HTTP 500, not 200/ } },
  { fault: 'get-accepted', catches: { 'transport/wrong-method-status': /GET \/rpc was answered with HTTP 200, not 405/ } },
  { fault: 'any-content-type', catches: { 'transport/wrong-content-type-status': /text\/plain was answered with HTTP 200, not 415/ } },
  { fault: 'batch-limit-ignored', catches: { 'transport/batch-limit': /a batch of 1001 calls \(maxBatch 1000\): the batch was served \(1001 of its calls answered with a result\), not refused/ } },
  {
    fault: 'batch-reversed-and-truncated',
    catches: {
      'transport/mixed-batch': /got 4 responses, expected 5; no response for id 9/,
      'transport/invalid-batch-elements': /the batch \[1,2,3\] got 2 responses, not 3/,
      'transport/batch-at-limit-served': /got 999 responses, expected 1000; no response for id 1000/,
    },
  },
  { fault: 'body-limit-ignored', catches: { 'transport/body-limit': /a body of 1048577 bytes \(maxBodyBytes 1048576\) was answered with HTTP 200, not 413/ } },
  { fault: 'by-name-params-accepted', catches: { 'transport/by-name-params': /chain_getAccount accepted by-name params/ } },
  {
    fault: 'discover-invalid',
    catches: {
      'discovery/openrpc-document': /not a valid OpenRPC document: .*required property 'info'/,
      'discovery/lists-spec-methods': /does not list chain_blockNumber, .*net_peerCount/,
    },
  },
];

/** Checks whose own rule no catalogue fault breaks (they fail on faults above only by the way); their tests break it with startProxy. */
export const PROXY_CAUGHT: readonly string[] = ['transport/error-object-shape', 'transport/content-type-parameters-accepted'];

/**
 * The fault cases for a set of checks, reduced to those checks. Each test: the intended checks fail
 * with that evidence, no check ends in error, and under a PROFILE-level fault no MUST check fails
 * (MUST checks never depend on the profile's choices).
 */
export function faultCasesFor(checks: Check[]): { fault: FaultName; catches: [string, RegExp][] }[] {
  const ids = new Set(checks.map((c) => c.id));
  return FAULT_CASES.map((c) => ({ fault: c.fault, catches: Object.entries(c.catches).filter(([id]) => ids.has(id)) })).filter((c) => c.catches.length > 0);
}

/**
 * Faults after which the node no longer answers: the checks running beside the one that killed it can
 * only end in error, so each catching check runs alone on a node of its own.
 */
const KILLS_THE_NODE: readonly FaultName[] = ['dies-on-null'];

/** Runs the checks on a node with the fault and asserts what faultCasesFor promises. */
export async function expectFaultCaught(checks: Check[], fault: FaultName, catches: [string, RegExp][]): Promise<void> {
  if (KILLS_THE_NODE.includes(fault)) {
    for (const [id, message] of catches) {
      const results = await runOnFaultyNode(checks.filter((c) => c.id === id), [fault]);
      expectFailure(results, id, message);
    }
    return;
  }
  const results = await runOnFaultyNode(checks, [fault]);
  for (const [id, message] of catches) expectFailure(results, id, message);
  expect(results.filter((r) => r.status === 'error').map((r) => `${r.id}: ${r.evidence.message}`)).toEqual([]);
  if (faultInfo(fault).level === 'PROFILE') {
    expect(results.filter((r) => r.level === 'MUST' && r.status !== 'pass').map((r) => `${r.id}: ${r.status}: ${r.evidence.message}`)).toEqual([]);
  }
}
