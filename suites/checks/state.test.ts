import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResults, runChecks, startTestNode } from '../testSupport.js';
import type { TestNode } from '../testSupport.js';
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
