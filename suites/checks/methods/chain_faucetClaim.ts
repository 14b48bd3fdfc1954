import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { expectParamForm, expectProfileError, expectRefused, expectSchema, show, unusedAddress } from '../support.js';

const M = 'chain_faucetClaim';
const SPEC = 'spec: docs/interface.md#chain_faucetclaim (params [address: hex string]); docs/interface.md#address (an address is 64 hexadecimal characters)';

const needsFaucet = (ctx: CheckContext): void => {
  if (!ctx.profile.faucet) ctx.skip('the profile says the network has no faucet');
};

/**
 * Checks of chain_faucetClaim: the result's shape and parameter handling. The claim limit and the
 * credit itself are state checks.
 */
export const chain_faucetClaim = [
  defineCheck({
    id: 'chain_faucetClaim/result-shape',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'a claim for a fresh address is answered as the profile says (reference: {transaction_hash: 64 lower-case hex, amount: canonical u128 string}; or the hash itself)',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown (chain_faucetClaim); docs/reference-profile.md#faucet; docs/profiles.md (faucetCredit, faucetResult)',
    async run(ctx: CheckContext) {
      needsFaucet(ctx);
      if (ctx.profile.faucetCredit === 'direct') ctx.skip('the profile says the faucet credits directly: its result names no transaction, and has no shape to compare');
      const result = await ctx.result(M, [unusedAddress(ctx)]);
      expectSchema(ctx, M, result, 'profile');
      return ctx.profile.faucetResult === 'hash' ? `the transaction ${show(result)}` : `amount ${show(ctx.field(result, 'amount'))}`;
    },
  }),
  defineCheck({
    id: 'chain_faucetClaim/bad-params-refused',
    level: 'SHOULD',
    category: 'methods',
    scope: 'node',
    title: 'an address no reading makes 64 hex (63 characters, non-hex characters, a number), or no address, is refused with an error',
    spec: SPEC,
    async run(ctx: CheckContext) {
      needsFaucet(ctx);
      const a = unusedAddress(ctx);
      await expectRefused(ctx, M, [a.slice(1)], 'a 63-character address');
      await expectRefused(ctx, M, [`zz${a.slice(2)}`], 'an address with non-hex characters');
      await expectRefused(ctx, M, [12345], 'a number as the address');
      await expectRefused(ctx, M, [], 'no address');
    },
  }),
  defineCheck({
    id: 'chain_faucetClaim/invalid-params-code',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'a malformed address, a number and no param get the profile\'s InvalidParams codes; a 0x prefix and a second param are handled as the profile says',
    spec: 'JSON-RPC 2.0 §5.1 (-32602); profile: docs/reference-profile.md#wire-names-and-encodings ("A 0x prefix is refused"), schemas/methods/chain_faucetClaim.schema.json, docs/profiles.md (params, errorCodes)',
    async run(ctx: CheckContext) {
      needsFaucet(ctx);
      const a = unusedAddress(ctx);
      await expectProfileError(ctx, M, [a.slice(1)], 'InvalidParams', 'a 63-character address', 'address');
      await expectProfileError(ctx, M, [`zz${a.slice(2)}`], 'InvalidParams', 'an address with non-hex characters', 'address');
      await expectProfileError(ctx, M, [12345], 'InvalidParams', 'a number as the address', 'type');
      await expectProfileError(ctx, M, [], 'InvalidParams', 'no params', 'count');
      // Accepted forms make a claim: each for a fresh address, so a per-address limit does not get in the way.
      const prefix = await expectParamForm(ctx, M, [`0x${unusedAddress(ctx)}`], 'hexPrefix', 'a 0x-prefixed address');
      const b = unusedAddress(ctx);
      const extra = await expectParamForm(ctx, M, [b, b], 'extra', 'a second param');
      return `${prefix}; ${extra}`;
    },
  }),
];
