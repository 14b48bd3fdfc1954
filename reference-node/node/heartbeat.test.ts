/**
 * The heartbeat: a node greets its peers four times per liveness window, and a peer that greeted it within
 * the last heartbeat and a half is not greeted back (the greeting's answer already told the peer of this
 * node). So a pair of nodes exchanges one greeting per heartbeat, not one each way, and an idle network
 * costs little (docs/reference-node.md, "Peers"; `npm run bench:idle`).
 *
 * The node X runs in process; the other member, Y, is the test: a peer listener that counts X's greetings
 * and answers each with Y's signed hello, and greets X itself when the test says so.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageSigner } from '../../core/codec/index.js';
import { stringifyJson } from '../../core/json/index.js';
import { freshKey, postPeer, signedHello } from '../../test/support/peerClient.js';
import { testNodeOptions } from '../../test/support/nodeOptions.js';
import { networkGenesis } from './NetworkGenesis.js';
import { loadOrCreateIdentity } from './NodeIdentity.js';
import { heartbeatMs, ReferenceNode } from './ReferenceNode.js';

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

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-heartbeat-'));
  greetings = [];
  y = freshKey();
  yServer = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/p2p/hello') greetings.push(Date.now());
      const answer = node === undefined ? {} : signedHello(y, { chainId: node.chain.chainId, genesisHash: node.chain.genesisHash }, { kind: 'MN', url: yUrl, height: node.chain.height() });
      res.writeHead(200, { 'content-type': 'application/json' }).end(stringifyJson(answer));
    });
  });
  await new Promise<void>((r) => yServer.listen(0, '127.0.0.1', r));
  yUrl = `http://127.0.0.1:${(yServer.address() as AddressInfo).port}`;
  const x = loadOrCreateIdentity(dir).id;
  node = await ReferenceNode.start(testNodeOptions(dir, { blockTimeMs: BLOCK_MS, peers: [yUrl], genesis: networkGenesis(1n, [x, y.address]) }));
});

afterEach(async () => {
  await node.stop();
  yServer.closeAllConnections();
  await new Promise((r) => yServer.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

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
});
