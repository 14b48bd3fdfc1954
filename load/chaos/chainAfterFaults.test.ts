import { describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { chainAfterFaults, headPoints } from './chainAfterFaults.js';
import { ChainView } from './ChainView.js';
import { outsideNetwork } from './ChaosNetwork.js';

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
});
