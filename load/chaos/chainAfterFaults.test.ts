import { afterEach, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { startProposerChain } from '../../test/support/proposerChain.js';
import type { TestServer } from '../../test/support/startTestServer.js';
import { chainAfterFaults, headPoints, type HeadPoint } from './chainAfterFaults.js';
import { ChainView } from './ChainView.js';
import { outsideNetwork, type ChaosNetwork } from './ChaosNetwork.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A node serving blocks 1..`tip`, block `h` proposed by `proposerAt(h)` (an MN's id: "id-mn2"). */
async function chainNode(tip: number, proposerAt: (h: number) => string): Promise<string> {
  const server = await startProposerChain(tip, proposerAt);
  servers.push(server);
  return server.url;
}

/** Three MNs, all up after the run, each MN's id "id-<name>", serving the same blocks. */
async function threeMembers(proposerAt: (h: number) => string): Promise<ChainView> {
  const urls = await Promise.all([1, 2, 3].map(() => chainNode(40, proposerAt)));
  const network: ChaosNetwork = {
    nodes: urls.map((url, i) => ({ name: `mn${i + 1}`, kind: 'MN', url })),
    isUp: () => true,
    nameOfProposer: (p) => (p.startsWith('id-') ? p.slice(3) : undefined),
    act: () => Promise.resolve(),
  };
  return new ChainView(network, referenceProfile());
}

/** Every node's head: height 10 by 3,900 ms, then one more each `blockMs` from `firstAt`. */
function headsFrom(firstAt: number, blockMs: number): Map<string, HeadPoint[]> {
  const points: HeadPoint[] = [{ tMs: 3_900, height: 10 }];
  for (let h = 11; h <= 40; h++) points.push({ tMs: firstAt + (h - 11) * blockMs, height: h });
  return new Map(['mn1', 'mn2', 'mn3'].map((n) => [n, points]));
}

describe('the chain after faults, from the head followers', () => {
  it('dates a height when its answer came: a call held by a paused node and answered just after its resume is its catch-up', async () => {
    // --devnet 3:1 --chaos 4s:pause:leader:3s: mn1 resumed at 7000 ms, the others at height 31 since 5940. The
    // follower's call sent at 6650 (its calls before timed out) was held by the pause and answered at 7016 with
    // 31; its next sample is the next block, 32, at 7321 (a follower keeps only the heights that change).
    const originEpochMs = 1_000_000;
    const measureStartMs = originEpochMs + 500;
    const onFollowerClock = (sent: number, answered: number, height: number): { sentMs: number; answeredMs: number; height: number } => ({ sentMs: sent + 500, answeredMs: answered + 500, height });
    const heads = new Map([
      ['mn1', headPoints([onFollowerClock(3_990, 3_991, 24), onFollowerClock(6_650, 7_016, 31), onFollowerClock(7_320, 7_321, 32)], originEpochMs, measureStartMs)],
      ['mn2', headPoints([onFollowerClock(5_939, 5_940, 31), onFollowerClock(7_318, 7_319, 32)], originEpochMs, measureStartMs)],
    ]);
    expect(heads.get('mn1')?.map((p) => p.tMs)).toEqual([3_991, 7_016, 7_321]);
    // No node answers blocks here: the chain's own figures are not what is judged.
    const chain = new ChainView(outsideNetwork([]), referenceProfile());
    const [resume] = await chainAfterFaults([{ text: '4s:pause:leader:3s (end)', action: 'resume', node: 'mn1', atMs: 7_000 }], heads, chain);
    await chain.close();
    expect(resume?.catchUpMs).toBe(16);
    expect(resume?.headBefore).toBe(31);
  });

  it('takes a block the paused leader made after its resume as the next block (an outside tester\'s 800 ms pause read 3.2 s)', async () => {
    // --chaos 4s:pause:leader:800ms: mn2 leads throughout; its next block came 840 ms after the pause, then one each 300 ms.
    const chain = await threeMembers(() => 'id-mn2');
    try {
      const acted = [{ text: '4s:pause:leader:800ms', action: 'pause' as const, node: 'mn2', atMs: 4_000 }, { text: '4s:pause:leader:800ms (end)', action: 'resume' as const, node: 'mn2', atMs: 4_800 }];
      const [pause] = await chainAfterFaults(acted, headsFrom(4_840, 300), chain);
      expect(pause).toMatchObject({ nextBlockMs: 840, leaderBefore: 'mn2', leaderAfter: 'mn2', headBefore: 10 });
    } finally {
      await chain.close();
    }
  });

  it('still looks past a block the killed leader made just before it fell (served after the kill, before any return)', async () => {
    // mn2 killed at 4 s, back at 9 s: its block 11 reached the others 10 ms after the kill; mn1 leads from 12, at 6 s.
    const chain = await threeMembers((h) => (h <= 11 ? 'id-mn2' : 'id-mn1'));
    try {
      const acted = [{ text: '4s:kill:leader:5s', action: 'kill' as const, node: 'mn2', atMs: 4_000 }, { text: '4s:kill:leader:5s (end)', action: 'restart' as const, node: 'mn2', atMs: 9_000 }];
      const heads = headsFrom(4_010, 1_990);
      const [kill] = await chainAfterFaults(acted, heads, chain);
      expect(kill).toMatchObject({ nextBlockMs: 2_000, leaderBefore: 'mn2', leaderAfter: 'mn1' });
    } finally {
      await chain.close();
    }
  });
});
