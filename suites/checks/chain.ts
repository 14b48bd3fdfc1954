import { defineCheck } from '../Check.js';
import type { CheckContext } from '../CheckContext.js';
import { sameHex } from '../../profile/readWire.js';
import { CheckError } from '../checkOutcomes.js';
import { readBlock, readHeight, show, timestampMs, unusedAddress } from './support.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Half a block time (at least 20 ms): how far apart heights are sampled. */
const halfBlock = (ctx: CheckContext): number => Math.max(20, Math.floor(ctx.profile.blockTimeMs / 2));

/** How long a live chain may take to add a block: six block times, at least 2 s. */
const riseTimeout = (ctx: CheckContext): number => Math.max(2_000, ctx.profile.blockTimeMs * 6);

/**
 * Gives the chain a transaction to make a block for, and says what it was: a faucet claim where the faucet
 * credits by a transaction, else a transfer from a funded key. One the node does not accept is an error (no
 * verdict: the check could not give the chain its work).
 */
async function giveTransaction(ctx: CheckContext): Promise<string> {
  if (ctx.profile.faucet && ctx.profile.faucetCredit === 'transaction') {
    const claim = await ctx.call('chain_faucetClaim', [unusedAddress(ctx)]);
    if (!claim.ok) throw new CheckError(`setup: no block came in ${riseTimeout(ctx)} ms, and a faucet claim to give the chain a transaction was refused with ${claim.error.code} (${claim.error.message})`);
    return 'a faucet claim';
  }
  const from = await ctx.wallet().fund(ctx);
  const tx = ctx.profile.codec.sign(from.privateKey, { chainId: await ctx.chainId(), to: unusedAddress(ctx), value: 1n, nonce: 0n, fee: ctx.profile.fee });
  const sent = await ctx.call('chain_sendRawTransaction', [tx.wire]);
  if (!sent.ok) throw new CheckError(`setup: no block came in ${riseTimeout(ctx)} ms, and a transfer to give the chain a transaction was refused with ${sent.error.code} (${sent.error.message})`);
  return 'a transfer';
}

/** Rounds of height samples: two block times at two rounds per block time (a rise or two seen on a live chain). */
const SAMPLES = 5;
/** chain_blockNumber calls per round of chain/height-never-decreases, back to back. */
const BURST = 3;
/** Most heights fetched for one rise between two samples (the latest ones). */
const MAX_GAP_FETCHES = 64;

/** Blocks the chain checks read: the latest up to 9 (from..tip), once the chain holds 3 above the genesis block plus `skip`. */
async function latestBlocks(ctx: CheckContext, skip: bigint): Promise<{ from: bigint; tip: bigint }> {
  // The chain starts at the profile's genesis height.
  const genesis = ctx.profile.genesisHeightExact;
  const above = genesis + skip + 3n;
  let tip = await readHeight(ctx);
  if (tip < above) {
    const start = tip;
    const timeoutMs = riseTimeout(ctx);
    const risen = await ctx.poll(async () => {
      tip = await readHeight(ctx);
      return tip >= above ? tip : undefined;
    }, timeoutMs);
    // Too few blocks in six block times: the chain is slower than the profile says (or stopped): an error naming the fix.
    if (risen === undefined) {
      throw new CheckError(
        `setup: ${above - genesis} blocks above the genesis block did not happen within ${timeoutMs} ms (the chain went from ${start} to ${tip}, in about ${Math.round(timeoutMs / ctx.profile.blockTimeMs)} block times of the profile's ${ctx.profile.blockTimeMs} ms): if its blocks come slower, give --block-time <ms> (or the profile's blockTimeMs)`,
      );
    }
    tip = risen;
  }
  const first = genesis + skip;
  return { from: tip - 8n > first ? tip - 8n : first, tip };
}

