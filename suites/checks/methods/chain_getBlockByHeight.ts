import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import type { JsonValue } from '../../../core/json/index.js';
import { validators } from '../../../core/schema/validators.js';
import { expectProfileError, expectRefused, expectSchema, show, unusedAddress } from '../support.js';

const M = 'chain_getBlockByHeight';
const SPEC = 'spec: Methods table (chain_getBlockByHeight); Resources > Block';
const ZEROS = '0'.repeat(64);
const U64_LIMIT = 1n << 64n;

/** A JSON integer in 0..2^64-1 as a bigint; undefined for anything else (strings, fractions, negatives). */
export function asU64(value: JsonValue | undefined): bigint | undefined {
  if (typeof value === 'bigint') return value >= 0n && value < U64_LIMIT ? value : undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  return undefined;
}

/** A height as a JSON param: a number while exact, a bigint (written as a bare integer) beyond 2^53-1. */
export function heightParam(height: bigint): JsonValue {
  return height <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(height) : height;
}

/**
 * The node's current height. When chain_blockNumber gives no usable height the calling check is
 * skipped: chain_blockNumber's own checks report that, and this check cannot reach a verdict.
 */
export async function readHeight(ctx: CheckContext, node = ctx.node): Promise<bigint> {
  const r = await ctx.call('chain_blockNumber', [], node);
  if (!r.ok) ctx.skip(`chain_blockNumber answered error ${r.error.code} (${r.error.message}), so there is no height to use`);
  const height = asU64(r.result);
  if (height === undefined) ctx.skip(`chain_blockNumber answered ${show(r.result)}, not an unsigned 64-bit integer (see chain_blockNumber/unsigned-64-bit-integer), so there is no height to use`);
  return height;
}

