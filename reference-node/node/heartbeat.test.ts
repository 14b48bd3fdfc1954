/**
 * The heartbeat: a node greets its peers four times per liveness window, and a peer that greeted it within
 * the last heartbeat and a half is not greeted back (the greeting's answer already told the peer of this
 * node). So a pair of nodes exchanges one greeting per heartbeat, not one each way; and a proposer's blocks
 * carry its hello (at most every three quarters of a heartbeat), answered with the peer's, so while blocks flow the two greet each other not at all. An idle
 * network costs little (docs/reference-node.md, "Peers"; `npm run bench:idle`).
 *
 * The node X runs in process and leads; the other member, Y, is the test: a peer listener that counts X's
 * greetings and answers each with Y's signed hello, takes X's blocks (answering them with its hello when the
 * test says so), and greets X itself when the test says so.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageSigner } from '../../core/codec/index.js';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { freshKey, postPeer, signedHello } from '../../test/support/peerClient.js';
import { testNodeOptions } from '../../test/support/nodeOptions.js';
import { networkGenesis } from './NetworkGenesis.js';
import { loadOrCreateIdentity } from './NodeIdentity.js';
import { parseHello, verifyHello } from '../p2p/hello.js';
import { heartbeatMs } from './Membership.js';
import { ReferenceNode } from './ReferenceNode.js';

// 100 ms blocks: a liveness window of 2 s (its floor), so a heartbeat of 500 ms.
const BLOCK_MS = 100;
const HEARTBEAT_MS = heartbeatMs(2_000);
let dir: string;
let node: ReferenceNode;
let y: MessageSigner;
let yServer: Server;
let yUrl: string;
/** When X greeted Y (Date.now()). */
let greetings: number[];
/** The blocks X sent Y, as sent. */
let blocks: JsonValue[];
/** Whether Y answers a block that carries a hello with its own (as a reference node does), or with its status alone. */
let answerBlocksWithHello: boolean;
let logged: string[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-heartbeat-'));
  greetings = [];
  blocks = [];
  answerBlocksWithHello = false;
  logged = [];
  const x = loadOrCreateIdentity(dir).id;
  // Y ranks below X on an equal score (the lower identifier wins a tie at genesis): X leads and proposes.
  do y = freshKey();
  while (y.address < x);
  yServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hello = node === undefined ? {} : signedHello(y, { chainId: node.chain.chainId, genesisHash: node.chain.genesisHash }, { kind: 'MN', url: yUrl, height: node.chain.height() });
      let answer: JsonValue = hello;
      if (req.url === '/p2p/hello') greetings.push(Date.now());
      if (req.url === '/p2p/block') {
        blocks.push(parseJson(Buffer.concat(chunks).toString('utf8')));
        answer = answerBlocksWithHello ? { status: 'imported', hello } : { status: 'imported' };
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(stringifyJson(answer));
    });
  });
  await new Promise<void>((r) => yServer.listen(0, '127.0.0.1', r));
  yUrl = `http://127.0.0.1:${(yServer.address() as AddressInfo).port}`;
  node = await ReferenceNode.start(testNodeOptions(dir, { blockTimeMs: BLOCK_MS, peers: [yUrl], genesis: networkGenesis(1n, [x, y.address]), log: (line) => logged.push(line) }));
});

