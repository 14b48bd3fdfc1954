import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import type { JsonValue } from '../../../core/json/index.js';
import { anyInteger, isObject } from '../../../profile/readWire.js';
import { expectSchema, show } from '../support.js';

const M = 'net_peerCount';

/** A number in any of the usual writings: a JSON number, a hex quantity "0x…", a decimal string (whole or not, signed or not). */
const numeric = (v: JsonValue | undefined): boolean => typeof v === 'number' || typeof v === 'bigint' || (typeof v === 'string' && /^(-?\d+(\.\d+)?|0x[0-9a-fA-F]+)$/.test(v));

/**
 * The value that holds the count in net_peerCount's result, as the profile writes it (peerCountResult: the result
 * itself, or its count field); undefined when the answer holds no number there to read.
 */
function countIn(ctx: CheckContext, result: JsonValue): JsonValue | undefined {
  const value = ctx.profile.peerCountResult === 'object' ? ctx.field(result, 'count') : result;
  return numeric(value) ? value : undefined;
}

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
      if (!numeric(result)) ctx.skip(`the peer count is written ${show(result)}, a form the spec leaves open (net_peerCount/profile-shape judges it under the profile)`);
      const count = typeof result === 'string' && /^-\d+$/.test(result) ? BigInt(result) : anyInteger(result);
      ctx.expect(count !== undefined && count >= 0n, 'the peer count is not a whole number of peers', 'a whole number, not negative', result);
      return `${show(result)} peer(s)`;
    },
  }),
  defineCheck({
    id: 'net_peerCount/profile-shape',
    level: 'PROFILE',
    category: 'pou',
    scope: 'node',
    title: 'the peer count is written as the profile says: the count itself, a decimal string of it, or an object whose count field holds it (peerCountResult), in the profile\'s integers for it (methodIntegers, else integers: a JSON number in the reference profile)',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown (net_peerCount: "A u64"); docs/profiles.md (integers, methodIntegers, peerCountResult)',
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
        const result = await ctx.result(M);
        // A count this check cannot read is not a different count: the form is profile-shape's to judge.
        const written = countIn(ctx, result);
        if (written === undefined) ctx.skip(`no count to compare in net_peerCount's ${show(result)} (peerCountResult: ${ctx.profile.peerCountResult}); net_peerCount/profile-shape judges its form`);
        const peers = ctx.field(await ctx.result('chain_pouPeers'), 'peers');
        ctx.expect(isObject(peers), 'chain_pouPeers has no peers map to count', 'peers: an object', peers);
        const listed = Object.keys(peers).length;
        const count = anyInteger(written);
        if (count === BigInt(listed)) return `${listed} peer(s) in both`;
        last = `net_peerCount ${show(result)}${ctx.profile.peerCountResult === 'object' ? ` (a count of ${show(written)})` : ''}, chain_pouPeers lists ${listed}`;
      }
      ctx.fail('net_peerCount differs from the number of peers chain_pouPeers lists (3 tries)', 'equal counts', last);
    },
  }),
];
