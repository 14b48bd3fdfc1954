import { defineCheck } from '../Check.js';
import type { Check } from '../Check.js';
import type { CheckContext } from '../CheckContext.js';
import { CheckError, CheckFailure } from '../checkOutcomes.js';
import type { JsonValue } from '../../core/json/index.js';
import { asU64, isObject } from '../../profile/readWire.js';
import { wireField } from '../../profile/Profile.js';
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

/** Reads of all the nodes at once that a check judging one moment takes before it judges. */
const SNAPSHOTS = 3;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Half a block time (at least 50 ms, at most 1 s): how far apart the snapshots are. */
const halfBlock = (ctx: CheckContext): number => Math.min(1_000, Math.max(50, Math.floor(ctx.profile.blockTimeMs / 2)));
const max = (xs: bigint[]): bigint => xs.reduce((a, b) => (b > a ? b : a));
const min = (xs: bigint[]): bigint => xs.reduce((a, b) => (b < a ? b : a));

/** ": <nodes> against the rest" when fewer than half the nodes hold a view the others do not; else nothing. */
function oddOnes(nodes: readonly string[], views: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of views) counts.set(v, (counts.get(v) ?? 0) + 1);
  const [most, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  const odd = nodes.filter((_, i) => views[i] !== most);
  return n > nodes.length / 2 && odd.length > 0 ? `: ${odd.join(', ')} against the rest` : '';
}

/**
 * Compares every node's block at each height up to the lowest tip (the last `depth` heights). A height
 * no node has a block at (below a chain's first block) is passed over; a block on one node and none on
 * another is a disagreement.
 */
