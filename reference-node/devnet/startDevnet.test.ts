/**
 * A kept devnet (--keep-data) resumes only as the network it was: its genesis names its members and its
 * block time. One kept from before block times were written (chainrpc-genesis/1) is the same network when
 * the rest is; one of another block time is refused before any node starts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GENESIS_FILE, GENESIS_FORMAT, networkGenesis, writeNetworkGenesis } from '../node/NetworkGenesis.js';
import { loadOrCreateIdentity } from '../node/NodeIdentity.js';
import { DevnetPlanError, startDevnet } from './startDevnet.js';
import type { Devnet } from './startDevnet.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-devnet-kept-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The id of the devnet's first MN, its key made where the devnet keeps it. */
function mn1(): string {
  mkdirSync(join(dir, 'mn1'), { recursive: true });
  return loadOrCreateIdentity(join(dir, 'mn1')).id;
}

describe('startDevnet --keep-data', () => {
  it('refuses a kept network of another block time, naming it, before any node starts', async () => {
    writeNetworkGenesis(join(dir, GENESIS_FILE), networkGenesis(1n, [mn1()], 500));
    const started = startDevnet({ mn: 1, ln: 0, blockTimeMs: 200, chainId: 1n, dataDir: dir, keepData: true });
    await expect(started).rejects.toThrow(DevnetPlanError);
    await expect(started).rejects.toThrow(/holds another network \(.*chain id 1, block time 500 ms, 1 members\)/);
  });

  it('resumes a network kept without a block time (format 1) when its members and chain are the same', async () => {
    const file = join(dir, GENESIS_FILE);
    writeFileSync(file, JSON.stringify({ format: GENESIS_FORMAT, chain_id: '1', members: [mn1()] }));
    const net = await startDevnet({ mn: 1, ln: 0, blockTimeMs: 200, chainId: 1n, dataDir: dir, keepData: true });
    try {
      expect(net.nodes).toHaveLength(1);
      // The kept file is left as it was: the network it names is the one that runs.
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: GENESIS_FORMAT });
    } finally {
      await net.stop();
    }
  }, 60_000);
});

/** thesis.txt and sub/y, a user's files, in `folder`. */
function userFiles(folder: string): void {
  mkdirSync(join(folder, 'sub'), { recursive: true });
  writeFileSync(join(folder, 'thesis.txt'), 'four years of work\n');
  writeFileSync(join(folder, 'sub', 'y'), 'y\n');
}

function expectUserFiles(folder: string): void {
  expect(readFileSync(join(folder, 'thesis.txt'), 'utf8')).toBe('four years of work\n');
  expect(readFileSync(join(folder, 'sub', 'y'), 'utf8')).toBe('y\n');
}

/** startDevnet's outcome: its error, or (where it started after all) the devnet, stopped. */
async function outcome(started: Promise<Devnet>): Promise<unknown> {
  const result = await started.catch((err: unknown) => err);
  if (typeof result === 'object' && result !== null && 'stop' in result) await (result as Devnet).stop();
  return result;
}

describe('startDevnet removes only what a devnet made', () => {
  it("refuses a user's folder as its data dir, fresh or --keep-data, naming it, before anything is written or removed", async () => {
    userFiles(dir);
    for (const keepData of [false, true]) {
      const err = await outcome(startDevnet({ mn: 1, ln: 0, blockTimeMs: 200, chainId: 1n, dataDir: dir, keepData }));
      expect(err, `keepData ${keepData}`).toBeInstanceOf(DevnetPlanError);
      expect((err as Error).message).toContain(`${dir} is not empty and was not made by chainrpc devnet (it holds sub/, thesis.txt)`);
      expect((err as Error).message).toContain(keepData ? 'give --data-dir that folder, or a new or empty one' : 'give --data-dir a new or empty folder');
      if (!keepData) expect((err as Error).message).not.toContain('--keep-data');
      expect(readdirSync(dir).sort()).toEqual(['sub', 'thesis.txt']);
      expectUserFiles(dir);
    }
  }, 60_000);

  it("refuses a fresh start over a devnet's data dir that has come to hold a user's file (a devnet from before markers too); --keep-data resumes beside it", async () => {
    // A devnet's data dir as chainrpc wrote it before it marked its folders: genesis.json and mn1/.
    writeNetworkGenesis(join(dir, GENESIS_FILE), networkGenesis(1n, [mn1()], 200));
    userFiles(dir);
    const err = await outcome(startDevnet({ mn: 1, ln: 0, blockTimeMs: 200, chainId: 1n, dataDir: dir, keepData: false }));
    expect(err).toBeInstanceOf(DevnetPlanError);
    expect((err as Error).message).toContain(`${dir} holds what chainrpc devnet did not make (sub/, thesis.txt), so it will not empty it`);
    // Here --keep-data would work, and is suggested.
    expect((err as Error).message).toContain('or --keep-data to resume the devnet kept there as it is');
    expect(existsSync(join(dir, 'mn1', 'node-key'))).toBe(true);
    expectUserFiles(dir);
    const net = await startDevnet({ mn: 1, ln: 0, blockTimeMs: 200, chainId: 1n, dataDir: dir, keepData: true });
    await net.stop();
    expectUserFiles(dir);
  }, 60_000);
});

