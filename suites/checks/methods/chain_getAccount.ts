import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import type { JsonValue } from '../../../core/json/index.js';
import { asInteger } from '../../../profile/readWire.js';
import { UnreadableAccount } from '../../Wallet.js';
import { expectErrorData, expectParamForm, expectProfileError, expectRefused, expectSchema, requireServed, show, unusedAddress } from '../support.js';

const M = 'chain_getAccount';
const SPEC = 'spec: docs/interface.md#chain_getaccount; docs/interface.md#resource-account';

/**
 * An account that exists, read for its shape: one the suite funded (the spec does not show what an
 * address the chain never saw gets, so reading one would judge a choice the spec leaves open).
 */
async function fundedAccount(ctx: CheckContext): Promise<{ address: string; result: JsonValue }> {
  try {
    const address = await ctx.wallet().sample(ctx);
    return { address, result: await ctx.result(M, [address]) };
  } catch (error) {
    // Its balance in no integer's writing: the funding cannot be seen to arrive, but the form is these checks' to judge.
    if (error instanceof UnreadableAccount) return { address: error.address, result: error.result };
    throw error;
  }
}

/** Checks of chain_getAccount: the spec's units on an account the suite funded, the profile's exact shapes and unknown accounts, bad addresses. */
export const chain_getAccount = [
  defineCheck({
    id: 'chain_getAccount/balance-is-u128-string',
    level: 'MUST',
    category: 'methods',
    scope: 'node',
    needs: ['funds'],
    title: 'balance is a decimal string parsable as an unsigned 128-bit integer (read on an account the suite funded)',
    spec: `${SPEC} (balance: a decimal string whose value fits an unsigned 128-bit integer)`,
    async run(ctx: CheckContext) {
      const { address, result } = await fundedAccount(ctx);
      const balance = ctx.field(result, 'balance');
      ctx.expect(typeof balance === 'string', 'balance is not a string', 'a decimal string', balance);
      ctx.expect(/^[0-9]+$/.test(balance) && BigInt(balance) < 1n << 128n, 'balance is not a decimal u128', 'digits, at most 2^128-1', balance);
      return `balance ${show(balance)} of ${address.slice(0, 12)}…`;
    },
  }),
  defineCheck({
    id: 'chain_getAccount/nonce-is-unsigned-integer',
    level: 'MUST',
    category: 'methods',
    scope: 'node',
    needs: ['funds'],
    title: 'nonce is an unsigned integer (read on an account the suite funded)',
    spec: `${SPEC} (nonce: unsigned integer)`,
    async run(ctx: CheckContext) {
      const { result } = await fundedAccount(ctx);
      expectSchema(ctx, M, result, 'spec', 'nonce');
      return `nonce ${show(ctx.field(result, 'nonce'))}`;
    },
  }),
  defineCheck({
    id: 'chain_getAccount/profile-shape',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    needs: ['funds'],
    title: 'an account is written as the profile says: canonical u128 balance (no leading zeros), a u64 nonce in the profile\'s integers, the profile\'s keys',
    spec: 'profile: schemas/defs.schema.json#/definitions/Account; docs/profiles.md',
    async run(ctx: CheckContext) {
      const { result } = await fundedAccount(ctx);
      expectSchema(ctx, M, result, 'profile');
    },
  }),
  defineCheck({
    id: 'chain_getAccount/unknown-account',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'an address the chain has never seen is answered as the profile says: an empty account (balance "0", nonce 0; reference), its AccountNotFound error, or null',
    spec: 'profile: docs/reference-profile.md#unknown-heights-and-accounts; docs/profiles.md (unknownAccount)',
    async run(ctx: CheckContext) {
      await requireServed(ctx, M);
      const r = await ctx.call(M, [unusedAddress(ctx)]);
      if (ctx.profile.unknownAccount === 'error') {
        const want = ctx.profile.errorCodes.AccountNotFound;
        if (r.ok) ctx.fail('an unknown address was answered with a result, not an error', `error ${want ?? '(any code)'} (AccountNotFound)`, show(r.result));
        if (want !== undefined && want !== null) ctx.expect(r.error.code === want, 'an unknown address was refused with the wrong code', `${want} (AccountNotFound)`, r.error);
        expectErrorData(ctx, r.error, 'the AccountNotFound error');
        return `refused with ${r.error.code}`;
      }
      if (ctx.profile.unknownAccount === 'null') {
        ctx.expect(r.ok && r.result === null, 'an unknown address was not answered with null', 'result null (unknownAccount: null)', r.ok ? r.result : r.error);
        return 'null';
      }
      ctx.expect(r.ok, 'an unknown address was answered with an error', '{"balance":"0","nonce":0}', r.ok ? undefined : r.error);
      ctx.expect(ctx.field(r.result, 'balance') === '0' && asInteger(ctx.field(r.result, 'nonce')) === 0n, 'an unknown address is not an empty account', '{"balance":"0","nonce":0}', r.result);
      expectSchema(ctx, M, r.result, 'profile');
      return 'an empty account';
    },
  }),
  defineCheck({
    id: 'chain_getAccount/bad-address-refused',
    level: 'SHOULD',
    category: 'methods',
    scope: 'node',
    title: 'an address no reading makes 64 hex (63 characters, non-hex characters, a number) is refused with an error',
    spec: `${SPEC}; docs/interface.md#address (an address is 64 hexadecimal characters)`,
    async run(ctx: CheckContext) {
      const a = unusedAddress(ctx);
      await expectRefused(ctx, M, [a.slice(1)], 'a 63-character address');
      await expectRefused(ctx, M, [`zz${a.slice(2)}`], 'an address with non-hex characters');
      await expectRefused(ctx, M, [12345], 'a number as the address');
    },
  }),
  defineCheck({
    id: 'chain_getAccount/invalid-params-code',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'bad params get the profile\'s InvalidParams codes (a malformed address, a number, no param); a second param and a 0x prefix are handled as the profile says',
    spec: 'JSON-RPC 2.0 §5.1 (-32602); profile: schemas/methods/chain_getAccount.schema.json, docs/profiles.md (params, errorCodes)',
    async run(ctx: CheckContext) {
      const a = unusedAddress(ctx);
      await expectProfileError(ctx, M, [a.slice(1)], 'InvalidParams', 'a 63-character address', 'address');
      await expectProfileError(ctx, M, [12345], 'InvalidParams', 'a number as the address', 'type');
      await expectProfileError(ctx, M, [], 'InvalidParams', 'no params', 'count');
      const extra = await expectParamForm(ctx, M, [a, a], 'extra', 'a second param');
      const prefix = await expectParamForm(ctx, M, [`0x${a}`], 'hexPrefix', 'a 0x-prefixed address');
      return `${extra}; ${prefix}`;
    },
  }),
];
