import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { expectParamForm, expectSchema, show } from '../support.js';

const M = 'chain_health';
const SPEC = 'spec: docs/interface.md#chain_health; docs/interface.md#resource-health';

/** Checks of chain_health: the spec's status and mode strings, the profile's value sets, no params. */
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
    title: 'status and mode are in the profile\'s value sets (reference: "ok" or "syncing", "MN" or "LN"), and chain_id, where the profile has it, is a u64',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown (chain_health); docs/profiles.md (health)',
    async run(ctx: CheckContext) {
      const result = await ctx.result(M);
      expectSchema(ctx, M, result, 'profile');
      return `${show(result)}`;
    },
  }),
  defineCheck({
    id: 'chain_health/extra-params',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'a param given to chain_health (which takes none) is handled as the profile says: refused with its InvalidParams code (reference), or ignored',
    spec: 'spec: docs/interface.md#chain_health (params []); profile: schemas/methods/chain_health.schema.json; docs/profiles.md (params.extra)',
    async run(ctx: CheckContext) {
      return expectParamForm(ctx, M, [1], 'extra', 'a param it does not take ([1])');
    },
  }),
];
