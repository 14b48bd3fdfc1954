import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import type { JsonValue } from '../../../core/json/index.js';
import { asU64, isObject } from '../../../profile/readWire.js';
import { expectErrorData, expectParamForm, expectProfileError, expectRefused, expectSchema, heightParam, listsHash, readBlock, readHeight, show, timestampMs, unusedAddress } from '../support.js';
import { sentHash } from './chain_sendRawTransaction.js';

const M = 'chain_getBlockByHeight';
const SPEC = 'spec: docs/interface.md#chain_getblockbyheight; docs/interface.md#resource-block';
const ZEROS = '0'.repeat(64);

/**
 * The unit of a block's timestamp, told by its size: milliseconds since 1973 are above 10^11, seconds
 * stay below it for thousands of years. A block made now must match the profile's unit.
 */
function expectTimestampUnit(ctx: CheckContext, value: JsonValue | undefined, height: bigint): void {
  if (ctx.profile.timestamps === 'iso8601') return;
  const n = asU64(value);
  if (n === undefined) return; // the schema reports it
  const unit = n >= 100_000_000_000n ? 'milliseconds' : 'seconds';
  ctx.expect(unit === ctx.profile.timestamps, `block ${height}'s timestamp looks like ${unit}, not ${ctx.profile.timestamps}`, `a timestamp in ${ctx.profile.timestamps} since the epoch`, value);
}

/** 64 zeros as a hash, in each spelling the profile's hashPrefix allows. */
function zerosHash(ctx: CheckContext): string[] {
  const prefix = ctx.profile.hashPrefix;
  return prefix === '0x' ? [`0x${ZEROS}`] : prefix === 'any' ? [ZEROS, `0x${ZEROS}`] : [ZEROS];
}

/** A field's value for evidence, "(absent)" when the block has no such key. */
const present = (value: JsonValue | undefined): JsonValue => (value === undefined ? '(absent)' : value);

/** Pause between polls: a quarter block time, 50..500 ms. */
const pollPause = (ctx: CheckContext): number => Math.max(50, Math.min(500, Math.floor(ctx.profile.blockTimeMs / 4)));

