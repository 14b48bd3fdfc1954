import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks, startTestNode, testProfile } from '../../../test/support/suites.js';
import type { TestNode } from '../../../test/support/suites.js';
import { notifications } from './notifications.js';
import { expectAllPass, expectFailure, expectFaultCaught, faultCasesFor, notPassing, runThroughProxy } from '../../../test/support/transportChecks.js';
import type { ProxiedResponse } from '../../../test/support/transportChecks.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.stop();
});

/** A node that says "nothing to answer" with 200 instead of 204 (legal; not the reference profile). */
const status200 = (res: ProxiedResponse): ProxiedResponse => (res.status === 204 ? { ...res, status: 200 } : res);

describe('transport notification checks', () => {
  it('all pass against the reference node', async () => {
    expectAllPass(await runChecks(notifications, [node.url]), notifications.length);
  });

  it('notification-not-answered fails on a node that answers notifications of chain_sendRawTransaction alone (an outside tester\'s node, certified before)', async () => {
    const results = await runThroughProxy(notifications, node.url, (res, req) =>
      req.body.includes('"chain_sendRawTransaction"') && !req.body.includes('"id"') && !req.body.startsWith('[') ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":null,"result":"ab"}' } : res,
    );
    expectFailure(results, 'transport/notification-not-answered', /a notification of chain_sendRawTransaction: the node answered with a JSON value/);
  });

  it('notification-batch-not-answered is skipped, not failed, on a node whose batch limit is 1 (an outside tester\'s, --max-batch 1)', async () => {
    const tooLarge = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32013,"message":"Batch too large"}}' };
    const results = await runThroughProxy(notifications, node.url, (res, req) => (req.body.startsWith('[') ? tooLarge : res));
    expect(results.find((r) => r.id === 'transport/notification-batch-not-answered')).toMatchObject({ status: 'skip', evidence: { message: expect.stringMatching(/the node's batch limit is below 2/) as unknown } });
    // A node that serves batches of calls but answers the notifications' batch with an error: still a failure.
    const notificationsOnly = await runThroughProxy(notifications, node.url, (res, req) => (req.body.startsWith('[') && !req.body.includes('"id"') ? tooLarge : res));
    expectFailure(notificationsOnly, 'transport/notification-batch-not-answered', /a batch of two notifications: the node answered with a JSON value/);
  });

  it('the MUST checks accept any status for an empty answer; the PROFILE check compares with the profile', async () => {
    const results = await runThroughProxy(notifications, node.url, status200);
    expect(notPassing(results)).toEqual(['transport/notification-status']);
    expectFailure(results, 'transport/notification-status', /a notification was answered with HTTP 200, not 204/);
  });

  it('a profile that chose 200 for empty answers passes such a node, and fails the reference node', async () => {
    const profile = testProfile({ http: { ...testProfile().http, notification: 200 } });
    expectAllPass(await runThroughProxy(notifications, node.url, status200, undefined, profile), notifications.length);
    const reference = await runChecks(notifications, [node.url], { profile });
    expect(notPassing(reference)).toEqual(['transport/notification-status']);
    expectFailure(reference, 'transport/notification-status', /HTTP 204, not 200/);
  });

  it('notification-status fails on a body sent with the profile\'s status', async () => {
    const profile = testProfile({ http: { ...testProfile().http, notification: 200 } });
    const results = await runThroughProxy(notifications, node.url, (res) => (res.status === 204 ? { ...res, status: 200, body: ' ' } : res), undefined, profile);
    expectFailure(results, 'transport/notification-status', /a notification was answered with a body \(1 bytes\)/);
    // A blank body holds no JSON value: JSON-RPC itself is satisfied.
    expect(notPassing(results)).toEqual(['transport/notification-status']);
  });

  it('notification-batch-not-answered fails on an empty array', async () => {
    const results = await runThroughProxy(notifications, node.url, (res, req) => (req.body.startsWith('[') ? { status: 200, headers: { 'content-type': 'application/json' }, body: '[]' } : res));
    expectFailure(results, 'transport/notification-batch-not-answered', /a batch of two notifications: the node answered with a JSON value/);
  });

  describe('fail on the faults they are meant to catch', () => {
    for (const { fault, catches } of faultCasesFor(notifications)) {
      it(`${fault}: ${catches.map(([id]) => id).join(', ')}`, () => expectFaultCaught(notifications, fault, catches));
    }
  });
});
