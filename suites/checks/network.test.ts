import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResults, runChecks, startTestNetwork } from '../../test/support/suites.js';
import { networkChecks } from './network.js';

let net: Awaited<ReturnType<typeof startTestNetwork>>;
beforeAll(async () => {
  net = await startTestNetwork(['MN', 'MN', 'LN']);
}, 30_000);
afterAll(async () => {
  await net.stop();
});

describe('network checks', () => {
  it('all pass against a network of 2 MN + 1 LN reference nodes', async () => {
    const results = await runChecks(networkChecks, net.urls);
    expect(describeResults(results).filter((l) => !l.includes(': pass:'))).toEqual([]);
    expect(results).toHaveLength(networkChecks.length);
  }, 60_000);

  it('skip with one --url', async () => {
    const results = await runChecks(networkChecks, [net.urls[0] ?? '']);
    expect(results.every((r) => r.status === 'skip')).toBe(true);
  });
});