const isObject = (v: JsonValue | undefined): v is { [key: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The block at a height, which must exist: an error, null or a non-object answer fails the check. */
export async function readBlock(ctx: CheckContext, height: bigint, why: string, node = ctx.node): Promise<{ [key: string]: JsonValue }> {
  const r = await ctx.call(M, [heightParam(height)], node);
  if (!r.ok) ctx.fail(`${M} ${height} answered error ${r.error.code} (${r.error.message}) ${why}`, 'a block object', show(r.error));
  if (!isObject(r.result)) ctx.fail(`${M} ${height} answered ${show(r.result)} ${why}`, 'a block object', show(r.result));
  return r.result;
}

/** Pause between polls: a quarter block time, 50..500 ms. */
const pollPause = (ctx: CheckContext): number => Math.max(50, Math.min(500, Math.floor(ctx.profile.blockTimeMs / 4)));

/** Checks of chain_getBlockByHeight: the spec's block fields, the profile's block, heights above the tip, bad heights. */
export const chain_getBlockByHeight = [
  defineCheck({
    id: 'chain_getBlockByHeight/spec-fields',
    level: 'MUST',
    category: 'methods',
    scope: 'node',
    title: 'the block at the current height has transaction_count (a non-negative integer) and proposer (64 hexadecimal characters)',
    spec: `${SPEC}: "transaction_count: non-negative integer", "proposer: string, 64 hexadecimal characters"; further rule 1`,
    async run(ctx: CheckContext) {
      const height = await readHeight(ctx);
      const block = await readBlock(ctx, height, 'although chain_blockNumber reported this height');
      expectSchema(ctx, M, block, 'spec');
      return `block ${height}: transaction_count ${show(ctx.field(block, 'transaction_count'))}, proposer ${show(ctx.field(block, 'proposer'))}`;
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/profile-shape',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'the block matches the profile: height, hash, parent_hash, timestamp, proposer, transaction_count, transactions (lower-case hex), at the height asked for',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown; schemas/defs.schema.json#/definitions/Block',
    async run(ctx: CheckContext) {
      const height = await readHeight(ctx);
      const block = await readBlock(ctx, height, 'although chain_blockNumber reported this height');
      expectSchema(ctx, M, block, 'profile');
      const h = ctx.field(block, 'height');
      ctx.expect(asU64(h) === height, `the block asked for at height ${height} says it is at another height`, String(height), h);
      return `block ${height}: ${show(ctx.field(block, 'hash'))}`;
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/transaction-count-matches',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'transaction_count equals the length of transactions, in a block that holds a transaction (a faucet claim for a fresh address)',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown ("transaction_count equals its length")',
    async run(ctx: CheckContext) {
      let next = await readHeight(ctx);
      let hash: string | undefined;
      let unseen = 'the network has no faucet to make one';
      if (ctx.profile.faucet) {
        const claim = await ctx.call('chain_faucetClaim', [unusedAddress(ctx)]);
        const h = claim.ok ? ctx.field(claim.result, 'transaction_hash') : undefined;
        if (typeof h === 'string') hash = h.toLowerCase();
        unseen = claim.ok
          ? hash === undefined
            ? 'the faucet claim gave no transaction_hash to look for'
            : `the faucet transaction ${hash.slice(0, 12)}… did not appear in a block within ${ctx.inclusionTimeoutMs()} ms`
          : `the faucet claim was refused with ${claim.error.code} (${claim.error.message})`;
      }
      // Every block from the current height on is checked until the faucet transaction shows (or time is up).
      let checked = 0;
      let withTransactions = 0;
      let found: bigint | undefined;
      /** Reads the block at a height and compares its count with its list; returns the list. */
      const counted = async (height: bigint, why: string): Promise<JsonValue[]> => {
        const block = await readBlock(ctx, height, why);
        const count = ctx.field(block, 'transaction_count');
        const list = ctx.field(block, 'transactions');
        ctx.expect(Array.isArray(list), `block ${height} has no transactions list`, 'transactions: an array of hashes', block);
        ctx.expect(asU64(count) === BigInt(list.length), `block ${height}: transaction_count is not the length of transactions`, `${list.length} (the length of transactions)`, count);
        checked++;
        if (list.length > 0) withTransactions++;
        return list;
      };
      const deadline = Date.now() + ctx.inclusionTimeoutMs();
      while (found === undefined && hash !== undefined && Date.now() <= deadline) {
        const tip = await readHeight(ctx);
        for (; next <= tip && found === undefined; next++) {
          const list = await counted(next, 'although chain_blockNumber reported a height at or above it');
          if (list.some((t) => typeof t === 'string' && t.toLowerCase() === hash)) found = next;
        }
        if (found === undefined) {
          if (ctx.signal.aborted) break;
          await new Promise((r) => setTimeout(r, pollPause(ctx)));
        }
      }
      if (checked === 0) {
        // No faucet transaction to look for: the current block is all there is to look at.
        await counted(next, 'although chain_blockNumber reported this height');
      }
      if (withTransactions === 0) {
        ctx.skip(`no block with transactions was seen (${checked} block(s) checked, each consistent): ${unseen}`);
      }
      return `${checked} block(s) checked, ${withTransactions} with transactions${found === undefined ? '' : ` (the faucet transaction in block ${found})`}`;
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/genesis',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'the genesis block has height 0, timestamp 0, and parent_hash and proposer of 64 zeros',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown ("Genesis: parent_hash and proposer are 64 zeros, timestamp 0")',
    async run(ctx: CheckContext) {
      const block = await readBlock(ctx, 0n, 'for the genesis block');
      expectSchema(ctx, M, block, 'profile');
      const height = ctx.field(block, 'height');
      const parent = ctx.field(block, 'parent_hash');
      const proposer = ctx.field(block, 'proposer');
      const timestamp = ctx.field(block, 'timestamp');
      ctx.expect(asU64(height) === 0n, 'the genesis block does not have height 0', '0', height);
      ctx.expect(parent === ZEROS, 'the genesis block\'s parent_hash is not 64 zeros', ZEROS, parent);
      ctx.expect(proposer === ZEROS, 'the genesis block\'s proposer is not 64 zeros', ZEROS, proposer);
      ctx.expect(asU64(timestamp) === 0n, 'the genesis block\'s timestamp is not 0', '0', timestamp);
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/above-tip-not-a-block',
    level: 'SHOULD',
    category: 'methods',
    scope: 'node',
    title: 'a height far above the current one is not answered with a block (null or an error)',
    spec: `${SPEC}; further rule 1 ("Behaviour for a height that has no block: not shown")`,
    async run(ctx: CheckContext) {
      const asked = (await readHeight(ctx)) + 1000n;
      const r = await ctx.call(M, [heightParam(asked)]);
      if (!r.ok) return `refused with ${r.error.code}`;
      ctx.expect(r.result === null, `${M} ${asked} (1000 above the current height) answered with something other than null`, 'null or an error', r.result);
      return 'answered null';
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/above-tip-block-not-found',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'a height above the current one is refused with -32001 BlockNotFound, data {reason, height (the one asked), latest}',
    spec: 'profile: docs/reference-profile.md#unknown-heights-and-accounts; schemas/errors.schema.json#/definitions/BlockNotFound',
    async run(ctx: CheckContext) {
      const before = await readHeight(ctx);
      const asked = before + 1000n;
      const error = await expectProfileError(ctx, M, [heightParam(asked)], 'BlockNotFound', `a height 1000 above the current one (${asked})`);
      const v = validators().error(M, error);
      if (!v.ok) ctx.fail(`the BlockNotFound error breaks the error contract: ${v.problems.map((p) => `${p.pointer || '(error)'} ${p.message}`).join('; ')}`, 'data {reason, height, latest}', show(error));
      const data = error.data;
      const height = isObject(data) ? data.height : undefined;
      const latest = isObject(data) ? data.latest : undefined;
      ctx.expect(asU64(height) === asked, 'BlockNotFound data.height is not the height asked for', String(asked), height);
      const l = asU64(latest);
      ctx.expect(l !== undefined && l >= before && l < asked, 'BlockNotFound data.latest is not the current height', `a height from ${before} (read just before) and below ${asked}`, latest);
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/bad-height-refused',
    level: 'SHOULD',
    category: 'methods',
    scope: 'node',
    title: 'a negative, fractional or string height is refused with an error',
    spec: `${SPEC} ("height: integer"); Resources > Block`,
    async run(ctx: CheckContext) {
      await expectRefused(ctx, M, [-1], 'a negative height (-1)');
      await expectRefused(ctx, M, [1.5], 'a fractional height (1.5)');
      await expectRefused(ctx, M, ['0'], 'a height given as a string ("0")');
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/invalid-params-code',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'a negative, fractional or string height, no height or a second param is refused with -32602 Invalid params',
    spec: 'JSON-RPC 2.0 §5.1 (-32602); profile: docs/reference-profile.md#unknown-heights-and-accounts',
    async run(ctx: CheckContext) {
      await expectProfileError(ctx, M, [-1], 'InvalidParams', 'a negative height (-1)');
      await expectProfileError(ctx, M, [1.5], 'InvalidParams', 'a fractional height (1.5)');
      await expectProfileError(ctx, M, ['0'], 'InvalidParams', 'a height given as a string ("0")');
      await expectProfileError(ctx, M, [], 'InvalidParams', 'no params');
      await expectProfileError(ctx, M, [0, 0], 'InvalidParams', 'a second param');
    },
  }),
];
