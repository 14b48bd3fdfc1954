import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../core/paths.js';
import { signInThread as inThread, SIGN_JOB as job } from '../../test/support/signJob.js';
import type { SignedLane } from './signLanes.js';
import { SigningPool } from './SigningPool.js';

describe('SigningPool', () => {
  it('signs every lane once across its threads, byte-identical to signing in this thread', async () => {
    const pool = SigningPool.start({ kind: 'reference' }, 2);
    try {
      await pool.ready();
      const lanes: SignedLane[] = [];
      await pool.sign(job, (lane) => lanes.push(lane));
      expect(lanes.map((l) => l.index).sort()).toEqual([0, 1, 2, 3, 4]);
      lanes.sort((a, b) => a.index - b.index);
      expect(lanes.map((l) => l.text)).toEqual(await inThread());
      // A second job on the same threads.
      const again: SignedLane[] = [];
      await pool.sign({ ...job, lanes: job.lanes.slice(0, 1) }, (lane) => again.push(lane));
      expect(again.map((l) => l.index)).toEqual([0]);
    } finally {
      await pool.close();
    }
  });

  it('reports a thread that cannot load its codec as an error of sign()', async () => {
    const pool = SigningPool.start({ kind: 'module', path: join(packageRoot, 'no-such-codec.js') }, 1);
    try {
      await expect(pool.sign(job, () => undefined)).rejects.toThrow(/cannot load codec module/);
    } finally {
      await pool.close();
    }
  });
});
