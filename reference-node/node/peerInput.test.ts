/**
 * Bad peer input, one case each, against a real node's peer listener on loopback: every message is
 * refused with its status and a reason the sender can read, the node logs one line, and nothing
 * changes: no block imported, no peer added, the same leader, blocks still produced.
 *
 * The network has two members: the node (X) and Y, whose key the test holds and which never runs,
 * chosen to rank below X (so X leads, and a block signed by Y is a block from a member that is not
 * the leader).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageSigner } from '../../core/codec/index.js';
import type { JsonValue } from '../../core/json/index.js';
import type { Block } from '../chain/index.js';
import { freshKey, forgeBlock, postPeer, refusal, signedHello } from '../../test/support/peerClient.js';
import type { PeerAnswer } from '../../test/support/peerClient.js';
import { testNodeOptions } from '../../test/support/nodeOptions.js';
import { networkGenesis } from './NetworkGenesis.js';
import type { NetworkGenesis } from './NetworkGenesis.js';
import { loadOrCreateIdentity } from './NodeIdentity.js';
import { ReferenceNode } from './ReferenceNode.js';

const BLOCK_MS = 1_500;
let dir: string;
let node: ReferenceNode;
let network: NetworkGenesis;
let y: MessageSigner;
const logged: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-peer-input-'));
  const x = loadOrCreateIdentity(dir).id;
  // Y ranks below X on an equal score (the lower identifier wins a tie at genesis).
  do y = freshKey();
  while (y.address < x);
  network = networkGenesis(1n, [x, y.address]);
  node = await ReferenceNode.start(testNodeOptions(dir, { blockTimeMs: BLOCK_MS, genesis: network, log: (line) => logged.push(line) }));
  await nextBlock();
}, 20_000);

afterAll(async () => {
  await node.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves once the node has committed another block: a forged block then has a block time to arrive on the tip. */
async function nextBlock(): Promise<void> {
  const height = node.chain.height();
  while (node.chain.height() === height) await new Promise((r) => setTimeout(r, 20));
}

const me = (): { chainId: bigint; genesisHash: string } => ({ chainId: node.chain.chainId, genesisHash: node.chain.genesisHash });

/** Sends a message and checks what a refusal must be: the status, the reason, a log line, no change of peers or leader. */
async function expectRefused(path: string, body: JsonValue | { raw: string }, status: number, reason: RegExp): Promise<PeerAnswer> {
  const peers = node.peers.all().length;
  const leader = node.leader();
  const lines = logged.length;
  const answer = await postPeer(node.p2pUrl, path, body);
  expect({ status: answer.status, reason: refusal(answer) }).toMatchObject({ status });
  expect(refusal(answer)).toMatch(reason);
  expect(logged.slice(lines).some((l) => l.startsWith(`p2p: refused POST ${path} `) && l.includes(`HTTP ${status}`))).toBe(true);
  expect(node.peers.all().length).toBe(peers);
  expect(node.leader()).toBe(leader);
  return answer;
}

/** Posts a forged block right after a block of the node's own, and checks it was refused and not imported. */
async function expectBlockRefused(forge: () => Promise<{ block: Block; wire: JsonValue }>, reason: RegExp): Promise<void> {
  await nextBlock();
  const { block, wire } = await forge();
  await expectRefused('/p2p/block', { from: block.proposer, block: wire }, 400, reason);
  expect(node.chain.getBlock(block.height)?.hash).not.toBe(block.hash);
}

