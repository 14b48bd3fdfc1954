import { defineCheck } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import type { JsonValue } from '../../../core/json/index.js';
import { sameHex } from '../../../profile/readWire.js';
import { expectParamForm, expectProfileError, expectRefused, expectSchema, freeTransfer, show, unusedAddress } from '../support.js';

const M = 'chain_sendRawTransaction';
const SPEC = 'spec: docs/interface.md#chain_sendrawtransaction (params [signed_transaction: hex string]); docs/interface.md#resource-transaction';

/** Variants of a transaction's hex that no reading makes a string of hex pairs. */
function notHex(wire: string): { what: string; hex: string }[] {
  return [
    { what: 'non-hexadecimal characters ("zz" in place of the first byte)', hex: `zz${wire.slice(2)}` },
    { what: 'an odd number of hex characters (the last one dropped)', hex: wire.slice(0, -1) },
  ];
}

/** The transaction hash a chain_sendRawTransaction result carries, read as the profile says (a bare hash, or an object's field). */
export function sentHash(ctx: CheckContext, result: JsonValue): JsonValue | undefined {
  return ctx.profile.txResult === 'object' ? ctx.field(result, 'transaction_hash') : result;
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
    title: 'a param no reading makes a string of hex pairs (non-hex characters, odd length, a number), or no param, is refused with an error',
    spec: `${SPEC}; docs/interface.md#transaction-submission (handed in as a hexadecimal string)`,
    async run(ctx: CheckContext) {
      const { wire } = await freeTransfer(ctx);
      const codes = new Set<number>();
      for (const { what, hex } of notHex(wire)) codes.add((await expectRefused(ctx, M, [hex], what)).code);
      codes.add((await expectRefused(ctx, M, [], 'no params')).code);
      codes.add((await expectRefused(ctx, M, [12345], 'a number instead of the hex string')).code);
      return `refused with ${[...codes].join(', ')}`;
    },
  }),
  defineCheck({
    id: 'chain_sendRawTransaction/invalid-params-code',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'text that is not hex pairs, a number and no param get the profile\'s codes; a 0x prefix and a second param are handled as the profile says',
    spec: 'JSON-RPC 2.0 §5.1 (-32602); profile: docs/reference-profile.md#transactions ("Not a string of hex pairs (odd length, non-hex, 0x prefix): -32602"); docs/profiles.md (params, errorCodes "InvalidParams/tx-hex")',
    async run(ctx: CheckContext) {
      const { wire } = await freeTransfer(ctx);
      for (const { what, hex } of notHex(wire)) await expectProfileError(ctx, M, [hex], 'InvalidParams', what, 'tx-hex');
      await expectProfileError(ctx, M, [], 'InvalidParams', 'no params', 'count');
      await expectProfileError(ctx, M, [12345], 'InvalidParams', 'a number instead of the hex string', 'type');
      // A 0x-prefixed transaction is also text that is not hex pairs: the tx-hex code applies unless the profile names one for the prefix.
      const prefix = await expectParamForm(ctx, M, [`0x${(await freeTransfer(ctx)).wire}`], 'hexPrefix', 'a 0x-prefixed transaction', ['tx-hex']);
      const extra = await expectParamForm(ctx, M, [(await freeTransfer(ctx)).wire, 'extra'], 'extra', 'a second param');
      return `${prefix}; ${extra}`;
    },
  }),
  defineCheck({
    id: 'chain_sendRawTransaction/result-is-transaction-hash',
    level: 'PROFILE',
    category: 'methods',
    scope: 'node',
    title: 'an admitted transaction is answered with its hash as the profile says (reference: the bare hash, 64 lower-case hex, SHA-256 of the wire bytes), shown with a free transfer (value 0, fee 0), or a funded one where the node takes no free transfer',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown (chain_sendRawTransaction); docs/transaction-codec.md; docs/profiles.md (txResult)',
    async run(ctx: CheckContext) {
      let tx = await freeTransfer(ctx);
      let r = await ctx.call(M, [tx.wire]);
      if (!r.ok) {
        // A node with a minimum fee (or that refuses empty senders) takes no free transfer: a funded one then.
        const free = `${r.error.code} (${r.error.message})`;
        const alice = await ctx.wallet().fund(ctx);
        tx = ctx.profile.codec.sign(alice.privateKey, { chainId: await ctx.chainId(), to: unusedAddress(ctx), value: 1n, nonce: 0n, fee: ctx.profile.fee });
        r = await ctx.call(M, [tx.wire]);
        if (!r.ok) ctx.skip(`the node refused a free transfer with ${free}, and a funded transfer of 1 with the profile's fee (${ctx.profile.fee}) with ${r.error.code} (${r.error.message}): no admitted transaction to read the result of`);
      }
      expectSchema(ctx, M, r.result, 'profile');
      const hash = sentHash(ctx, r.result);
      if (tx.hash !== undefined) ctx.expect(sameHex(hash, tx.hash), "the result is not the transaction's hash", `${tx.hash} (the codec's hash of the transaction)`, r.result);
      return `hash ${show(hash)}`;
    },
  }),
];
