/**
 * An outsider against a running devnet (2 MN members + 1 LN, each a real `chainrpc node` process),
 * as in the report that opened this work: one unauthenticated hello with a made-up id and a huge
 * score used to make it the leader and halt the chain. Now, every second for several seconds, the
 * outsider sends that hello, a forged one, hellos signed by a key of its own, a replayed hello of a
 * real member and a well-signed block from a fresh key. The leader never changes, blocks keep
 * coming, the forged block is refused everywhere, and the nodes log what they refused.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../core/client/index.js';
import type { JsonValue } from '../core/json/index.js';
import { genesisBlock } from '../reference-node/chain/index.js';
import { startDevnet } from '../reference-node/devnet/startDevnet.js';
import type { Devnet } from '../reference-node/devnet/startDevnet.js';
import { genesisConfig, readNetworkGenesis } from '../reference-node/node/NetworkGenesis.js';
import type { NetworkGenesis } from '../reference-node/node/NetworkGenesis.js';
import { forgeBlock, freshKey, postPeer, refusal, signedHello } from './support/peerClient.js';

const BLOCK_MS = 1_000;
const ROUNDS = 4;
let dir: string;
let net: Devnet;
let network: NetworkGenesis;
let genesisHash: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-outsider-'));
  net = await startDevnet({ mn: 2, ln: 1, blockTimeMs: BLOCK_MS, chainId: 1n, dataDir: join(dir, 'devnet'), keepData: false });
  network = readNetworkGenesis(net.genesisFile);
  genesisHash = genesisBlock(genesisConfig(network)).hash;
}, 60_000);

afterAll(async () => {
  await net.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function call(url: string, method: string, params: JsonValue[] = []): Promise<JsonValue> {
  const client = createClient({ baseUrl: url, timeoutMs: 5_000 });
  try {
    return await client.call(method, params);
  } finally {
    await client.close();
  }
}

const field = (v: JsonValue, key: string): JsonValue => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v[key] ?? null) : null);
/** A field as text: a string as is, anything else as JSON. */
const text = (v: JsonValue, key: string): string => {
  const value = field(v, key);
  return typeof value === 'string' ? value : JSON.stringify(value);
};

/** The leader every node names (one name, or the test fails with all of them). */
async function agreedLeader(): Promise<string> {
  const leaders = await Promise.all(net.nodes.map(async (n) => text(await call(n.url, 'chain_pouLocal'), 'leader')));
  expect(new Set(leaders).size, `nodes name different leaders: ${leaders.join(', ')}`).toBe(1);
  return leaders[0] ?? '';
}

