/**
 * A real devnet: 3 MN + 2 LN `chainrpc node` processes on loopback (npm test builds dist/ first).
 * A transaction sent to an LN is included; every node returns the same block at every height; killing
 * the leader with SIGKILL elects another MN and the chain goes on, still one chain. Every built-in load
 * scenario runs against it (chainrpc load's harness), with signed transfers sent to an LN all included.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../core/client/index.js';
import type { RpcClient } from '../core/client/index.js';
import { createTransactionSigner, generatePrivateKey } from '../core/codec/index.js';
import { runLoad } from '../load/runLoad.js';
import { loadScenario } from '../load/scenario/loadScenario.js';
import { startDevnet } from '../reference-node/devnet/startDevnet.js';
import { readNetworkGenesis } from '../reference-node/node/NetworkGenesis.js';
import { loadOrCreateIdentity } from '../reference-node/node/NodeIdentity.js';
import { referenceProfile } from '../profile/referenceProfile.js';
import type { Devnet, DevnetNode } from '../reference-node/devnet/startDevnet.js';

const BLOCK_MS = 300;
let dir: string;
let net: Devnet;
const clients = new Map<string, RpcClient>();

const clientOf = (n: DevnetNode): RpcClient => {
  let c = clients.get(n.name);
  if (!c) {
    c = createClient({ baseUrl: n.url, timeoutMs: 3_000 });
    clients.set(n.name, c);
  }
  return c;
};
const alive = (): DevnetNode[] => net.nodes.filter((n) => n.process.exitCode === null && n.process.signalCode === null);
const height = async (n: DevnetNode): Promise<number> => clientOf(n).call<number>('chain_blockNumber');
const pou = async (n: DevnetNode) => clientOf(n).call<{ leader: string | null; local_is_leader: boolean; local_score: number }>('chain_pouLocal');

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every live node returns the same block hash at every height up to the lowest tip. */
async function expectOneChain(): Promise<number> {
  const nodes = alive();
  const tips = await Promise.all(nodes.map(height));
  const top = Math.min(...tips);
  for (let h = 0; h <= top; h++) {
    const hashes = await Promise.all(nodes.map((n) => clientOf(n).call<{ hash: string }>('chain_getBlockByHeight', [h]).then((b) => b.hash)));
    expect(new Set(hashes).size, `height ${h}: ${nodes.map((n, i) => `${n.name}=${hashes[i]?.slice(0, 8)}`).join(' ')}`).toBe(1);
  }
  return top;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-devnet-'));
  net = await startDevnet({ mn: 3, ln: 2, blockTimeMs: BLOCK_MS, chainId: 1n, dataDir: dir, keepData: false });
}, 90_000);

