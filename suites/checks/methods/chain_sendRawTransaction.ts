import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { expectProfileError, expectRefused, expectSchema, show, unusedAddress } from '../support.js';

const M = 'chain_sendRawTransaction';
const SPEC = 'spec: Methods table (chain_sendRawTransaction "signed_transaction: hex string"); Resources > Transaction';

/**
 * A well-signed transfer of 0 with fee 0 from a fresh key to a fresh address, at nonce 0: it costs
 * nothing, so it needs no funds. Returns the wire hex and the hash the codec computes (when it can).
 */
async function freeTransfer(ctx: CheckContext): Promise<{ wire: string; hash?: string }> {
  const key = ctx.profile.codec.newKey();
  return ctx.profile.codec.sign(key.privateKey, { chainId: await ctx.chainId(), to: unusedAddress(ctx), value: 0n, nonce: 0n, fee: 0n });
}

/** Variants of a transaction's hex that are not a string of hex pairs. */
function malformed(wire: string): { what: string; hex: string }[] {
  return [
    { what: 'non-hexadecimal characters ("zz" in place of the first byte)', hex: `zz${wire.slice(2)}` },
    { what: 'an odd number of hex characters (the last one dropped)', hex: wire.slice(0, -1) },
    { what: 'a 0x prefix (in place of the first byte)', hex: `0x${wire.slice(2)}` },
  ];
}

/**
 * Checks of chain_sendRawTransaction that need no funds: its parameter handling and the shape of its
 * result. The transfer flows (admission, inclusion, balances) are state checks.
 */
export const chain_sendRawTransaction = [
  defineCheck({
    id: 'chain_sendRawTransaction/bad-params-refused',
    level: 'SHOULD',
    category: 'methods',
    scope: 'node',
    title: 'a param that is not a string of hex pairs (non-hex characters, odd length, 0x over a shortened transaction), no param, a number, or a second param after a valid transaction is refused with an error',
    spec: `${SPEC}; Transaction: "submitted as a hexadecimal string"`,
    async run(ctx: CheckContext) {
      const { wire } = await freeTransfer(ctx);
      const codes = new Set<number>();
      for (const { what, hex } of malformed(wire)) codes.add((await expectRefused(ctx, M, [hex], what)).code);
      codes.add((await expectRefused(ctx, M, [], 'no params')).code);
      codes.add((await expectRefused(ctx, M, [12345], 'a number instead of the hex string')).code);
      // The transaction itself is valid and free: a node that ignores the second param admits it.
      codes.add((await expectRefused(ctx, M, [wire, 'extra'], 'a second param (after a valid, free transaction)')).code);
      return `refused with ${[...codes].join(', ')}`;
    },
  }),
  defineCheck({
    id: 'chain_sendRawTransaction/invalid-params-code',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'non-hex, odd-length or 0x-prefixed hex, no param, a number or a second param is refused with -32602 Invalid params',
    spec: 'JSON-RPC 2.0 §5.1 (-32602); profile: docs/reference-profile.md#transactions ("Not a string of hex pairs (odd length, non-hex, 0x prefix): -32602")',
    async run(ctx: CheckContext) {
      const { wire } = await freeTransfer(ctx);
      for (const { what, hex } of malformed(wire)) await expectProfileError(ctx, M, [hex], 'InvalidParams', what);
      await expectProfileError(ctx, M, [], 'InvalidParams', 'no params');
      await expectProfileError(ctx, M, [12345], 'InvalidParams', 'a number instead of the hex string');
      await expectProfileError(ctx, M, [wire, 'extra'], 'InvalidParams', 'a second param');
    },
  }),
  defineCheck({
    id: 'chain_sendRawTransaction/result-is-transaction-hash',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'an admitted transaction is answered with its hash: 64 lower-case hex, SHA-256 of the wire bytes (shown with a free transfer: value 0, fee 0)',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown (chain_sendRawTransaction); docs/transaction-codec.md',
    async run(ctx: CheckContext) {
      const tx = await freeTransfer(ctx);
      const r = await ctx.call(M, [tx.wire]);
      if (!r.ok) ctx.skip(`the node refused a free transfer (value 0, fee 0) from an empty account with ${r.error.code} (${r.error.message}); the result needs a funded transfer (state checks)`);
      expectSchema(ctx, M, r.result, 'profile');
      if (tx.hash !== undefined) ctx.expect(r.result === tx.hash, 'the result is not the transaction\'s hash', `${tx.hash} (SHA-256 of the wire bytes)`, r.result);
      return `hash ${show(r.result)}`;
    },
  }),
];
