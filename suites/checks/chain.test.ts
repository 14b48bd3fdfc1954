/**
 * The chain checks: all pass against the reference node; each fails on the fault-injected node
 * (reference-node/faults/, docs/faults.md) whose rule it guards. chain/height-rises fails on a stalled chain
 * that takes the transaction the check gives it; on a lone LN (no MN: nothing produces blocks, and its faucet
 * refuses, so no transaction can be given) it has no verdict: a chain that makes blocks only for transactions
 * would look the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultName } from '../../reference-node/faults/faultCatalogue.js';
import type { CheckResult } from '../model.js';
import { absentMemberNetwork, describeResults, runChecks, startTestNode, testProfile } from '../../test/support/suites.js';
import type { TestNode } from '../../test/support/suites.js';
import { chainChecks } from './chain.js';

const failedSomewhere = new Set<string>();
const pick = (...ids: string[]) => chainChecks.filter((c) => ids.includes(c.id));
const line = (results: CheckResult[], id: string): string | undefined => describeResults(results).find((l) => l.startsWith(`${id}: `));

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.stop();
});

describe('chainChecks', () => {
  it('have ids chain/<rule>, unique', () => {
    for (const c of chainChecks) {
      expect(c.id).toMatch(/^chain\/[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(c.category).toBe('chain');
      expect(c.scope).toBe('node');
    }
    expect(new Set(chainChecks.map((c) => c.id)).size).toBe(chainChecks.length);
  });

  it('all pass against the reference node', async () => {
    const results = await runChecks(chainChecks, [node.url]);
    expect(describeResults(results).filter((l) => !l.includes(': pass:'))).toEqual([]);
    expect(results).toHaveLength(chainChecks.length);
  });
});

interface Case {
  fault: FaultName;
  /** The checks run (alone where the fault depends on the count of calls). */
  run: string[];
  fails: string[];
  passes?: string[];
}

const CASES: Case[] = [
  // chain_blockNumber reports one above the tip: that height has no block.
  { fault: 'block-missing', run: chainChecks.map((c) => c.id), fails: ['chain/block-exists-for-new-height'], passes: ['chain/height-never-decreases', 'chain/height-rises'] },
  // Every third chain_blockNumber call answers tip - 2: the check's back-to-back calls see it, whoever else calls.
  { fault: 'height-regresses', run: chainChecks.map((c) => c.id), fails: ['chain/height-never-decreases'] },
  { fault: 'parent-hash-broken', run: chainChecks.map((c) => c.id), fails: ['chain/parent-hash-links'], passes: ['chain/block-exists-for-new-height', 'chain/height-never-decreases', 'chain/height-rises'] },
  { fault: 'timestamps-backwards', run: chainChecks.map((c) => c.id), fails: ['chain/timestamps-never-decrease'], passes: ['chain/parent-hash-links', 'chain/height-never-decreases'] },
  // No block, even for the faucet claim the check gives it.
  { fault: 'chain-stalled', run: ['chain/height-rises'], fails: ['chain/height-rises'] },
];

describe('chain checks against fault-injected reference nodes', () => {
  for (const c of CASES) {
    it(`${c.fault}: fails ${c.fails.join(', ')}`, async () => {
      const faulty = await startTestNode({ faults: [c.fault] });
      try {
        const results = await runChecks(pick(...c.run), [faulty.url]);
        for (const r of results) if (r.status === 'fail') failedSomewhere.add(r.id);
        for (const id of c.fails) expect(line(results, id), `${id} on ${c.fault}`).toMatch(/: fail: /);
        for (const id of c.passes ?? []) expect(line(results, id), `${id} on ${c.fault}`).toMatch(/: pass: /);
      } finally {
        await faulty.stop();
      }
    });
  }

  it('a lone LN (nothing produces blocks, its faucet refuses): chain/height-rises has no verdict, and says why', async () => {
    // Its network's one member never runs.
    const ln = await startTestNode({ kind: 'LN', genesis: absentMemberNetwork() });
    try {
      const results = await runChecks(pick('chain/height-rises', 'chain/height-never-decreases', 'chain/parent-hash-links'), [ln.url]);
      for (const r of results) if (r.status === 'fail') failedSomewhere.add(r.id);
      expect(line(results, 'chain/height-rises')).toMatch(/: error: setup: no block came in 2000 ms, and a faucet claim to give the chain a transaction was refused with -32014/);
      expect(line(results, 'chain/height-never-decreases')).toMatch(/: pass: /);
      // The checks that read blocks say how far the chain went and what to give when it is only slower (an outside tester).
      expect(line(results, 'chain/parent-hash-links')).toMatch(/: error: setup: 3 blocks above the genesis block did not happen within 2000 ms \(the chain went from 0 to 0, in about \d+ block times of the profile's \d+ ms\): if its blocks come slower, give --block-time <ms> \(or the profile's blockTimeMs\)$/);
    } finally {
      await ln.stop();
    }
  });

  it('timestamps-never-decrease: skipped where the profile says blocks carry no timestamp; no verdict on a timestamp not in the profile\'s form', async () => {
    const none = await runChecks(pick('chain/timestamps-never-decrease'), [node.url], { profile: testProfile({ fields: { ...testProfile().fields, timestamp: null } }) });
    expect(line(none, 'chain/timestamps-never-decrease')).toMatch(/: skip: the profile says blocks carry no timestamp$/);
    const iso = await runChecks(pick('chain/timestamps-never-decrease'), [node.url], { profile: testProfile({ timestamps: 'iso8601' }) });
    expect(line(iso, 'chain/timestamps-never-decrease')).toMatch(/: error: block \d+'s timestamp \d+ is not in the profile's form \(iso8601\): its order cannot be read$/);
  });

  it('every chain check failed somewhere above', () => {
    expect(chainChecks.map((c) => c.id).filter((id) => !failedSomewhere.has(id))).toEqual([]);
  });
});
