import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { expectSchema, show } from '../support.js';

const M = 'chain_pouLocal';

/** Checks of chain_pouLocal: the spec's three fields, the profile's types. */
export const chain_pouLocal = [
  defineCheck({
    id: 'chain_pouLocal/spec-fields',
    level: 'MUST',
    category: 'pou',
    scope: 'node',
    title: 'the PoU local status has local_score, leader and local_is_leader (a boolean)',
    spec: 'spec: docs/interface.md#chain_poulocal; docs/interface.md#resource-pou-local (local_is_leader: boolean)',
    async run(ctx: CheckContext) {
      const result = await ctx.result(M);
      expectSchema(ctx, M, result, 'spec');
      return `local_is_leader ${show(ctx.field(result, 'local_is_leader'))}`;
    },
  }),
  defineCheck({
    id: 'chain_pouLocal/profile-types',
    level: 'PROFILE',
    category: 'pou',
    scope: 'node',
    title: 'local_score and leader are of the profile\'s types (reference: a u64, and a 64 lower-case hex identifier or null), and a node that says it leads names a leader',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown (chain_pouLocal); docs/profiles.md (identifiers, scores, hexCase, integers)',
    async run(ctx: CheckContext) {
      const result = await ctx.result(M);
      expectSchema(ctx, M, result, 'profile');
      const leader = ctx.field(result, 'leader');
      if (ctx.field(result, 'local_is_leader') === true) ctx.expect(leader !== null, 'local_is_leader is true but leader is null', 'the leader\'s identifier (this node\'s)', leader);
      return `local_score ${show(ctx.field(result, 'local_score'))}, leader ${show(leader)}`;
    },
  }),
];
