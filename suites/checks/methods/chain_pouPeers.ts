import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { expectSchema } from '../support.js';

const M = 'chain_pouPeers';

const size = (peers: unknown): number => (typeof peers === 'object' && peers !== null ? Object.keys(peers).length : 0);

/** Checks of chain_pouPeers: the spec's map of identifiers to scores, the profile's types. */
export const chain_pouPeers = [
  defineCheck({
    id: 'chain_pouPeers/spec-map',
    level: 'MUST',
    category: 'pou',
    scope: 'node',
    title: 'peers is a map from identifiers of at least 16 characters to numbers',
    spec: 'spec: docs/interface.md#chain_poupeers; docs/interface.md#resource-pou-peers (peers: a map from identifier, a string of 16 characters or more, to score, a number that can be ordered)',
    async run(ctx: CheckContext) {
      const result = await ctx.result(M);
      expectSchema(ctx, M, result, 'spec');
      return `${size(ctx.field(result, 'peers'))} peer(s)`;
    },
  }),
  defineCheck({
    id: 'chain_pouPeers/profile-types',
    level: 'PROFILE',
    category: 'pou',
    scope: 'node',
    title: 'peer identifiers and scores are of the profile\'s types (reference: 64 lower-case hex, u64 integers)',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown (chain_pouPeers); docs/profiles.md (identifiers, scores, hexCase, integers)',
    async run(ctx: CheckContext) {
      const result = await ctx.result(M);
      expectSchema(ctx, M, result, 'profile');
      return `${size(ctx.field(result, 'peers'))} peer(s)`;
    },
  }),
];
