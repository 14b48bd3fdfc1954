import { defineCheck } from '../Check.js';
import type { Check } from '../Check.js';
import type { CheckContext } from '../CheckContext.js';
import type { JsonValue } from '../../core/json/index.js';
import { asU64, isObject } from '../../profile/readWire.js';
import { pollAccount } from '../Wallet.js';
import { heightParam, show } from './support.js';

/**
 * Checks across every --url given: one chain, one leader, peers that know each other, transactions
 * that reach every node. They run once per run (scope 'network') and need at least two targets.
 */

const heightOf = async (ctx: CheckContext, node: string): Promise<bigint> => {
  const h = await ctx.result('chain_blockNumber', [], node);
  const height = asU64(h);
  ctx.expect(height !== undefined, `${node}: chain_blockNumber is not an unsigned integer`, 'an unsigned 64-bit integer', h);
  return height;
};

const base = { category: 'network' as const, scope: 'network' as const, needs: ['several-nodes' as const] };

/**
 * Compares every node's block at each height up to the lowest tip (the last `depth` heights). A height
 * no node has a block at (below a chain's first block) is passed over; a block on one node and none on
 * another is a disagreement.
 */
async function compareBlocks(ctx: CheckContext, pick: (block: JsonValue) => string, what: string, depth = 20n): Promise<bigint> {
  const tips = await Promise.all(ctx.nodes.map((n) => heightOf(ctx, n)));
  const top = tips.reduce((a, b) => (b < a ? b : a));
  for (let h = top > depth ? top - depth : 0n; h <= top; h++) {
    const answers = await Promise.all(ctx.nodes.map((n) => ctx.call('chain_getBlockByHeight', [heightParam(h)], n)));
    const blocks = answers.map((r) => (r.ok && isObject(r.result) ? r.result : undefined));
    if (blocks.every((b) => b === undefined)) continue;
    const views = blocks.map((b) => (b === undefined ? '(no block)' : pick(b)));
    if (new Set(views).size > 1) ctx.fail(`the nodes disagree on the block at height ${h} (${what})`, 'the same block on every node', ctx.nodes.map((n, i) => `${n}: ${views[i]}`).join('; '));
  }
  return top;
}