/** Checks of the chain as heights and blocks over time: rising, never falling, every height a block, blocks linked. */
export const chainChecks = [
  defineCheck({
    id: 'chain/block-exists-for-new-height',
    level: 'MUST',
    category: 'chain',
    scope: 'node',
    title: 'every height chain_blockNumber reports, and each height it rises through, has a block chain_getBlockByHeight returns',
    spec: 'spec: docs/interface.md#rule-1 (once the height has risen, chain_getBlockByHeight returns a block at the new height)',
    async run(ctx: CheckContext) {
      let last = await readHeight(ctx);
      const first = last;
      await readBlock(ctx, last, 'although chain_blockNumber had just reported this height');
      let fetched = 1;
      for (let i = 1; i < SAMPLES; i++) {
        await sleep(halfBlock(ctx));
        const height = await readHeight(ctx);
        if (height <= last) continue;
        const from = height - last > BigInt(MAX_GAP_FETCHES) ? height - BigInt(MAX_GAP_FETCHES) + 1n : last + 1n;
        for (let h = from; h <= height; h++) {
          await readBlock(ctx, h, h === height ? 'although chain_blockNumber had just reported this height' : `although chain_blockNumber rose from ${last} to ${height} through it`);
          fetched++;
        }
        last = height;
      }
      return last === first ? `the height stayed at ${first} while sampled; its block exists` : `the height rose from ${first} to ${last}; ${fetched} block(s) fetched, each present`;
    },
  }),
  defineCheck({
    id: 'chain/height-never-decreases',
    level: 'SHOULD',
    category: 'chain',
    scope: 'node',
    title: `the height never goes down across ${SAMPLES} rounds of ${BURST} chain_blockNumber calls, the rounds half a block time apart`,
    spec: 'sound: a committed block stays committed (spec: docs/interface.md#chain_blocknumber, the current block height)',
    async run(ctx: CheckContext) {
      const seen: bigint[] = [];
      for (let i = 0; i < SAMPLES * BURST; i++) {
        // Calls in a round go back to back: a node that answers some calls from an older view shows it.
        if (i > 0 && i % BURST === 0) await sleep(halfBlock(ctx));
        const height = await readHeight(ctx);
        const previous = seen.at(-1);
        seen.push(height);
        if (previous !== undefined && height < previous) {
          ctx.fail(`the height went down from ${previous} to ${height} (call ${i + 1} of ${SAMPLES * BURST})`, `a height of at least ${previous}`, `heights seen: ${seen.join(', ')}`);
        }
      }
      return `heights seen: ${seen[0]} to ${seen.at(-1)} over ${seen.length} calls, never lower than the one before`;
    },
  }),
  defineCheck({
    id: 'chain/height-rises',
    level: 'SHOULD',
    category: 'chain',
    scope: 'node',
    title: 'the height rises within six block times, or, on a chain that makes blocks only for transactions, once it is given one (the chain is live)',
    spec: 'sound: a live chain adds blocks (spec: docs/interface.md#polling, the examples read the height once a second; the spec does not say a chain makes blocks without transactions); profile: blockTimeMs',
    async run(ctx: CheckContext) {
      const start = await readHeight(ctx);
      const started = Date.now();
      const rise = async (): Promise<bigint | undefined> => {
        const h = await readHeight(ctx);
        return h > start ? h : undefined;
      };
      const risen = await ctx.poll(rise, riseTimeout(ctx));
      if (risen !== undefined) return `the height rose from ${start} to ${risen} in ${Date.now() - started} ms`;
      // No block in six block times: a stalled chain, or one that makes blocks only for transactions (a legal
      // choice: Tendermint without empty blocks, a development chain that mines on demand). Give it one.
      const given = await giveTransaction(ctx);
      const after = Date.now();
      const late = await ctx.waitFor(`a height above ${start}, after ${given} was accepted`, rise, riseTimeout(ctx));
      return `the height stayed at ${start} for ${after - started} ms (no block without transactions), then rose to ${late} within ${Date.now() - after} ms of ${given}`;
    },
  }),
  defineCheck({
    id: 'chain/parent-hash-links',
    level: 'PROFILE',
    category: 'chain',
    scope: 'node',
    title: 'each of the latest blocks names the previous block\'s hash as its parent_hash',
    spec: 'profile: schemas/defs.schema.json#/definitions/Block ("parent_hash: hash of the block at height - 1")',
    async run(ctx: CheckContext) {
      if (ctx.profile.fields.hash === null || ctx.profile.fields.parent_hash === null) ctx.skip('the profile says blocks carry no hash or no parent_hash');
      // A verdict needs a few links: a node whose links break only after its first blocks (an outside tester's did)
      // passed when the chain held one link.
      const { from, tip } = await latestBlocks(ctx, 0n);
      let previous = await readBlock(ctx, from, `although it is below the reported height, and not below the profile's genesis height (${ctx.profile.genesisHeightExact})`);
      for (let h = from + 1n; h <= tip; h++) {
        const block = await readBlock(ctx, h, 'although it is at or below the reported height');
        const hash = ctx.field(previous, 'hash');
        const parent = ctx.field(block, 'parent_hash');
        ctx.expect(typeof hash === 'string', `block ${h - 1n} has no hash`, 'hash: 64 hex', hash);
        ctx.expect(sameHex(parent, hash), `block ${h}'s parent_hash is not the hash of block ${h - 1n}`, hash, parent ?? null);
        previous = block;
      }
      return `blocks ${from}..${tip} link (${show(ctx.field(previous, 'hash'))} at ${tip})`;
    },
  }),
  defineCheck({
    id: 'chain/timestamps-never-decrease',
    level: 'PROFILE',
    category: 'chain',
    scope: 'node',
    title: 'each of the latest blocks is timestamped at or after the block before it: a chain\'s clock does not run backwards',
    spec: 'profile: schemas/defs.schema.json#/definitions/Block (timestamp: when its proposer made the block); the spec shows no timestamp, so PROFILE',
    async run(ctx: CheckContext) {
      if (ctx.profile.fields.timestamp === null) ctx.skip('the profile says blocks carry no timestamp');
      // Above the genesis block, whose timestamp may be 0 or null (genesisBlock.timestamp).
      const { from, tip } = await latestBlocks(ctx, 1n);
      let previous: number | undefined;
      for (let h = from; h <= tip; h++) {
        const value = ctx.field(await readBlock(ctx, h, 'although it is at or below the reported height'), 'timestamp');
        const ms = timestampMs(ctx, value);
        // A timestamp not in the profile's form is chain_getBlockByHeight's checks' to judge: no verdict on order here.
        if (ms === undefined) throw new CheckError(`block ${h}'s timestamp ${show(value)} is not in the profile's form (${ctx.profile.timestamps}): its order cannot be read`);
        if (previous !== undefined) ctx.expect(ms >= previous, `block ${h} is timestamped ${previous - ms} ms before block ${h - 1n}`, `at or after ${new Date(previous).toISOString()}`, value);
        previous = ms;
      }
      return `blocks ${from}..${tip}: timestamps in order, ${previous === undefined ? '' : `the latest ${new Date(previous).toISOString()}`}`;
    },
  }),
];
