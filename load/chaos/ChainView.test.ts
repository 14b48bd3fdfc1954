import { afterEach, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { startProposerChain } from '../../test/support/proposerChain.js';
import type { TestServer } from '../../test/support/startTestServer.js';
import { ChainView } from './ChainView.js';
import type { ChaosNetwork } from './ChaosNetwork.js';
import { parseChaosStep } from './chaosPlan.js';
import { runChaos } from './runChaos.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A node serving a chain whose block `h` was proposed by `proposerAt(h)` (an MN's id: "id-mn4"), up to `tip`. */
async function chainNode(tip: number, proposerAt: (h: number) => string): Promise<TestServer> {
  const server = await startProposerChain(tip, proposerAt);
  servers.push(server);
  return server;
}

/** A devnet as the runner sees it: `down` not running; each MN's id "id-<name>"; the actions done recorded. */
function network(urls: Record<string, string>, down: Set<string>): ChaosNetwork & { done: string[] } {
  const done: string[] = [];
  return {
    done,
    nodes: Object.entries(urls).map(([name, url]) => ({ name, kind: 'MN' as const, url })),
    isUp: (name) => !down.has(name),
    nameOfProposer: (p) => (p.startsWith('id-') ? p.slice(3) : undefined),
    act: (action, name) => {
      done.push(`${action} ${name}`);
      return Promise.resolve();
    },
  };
}

describe('ChainView: the leader of the moment', () => {
  it('is the proposer of the highest head among running nodes, not of the first node that answers (an outside tester\'s stale mn1 named a dead leader)', async () => {
    // --devnet 5:1: mn1 partitioned since 2 s, its tip (height 6) by mn5, killed at 3 s; the others at 30, led by mn4.
    const mn1 = await chainNode(6, () => 'id-mn5');
    const others = await Promise.all([1, 2, 3].map(() => chainNode(30, () => 'id-mn4')));
    const urls = { mn1: mn1.url, mn2: others[0]?.url ?? '', mn3: others[1]?.url ?? '', mn4: others[2]?.url ?? '', mn5: 'http://127.0.0.1:9' };
    const net = network(urls, new Set(['mn5']));
    const chain = new ChainView(net, referenceProfile());
    try {
      expect(await chain.leader()).toBe('mn4');
      // The runner's roles read it: `kill:leader` kills mn4, `kill:follower` an MN that is not mn4.
      const run = runChaos({ steps: [parseChaosStep('0ms:kill:leader'), parseChaosStep('1ms:stop:follower')], network: net, chain, measureStartMs: performance.timeOrigin + performance.now() });
      for (let i = 0; i < 100 && net.done.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      const events = await run.stop();
      expect(events.map((e) => [e.text, e.node, e.error])).toEqual([['0ms:kill:leader', 'mn4', undefined], ['1ms:stop:follower', 'mn1', undefined]]);
      expect(net.done).toEqual(['kill mn4', 'stop mn1']);
    } finally {
      await chain.close();
    }
  });
});
