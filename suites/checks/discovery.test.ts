import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks, startTestNode, testProfile } from '../../test/support/suites.js';
import type { TestNode } from '../../test/support/suites.js';
import { discoveryChecks } from './discovery.js';
import { expectAllPass, expectFailure, expectFaultCaught, faultCasesFor, runThroughProxy } from '../../test/support/transportChecks.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.stop();
});

describe('discovery checks', () => {
  it('all pass against the reference node', async () => {
    expectAllPass(await runChecks(discoveryChecks, [node.url]), discoveryChecks.length);
  });

  it('are skipped on a node without rpc.discover', async () => {
    const results = await runThroughProxy(discoveryChecks, node.url, (res, req) =>
      req.body.includes('"rpc.discover"') ? { ...res, body: req.body.replace(/^.*"id":(\d+)\}$/, '{"jsonrpc":"2.0","id":$1,"error":{"code":-32601,"message":"Method not found"}}') } : res,
    );
    expect(results.map((r) => `${r.id}: ${r.status}: ${r.evidence.message}`)).toEqual([
      'discovery/openrpc-document: skip: the node has no rpc.discover (-32601 Method not found)',
      'discovery/lists-spec-methods: skip: the node has no rpc.discover (-32601 Method not found)',
    ]);
  });

  it('fail when rpc.discover answers another error', async () => {
    const results = await runThroughProxy(discoveryChecks, node.url, (res, req) =>
      req.body.includes('"rpc.discover"') ? { ...res, body: req.body.replace(/^.*"id":(\d+)\}$/, '{"jsonrpc":"2.0","id":$1,"error":{"code":-32603,"message":"Internal error"}}') } : res,
    );
    expectFailure(results, 'discovery/openrpc-document', /rpc\.discover answered with error -32603 \(Internal error\)/);
  });

  it('lists-spec-methods looks for the profile\'s method names', async () => {
    const results = await runChecks(discoveryChecks, [node.url], { profile: testProfile({ methodNames: { chain_getAccount: 'acme_account' } }) });
    expectFailure(results, 'discovery/lists-spec-methods', /does not list acme_account$/);
  });

  describe('fail on the faults they are meant to catch', () => {
    for (const { fault, catches } of faultCasesFor(discoveryChecks)) {
      it(`${fault}: ${catches.map(([id]) => id).join(', ')}`, () => expectFaultCaught(discoveryChecks, fault, catches));
    }
  });
});
