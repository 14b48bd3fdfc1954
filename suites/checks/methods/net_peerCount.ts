import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { asInteger, isObject } from '../../../profile/readWire.js';
import { expectSchema, show } from '../support.js';

const M = 'net_peerCount';

/** Checks of net_peerCount: a count, in the profile's integers, and the count of what chain_pouPeers lists. */
export const net_peerCount = [
  defineCheck({
    id: 'net_peerCount/non-negative-integer',
    level: 'SHOULD',
    category: 'pou',
    scope: 'node',
    title: 'the peer count, when written as a number (a JSON number, a hex quantity "0x…" or a decimal string), is a whole number of peers, not negative',
    spec: 'spec: docs/interface.md#net_peercount (result not shown); docs/interface.md#capabilities ("read how many peers the node has")',
    async run(ctx: CheckContext) {
      const result = await ctx.result(M);
      // The result's form is not shown (an object, a string of another kind: the profile's matter, profile-shape);
      // a number, in any of the usual writings, is a count only when whole and not negative.
      const numeric = typeof result === 'number' || typeof result === 'bigint' || (typeof result === 'string' && /^(-?\d+(\.\d+)?|0x[0-9a-fA-F]+)$/.test(result));
      if (!numeric) ctx.skip(`the peer count is written ${show(result)}, a form the spec leaves open (net_peerCount/profile-shape judges it under the profile)`);
      const count = typeof result === 'string' && /^-?\d+$/.test(result) ? BigInt(result) : asInteger(result);
      ctx.expect(count !== undefined && count >= 0n, 'the peer count is not a whole number of peers', 'a whole number, not negative', result);
      return `${show(result)} peer(s)`;
    },
  }),
  defineCheck({
    id: 'net_peerCount/profile-shape',
    level: 'PROFILE',
    category: 'pou',
    scope: 'node',
    title: 'the peer count is written in the profile\'s integers for it (methodIntegers, else integers: a JSON number in the reference profile)',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown (net_peerCount: "A u64"); docs/profiles.md (integers, methodIntegers)',
    async run(ctx: CheckContext) {
      const result = await ctx.result(M);
      expectSchema(ctx, M, result, 'profile');
      return `${show(result)} peer(s)`;
    },
  }),
  defineCheck({
    id: 'net_peerCount/matches-pou-peers',
    level: 'PROFILE',
    category: 'pou',
    scope: 'node',
    title: 'the peer count equals the number of entries chain_pouPeers lists',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown (net_peerCount: "the number of entries chain_pouPeers lists")',
    async run(ctx: CheckContext) {
      // Peers come and go: the two reads must agree at least once in a few tries.
      let last = '';
      for (let attempt = 0; attempt < 3; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.max(50, Math.min(500, Math.floor(ctx.profile.blockTimeMs / 2)))));
        const count = await ctx.result(M);
        const peers = ctx.field(await ctx.result('chain_pouPeers'), 'peers');
        ctx.expect(isObject(peers), 'chain_pouPeers has no peers map to count', 'peers: an object', peers);
        const listed = Object.keys(peers).length;
        if (asInteger(count) === BigInt(listed)) return `${listed} peer(s) in both`;
        last = `net_peerCount ${show(count)}, chain_pouPeers lists ${listed}`;
      }
      ctx.fail('net_peerCount differs from the number of peers chain_pouPeers lists (3 tries)', 'equal counts', last);
    },
  }),
];
