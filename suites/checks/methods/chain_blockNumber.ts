import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { expectParamForm, expectSchema, show } from '../support.js';

const M = 'chain_blockNumber';
const SPEC = 'spec: docs/interface.md#chain_blocknumber';

/** Checks of chain_blockNumber: an unsigned 64-bit integer in any legal encoding, the profile's encoding, no params. */
export const chain_blockNumber = [
  defineCheck({
    id: 'chain_blockNumber/unsigned-64-bit-integer',
    level: 'MUST',
    category: 'methods',
    scope: 'node',
    title: 'the current height is an unsigned 64-bit integer (a JSON integer, or a hex quantity "0x…")',
    spec: `${SPEC} (the current height, an unsigned 64-bit integer; how integers are written in JSON is not shown)`,
    async run(ctx: CheckContext) {
      const result = await ctx.result(M);
      expectSchema(ctx, M, result, 'spec');
      return `height ${show(result)}`;
    },
  }),
  defineCheck({
    id: 'chain_blockNumber/profile-shape',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'the height is written in the profile\'s integers for it (methodIntegers, else integers: a JSON number in the reference profile)',
    spec: 'profile: docs/reference-profile.md#wire-names-and-encodings ("u64 integers ... are JSON numbers"); docs/profiles.md (integers, methodIntegers)',
    async run(ctx: CheckContext) {
      const result = await ctx.result(M);
      expectSchema(ctx, M, result, 'profile');
      return `height ${show(result)}`;
    },
  }),
  defineCheck({
    id: 'chain_blockNumber/extra-params',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'a param given to chain_blockNumber (which takes none) is handled as the profile says: refused with its InvalidParams code (reference), or ignored',
    spec: 'spec: docs/interface.md#chain_blocknumber (params []); profile: schemas/methods/chain_blockNumber.schema.json; docs/profiles.md (params.extra)',
    async run(ctx: CheckContext) {
      const one = await expectParamForm(ctx, M, [1], 'extra', 'a param it does not take ([1])');
      const latest = await expectParamForm(ctx, M, ['latest'], 'extra', 'a param it does not take (["latest"])');
      return `${one}; ${latest}`;
    },
  }),
];