/** Checks of chain_getBlockByHeight: the spec's block fields, the profile's block, heights above the tip, bad heights. */
export const chain_getBlockByHeight = [
  defineCheck({
    id: 'chain_getBlockByHeight/spec-fields',
    level: 'MUST',
    category: 'methods',
    scope: 'node',
    title: 'the block at the current height, and older ones below it, have transaction_count (a non-negative integer) and proposer (64 hexadecimal characters)',
    spec: `${SPEC} (transaction_count: an integer, zero or more; proposer: 64 hexadecimal characters); docs/interface.md#rule-1`,
    async run(ctx: CheckContext) {
      const height = await readHeight(ctx);
      const block = await readBlock(ctx, height, 'although chain_blockNumber reported this height');
      expectSchema(ctx, M, block, 'spec');
      // Blocks below the tip are blocks too (an outside tester's node wrote a 40-character proposer and a count of -1
      // for every block three below its tip, and was certified): the three below it, each judged when the node gives
      // it. One it does not give is no verdict (the spec does not say old blocks stay served: a node may prune them,
      // and its first height is its own), nor is one at or next to the profile's genesis (its own forms).
      const floor = ctx.profile.genesisHeightExact + 1n;
      const older: bigint[] = [];
      for (const h of [height - 1n, height - 2n, height - 3n].filter((x) => x > floor)) {
        const r = await ctx.call('chain_getBlockByHeight', [heightParam(h)]);
        if (!r.ok || !isObject(r.result)) continue;
        older.push(h);
        expectSchema(ctx, M, r.result, 'spec', undefined, `block ${h}, below the current height ${height}`);
      }
      return `block ${height}: transaction_count ${show(ctx.field(block, 'transaction_count'))}, proposer ${show(ctx.field(block, 'proposer'))}${older.length === 0 ? '' : `; and blocks ${older.join(', ')} below it`}`;
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/profile-shape',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'the block is written as the profile says (reference: height, hash, parent_hash, timestamp in ms, proposer, transaction_count, transactions, lower-case hex), at the height asked for',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown; schemas/defs.schema.json#/definitions/Block; docs/profiles.md',
    async run(ctx: CheckContext) {
      const height = await readHeight(ctx);
      const block = await readBlock(ctx, height, 'although chain_blockNumber reported this height');
      // A chain still at its first block: the genesis block's own forms apply (genesisBlock).
      expectSchema(ctx, M, block, height === ctx.profile.genesisHeightExact ? 'genesis' : 'profile');
      const h = ctx.field(block, 'height');
      if (ctx.profile.fields.height !== null) ctx.expect(asU64(h) === height, `the block asked for at height ${height} says it is at another height`, String(height), h);
      if (height > ctx.profile.genesisHeightExact) expectTimestampUnit(ctx, ctx.field(block, 'timestamp'), height);
      return `block ${height}: ${show(ctx.field(block, 'hash'))}`;
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/transaction-count-matches',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'transaction_count equals the length of transactions, in a block that holds a transaction (a faucet claim for a fresh address, or a transfer where the faucet credits directly)',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown ("transaction_count equals its length")',
    async run(ctx: CheckContext) {
      if (ctx.profile.fields.transactions === null) ctx.skip('the profile says blocks carry no transactions list');
      let next = await readHeight(ctx);
      let hash: string | undefined;
      let unseen = 'the network has no faucet and no funded key to make one';
      if (ctx.profile.faucet && ctx.profile.faucetCredit === 'direct' || !ctx.profile.faucet && ctx.profile.privateKey !== undefined) {
        // No faucet transaction to look for: a transfer from a funded key makes one.
        const alice = await ctx.wallet().fund(ctx);
        const tx = ctx.profile.codec.sign(alice.privateKey, { chainId: await ctx.chainId(), to: unusedAddress(ctx), value: 1n, nonce: 0n, fee: ctx.profile.fee });
        const sent = await ctx.call('chain_sendRawTransaction', [tx.wire]);
        const h = sent.ok ? (sentHash(ctx, sent.result) ?? tx.hash) : undefined;
        if (typeof h === 'string') hash = h;
        unseen = sent.ok
          ? hash === undefined
            ? 'the transfer made to fill a block gave no hash to look for'
            : `the transfer ${hash.slice(0, 12)}… did not appear in a block within ${ctx.inclusionTimeoutMs()} ms`
          : `a transfer to fill a block was refused with ${sent.error.code} (${sent.error.message})`;
      } else if (ctx.profile.faucet) {
        const claim = await ctx.call('chain_faucetClaim', [unusedAddress(ctx)]);
        // The claim's transaction: its transaction_hash, or the result itself (faucetResult: hash).
        const h = claim.ok ? (ctx.profile.faucetResult === 'hash' ? claim.result : ctx.field(claim.result, 'transaction_hash')) : undefined;
        if (typeof h === 'string') hash = h;
        unseen = claim.ok
          ? hash === undefined
            ? `the faucet claim gave no ${ctx.profile.faucetResult === 'hash' ? 'hash' : 'transaction_hash'} to look for`
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
          if (list.some((t) => listsHash(t, hash))) found = next;
        }
        if (found === undefined) {
          if (ctx.signal.aborted) break;
          await new Promise((r) => setTimeout(r, pollPause(ctx)));
        }
      }
      if (found !== undefined) {
        // The same block once the chain has gone past it: a count is the block's, not its place (an outside tester's
        // node counted 0 for every block below its tip, its list kept, and was certified). Read again when the tip
        // has moved on, within a block time or two; a chain that makes no block meanwhile leaves it unread.
        const until = Date.now() + 2 * ctx.profile.blockTimeMs + 500;
        let tip = await readHeight(ctx);
        while (tip <= found && Date.now() <= until && !ctx.signal.aborted) {
          await new Promise((r) => setTimeout(r, pollPause(ctx)));
          tip = await readHeight(ctx);
        }
        if (tip > found) await counted(found, 'although it was read before');
      }
      if (checked === 0) {
        // No faucet transaction to look for: the current block is all there is to look at.
        await counted(next, 'although chain_blockNumber reported this height');
      }
      if (withTransactions === 0) {
        ctx.skip(`no block with transactions was seen (${checked} block(s) checked, each consistent): ${unseen}`);
      }
      return `${checked} block(s) checked, ${withTransactions} with transactions${found === undefined ? '' : ` (the transaction made for it in block ${found})`}`;
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/genesis',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'the first block is at the profile\'s genesis height (0 in the reference profile) and none is below it; its parent_hash, proposer and timestamp are as the profile says (reference: 64 zeros, 64 zeros, 0)',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown ("The genesis block has height 0"; "Genesis: parent_hash and proposer are 64 zeros, timestamp 0"); docs/profiles.md (genesisHeight, genesisBlock, genesisZeros)',
    async run(ctx: CheckContext) {
      const genesis = ctx.profile.genesisHeightExact;
      const block = await readBlock(ctx, genesis, `for the genesis block (the profile's genesisHeight is ${genesis})`);
      expectSchema(ctx, M, block, 'genesis');
      const height = ctx.field(block, 'height');
      if (ctx.profile.fields.height !== null) ctx.expect(asU64(height) === genesis, `the genesis block does not say it is at height ${genesis}`, String(genesis), height);
      if (genesis > 0n) {
        const below = await ctx.call(M, [heightParam(genesis - 1n)]);
        if (below.ok && below.result !== null) ctx.fail(`height ${genesis - 1n}, below the profile's genesis height ${genesis}, was answered with a block`, 'null or an error: no block below the genesis block', show(below.result));
      }
      // The schema judged the types (an empty string, null); the exact values and absent keys are judged here.
      const forms = ctx.profile.genesisBlock;
      const judged: string[] = [];
      for (const name of ['parent_hash', 'proposer'] as const) {
        if (ctx.profile.fields[name] === null) continue;
        const value = ctx.field(block, name);
        const form = forms[name];
        // parent_hash is a hash: written with the profile's hashPrefix (the proposer is an identifier, never prefixed).
        const zeros = name === 'parent_hash' ? zerosHash(ctx) : [ZEROS];
        if (form === 'zeros') ctx.expect(typeof value === 'string' && zeros.includes(value), `the genesis block's ${name} is not 64 zeros`, `${zeros.join(' or ')} (genesisBlock.${name}: zeros)`, present(value));
        if (form === 'empty') ctx.expect(value === '', `the genesis block's ${name} is not an empty string`, `"" (genesisBlock.${name}: empty)`, present(value));
        if (form === 'null') ctx.expect(value === null, `the genesis block's ${name} is not null`, `null (genesisBlock.${name}: null)`, present(value));
        if (form === 'absent') ctx.expect(value === undefined, `the genesis block has a ${name}`, `no ${name} (genesisBlock.${name}: absent)`, value);
        judged.push(`${name} ${form}`);
      }
      if (ctx.profile.fields.timestamp !== null) {
        const time = ctx.field(block, 'timestamp');
        const form = forms.timestamp;
        if (form === 'zero') ctx.expect(timestampMs(ctx, time) === 0, "the genesis block's timestamp is not 0", '0 (the epoch; genesisBlock.timestamp: zero)', present(time));
        if (form === 'null') ctx.expect(time === null, "the genesis block's timestamp is not null", 'null (genesisBlock.timestamp: null)', present(time));
        if (form === 'absent') ctx.expect(time === undefined, 'the genesis block has a timestamp', 'no timestamp (genesisBlock.timestamp: absent)', time);
        judged.push(`timestamp ${form}`);
      }
      return `genesis at height ${genesis}: ${judged.join(', ')}`;
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/above-tip-not-a-block',
    level: 'SHOULD',
    category: 'methods',
    scope: 'node',
    title: 'a height far above the current one is not answered with a block (null or an error)',
    spec: `${SPEC}; docs/interface.md#rule-1 (what a height with no block gets: not shown)`,
    async run(ctx: CheckContext) {
      const asked = (await readHeight(ctx)) + 1000n;
      const r = await ctx.call(M, [heightParam(asked)]);
      if (!r.ok) return `refused with ${r.error.code}`;
      ctx.expect(r.result === null, `${M} ${asked} (1000 above the current height) answered with something other than null`, 'null or an error', r.result);
      return 'answered null';
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/above-tip-answer',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'a height above the current one is answered as the profile says: its BlockNotFound error (reference: -32001, data {reason, height asked, latest}) or null',
    spec: 'profile: docs/reference-profile.md#unknown-heights-and-accounts; schemas/errors.schema.json#/definitions/BlockNotFound; docs/profiles.md (unknownHeight)',
    async run(ctx: CheckContext) {
      const before = await readHeight(ctx);
      const asked = before + 1000n;
      if (ctx.profile.unknownHeight === 'null') {
        const r = await ctx.call(M, [heightParam(asked)]);
        if (!r.ok) ctx.fail(`${M} ${asked} (1000 above the current height) was refused with ${r.error.code}, not answered null`, 'result null (unknownHeight: null)', show(r.error));
        ctx.expect(r.result === null, `${M} ${asked} was not answered null`, 'result null (unknownHeight: null)', r.result);
        return 'answered null';
      }
      const error = await expectProfileError(ctx, M, [heightParam(asked)], 'BlockNotFound', `a height 1000 above the current one (${asked})`);
      expectErrorData(ctx, error, 'the BlockNotFound error');
      // The reference profile's data also names the height asked and the latest one; where a node's data does, they must be right.
      const data = error.data;
      if (isObject(data) && data.height !== undefined) ctx.expect(asU64(data.height) === asked, 'BlockNotFound data.height is not the height asked for', String(asked), data.height);
      if (isObject(data) && data.latest !== undefined) {
        const l = asU64(data.latest);
        ctx.expect(l !== undefined && l >= before && l < asked, 'BlockNotFound data.latest is not the current height', `a height from ${before} (read just before) and below ${asked}`, data.latest);
      }
      return `refused with ${error.code}`;
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/bad-height-refused',
    level: 'SHOULD',
    category: 'methods',
    scope: 'node',
    title: 'a height no reading makes an unsigned integer (negative, fractional, a word) is refused with an error',
    spec: `${SPEC} (params [height: integer])`,
    async run(ctx: CheckContext) {
      await expectRefused(ctx, M, [-1], 'a negative height (-1)');
      await expectRefused(ctx, M, [1.5], 'a fractional height (1.5)');
      await expectRefused(ctx, M, ['one'], 'a word as the height ("one")');
    },
  }),
  defineCheck({
    id: 'chain_getBlockByHeight/invalid-params-code',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'bad heights get the profile\'s InvalidParams codes (negative, fractional, a word, none); a height as a string and a second param are handled as the profile says',
    spec: 'JSON-RPC 2.0 §5.1 (-32602); profile: docs/reference-profile.md#unknown-heights-and-accounts, docs/profiles.md (params, errorCodes)',
    async run(ctx: CheckContext) {
      await expectProfileError(ctx, M, [-1], 'InvalidParams', 'a negative height (-1)', 'height');
      await expectProfileError(ctx, M, [1.5], 'InvalidParams', 'a fractional height (1.5)', 'height');
      await expectProfileError(ctx, M, ['one'], 'InvalidParams', 'a word as the height ("one")', 'type');
      await expectProfileError(ctx, M, [], 'InvalidParams', 'no params', 'count');
      const genesis = ctx.profile.genesisHeightExact;
      const asString = await expectParamForm(ctx, M, [String(genesis)], 'stringIntegers', `a height given as a string ("${genesis}")`);
      const extra = await expectParamForm(ctx, M, [heightParam(genesis), heightParam(genesis)], 'extra', 'a second param');
      return `${asString}; ${extra}`;
    },
  }),
];
