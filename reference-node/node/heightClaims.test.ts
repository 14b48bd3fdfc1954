/**
 * A member that claims a height it does not have. The node follows a member that is ahead, and does not
 * propose while it is behind; a member announcing any height would hold the leader still for as long as it
 * kept saying so. A claim the member does not serve sets its claims aside, twice as long each time: the
 * leader keeps producing, whether the liar's peer URL refuses connections or holds them open unanswered.
 *
 * The network has two members: the node (X), and Y, whose key the test holds, which ranks below X and
 * never runs a node: its hellos are the test's.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageSigner } from '../../core/codec/index.js';
import { freshKey, postPeer, signedHello } from '../../test/support/peerClient.js';
import { testNodeOptions } from '../../test/support/nodeOptions.js';
import { networkGenesis } from './NetworkGenesis.js';
import { loadOrCreateIdentity } from './NodeIdentity.js';
import { ReferenceNode } from './ReferenceNode.js';

const BLOCK_MS = 500;
let dir: string;
let node: ReferenceNode;
let y: MessageSigner;
let logged: string[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-height-claims-'));
  logged = [];
  const x = loadOrCreateIdentity(dir).id;
  // Y ranks below X on an equal score (the lower identifier wins a tie at genesis).
  do y = freshKey();
  while (y.address < x);
  node = await ReferenceNode.start(testNodeOptions(dir, { blockTimeMs: BLOCK_MS, genesis: networkGenesis(1n, [x, y.address]), log: (line) => logged.push(line) }));
  const start = node.chain.height();
  while (node.chain.height() === start) await new Promise((r) => setTimeout(r, 20));
}, 20_000);

afterEach(async () => {
  await node.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Y greets as a member every 200 ms for `ms`, each time a thousand blocks ahead, its peer URL `url`; resolves with the blocks the node made meanwhile. */
async function lie(url: string, ms: number): Promise<bigint> {
  const from = node.chain.height();
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const hello = signedHello(y, { chainId: node.chain.chainId, genesisHash: node.chain.genesisHash }, { kind: 'MN', url, height: node.chain.height() + 1000n });
    const answer = await postPeer(node.p2pUrl, '/p2p/hello', hello);
    expect(answer.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
  }
  return node.chain.height() - from;
}

describe('a member that claims a height it does not have', () => {
  it('whose peer URL refuses connections: the leader keeps producing, and says so once a while', async () => {
    const made = await lie('http://127.0.0.1:9', 4_000);
    // 8 block times: before, not one block (the node was "behind" Y all along).
    expect(made).toBeGreaterThanOrEqual(4n);
    expect(node.leader()).toBe(node.id);
    const lines = logged.filter((l) => l.includes(`member ${y.address} claimed height`));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(3);
  }, 20_000);

  it('whose peer URL holds the connection without answering: each lie costs at most one sync, further apart each time', async () => {
    const held: Server = createServer(() => undefined);
    await new Promise<void>((r) => held.listen(0, '127.0.0.1', r));
    try {
      const made = await lie(`http://127.0.0.1:${(held.address() as AddressInfo).port}`, 7_000);
      // 14 block times; a sync waits 2 s for the held answer, then Y is set aside for 2 s, then 4 s.
      expect(made).toBeGreaterThanOrEqual(4n);
      expect(node.leader()).toBe(node.id);
    } finally {
      held.closeAllConnections();
      await new Promise((r) => held.close(r));
    }
  }, 30_000);
});
