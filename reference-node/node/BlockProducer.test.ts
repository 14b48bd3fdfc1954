/**
 * The quorum rule of block production (BlockProducer.ts): a network of three members or more commits a block
 * only once a majority holds it; a block no majority took is not committed, its transactions stay pending, and
 * the node says so once per streak; a network of one or two commits on the proposer alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Block, Chain } from '../chain/index.js';
import { alice, bob, closeTestChains, nodeA, openTestChain, transfer } from '../../test/support/chain.js';
import { BlockProducer, quorumOf } from './BlockProducer.js';
import { UsageMeter } from './UsageMeter.js';

afterEach(closeTestChains);

interface Harness {
  producer: BlockProducer;
  proposed: { height: bigint; needed: number }[];
  broadcast: { height: bigint; followersOnly: boolean }[];
  log: string[];
}

/** A producer on `chain` whose proposals are held by `held(n)` other members on the n-th proposal. */
function harness(chain: Chain, quorum: number, held: (n: number) => number): Harness {
  const h: Harness = { proposed: [], broadcast: [], log: [], producer: undefined as unknown as BlockProducer };
  h.producer = new BlockProducer({
    chain,
    identity: { id: nodeA.id, publicKey: nodeA.keypair.publicKey, sign: nodeA.sign },
    meter: new UsageMeter(),
    log: (line) => h.log.push(line),
    quorum,
    mayPropose: () => true,
    proposes: () => true,
    snapshot: () => ({}),
    propose: (block: Block, needed: number) => {
      h.proposed.push({ height: block.height, needed });
      return Promise.resolve(held(h.proposed.length));
    },
    broadcast: (block, followersOnly) => void h.broadcast.push({ height: block.height, followersOnly }),
  });
  return h;
}

describe('quorumOf', () => {
  it('is a majority from three members, the proposer alone below', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(quorumOf)).toEqual([1, 1, 2, 3, 3, 4, 4]);
  });
});

describe('BlockProducer under the quorum rule', () => {
  it('commits a block a majority holds, and sends it on to the followers only', async () => {
    const chain = await openTestChain();
    const h = harness(chain, 2, () => 1);
    await h.producer.tick();
    expect(h.proposed).toEqual([{ height: 1n, needed: 1 }]);
    expect(chain.height()).toBe(1n);
    expect(h.broadcast).toEqual([{ height: 1n, followersOnly: true }]);
  });

  it('commits nothing no majority took: its transactions stay pending, and it says so once per streak', async () => {
    const chain = await openTestChain();
    await chain.submit(transfer(alice, bob.address, 1n, 0n).wire, 'client');
    // Five members (a majority is three: two others); the others take the 4th proposal again.
    const h = harness(chain, 3, (n) => (n >= 4 ? 2 : 1));
    for (let i = 0; i < 3; i++) await h.producer.tick();
    expect(chain.height()).toBe(0n);
    expect(chain.pendingCount()).toBe(1);
    expect(h.broadcast).toEqual([]);
    expect(h.log).toHaveLength(1);
    expect(h.log[0]).toMatch(/block 1 not committed: 1 of the 2 other member\(s\) a majority needs took it/);
    await h.producer.tick();
    expect(chain.height()).toBe(1n);
    expect(chain.tip().transactions).toHaveLength(1);
    expect(h.log[1]).toMatch(/a majority takes this node's blocks again \(block 1, after 3 not taken\)/);
  });

  it('a network of one or two: commits at once, proposes to no one, sends the block to every peer', async () => {
    const chain = await openTestChain();
    const h = harness(chain, 1, () => 0);
    await h.producer.tick();
    expect(h.proposed).toEqual([]);
    expect(chain.height()).toBe(1n);
    expect(h.broadcast).toEqual([{ height: 1n, followersOnly: false }]);
  });
});
