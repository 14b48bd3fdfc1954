/**
 * A faucet claim sent to a node that does not lead is forwarded to the leader. Nodes can briefly see
 * no leader, or different ones, around a block boundary; a claim made in that moment waits for a
 * leader (a few block times) instead of failing at once. Real nodes, in process, on loopback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createClient, JsonRpcError } from '../../core/client/index.js';
import { createTransactionSigner, generatePrivateKey } from '../../core/codec/index.js';
import { networkGenesis } from './NetworkGenesis.js';
import { loadOrCreateIdentity } from './NodeIdentity.js';
import { ReferenceNode } from './ReferenceNode.js';
import { testNodeOptions } from '../../test/support/nodeOptions.js';
import { absentMemberNetwork } from '../../test/support/suites.js';

const BLOCK_MS = 1_000;
const started: ReferenceNode[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((n) => n.stop()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'chainrpc-faucet-forward-'));
  dirs.push(d);
  return d;
}

/** A loopback port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

it('a claim made on an LN before it knows any leader is forwarded once the MN is up', async () => {
  const mnPort = await freePort();
  const mnDir = tempDir();
  const genesis = networkGenesis(1n, [loadOrCreateIdentity(mnDir).id]);
  const ln = await ReferenceNode.start(testNodeOptions(tempDir(), { kind: 'LN', faucet: false, blockTimeMs: BLOCK_MS, genesis, peers: [`http://127.0.0.1:${mnPort}`] }));
  started.push(ln);
  const client = createClient({ baseUrl: ln.url, timeoutMs: 10_000 });
  try {
    const address = createTransactionSigner(generatePrivateKey()).address;
    // The LN's only peer is not running yet: the LN knows no leader when the claim arrives.
    const claim = client.call<{ transaction_hash: string; amount: string }>('chain_faucetClaim', [address]);
    await new Promise((r) => setTimeout(r, 200));
    started.push(await ReferenceNode.start(testNodeOptions(mnDir, { kind: 'MN', p2pPort: mnPort, genesis, blockTimeMs: BLOCK_MS })));
    const result = await claim;
    expect(result.transaction_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.amount).toBe((10n ** 19n).toString());
  } finally {
    await client.close();
  }
});

it('with no leader at all, the claim fails with -32014 after a few block times, not at once and not never', async () => {
  const ln = await ReferenceNode.start(testNodeOptions(tempDir(), { kind: 'LN', faucet: false, blockTimeMs: 300, genesis: absentMemberNetwork(), peers: [`http://127.0.0.1:${await freePort()}`] }));
  started.push(ln);
  const client = createClient({ baseUrl: ln.url, timeoutMs: 10_000 });
  try {
    const t0 = Date.now();
    const error = await client.call('chain_faucetClaim', [createTransactionSigner(generatePrivateKey()).address]).then(
      () => undefined,
      (e: unknown) => e,
    );
    const waited = Date.now() - t0;
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32014);
    expect((error as JsonRpcError).rpcMessage).toBe('Node unavailable');
    // The window is max(1 s, 3 block times) = 1 s here.
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(5_000);
  } finally {
    await client.close();
  }
});
