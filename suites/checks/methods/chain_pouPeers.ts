import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { isObject } from '../../../profile/readWire.js';
import { expectSchema, show } from '../support.js';

const M = 'chain_pouPeers';

/** Why a node that does not lead skips chain_pouPeers/itself-excluded (its need 'leader'). */
export const NOT_LEADING = 'the node does not say it leads, so its own identifier cannot be read (chain_pouLocal names the leader only)';

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
  defineCheck({
    id: 'chain_pouPeers/itself-excluded',
    level: 'PROFILE',
    category: 'pou',
    scope: 'node',
    needs: ['leader'],
    title: 'a node that says it leads does not list the leader\'s identifier, its own, among its peers',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown (chain_pouPeers: "for every live peer the node knows, itself excluded")',
    async run(ctx: CheckContext) {
      // The spec gives a node no identifier of its own to read: one that says it leads names it, as the leader's.
      const local = await ctx.result('chain_pouLocal');
      if (ctx.field(local, 'local_is_leader') !== true) ctx.skip(NOT_LEADING);
      const leader = ctx.field(local, 'leader');
      if (typeof leader !== 'string') ctx.skip(`the leader's identifier is ${show(leader)}, not a string to look for among the peers (chain_pouLocal's checks judge it)`);
      const peers = ctx.field(await ctx.result(M), 'peers');
      if (!isObject(peers)) ctx.skip(`peers is ${show(peers)}, not a map (chain_pouPeers/spec-map judges it)`);
      // Identifiers compare without regard to hex case (a choice the spec leaves open).
      const self = Object.keys(peers).find((id) => id.toLowerCase() === leader.toLowerCase());
      ctx.expect(self === undefined, `the node says it leads, as ${leader}, and lists ${self ?? ''} among its peers: itself`, 'its peers, itself excluded', peers);
      return `leads as ${leader}; ${size(peers)} peer(s) listed, itself not among them`;
    },
  }),
];