it('forged, self-signed and replayed hellos and a forged block change no leader, stop no block, and are refused and logged', async () => {
  const [mn1, mn2] = net.nodes;
  if (!mn1 || !mn2) throw new Error('the devnet has two MNs');
  const leader = await agreedLeader();
  expect(network.members).toContain(leader);
  const startHeight = Number(await call(mn1.url, 'chain_blockNumber'));
  const forged: { height: bigint; hash: string }[] = [];
  const me = { chainId: 1n, genesisHash };
  const outsider = freshKey();

  for (let round = 0; round < ROUNDS; round++) {
    // The hello of the report: a made-up id, no signature, no timestamp. Not even served on the JSON-RPC port.
    const madeUp = { id: 'ab'.repeat(32), kind: 'MN', url: 'http://127.0.0.1:9', score: '999999999999', height: '0', chain_id: '1', genesis_hash: genesisHash, peers: [] };
    for (const n of net.nodes) {
      expect((await postPeer(n.url, '/p2p/hello', madeUp)).status).toBe(404);
      const answer = await postPeer(n.p2pUrl, '/p2p/hello', madeUp);
      expect([answer.status, refusal(answer)]).toEqual([400, expect.stringMatching(/malformed hello: missing field timestamp/)]);
    }
    // Signed, but by the outsider's key while naming the leader: the signature does not verify.
    const impersonation = signedHello(outsider, me, { kind: 'MN', score: 999_999_999_999n }) as Record<string, JsonValue>;
    expect((await postPeer(mn2.p2pUrl, '/p2p/hello', { ...impersonation, id: leader })).status).toBe(401);
    // Signed by its own key: as an MN it is refused; as an LN it may follow, never lead.
    expect((await postPeer(mn1.p2pUrl, '/p2p/hello', signedHello(outsider, me, { kind: 'MN', score: 999_999_999_999n }))).status).toBe(403);
    const followed = await postPeer(mn2.p2pUrl, '/p2p/hello', signedHello(outsider, me, { kind: 'LN', score: 999_999_999_999n }));
    expect(followed.status).toBe(200);
    // Its answer is mn2's own signed hello: shown again to mn1 it is taken at most once, and never by mn2 itself.
    const memberHello = followed.json ?? null;
    expect(field(memberHello, 'id')).not.toBe(outsider.address);
    expect([200, 409]).toContain((await postPeer(mn1.p2pUrl, '/p2p/hello', memberHello)).status);
    const replay = await postPeer(mn1.p2pUrl, '/p2p/hello', memberHello);
    expect([replay.status, refusal(replay)]).toEqual([409, expect.stringMatching(/replay/)]);
    expect((await postPeer(mn2.p2pUrl, '/p2p/hello', memberHello)).status).toBe(409);

    // A block that extends the tip, hashed and signed correctly, by a key that is not a member. Refused
    // outright, or (the chain moved on meanwhile) a conflict at a height already taken: never imported. A node
    // must be seen refusing it for what it is: on a busy machine every node may have moved on before the block
    // arrives, so it is forged again on the new tip (a few tries) until one judges it.
    let judged = false;
    for (let attempt = 0; attempt < 5 && !judged; attempt++) {
      const { block, wire } = await forgeBlock(mn1.p2pUrl, network, freshKey());
      forged.push({ height: block.height, hash: block.hash });
      const answers = await Promise.all(net.nodes.map((n) => postPeer(n.p2pUrl, '/p2p/block', { from: block.proposer, block: wire })));
      for (const a of answers) expect(a.status === 400 ? refusal(a) : text(a.json ?? null, 'status')).toMatch(/is not a member|conflict/);
      judged = answers.some((a) => a.status === 400 && /is not a member of this network/.test(refusal(a)));
    }
    expect(judged, 'a node refused the forged block as not a member\'s (in 5 tries, each on the tip of the moment)').toBe(true);

    expect(await agreedLeader()).toBe(leader);
    await new Promise((r) => setTimeout(r, BLOCK_MS));
  }

  // Production never stopped: about one block per second, the same block at every height on every node.
  const endHeight = Number(await call(mn1.url, 'chain_blockNumber'));
  expect(endHeight - startHeight).toBeGreaterThanOrEqual(ROUNDS - 1);
  for (let h = startHeight; h <= endHeight; h++) {
    const hashes = await Promise.all(net.nodes.map(async (n) => text(await call(n.url, 'chain_getBlockByHeight', [h]), 'hash')));
    expect(new Set(hashes).size, `height ${h}: ${hashes.join(', ')}`).toBe(1);
    for (const f of forged) if (BigInt(h) === f.height) expect(hashes[0]).not.toBe(f.hash);
  }
  expect(await agreedLeader()).toBe(leader);
  // The outsider is a follower of mn2 at most: never among the members, never the leader.
  const peersOfMn2 = field(await call(mn2.url, 'chain_pouPeers'), 'peers');
  expect(Object.keys(typeof peersOfMn2 === 'object' && peersOfMn2 !== null ? peersOfMn2 : {})).not.toContain('ab'.repeat(32));
  for (const n of net.nodes.slice(0, 2)) expect(readFileSync(n.logFile, 'utf8')).toMatch(/p2p: refused POST \/p2p\/(hello|block) from 127\.0\.0\.1: HTTP (400|401|403|409)/);
}, 60_000);
