/**
 * Durable before visible, with real processes: a child produces blocks and reports each one once
 * produceBlock resolves; it is killed with SIGKILL at random moments. After every kill the store
 * opens cleanly (integrity checks pass) and holds every reported block with the reported hash.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Chain } from './Chain.js';
import { devnetFaucetKeypair } from './genesis.js';
import { removeTempDirs, tempDir, testGenesis } from '../../test/support/chain.js';

afterAll(removeTempDirs);

const CHILD = fileURLToPath(new URL('../../test/support/crashChild.ts', import.meta.url));
const KILLS = 5;

/** Runs the child until it has reported `blocks` more blocks plus a random extra delay, then SIGKILLs it. */
function runAndKill(dataDir: string, seen: Map<bigint, string>, blocks: number, extraMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let buffer = '';
    let reported = 0;
    let stderr = '';
    let killing = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const [height, hash] = line.split(' ');
        if (height === undefined || hash === undefined) continue; // "open"
        seen.set(BigInt(height), hash);
        if (++reported >= blocks && !killing) {
          killing = true;
          setTimeout(() => child.kill('SIGKILL'), extraMs);
        }
      }
    });
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited without being killed: ${stderr}`))));
  });
}

describe('SIGKILL while producing blocks', () => {
  it('never loses a block that was visible, and the store always opens cleanly', async () => {
    const dataDir = tempDir();
    const seen = new Map<bigint, string>();
    for (let k = 0; k < KILLS; k++) {
      await runAndKill(dataDir, seen, 3 + k, Math.floor(Math.random() * 50));
      const chain = await Chain.open({ dataDir, genesis: testGenesis(), faucet: { keypair: devnetFaucetKeypair() } });
      try {
        for (const [height, hash] of seen) {
          expect(chain.height()).toBeGreaterThanOrEqual(height);
          expect(chain.getBlock(height)?.hash, `block ${height} after kill ${k + 1}`).toBe(hash);
        }
        expect(chain.totalSupply()).toBe(chain.genesisSupply);
      } finally {
        await chain.close();
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(3 * KILLS);
  }, 90_000);
});