describe('the peer listener refuses bad input, logs it, and changes nothing', () => {
  it('a body that is not JSON: 400', async () => {
    await expectRefused('/p2p/hello', { raw: '{"id": ' }, 400, /JSON|parse|Unexpected/i);
  });

  it('a hello over 64 KiB: 413, before it is parsed', async () => {
    await expectRefused('/p2p/hello', { raw: `{"pad":"${'x'.repeat(70_000)}"}` }, 413, /over the 65536-byte limit/);
  });

  it('a relay of more transactions than a message may carry: 413', async () => {
    await expectRefused('/p2p/txs', { from: y.address, txs: Array.from({ length: 10_001 }, () => '00') }, 413, /at most 10000 transactions/);
  });

  it('a hello with a missing field, or one it does not know: 400 naming it', async () => {
    await expectRefused('/p2p/hello', { id: 'a'.repeat(64), kind: 'MN', url: 'http://127.0.0.1:9', score: '999999999999', height: '0', chain_id: '1', genesis_hash: node.chain.genesisHash, peers: [] }, 400, /missing field timestamp/);
    const hello = signedHello(freshKey(), me()) as Record<string, JsonValue>;
    await expectRefused('/p2p/hello', { ...hello, leader: true }, 400, /unknown field "leader"/);
  });

  it('a hello signed by another key than its id (a member impersonated): 401', async () => {
    const forged = signedHello(freshKey(), me(), { kind: 'MN', score: 999_999_999_999n }) as Record<string, JsonValue>;
    await expectRefused('/p2p/hello', { ...forged, id: y.address }, 401, new RegExp(`signature does not verify for ${y.address}`));
  });

  it('a hello of another network (chain id or genesis): 409', async () => {
    await expectRefused('/p2p/hello', signedHello(y, { chainId: 1n, genesisHash: 'f'.repeat(64) }), 409, /another network/);
    await expectRefused('/p2p/hello', signedHello(y, { chainId: 2n, genesisHash: node.chain.genesisHash }), 409, /another network \(chain id 2/);
  });

  it('a stale hello, and one from the future: 409', async () => {
    await expectRefused('/p2p/hello', signedHello(y, me(), { kind: 'MN', timestamp: BigInt(Date.now() - 60_000) }), 409, /stale/);
    await expectRefused('/p2p/hello', signedHello(y, me(), { kind: 'MN', timestamp: BigInt(Date.now() + 60_000) }), 409, /from the future/);
  });

  it('a hello that carries this node\'s own identity: 409', async () => {
    const own = (await postPeer(node.p2pUrl, '/p2p/hello', signedHello(freshKey(), me()))).json ?? null;
    await expectRefused('/p2p/hello', own, 409, /own identity/);
  });

  it('a key that is not a member greeting as an MN: 403 (it may only follow, as an LN)', async () => {
    await expectRefused('/p2p/hello', signedHello(freshKey(), me(), { kind: 'MN', score: 999_999_999_999n }), 403, /not a member of this network/);
  });

  it('a replayed hello: taken once, refused the second time (409), and the member stays as it was', async () => {
    const hello = signedHello(y, me(), { kind: 'MN', score: 5n });
    expect((await postPeer(node.p2pUrl, '/p2p/hello', hello)).status).toBe(200);
    await expectRefused('/p2p/hello', hello, 409, /replay/);
    expect(node.peers.get(y.address)?.score).toBe(5n);
  });

  it('a block that is not a block: 400', async () => {
    await expectRefused('/p2p/block', { from: y.address, block: { height: '1' } }, 400, /malformed wire block/);
  });

  it('a block from a key that is not a member, however well signed: 400', async () => {
    const outsider = freshKey();
    await expectBlockRefused(() => forgeBlock(node.p2pUrl, network, outsider), new RegExp(`proposer ${outsider.address} is not a member`));
  });

  it('a block that names the leader as proposer but is signed by another key: 400', async () => {
    await expectBlockRefused(() => forgeBlock(node.p2pUrl, network, freshKey(), { proposer: node.id }), /proposer signature fails strict verification/);
  });

  it('a block from a member that is not the leader, before its slot (dated now, or back to its parent): 400', async () => {
    // Y ranks 2nd: its slot opens one liveness window, max(4 block times, 2 s) = 6 s, after the parent.
    const slot = new RegExp(`proposer ${y.address} ranks 2 for height \\d+ and may propose only 6000 ms after the parent block`);
    await expectBlockRefused(() => forgeBlock(node.p2pUrl, network, y, { pou: (parent) => ({ ...parent.pou, [y.address]: (parent.pou[y.address] ?? 0n) + 50n }) }), slot);
    await expectBlockRefused(() => forgeBlock(node.p2pUrl, network, y, { timestamp: node.chain.tip().timestamp }), slot);
  });

  it('a block whose PoU snapshot lowers the leader or lifts a member past its proposer: 400', async () => {
    await expectBlockRefused(() => forgeBlock(node.p2pUrl, network, y, { pou: (parent) => ({ ...parent.pou, [node.id]: 0n }) }), /recorded scores never fall/);
    await expectBlockRefused(() => forgeBlock(node.p2pUrl, network, y, { pou: (parent) => ({ ...parent.pou, [node.id]: (parent.pou[node.id] ?? 0n) + 10n }) }), /more than its proposer's own rise \(0\)/);
  });

  it('a block from the future: 400', async () => {
    await expectBlockRefused(() => forgeBlock(node.p2pUrl, network, y, { timestamp: BigInt(Date.now() + 60_000) }), /ms ahead of this node's clock/);
  });

  it('random JSON to every peer endpoint: always a 200 or a 4xx with a reason, never a 500, never a crash', async () => {
    const failures = logged.length;
    const paths = ['/p2p/hello', '/p2p/block', '/p2p/txs', '/p2p/faucet'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 4 }), async (path, value) => {
        const answer = await postPeer(node.p2pUrl, path, { raw: JSON.stringify(value) ?? 'null' });
        expect(answer.status === 200 || (answer.status >= 400 && answer.status < 500 && refusal(answer).length > 0), `${path}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`).toBe(true);
      }),
      { numRuns: 400 },
    );
    // A handler that failed would say so ("… failed: …"); refusals are all the log has.
    expect(logged.slice(failures).filter((l) => !l.startsWith('p2p: refused ') && !/more refused peer messages not logged/.test(l))).toEqual([]);
  });

  it('after all of it the node still leads and produces blocks', async () => {
    expect(node.leader()).toBe(node.id);
    const height = node.chain.height();
    await nextBlock();
    expect(node.chain.height()).toBeGreaterThan(height);
    expect(node.chain.tip().proposer).toBe(node.id);
  });
});