afterAll(async () => {
  await Promise.all([...clients.values()].map((c) => c.close()));
  await net?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe('devnet of 3 MN + 2 LN', () => {
  it('forms a full mesh: each node lists the other four as peers, and they agree on one leader', async () => {
    for (const n of net.nodes) {
      const peers = await clientOf(n).call<{ peers: Record<string, number> }>('chain_pouPeers');
      expect(Object.keys(peers.peers)).toHaveLength(4);
      expect(await clientOf(n).call('net_peerCount')).toBe(4);
    }
    const leaders = await Promise.all(net.nodes.map(pou));
    expect(new Set(leaders.map((p) => p.leader)).size).toBe(1);
    expect(leaders.filter((p) => p.local_is_leader)).toHaveLength(1);
    const health = await Promise.all(net.nodes.map((n) => clientOf(n).call<{ mode: string }>('chain_health')));
    expect(health.map((h) => h.mode)).toEqual(['MN', 'MN', 'MN', 'LN', 'LN']);
  });

  it('includes a transaction sent to an LN, and every node sees it', async () => {
    const ln = net.nodes.find((n) => n.kind === 'LN');
    if (!ln) throw new Error('no LN');
    const alice = createTransactionSigner(generatePrivateKey());
    const bob = createTransactionSigner(generatePrivateKey()).address;
    const claim = await clientOf(ln).call<{ transaction_hash: string }>('chain_faucetClaim', [alice.address]);
    expect(claim.transaction_hash).toMatch(/^[0-9a-f]{64}$/);
    await waitFor('the faucet claim on every node', async () => {
      const balances = await Promise.all(net.nodes.map((n) => clientOf(n).call<{ balance: string }>('chain_getAccount', [alice.address])));
      return balances.every((b) => b.balance !== '0') ? true : undefined;
    });
    const tx = alice.sign({ chainId: 1n, to: bob, value: 12345n, nonce: 0n, fee: 10n ** 15n });
    expect(await clientOf(ln).call('chain_sendRawTransaction', [tx.wire])).toBe(tx.hash);
    await waitFor('the transfer on every node', async () => {
      const accounts = await Promise.all(net.nodes.map((n) => clientOf(n).call<{ balance: string }>('chain_getAccount', [bob])));
      return accounts.every((a) => a.balance === '12345') ? true : undefined;
    });
    await expectOneChain();
  });

  it('runs every built-in load scenario: reads and batches on an MN, transfers on an LN all included, both compared', async () => {
    const [mn] = net.nodes.filter((n) => n.kind === 'MN');
    const ln = net.nodes.find((n) => n.kind === 'LN');
    if (!mn || !ln) throw new Error('no MN or LN');
    const quick = { rate: 30, duration: '2s', warmup: '300ms' } as const;
    const load = async (name: string, urls: string[], extra = {}) => runLoad({ scenario: loadScenario(name, { ...quick, ...extra }), urls, profile: referenceProfile(), profileSource: null, threads: 1, log: () => {} });
    const ok = (r: Awaited<ReturnType<typeof load>>[number] | undefined): boolean => r !== undefined && r.methods.length > 0 && r.methods.every((m) => m.ok === m.calls);
    const [reads] = await load('reads', [mn.url]);
    expect(ok(reads)).toBe(true);
    const [batch] = await load('batch', [mn.url], { batchSize: 10, rate: 5 });
    expect(ok(batch)).toBe(true);
    expect(batch?.batchSizes.map((b) => b.size)).toEqual(['10']);
    const [sent] = await load('send-raw-tx', [ln.url], { rate: 20 });
    expect(ok(sent)).toBe(true);
    expect(sent?.inclusion).toMatchObject({ ratio: 1, pending: 0 });
    expect(sent?.inclusion?.accepted).toBeGreaterThan(30);
    // Two nodes, interleaved in time: one run each, side by side.
    const mixed = await load('mixed', [mn.url, ln.url]);
    expect(mixed.map((r) => r.url)).toEqual([mn.url, ln.url]);
    // Three rounds each, merged: the model is the whole run's, 2 s at the rate.
    for (const r of mixed) expect(r.model).toMatchObject({ kind: 'open', stages: [{ from: 30, to: 30, durationMs: 2000 }] });
    // The corpus made for each node lasts through every round's warm-up and window: no run ends early.
    for (const r of mixed) expect([r.stop.reason, r.durationMs]).toEqual(['completed', 2000]);
    for (const r of mixed) {
      expect(ok(r), `${r.url}: ${JSON.stringify(r.methods.map((m) => [m.method, m.calls, m.ok, m.errors, m.unanswered, m.invalid]))} ${JSON.stringify(r.failures)}`).toBe(true);
      expect(r.inclusion?.ratio, r.url).toBe(1);
    }
  }, 180_000);

  it('elects another MN when the leader is killed, and the chain goes on without a fork', async () => {
    const leaderId = (await pou(net.nodes[0] as DevnetNode)).leader;
    const leader = await (async () => {
      for (const n of net.nodes) if ((await pou(n)).local_is_leader) return n;
      return undefined;
    })();
    if (!leader || leaderId === null) throw new Error('no leader');
    const before = await height(net.nodes.find((n) => n !== leader) as DevnetNode);
    leader.process.kill('SIGKILL');
    const started = Date.now();
    const next = await waitFor('a new leader everyone agrees on', async () => {
      const views = await Promise.all(alive().map(pou));
      const leaders = new Set(views.map((v) => v.leader));
      const [only] = [...leaders];
      return leaders.size === 1 && only !== leaderId && only !== null && views.filter((v) => v.local_is_leader).length === 1 ? only : undefined;
    });
    const tookMs = Date.now() - started;
    expect(next).not.toBe(leaderId);
    // "Within a few block times": the liveness window is max(4 block times, 2 s), plus a heartbeat.
    expect(tookMs).toBeLessThan(15_000);
    await waitFor('blocks after the failover', async () => {
      const hs = await Promise.all(alive().map(height));
      return hs.every((h) => h >= before + 3) ? true : undefined;
    });
    const top = await expectOneChain();
    // Only the genesis members, the devnet's MNs, are ever elected and ever propose.
    const members = readNetworkGenesis(net.genesisFile).members;
    expect([...members].sort()).toEqual(net.nodes.filter((n) => n.kind === 'MN').map((n) => loadOrCreateIdentity(n.dataDir).id).sort());
    expect(members).toContain(leaderId);
    expect(members).toContain(next);
    const survivor = alive()[0] as DevnetNode;
    for (let h = 1; h <= top; h++) expect(members).toContain((await clientOf(survivor).call<{ proposer: string }>('chain_getBlockByHeight', [h])).proposer);
  });
});
