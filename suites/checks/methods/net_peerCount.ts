import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import type { JsonValue } from '../../../core/json/index.js';
import { show } from '../support.js';

const M = 'net_peerCount';

const isNonNegativeInteger = (v: JsonValue): boolean => (typeof v === 'number' && Number.isInteger(v) && v >= 0) || (typeof v === 'bigint' && v >= 0n);

/** Checks of net_peerCount: a count, and the count of what chain_pouPeers lists. */
export const net_peerCount = [
  defineCheck({
    id: 'net_peerCount/non-negative-integer',
    level: 'SHOULD',
    category: 'pou',
    scope: 'node',
    title: 'the peer count is a non-negative integer',
    spec: 'spec: Methods table (net_peerCount: result not shown); "read the peer count"',
    async run(ctx: CheckContext) {
      const result = await ctx.result(M);
      ctx.expect(isNonNegativeInteger(result), 'the peer count is not a non-negative integer', 'a non-negative JSON integer', result);
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
        ctx.expect(typeof peers === 'object' && peers !== null && !Array.isArray(peers), 'chain_pouPeers has no peers map to count', 'peers: an object', peers);
        const listed = Object.keys(peers).length;
        if ((typeof count === 'number' || typeof count === 'bigint') && isNonNegativeInteger(count) && BigInt(count) === BigInt(listed)) return `${listed} peer(s) in both`;
        last = `net_peerCount ${show(count)}, chain_pouPeers lists ${listed}`;
      }
      ctx.fail('net_peerCount differs from the number of peers chain_pouPeers lists (3 tries)', 'equal counts', last);
    },
  }),
];
