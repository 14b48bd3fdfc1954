import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_METHOD_NAMES } from '../../../core/schema/types.generated.js';
import { FAULT_NAMES } from '../../../reference-node/faults/faultCatalogue.js';
import { NOT_LEADING } from './chain_pouPeers.js';
import { describeResults, runChecks, startTestNetwork, startTestNode } from '../../../test/support/suites.js';
import type { TestNode } from '../../../test/support/suites.js';
import { methodChecks } from './index.js';
import { resultOf, runThroughProxy } from '../../../test/support/transportChecks.js';
import type { ProxiedRequest, ProxiedResponse } from '../../../test/support/suites.js';

/** The spec's methods in the order of its Methods table, generated from schemas/methods/ (`npm run gen`). */
const SPEC_ORDER = [...SPEC_METHOD_NAMES];

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.stop();
});

describe('methodChecks', () => {
  it('lists every method of the spec, in the order of its Methods table, each check under its method\'s wire name', () => {
    const methods = methodChecks.map((c) => c.id.split('/')[0]);
    expect([...new Set(methods)]).toEqual(SPEC_ORDER);
    // Grouped: once a method's checks end, its name does not come back.
    expect(methods.filter((m, i) => i === 0 || m !== methods[i - 1])).toEqual(SPEC_ORDER);
    expect(new Set(methodChecks.map((c) => c.id)).size).toBe(methodChecks.length);
    for (const c of methodChecks) {
      expect(c.id).toMatch(/^[a-zA-Z_]+\/[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(c.scope).toBe('node');
      expect(c.spec.length).toBeGreaterThan(10);
      expect(FAULT_NAMES as readonly string[]).not.toContain(c.id);
    }
  });

  it('all pass against the reference node', async () => {
    const results = await runChecks(methodChecks, [node.url]);
    expect(describeResults(results).filter((l) => !l.includes(': pass:'))).toEqual([]);
    expect(results).toHaveLength(methodChecks.length);
  });

  it('all pass on every node of a network of an MN and an LN (the LN forwards faucet claims, lists the MN as its peer)', async () => {
    const net = await startTestNetwork(['MN', 'LN']);
    try {
      const results = await runChecks(methodChecks, net.urls);
      // The LN does not lead: the one check that needs a leader skips there, saying so, and is judged on the MN.
      const ln = results.filter((r) => r.node === net.urls[1]);
      expect(ln.filter((r) => r.status === 'skip').map((r) => `${r.id}: ${r.evidence.message}`)).toEqual([`chain_pouPeers/itself-excluded: ${NOT_LEADING}`]);
      expect(describeResults(results.filter((r) => !(r.node === net.urls[1] && r.status === 'skip'))).filter((l) => !l.includes(': pass:'))).toEqual([]);
      expect(results).toHaveLength(methodChecks.length * 2);
      const peers = results.filter((r) => r.id === 'chain_pouPeers/spec-map').map((r) => r.evidence.message);
      expect(peers).toEqual(['1 peer(s)', '1 peer(s)']);
    } finally {
      await net.stop();
    }
  });

  it('no verdict where a method is not served under the name asked: -32601 may be another prefix (the names are the network\'s choice)', async () => {
    // An outside tester's node served its methods as probe_*: four MUST checks failed on "Method not found".
    const results = await runThroughProxy(methodChecks.filter((c) => c.id.startsWith('chain_health/')), node.url, (res, req) =>
      req.body.includes('"chain_health"') ? { ...res, body: res.body.replace(/"result":.*\}$/, '"error":{"code":-32601,"message":"Method not found"}}') } : res,
    );
    expect(resultOf(results, 'chain_health/status-and-mode-strings')).toMatchObject({
      status: 'error',
      evidence: { message: 'chain_health answered -32601 (Method not found): the node does not serve it under this name, so the rule cannot be judged; if its methods carry another prefix or names, give --method-prefix <p> or a profile (chainrpc profile detect)' },
    });
    expect(results.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([]);
  });

  it('spec-fields judges blocks below the tip too: an outside tester\'s node wrote a 40-character proposer below its tip', async () => {
    // The check reads the three blocks below the tip above the genesis block's next: a chain of 5 at least.
    for (let height = 0; height < 5; await new Promise((r) => setTimeout(r, 50))) {
      const answer = await fetch(`${node.url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1}' });
      height = ((await answer.json()) as { result: number }).result;
    }
    const blockChecks = methodChecks.filter((c) => c.id === 'chain_getBlockByHeight/spec-fields');
    let tip = 0;
    const results = await runThroughProxy(blockChecks, node.url, (res, req) => {
      if (req.body.includes('"chain_blockNumber"')) {
        const m = /"result":(\d+)/.exec(res.body);
        if (m !== null) tip = Math.max(tip, Number(m[1]));
        return res;
      }
      const asked = /"chain_getBlockByHeight","params":\[(\d+)\]/.exec(req.body);
      if (asked === null || Number(asked[1]) > tip - 1) return res;
      return { ...res, body: res.body.replace(/"proposer":"([0-9a-f]{40})[0-9a-f]{24}"/, '"proposer":"$1"') };
    });
    expect(resultOf(results, 'chain_getBlockByHeight/spec-fields')).toMatchObject({
      status: 'fail',
      evidence: { message: expect.stringMatching(/^chain_getBlockByHeight result \(block \d+, below the current height \d+\) breaks the spec's schema: \/proposer/) as unknown },
    });
  });

  it('transaction-count-matches reads the block again once the chain is past it: a count of 0 below the tip, the list kept, fails (an outside tester\'s node was certified)', async () => {
    let tip = 0;
    const results = await runThroughProxy(methodChecks.filter((c) => c.id === 'chain_getBlockByHeight/transaction-count-matches'), node.url, (res, req) => {
      if (req.body.includes('"chain_blockNumber"')) {
        const m = /"result":(\d+)/.exec(res.body);
        if (m !== null) tip = Math.max(tip, Number(m[1]));
        return res;
      }
      const asked = /"chain_getBlockByHeight","params":\[(\d+)\]/.exec(req.body);
      return asked !== null && Number(asked[1]) < tip ? { ...res, body: res.body.replace(/"transaction_count":\d+/, '"transaction_count":0') } : res;
    });
    expect(resultOf(results, 'chain_getBlockByHeight/transaction-count-matches')).toMatchObject({ status: 'fail', evidence: { message: expect.stringMatching(/transaction_count is not the length of transactions/) as unknown } });
  });

  it('no verdict on a field found under another name (key names are the network\'s choice); a field missing under any name still fails', async () => {
    const blockChecks = methodChecks.filter((c) => c.id === 'chain_getBlockByHeight/spec-fields');
    /** The node's blocks with transaction_count written by `rename` (undefined: left out). */
    const rewritten = (rename: string | undefined) => (res: ProxiedResponse, req: ProxiedRequest): ProxiedResponse => {
      if (!req.body.includes('"chain_getBlockByHeight"') || !res.body.includes('"transaction_count"')) return res;
      return { ...res, body: res.body.replace(/"transaction_count":(\d+),?/, (_m, n: string) => (rename === undefined ? '' : `"${rename}":${n},`)).replace(/,}/, '}') };
    };
    // An outside tester's node wrote it numTxs: a MUST failure for a name the spec does not fix.
    const renamed = await runThroughProxy(blockChecks, node.url, rewritten('numTxs'));
    expect(resultOf(renamed, 'chain_getBlockByHeight/spec-fields')).toMatchObject({
      status: 'error',
      evidence: { message: 'chain_getBlockByHeight result has no transaction_count (the node has "numTxs") under the names in use; key names are the network\'s choice, so the rule cannot be judged: give them in a profile (fields.<name>; chainrpc profile detect finds them)' },
    });
    const dropped = await runThroughProxy(blockChecks, node.url, rewritten(undefined));
    expect(resultOf(dropped, 'chain_getBlockByHeight/spec-fields')).toMatchObject({ status: 'fail', evidence: { message: expect.stringMatching(/\/transaction_count is missing/) as unknown } });
  });
});
