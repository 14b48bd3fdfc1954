/**
 * A kept devnet (--keep-data) resumes only as the network it was: its genesis names its members and its
 * block time. One kept from before block times were written (chainrpc-genesis/1) is the same network when
 * the rest is; one of another block time is refused before any node starts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GENESIS_FILE, GENESIS_FORMAT, networkGenesis, writeNetworkGenesis } from '../node/NetworkGenesis.js';
import { loadOrCreateIdentity } from '../node/NodeIdentity.js';
import { DevnetPlanError, startDevnet } from './startDevnet.js';

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
