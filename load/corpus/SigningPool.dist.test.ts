// The signing pool from the compiled build: its worker threads find their entry in dist/ as users run it.
// `npm test` builds first; alone: npm run build && npx vitest run <this file>.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../core/paths.js';
import { signInThread, SIGN_JOB } from '../../test/support/signJob.js';

describe('SigningPool from the build', () => {
  it('runs from the compiled build (dist/) too', async () => {
    const compiled = join(packageRoot, 'dist', 'load', 'corpus', 'SigningPool.js');
    expect(existsSync(compiled), 'build first: npm run build').toBe(true);
    const script = `
      const { SigningPool } = await import(${JSON.stringify(pathToFileURL(compiled).href)});
      const pool = SigningPool.start({ kind: 'reference' }, 2);
      const lanes = [];
      await pool.sign(${JSON.stringify(SIGN_JOB)}, (lane) => lanes.push(lane));
      await pool.close();
      lanes.sort((a, b) => a.index - b.index);
      console.log(JSON.stringify(lanes.map((l) => l.text)));`;
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-pool-'));
    try {
      writeFileSync(join(dir, 'sign.mjs'), script);
      const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'sign.mjs')], { cwd: packageRoot });
      expect(JSON.parse(stdout)).toEqual(await signInThread());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
