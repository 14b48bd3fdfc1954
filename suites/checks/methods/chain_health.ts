import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { expectProfileError, expectRefused, expectSchema, show } from '../support.js';

const M = 'chain_health';
const SPEC = 'spec: Methods table (chain_health); Resources > Health';

/** Checks of chain_health: the spec's status and mode strings, the profile's values, no params. */
export const chain_health = [
  defineCheck({
    id: 'chain_health/status-and-mode-strings',
    level: 'MUST',
    category: 'methods',
    scope: 'node',
    title: 'the health object has status and mode, both strings',
    spec: `${SPEC}: "status: string", "mode: string"`,
    async run(ctx: CheckContext) {
      const result = await ctx.result(M);
      expectSchema(ctx, M, result, 'spec');
      return `status ${show(ctx.field(result, 'status'))}, mode ${show(ctx.field(result, 'mode'))}`;
    },
  }),
  defineCheck({
    id: 'chain_health/profile-values',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'status is "ok" or "syncing", mode is "MN" or "LN", chain_id is a u64 integer',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown (chain_health)',
    async run(ctx: CheckContext) {
      const result = await ctx.result(M);
      expectSchema(ctx, M, result, 'profile');
      return `${show(result)}`;
    },
  }),
  defineCheck({
    id: 'chain_health/extra-params-refused',
    level: 'SHOULD',
    category: 'methods',
    scope: 'node',
    title: 'a param given to chain_health (which takes none) is refused with an error',
    spec: 'spec: Methods table (chain_health params []); Transport: "Methods with no parameters take an empty params array"',
    async run(ctx: CheckContext) {
      const error = await expectRefused(ctx, M, [1], 'a param it does not take ([1])');
      return `refused with ${error.code}`;
    },
  }),
  defineCheck({
    id: 'chain_health/invalid-params-code',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'a param given to chain_health is refused with -32602 Invalid params',
    spec: 'JSON-RPC 2.0 §5.1 (-32602); profile: params are validated against schemas/methods/chain_health.schema.json',
    async run(ctx: CheckContext) {
      await expectProfileError(ctx, M, [1], 'InvalidParams', 'a param it does not take ([1])');
      await expectProfileError(ctx, M, ['ok'], 'InvalidParams', 'a param it does not take (["ok"])');
    },
  }),
];
