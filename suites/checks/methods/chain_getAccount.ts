import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { expectProfileError, expectRefused, expectSchema, show, unusedAddress } from '../support.js';

const M = 'chain_getAccount';
const SPEC = 'spec: Methods table (chain_getAccount); Resources > Account';

/** Checks of chain_getAccount: the spec's units, the profile's exact shapes, bad addresses. */
export const chain_getAccount = [
  defineCheck({
    id: 'chain_getAccount/balance-is-u128-string',
    level: 'MUST',
    category: 'methods',
    scope: 'node',
    title: 'balance is a decimal string parsable as an unsigned 128-bit integer',
    spec: `${SPEC}: "balance: decimal string, parsable as an unsigned 128-bit integer"`,
    async run(ctx: CheckContext) {
      const result = await ctx.result(M, [unusedAddress(ctx)]);
      const balance = ctx.field(result, 'balance');
      ctx.expect(typeof balance === 'string', 'balance is not a string', 'a decimal string', balance);
      ctx.expect(/^[0-9]+$/.test(balance) && BigInt(balance) < 1n << 128n, 'balance is not a decimal u128', 'digits, at most 2^128-1', balance);
      return `balance ${show(balance)}`;
    },
  }),
  defineCheck({
    id: 'chain_getAccount/nonce-is-unsigned-integer',
    level: 'MUST',
    category: 'methods',
    scope: 'node',
    title: 'nonce is an unsigned integer',
    spec: `${SPEC}: "nonce: unsigned integer"`,
    async run(ctx: CheckContext) {
      const result = await ctx.result(M, [unusedAddress(ctx)]);
      expectSchema(ctx, M, result, 'spec');
    },
  }),
  defineCheck({
    id: 'chain_getAccount/profile-shape',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'the account matches the profile: canonical u128 balance (no leading zeros), u64 nonce',
    spec: 'profile: schemas/defs.schema.json#/definitions/Account',
    async run(ctx: CheckContext) {
      // Even the "0" balance of an unknown address has one canonical form: "000" or " 0" shows.
      const result = await ctx.result(M, [unusedAddress(ctx)]);
      expectSchema(ctx, M, result, 'profile');
    },
  }),
  defineCheck({
    id: 'chain_getAccount/unknown-is-empty',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'an address the chain has never seen is an empty account (balance "0", nonce 0)',
    spec: 'profile: docs/reference-profile.md#unknown-heights-and-accounts',
    async run(ctx: CheckContext) {
      const r = await ctx.call(M, [unusedAddress(ctx)]);
      ctx.expect(r.ok, 'an unknown address was answered with an error', '{"balance":"0","nonce":0}', r.ok ? undefined : r.error);
      ctx.expect(ctx.field(r.result, 'balance') === '0' && ctx.field(r.result, 'nonce') === 0, 'an unknown address is not an empty account', '{"balance":"0","nonce":0}', r.result);
    },
  }),
  defineCheck({
    id: 'chain_getAccount/bad-address-refused',
    level: 'SHOULD',
    category: 'methods',
    scope: 'node',
    title: 'a malformed address (63 characters, 0x prefix, a number) is refused with an error',
    spec: `${SPEC}: "address: 64-hex string"`,
    async run(ctx: CheckContext) {
      const a = unusedAddress(ctx);
      await expectRefused(ctx, M, [a.slice(1)], 'a 63-character address');
      await expectRefused(ctx, M, [`0x${a.slice(2)}`], 'a 0x-prefixed address');
      await expectRefused(ctx, M, [12345], 'a number as the address');
    },
  }),
  defineCheck({
    id: 'chain_getAccount/invalid-params-code',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'wrong param count or type is refused with -32602 Invalid params',
    spec: 'JSON-RPC 2.0 §5.1 (-32602); profile: params are validated against schemas/methods/chain_getAccount.schema.json',
    async run(ctx: CheckContext) {
      const a = unusedAddress(ctx);
      await expectProfileError(ctx, M, [12345], 'InvalidParams', 'a number as the address');
      await expectProfileError(ctx, M, [], 'InvalidParams', 'no params');
      await expectProfileError(ctx, M, [a, a], 'InvalidParams', 'a second param');
    },
  }),
];