afterEach(async () => {
  await node.stop();
  yServer.closeAllConnections();
  await new Promise((r) => yServer.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The node's blocks from `from` on as they travel (GET /p2p/blocks). */
async function fetchBlockWires(p2pUrl: string, from: bigint): Promise<JsonValue[]> {
  const answer = parseJson(await (await fetch(`${p2pUrl}/p2p/blocks?from=${from}&max=1`)).text());
  return typeof answer === 'object' && answer !== null && !Array.isArray(answer) && Array.isArray(answer.blocks) ? answer.blocks : [];
}

/** Y greets X every `everyMs` for `ms`. */
async function yGreets(ms: number, everyMs: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const hello = signedHello(y, { chainId: node.chain.chainId, genesisHash: node.chain.genesisHash }, { kind: 'MN', url: yUrl, height: node.chain.height() });
    expect((await postPeer(node.p2pUrl, '/p2p/hello', hello)).status).toBe(200);
    await sleep(everyMs);
  }
}

describe('the heartbeat', () => {
  it('is four greetings per liveness window', () => {
    expect(HEARTBEAT_MS).toBe(500);
    expect(heartbeatMs(4 * 1_000)).toBe(1_000);
  });

  it('greets a silent peer once per heartbeat (±10%), not once per block', async () => {
    await sleep(3_000);
    // 3 s of 100 ms blocks: 30 blocks; at most one greeting per 450 ms (the shortest jittered heartbeat) and the first at start.
    expect(greetings.length).toBeGreaterThanOrEqual(4);
    expect(greetings.length).toBeLessThanOrEqual(1 + Math.ceil(3_000 / (0.9 * HEARTBEAT_MS)));
    const gaps = greetings.slice(1).map((t, i) => t - (greetings[i] as number));
    // Jittered: the rounds are not all one interval apart (a node started with others does not stay in step with them).
    expect(new Set(gaps.map((g) => Math.round(g / 10))).size).toBeGreaterThan(1);
  });

  it('does not greet a peer that greets it, and greets it again once it falls silent', async () => {
    await sleep(HEARTBEAT_MS * 2);
    const before = greetings.length;
    await yGreets(3_000, 300);
    // Y's greetings answered keep both sides informed: X adds none of its own.
    expect(greetings.length - before).toBeLessThanOrEqual(1);
    expect(node.peers.live().map((p) => p.id)).toEqual([y.address]);
    const silent = greetings.length;
    await sleep(2_000);
    // Silent for 2 s (four heartbeats): X greets Y again, from 1.5 heartbeats after Y's last greeting.
    expect(greetings.length - silent).toBeGreaterThanOrEqual(2);
  });

  it("answers a block that carries its sender's hello with its own; a hello it refuses gets the block's status alone, and is logged", async () => {
    await sleep(HEARTBEAT_MS);
    const height = node.chain.height();
    const [wire] = await fetchBlockWires(node.p2pUrl, height);
    const network = { chainId: node.chain.chainId, genesisHash: node.chain.genesisHash };
    const good = await postPeer(node.p2pUrl, '/p2p/block', { from: y.address, block: wire ?? null, hello: signedHello(y, network, { kind: 'MN', url: yUrl, height }) });
    expect(good.status).toBe(200);
    const answer = good.json as Record<string, JsonValue>;
    expect(answer.status).toBe('known');
    expect(verifyHello(parseHello(answer.hello ?? null))).toMatchObject({ id: node.id });
    // Signed by another key while naming Y: refused as a hello; the block is judged on its own all the same.
    const forged = { ...(signedHello(freshKey(), network, { kind: 'MN', url: yUrl, height }) as Record<string, JsonValue>), id: y.address };
    const bad = await postPeer(node.p2pUrl, '/p2p/block', { from: y.address, block: wire ?? null, hello: forged });
    expect([bad.status, bad.json]).toEqual([200, { status: 'known' }]);
    expect(logged.some((l) => l.includes('refused the hello of a block') && l.includes('HTTP 401'))).toBe(true);
  });

  it('rides on the blocks: a block X proposes carries its hello at most every three quarters of a heartbeat, and a peer that answers with its own is not greeted', async () => {
    // Eight blocks of 100 ms or more: 700 ms or more from the first to the last.
    for (const until = Date.now() + 10_000; blocks.length < 8 && Date.now() < until; ) await sleep(50);
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    expect(node.leader()).toBe(node.id);
    const carried = blocks.flatMap((b) => (typeof b === 'object' && b !== null && !Array.isArray(b) && b.hello !== undefined ? [verifyHello(parseHello(b.hello))] : []));
    // The first block carries one, and then one every 375 ms or more (a heartbeat of 500 ms): two at least.
    expect(carried.length).toBeGreaterThanOrEqual(2);
    // Each one X's signed hello, fresh, for X's own network.
    for (const hello of carried) expect(hello).toMatchObject({ id: node.id, chainId: node.chain.chainId, genesisHash: node.chain.genesisHash });
    const gaps = carried.slice(1).map((h, i) => Number(h.timestamp - (carried[i] as typeof h).timestamp));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(0.75 * HEARTBEAT_MS - 5);
    answerBlocksWithHello = true;
    await sleep(HEARTBEAT_MS * 2);
    const before = greetings.length;
    await sleep(2_000);
    // 20 blocks in 2 s, each answered with Y's hello: X greets Y no more, and still counts it live.
    expect(greetings.length - before).toBe(0);
    expect(node.peers.live().map((p) => p.id)).toEqual([y.address]);
    answerBlocksWithHello = false;
    const silent = greetings.length;
    await sleep(2_000);
    // Blocks answered without a hello again: X greets Y again within a heartbeat and a half.
    expect(greetings.length - silent).toBeGreaterThanOrEqual(2);
  });
});
