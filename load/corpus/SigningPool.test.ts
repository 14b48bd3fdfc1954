import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../core/paths.js';
import { laneSigner, signLane } from './signLanes.js';
import type { SignedLane, SignJob } from './signLanes.js';
import { SigningPool } from './SigningPool.js';

const job: SignJob = {
  seed: 'pool-test',
  chainId: '7',
  value: '5',
  fee: '1000',
  recipients: ['aa'.repeat(32), 'bb'.repeat(32), 'cc'.repeat(32)],
  lanes: Array.from({ length: 5 }, (_, index) => ({ index, firstNonce: index * 3, count: 4 })),
};

/** The same job signed in this thread: what every thread must produce, byte for byte. */
async function inThread(): Promise<string[]> {
  const signer = await laneSigner({ kind: 'reference' });
  return job.lanes.map((lane) => signLane(signer, job, lane).text);
}

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

  it('runs from the compiled build (dist/) too', async () => {
    const compiled = join(packageRoot, 'dist', 'load', 'corpus', 'SigningPool.js');
    expect(existsSync(compiled), 'build first: npx tsc -p tsconfig.build.json').toBe(true);
    const script = `
      const { SigningPool } = await import(${JSON.stringify(pathToFileURL(compiled).href)});
      const pool = SigningPool.start({ kind: 'reference' }, 2);
      const lanes = [];
      await pool.sign(${JSON.stringify(job)}, (lane) => lanes.push(lane));
      await pool.close();
      lanes.sort((a, b) => a.index - b.index);
      console.log(JSON.stringify(lanes.map((l) => l.text)));`;
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-pool-'));
    try {
      writeFileSync(join(dir, 'sign.mjs'), script);
      const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'sign.mjs')], { cwd: packageRoot });
      expect(JSON.parse(stdout)).toEqual(await inThread());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
