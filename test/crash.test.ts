/**
 * Crash safety with real processes: a `chainrpc node` takes transactions while it is killed with
 * SIGKILL at random moments and restarted on the same data dir. After every restart no block the
 * node had reported is lost or changed; at the end the hash links hold from genesis, the store opens
 * cleanly (its own integrity checks pass), its state equals an independent replay of its blocks, and
 * the supply is conserved. CRASH_KILLS sets the number of kills (5 in CI; `npm run test:crash-long` 20).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../core/client/index.js';
import type { RpcClient } from '../core/client/index.js';
import { createTransactionSigner, keypairFromSeed } from '../core/codec/index.js';
import type { TransactionSigner } from '../core/codec/index.js';
import { Chain, devnetFaucetKeypair, devnetGenesis } from '../reference-node/chain/index.js';
import { spawnNode } from '../reference-node/devnet/startDevnet.js';
import { GENESIS_FILE, genesisConfig, readNetworkGenesis } from '../reference-node/node/NetworkGenesis.js';

const KILLS = Number(process.env.CRASH_KILLS ?? 5);
const BLOCK_MS = 100;
const GENESIS_SUPPLY = devnetGenesis(1n).alloc.reduce((sum, a) => sum + a.balance, 0n);
const dir = mkdtempSync(join(tmpdir(), 'chainrpc-crash-'));
let seed = 12345;
const random = (): number => {
  // A fixed-seed generator: a failing run can be replayed exactly.
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(): Promise<{ client: RpcClient; kill: () => Promise<void> }> {
  const { url, process: child } = await spawnNode(['--port', '0', '--p2p-port', '0', '--data-dir', dir, '--block-time', String(BLOCK_MS)], join(dir, 'node.log'));
  const client = createClient({ baseUrl: url, timeoutMs: 2_000 });
  return {
    client,
    kill: async () => {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      await client.close();
    },
  };
}

/** Sends transfers among the senders until stopped, re-reading nonces after every error. */
function traffic(client: RpcClient, senders: TransactionSigner[]): { stop: () => Promise<void> } {
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const s of senders) {
        if (!running) break;
        try {
          const { nonce } = await client.call<{ nonce: number }>('chain_getAccount', [s.address]);
          const to = senders[Math.floor(random() * senders.length)]?.address ?? s.address;
          const txs = Array.from({ length: 5 }, (_, i) => s.sign({ chainId: 1n, to, value: BigInt(1 + Math.floor(random() * 1000)), nonce: BigInt(nonce + i), fee: 10n ** 15n }));
          await client.batch(txs.map((t) => ({ method: 'chain_sendRawTransaction', params: [t.wire] })));
        } catch {
          // The node may be dying under us: that is the point.
        }
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

describe(`kill -9 at random moments (${KILLS} times)`, () => {
  it('loses no committed block, keeps hash links, state equal to a replay, supply conserved', async () => {
    const senders = Array.from({ length: 4 }, (_, i) => createTransactionSigner(keypairFromSeed(`crash-sender-${i}`).privateKey));
    let node = await start();
    for (const s of senders) await node.client.call('chain_faucetClaim', [s.address]);
    const seen = new Map<number, string>(); // height -> hash the node reported
    for (let k = 0; k < KILLS; k++) {
      const load = traffic(node.client, senders);
      await new Promise((r) => setTimeout(r, 300 + Math.floor(random() * 1200)));
      try {
        const h = await node.client.call<number>('chain_blockNumber');
        const b = await node.client.call<{ hash: string }>('chain_getBlockByHeight', [h]);
        seen.set(h, b.hash);
      } catch {
        // A slow answer is fine; the kill still happens.
      }
      await node.kill();
      await load.stop();
      node = await start();
      const height = await node.client.call<number>('chain_blockNumber');
      for (const [h, hash] of seen) {
        expect(height, `restart ${k + 1}: height went below ${h}`).toBeGreaterThanOrEqual(h);
        expect((await node.client.call<{ hash: string }>('chain_getBlockByHeight', [h])).hash, `restart ${k + 1}: block ${h} changed`).toBe(hash);
      }
    }
    const tip = await node.client.call<number>('chain_blockNumber');
    expect(tip).toBeGreaterThan(KILLS);
    let parent = '0'.repeat(64);
    for (let h = 0; h <= tip; h++) {
      const b = await node.client.call<{ hash: string; parent_hash: string }>('chain_getBlockByHeight', [h]);
      expect(b.parent_hash, `block ${h} links to its parent`).toBe(parent);
      parent = b.hash;
    }
    await node.kill();

    // The store after the last SIGKILL: it opens (integrity checks pass) and its state is a replay of its blocks.
    // The node's own network: a one-member genesis it wrote to its data dir.
    const chain = await Chain.open({ dataDir: join(dir, 'chain'), genesis: genesisConfig(readNetworkGenesis(join(dir, GENESIS_FILE))) });
    try {
      const balances = new Map<string, bigint>(devnetGenesis(1n).alloc.map((a) => [a.address, a.balance]));
      const nonces = new Map<string, bigint>();
      const faucet = devnetFaucetKeypair().address;
      let txCount = 0;
      for (let h = 1n; h <= chain.height(); h++) {
        const block = chain.getBlock(h);
        if (!block) throw new Error(`block ${h} missing from the store`);
        for (const tx of block.transactions) {
          const spend = tx.value + tx.fee;
          const from = balances.get(tx.sender) ?? 0n;
          expect(tx.nonce, `block ${h}: nonce of ${tx.sender.slice(0, 8)}`).toBe(nonces.get(tx.sender) ?? 0n);
          expect(from >= spend, `block ${h}: ${tx.sender.slice(0, 8)} overspends`).toBe(true);
          balances.set(tx.sender, from - spend);
          balances.set(tx.to, (balances.get(tx.to) ?? 0n) + tx.value);
          balances.set(block.proposer, (balances.get(block.proposer) ?? 0n) + tx.fee);
          nonces.set(tx.sender, tx.nonce + 1n);
          txCount++;
        }
      }
      expect(txCount).toBeGreaterThan(senders.length);
      for (const [address, balance] of balances) {
        expect(chain.getAccount(address), `account ${address.slice(0, 8)}`).toEqual({ balance, nonce: nonces.get(address) ?? 0n });
      }
      expect(chain.totalSupply()).toBe(GENESIS_SUPPLY);
      expect([...balances.values()].reduce((a, b) => a + b, 0n)).toBe(GENESIS_SUPPLY);
      expect(balances.get(faucet)).toBeLessThan(GENESIS_SUPPLY);
    } finally {
      await chain.close();
    }
  }, 60_000 + KILLS * 15_000);
});
