import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResults, runChecks, startTestNode } from '../../../test/support/suites.js';
import type { TestNode } from '../../../test/support/suites.js';
import { chain_getAccount } from './chain_getAccount.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.stop();
});

describe('chain_getAccount checks', () => {
  it('all pass against the reference node', async () => {
    const results = await runChecks(chain_getAccount, [node.url]);
    expect(describeResults(results).filter((l) => !l.includes(': pass:'))).toEqual([]);
    expect(results).toHaveLength(chain_getAccount.length);
  });
});