async function compareBlocks(ctx: CheckContext, pick: (block: JsonValue) => string, what: string, depth = 20n): Promise<bigint> {
  const tips = await Promise.all(ctx.nodes.map((n) => heightOf(ctx, n)));
  const top = min(tips);
  for (let h = top > depth ? top - depth : 0n; h <= top; h++) {
    const answers = await Promise.all(ctx.nodes.map((n) => ctx.call('chain_getBlockByHeight', [heightParam(h)], n)));
    const blocks = answers.map((r) => (r.ok && isObject(r.result) ? r.result : undefined));
    if (blocks.every((b) => b === undefined)) continue;
    const views = blocks.map((b) => (b === undefined ? '(no block)' : pick(b)));
    if (new Set(views).size > 1) ctx.fail(`the nodes disagree on the block at height ${h} (${what})${oddOnes(ctx.nodes, views)}`, 'the same block on every node', ctx.nodes.map((n, i) => `${n}: ${views[i]}`).join('; '));
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
    id: 'network/same-chain-id',
    level: 'PROFILE',
    title: 'every node names the same chain id (chain_health chain_id): a transaction signed for one node is one every node takes',
    spec: 'profile: chain_health {status, mode, chain_id} (docs/reference-profile.md#results-the-spec-leaves-unshown); spec: docs/interface.md#instances (several instances serve one chain)',
    async run(ctx: CheckContext) {
      if (wireField(ctx.profile, 'chain_id') === null) ctx.skip("the profile says chain_health carries no chain id");
      const named = await Promise.all(ctx.nodes.map(async (n) => ctx.field(await ctx.result('chain_health', [], n), 'chain_id')));
      // A number or a quantity string, however written (a choice the spec leaves open): compared as the integer it holds.
      const read = ctx.nodes.map((node, i) => ({ node, id: asU64(named[i])?.toString(), named: named[i] }));
      const carrying = read.filter((r): r is typeof r & { id: string } => r.id !== undefined);
      if (carrying.length < 2) ctx.skip(`${carrying.length === 0 ? 'no node' : 'one node only'} names a chain id in chain_health: nothing to compare`);
      const across = carrying.map((r) => r.id);
      if (new Set(across).size > 1) ctx.fail(`the nodes name different chain ids${oddOnes(carrying.map((r) => r.node), across)}: a transaction signed for one is refused by another`, 'one chain id on every node', read.map((r) => `${r.node}: ${r.id ?? `(none: ${show(r.named)})`}`).join('; '));
      return `chain id ${across[0] ?? ''} on ${carrying.length} nodes${carrying.length < read.length ? ` (${read.length - carrying.length} name none)` : ''}`;
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
      // One read of each node at once can catch a slow node's answer a block or more later than the others: the
      // nodes are judged on the closest of a few rounds, half a block time apart, and a node that is really
      // behind (or ahead) is so in every one.
      let closest: { spread: bigint; tips: bigint[] } | undefined;
      for (let round = 0; round < SNAPSHOTS; round++) {
        if (round > 0) await sleep(halfBlock(ctx));
        const tips = await Promise.all(ctx.nodes.map((n) => heightOf(ctx, n)));
        const spread = max(tips) - min(tips);
        if (closest === undefined || spread < closest.spread) closest = { spread, tips };
        if (spread <= window) return `within ${spread} block(s) of each other (${ctx.nodes.map((n, i) => `${n}: ${tips[i]}`).join('; ')})`;
      }
      const { spread, tips } = closest ?? { spread: 0n, tips: [] };
      const median = [...tips].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[Math.floor(tips.length / 2)] ?? 0n;
      const odd = ctx.nodes.filter((_, i) => {
        const d = (tips[i] ?? 0n) - median;
        return d > window || -d > window;
      });
      ctx.fail(`heights differ by ${spread} blocks in each of ${SNAPSHOTS} reads${odd.length > 0 ? `; farthest from the others: ${odd.join(', ')}` : ''}`, `at most ${window}`, ctx.nodes.map((n, i) => `${n}: ${tips[i]}`).join('; '));
    },
  }),
  defineCheck({
    ...base,
    id: 'network/transaction-visible-everywhere',
    level: 'SHOULD',
    title: 'a transaction sent to any one node takes effect on every node (one sent to each node in turn)',
    spec: 'spec: docs/interface.md#instances; docs/interface.md#chain_sendrawtransaction',
    needs: ['several-nodes', 'funds'],
    async run(ctx: CheckContext) {
      // One transfer entering at each node: a node that takes transactions and never passes them on is found
      // whichever --url it is (sending through the last one only missed a follower given earlier).
      const sent = await Promise.all(
        ctx.nodes.map(async (entry, i) => {
          const alice = await ctx.wallet(entry).fund(ctx);
          const { nonce } = await ctx.waitFor(`the funds on ${entry}`, async () => {
            const read = await pollAccount(ctx, alice.address, entry);
            return read?.nonce !== undefined && read.balance > 0n ? { nonce: read.nonce } : undefined;
          }, ctx.inclusionTimeoutMs(), { setup: true });
          const to = ctx.profile.codec.newKey().address;
          const value = 4242n + BigInt(i);
          const tx = ctx.profile.codec.sign(alice.privateKey, { chainId: await ctx.chainId(entry), to, value, nonce, fee: ctx.profile.fee });
          const r = await ctx.call('chain_sendRawTransaction', [tx.wire], entry);
          // A transfer the entry node refuses is not one to follow (no verdict on it): the setup failed.
          if (!r.ok) throw new CheckError(`setup: ${entry} refused the transfer sent to it with ${r.error.code} (${r.error.message})`);
          return { entry, to, value };
        }),
      );
      let missing: string[] = [];
      await ctx.waitFor(`every node's transfer on every node`, async () => {
        const seen = await Promise.all(sent.map(async (t) => ({ t, on: await Promise.all(ctx.nodes.map(async (n) => (await pollAccount(ctx, t.to, n))?.balance === t.value)) })));
        missing = seen.flatMap(({ t, on }) => (on.every(Boolean) ? [] : [`the transfer sent to ${t.entry}: not on ${ctx.nodes.filter((_, i) => on[i] !== true).join(', ')}`]));
        return missing.length === 0 ? true : undefined;
      }, ctx.inclusionTimeoutMs(), { inBlocks: true }).catch((err: unknown) => {
        if (err instanceof CheckFailure && missing.length > 0) ctx.fail(`${missing.join('; ')}`, 'each transfer on every node', missing.join('; '));
        throw err;
      });
      return `${sent.length} transfers, one sent to each node, seen on all ${ctx.nodes.length} nodes`;
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
      // A leader change reaches the nodes a moment apart (each may follow the chain a block behind another): the
      // nodes must agree in one of a few reads, half a block time apart. Where the leader changes every block and a
      // follower shows a block only once the next exists, no read finds them all agreeing: a node then passes when the
      // leader it names is one another node named a read before or after (an outside tester's honest follower, a
      // block behind a leader rotating each block, failed in every run). A node that names a leader no other node
      // named within a read of it, or two nodes that both claim to lead in every read, are wrong.
      const rounds: { leaders: string[]; claims: string[]; detail: string }[] = [];
      for (let round = 0; round < SNAPSHOTS; round++) {
        if (round > 0) await sleep(halfBlock(ctx));
        const views = await Promise.all(ctx.nodes.map((n) => ctx.result('chain_pouLocal', [], n)));
        // Identifiers compare without regard to hex case (a choice the spec leaves open).
        const leaders = views.map((v) => show(ctx.field(v, 'leader')).toLowerCase());
        const claims = ctx.nodes.filter((_, i) => ctx.field(views[i], 'local_is_leader') === true);
        if (new Set(leaders).size === 1 && claims.length <= 1) return `one leader, ${leaders[0] ?? ''}${claims.length === 1 ? `, that ${claims[0] ?? ''} says it is` : ''}`;
        rounds.push({ leaders, claims, detail: ctx.nodes.map((n, i) => `${n}: ${leaders[i]}${ctx.field(views[i], 'local_is_leader') === true ? ' (says it leads)' : ''}`).join('; ') });
      }
      const namedNear = (i: number, k: number): boolean => rounds.some((r, k2) => Math.abs(k2 - k) <= 1 && r.leaders.some((l, j) => j !== i && l === rounds[k]?.leaders[i]));
      const odd = ctx.nodes.filter((_, i) => !rounds.some((_r, k) => namedNear(i, k)));
      const twoClaim = rounds.every((r) => r.claims.length > 1);
      const detail = rounds.map((r, k) => `read ${k + 1}: ${r.detail}`).join(' | ');
      if (odd.length > 0) ctx.fail(`${odd.join(', ')} named a leader no other node named within a read of it, in each of ${SNAPSHOTS} reads`, 'one leader, named by every node (a read apart at most, as a leader change reaches them)', detail);
      if (twoClaim) ctx.fail(`several nodes say they are the leader in each of ${SNAPSHOTS} reads (${[...new Set(rounds.flatMap((r) => r.claims))].join(', ')})`, 'at most one local_is_leader: true', detail);
      return `one leader at a time: every node named a leader another named within a read of it (leader changes reach the nodes a read apart)`;
    },
  }),
  defineCheck({
    ...base,
    id: 'pou/peers-list-others',
    level: 'SHOULD',
    category: 'pou',
    title: "in a network of several nodes, every node's peers map lists at least one peer (which peers a node knows is its network's topology, a choice the spec leaves open)",
    spec: 'spec: docs/interface.md#resource-pou-peers (a map from peer identifier to score, "all known peers"); docs/interface.md#instances',
    async run(ctx: CheckContext) {
      const listed: string[] = [];
      for (const node of ctx.nodes) {
        const peers = ctx.field(await ctx.result('chain_pouPeers', [], node), 'peers');
        const count = typeof peers === 'object' && peers !== null && !Array.isArray(peers) ? Object.keys(peers).length : -1;
        ctx.expect(count >= 1, `${node} lists ${count < 0 ? 'no peers map' : `${count} peers`}, in a network of ${ctx.nodes.length} nodes`, 'at least one peer', peers);
        listed.push(`${node}: ${count}`);
      }
      return `peers listed: ${listed.join('; ')}`;
    },
  }),
];
