import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devnetFaucetKeypair } from '../../reference-node/chain/index.js';
import { describeResults, runChecks, startTestNode, testProfile } from '../../test/support/suites.js';
import type { TestNode } from '../../test/support/suites.js';
import { stateChecks } from './state.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.stop();
});

describe('state checks', () => {
  it('all pass against the reference node', async () => {
    const results = await runChecks(stateChecks, [node.url]);
    expect(describeResults(results).filter((l) => !l.includes(': pass:'))).toEqual([]);
    expect(results).toHaveLength(stateChecks.length);
  }, 60_000);
});

describe('state checks without a faucet', () => {
  it('fund their keys from a funded --private-key instead, and all pass', async () => {
    const key = Buffer.from(devnetFaucetKeypair().privateKey).toString('hex');
    const profile = testProfile({ faucet: false, privateKey: key });
    const results = await runChecks(stateChecks, [node.url], { profile });
    const faucetChecks = results.filter((r) => r.id.startsWith('state/faucet-'));
    expect(faucetChecks.every((r) => r.status === 'skip')).toBe(true);
    expect(describeResults(results.filter((r) => !r.id.startsWith('state/faucet-') && r.status !== 'pass'))).toEqual([]);
  }, 60_000);
});
