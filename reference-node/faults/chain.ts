/**
 * Chain faults: heights and blocks as the methods show them, chain id acceptance, block production. TEST-ONLY: each fault makes a reference node deliberately wrong (docs/faults.md).
 */
import { jsonInteger } from '../../core/json/index.js';
import { mapResult, nodeHooks, wrapMethod } from './bends.js';
import type { Fault } from './bends.js';

/** timestamps-backwards: the date its blocks count down from (2030-01-01, in milliseconds). */
const BACKWARDS_FROM_MS = 1_893_456_000_000n;

export const CHAIN_FAULTS = [
  {
    name: 'block-missing',
    category: 'chain',
    description: 'chain_blockNumber reports one more than the tip: chain_getBlockByHeight has no block at that height.',
    rule: 'When the height rises, a block exists for the new height (spec: Methods, rule 1).',
    level: 'MUST',
    scope: 'node',
    bend: { methods: mapResult<number | bigint>('chain_blockNumber', (h) => jsonInteger(BigInt(h) + 1n)) },
  },
  {
    name: 'height-regresses',
    category: 'chain',
    description: 'Every third chain_blockNumber call answers the tip minus 2 (at least 0): the height goes backwards.',
    rule: 'The block height never decreases (sound: a committed block stays committed).',
    level: 'SHOULD',
    scope: 'node',
    bend: {
      // Every third answer is two blocks lower.
      methods: wrapMethod('chain_blockNumber', (next) => {
        let calls = 0;
        return (params, call) => {
          const height = BigInt(next(params, call) as number | bigint);
          return jsonInteger(++calls % 3 === 0 ? (height > 2n ? height - 2n : 0n) : height);
        };
      }),
    },
  },
  {
    name: 'tx-count-wrong',
    category: 'chain',
    description: 'Blocks with transactions report transaction_count one higher than the length of their transactions list.',
    rule: 'transaction_count equals the length of transactions (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: mapResult('chain_getBlockByHeight', (b) => (Array.isArray(b.transactions) && b.transactions.length > 0 ? { ...b, transaction_count: Number(b.transaction_count) + 1 } : b)) },
  },
  {
    name: 'tx-count-zero',
    category: 'chain',
    description: 'Every block reports transaction_count 0, whatever it holds (its transactions list is left as it is).',
    rule: 'transaction_count is the number of transactions in the block (spec: Resources, Block).',
    level: 'SHOULD',
    scope: 'node',
    bend: { methods: mapResult('chain_getBlockByHeight', (b) => ({ ...b, transaction_count: 0 })) },
  },
  {
    name: 'parent-hash-broken',
    category: 'chain',
    description: 'Blocks at height >= 1 report their own hash as parent_hash.',
    rule: 'parent_hash is the previous block\'s hash (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: mapResult('chain_getBlockByHeight', (b) => (BigInt(b.height as number | bigint) >= 1n ? { ...b, parent_hash: b.hash ?? null } : b)) },
  },
  {
    name: 'timestamps-backwards',
    category: 'chain',
    description: 'Blocks at height >= 1 report timestamps that run backwards, one second per block before a fixed date (a clock counted down, not up); every other field is right.',
    rule: 'A block is timestamped when its proposer made it, at or after its parent (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: mapResult('chain_getBlockByHeight', (b) => { const h = BigInt(b.height as number | bigint); return h >= 1n ? { ...b, timestamp: jsonInteger(BACKWARDS_FROM_MS - h * 1000n) } : b; }) },
  },
  {
    name: 'chain-stalled',
    category: 'chain',
    description: 'The leader never proposes a block: the height stays where it is.',
    rule: 'The chain advances (sound; spec rule 1 presumes rising heights).',
    level: 'SHOULD',
    scope: 'node',
    bend: { node: nodeHooks(() => ({ proposes: () => false })) },
  },
] as const satisfies readonly Fault[];
