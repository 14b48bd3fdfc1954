/**
 * Network faults: visible only by comparing the nodes of one network. TEST-ONLY: each fault makes a reference node deliberately wrong (docs/faults.md).
 */
import { jsonInteger } from '../../core/json/index.js';
import { mapResult, nodeHooks, text } from './bends.js';
import { forkHash } from './deviations.js';
import type { Fault } from './bends.js';

export const NETWORK_FAULTS = [
  {
    name: 'no-relay',
    category: 'network',
    description: 'Transactions submitted to this node are not relayed to its peers: sent to a node that does not lead (an LN, say), a transaction is never included.',
    rule: 'A transaction admitted by any node of the network is included (sound; profile: relay).',
    level: 'SHOULD',
    scope: 'network',
    bend: { node: nodeHooks(() => ({ relayTransactions: () => undefined })) },
  },
  {
    name: 'fork-view',
    category: 'network',
    description: 'chain_getBlockByHeight serves another hash for every block at an even height >= 2, and the matching parent_hash at the next height, as if the node followed a fork of its own; its hash links stay consistent and its real chain is unchanged.',
    rule: 'Every node of a network returns the same block at every height (sound: one chain).',
    level: 'SHOULD',
    scope: 'network',
    bend: {
      // Another hash for even heights >= 2, another parent hash for odd heights >= 3: distinct per node, stable per block.
      methods: mapResult('chain_getBlockByHeight', (b, node) => {
        const height = BigInt(b.height as number | bigint);
        if (height >= 2n && height % 2n === 0n) return { ...b, hash: forkHash(node.id, text(b.hash)) };
        if (height >= 3n && height % 2n === 1n) return { ...b, parent_hash: forkHash(node.id, text(b.parent_hash)) };
        return b;
      }),
    },
  },
  {
    name: 'proposer-self',
    category: 'network',
    description: "chain_getBlockByHeight reports this node's own identifier as every block's proposer (hash unchanged): alone it looks right, next to its peers it disagrees.",
    rule: 'Every node of a network returns the same block (transaction_count, proposer) at every height (sound: one chain).',
    level: 'SHOULD',
    scope: 'network',
    bend: { methods: mapResult('chain_getBlockByHeight', (b, node) => (BigInt(b.height as number | bigint) >= 1n ? { ...b, proposer: node.id } : b)) },
  },
  {
    name: 'chain-id-differs',
    category: 'network',
    description: "chain_health names a chain id one above its network's (the transactions it takes are still those signed for the network's): alone it looks right, beside its peers it names another chain.",
    rule: 'Every node of a network names the same chain id (profile: chain_health chain_id).',
    level: 'PROFILE',
    scope: 'network',
    bend: { methods: mapResult('chain_health', (h) => ({ ...h, chain_id: jsonInteger(BigInt(h.chain_id as number | bigint) + 1n) })) },
  },
  {
    name: 'height-far-ahead',
    category: 'network',
    description: 'chain_blockNumber reports 1000 blocks more than the chain has, as a node counting blocks of its own would.',
    rule: 'The nodes of a network are within a few blocks of each other, and a block exists for the height reported (spec rule 1).',
    level: 'SHOULD',
    scope: 'network',
    bend: { methods: mapResult<number | bigint>('chain_blockNumber', (h) => jsonInteger(BigInt(h) + 1000n)) },
  },
] as const satisfies readonly Fault[];