export const networkChecks: Check[] = [
  defineCheck({
    ...base,
    id: 'network/same-block-fields',
    level: 'SHOULD',
    title: "every node returns the same block (transaction_count, proposer) at every height they share",
    spec: 'spec: docs/interface.md#instances (several nodes, each offering the whole interface); docs/interface.md#resource-block',
    async run(ctx: CheckContext) {
      const top = await compareBlocks(ctx, (b) => `${show(ctx.field(b, 'proposer'))}/${show(ctx.field(b, 'transaction_count'))}`, 'proposer / transaction_count');
      return `agree up to height ${top}`;
    },
  }),
  defineCheck({
    ...base,
    id: 'network/same-block-hash',
    level: 'PROFILE',
    title: 'every node returns the same block hash at every height they share (one chain, no fork)',
    spec: 'profile: Block.hash (schemas/defs.schema.json)',
    async run(ctx: CheckContext) {
      if (ctx.profile.fields.hash === null) ctx.skip('the profile says blocks carry no hash');
      const top = await compareBlocks(ctx, (b) => show(ctx.field(b, 'hash')).toLowerCase(), 'hash');
      return `one chain up to height ${top}`;
    },
  }),
  defineCheck({
    ...base,
    id: 'network/heights-close',
    level: 'SHOULD',
    title: 'the nodes are within a few blocks of each other',
    spec: 'spec: docs/interface.md#instances (several node instances serve the same chain)',
    async run(ctx: CheckContext) {
      const window = BigInt(Math.max(3, Math.ceil(2000 / ctx.profile.blockTimeMs)));
      const tips = await Promise.all(ctx.nodes.map((n) => heightOf(ctx, n)));
      const spread = tips.reduce((a, b) => (b > a ? b : a)) - tips.reduce((a, b) => (b < a ? b : a));
      ctx.expect(spread <= window, `heights differ by ${spread} blocks`, `at most ${window}`, ctx.nodes.map((n, i) => `${n}: ${tips[i]}`).join('; '));
    },
  }),
  defineCheck({
    ...base,
    id: 'network/transaction-visible-everywhere',
    level: 'SHOULD',
    title: 'a transaction sent to one node takes effect on every node',
    spec: 'spec: docs/interface.md#instances; docs/interface.md#chain_sendrawtransaction',
    needs: ['several-nodes', 'funds'],
    async run(ctx: CheckContext) {
      const entry = ctx.nodes[ctx.nodes.length - 1] ?? ctx.node;
      const alice = await ctx.wallet(ctx.nodes[0]).fund(ctx);
      // Funded through the first node: wait until the last one sees the funds too.
      const funded = await ctx.waitFor('the funds on the entry node', async () => {
        const read = await pollAccount(ctx, alice.address, entry);
        return read?.nonce !== undefined && read.balance > 0n ? { nonce: read.nonce } : undefined;
      }, ctx.inclusionTimeoutMs(), { setup: true });
      const bob = ctx.profile.codec.newKey().address;
      const tx = ctx.profile.codec.sign(alice.privateKey, { chainId: await ctx.chainId(entry), to: bob, value: 4242n, nonce: funded.nonce, fee: ctx.profile.fee });
      await ctx.result('chain_sendRawTransaction', [tx.wire], entry);
      await ctx.waitFor(`the transfer sent to ${entry} on every node`, async () => {
        const balances = await Promise.all(ctx.nodes.map((n) => pollAccount(ctx, bob, n)));
        return balances.every((b) => b?.balance === 4242n) ? true : undefined;
      }, ctx.inclusionTimeoutMs(), { inBlocks: true });
      return `sent to ${entry}, seen on all ${ctx.nodes.length} nodes`;
    },
  }),
  defineCheck({
    ...base,
    id: 'pou/one-leader',
    level: 'SHOULD',
    category: 'pou',
    title: 'exactly one node is the leader, and every node names the same leader',
    spec: 'spec: docs/interface.md#resource-pou-local (leader: the identifier of the node that currently leads; local_is_leader)',
    async run(ctx: CheckContext) {
      const views = await Promise.all(ctx.nodes.map((n) => ctx.result('chain_pouLocal', [], n)));
      // Identifiers compare without regard to hex case (a choice the spec leaves open).
      const leaders = views.map((v) => show(ctx.field(v, 'leader')).toLowerCase());
      const claims = views.filter((v) => ctx.field(v, 'local_is_leader') === true).length;
      ctx.expect(new Set(leaders).size === 1, 'the nodes name different leaders', 'one leader', ctx.nodes.map((n, i) => `${n}: ${leaders[i]}`).join('; '));
      ctx.expect(claims <= 1, `${claims} nodes say they are the leader`, 'at most one local_is_leader: true', claims);
    },
  }),
  defineCheck({
    ...base,
    id: 'pou/peers-list-others',
    level: 'SHOULD',
    category: 'pou',
    title: "every node's peers map lists the other nodes, and net_peerCount agrees with it",
    spec: 'spec: docs/interface.md#resource-pou-peers (a map from peer identifier to score); docs/interface.md#net_peercount',
    async run(ctx: CheckContext) {
      const others = ctx.nodes.length - 1;
      for (const node of ctx.nodes) {
        const peers = ctx.field(await ctx.result('chain_pouPeers', [], node), 'peers');
        const count = typeof peers === 'object' && peers !== null && !Array.isArray(peers) ? Object.keys(peers).length : -1;
        ctx.expect(count >= others, `${node} lists ${count} peers`, `at least the ${others} other node(s) given`, peers);
      }
    },
  }),
];
