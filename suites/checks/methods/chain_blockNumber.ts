import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { expectProfileError, expectRefused, expectSchema, show } from '../support.js';

const M = 'chain_blockNumber';
const SPEC = 'spec: Methods table (chain_blockNumber)';

/** Checks of chain_blockNumber: an unsigned 64-bit integer, no params. */
export const chain_blockNumber = [
  defineCheck({
    id: 'chain_blockNumber/unsigned-64-bit-integer',
    level: 'MUST',
    category: 'methods',
    scope: 'node',
    title: 'the current block height is an unsigned 64-bit integer (a JSON integer, not a string)',
    spec: `${SPEC}: "Current block height, an unsigned 64-bit integer"`,
    async run(ctx: CheckContext) {
      const result = await ctx.result(M);
      expectSchema(ctx, M, result, 'spec');
      return `height ${show(result)}`;
    },
  }),
  defineCheck({
    id: 'chain_blockNumber/extra-params-refused',
    level: 'SHOULD',
    category: 'methods',
    scope: 'node',
    title: 'a param given to chain_blockNumber (which takes none) is refused with an error',
    spec: `${SPEC} (params []); Transport: "Methods with no parameters take an empty params array"`,
    async run(ctx: CheckContext) {
      const error = await expectRefused(ctx, M, [1], 'a param it does not take ([1])');
      return `refused with ${error.code}`;
    },
  }),
  defineCheck({
    id: 'chain_blockNumber/invalid-params-code',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'a param given to chain_blockNumber is refused with -32602 Invalid params',
    spec: 'JSON-RPC 2.0 §5.1 (-32602); profile: params are validated against schemas/methods/chain_blockNumber.schema.json',
    async run(ctx: CheckContext) {
      await expectProfileError(ctx, M, [1], 'InvalidParams', 'a param it does not take ([1])');
      await expectProfileError(ctx, M, ['latest'], 'InvalidParams', 'a param it does not take (["latest"])');
    },
  }),
];
