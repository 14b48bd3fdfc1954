import { defineCheck } from '../Check.js';
import type { Check } from '../Check.js';
import type { CheckContext } from '../CheckContext.js';
import { stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { CheckError } from '../checkOutcomes.js';
import { errorCode } from '../../profile/Profile.js';
import type { Transfer } from '../../profile/TxCodec.js';
import { asU64, sameHex } from '../../profile/readWire.js';
import { pollAccount, readAccount } from '../Wallet.js';
import type { Account } from '../Wallet.js';
import { sentHash } from './methods/chain_sendRawTransaction.js';
import { expectErrorData, listsHash, readBlock, readHeight, requireServed, show } from './support.js';
import { refusedAsWhole, requestText, servesBatchOf } from './transport/wire.js';

/**
 * State flows with fresh ed25519 keys: the faucet, a transfer with the spec's fee, and the
 * transactions a node must refuse. Every refusal is tried from a funded account, so that the only
 * thing wrong with the transaction is the defect under test.
 */

async function transfer(ctx: CheckContext, from: Account, to: string, value: bigint, overrides: Partial<Transfer> = {}): Promise<{ tx: Transfer; wire: string; hash?: string }> {
  const { nonce } = await readAccount(ctx, from.address);
  const tx: Transfer = { chainId: await ctx.chainId(), to, value, nonce, fee: ctx.profile.fee, ...overrides };
  return { tx, ...ctx.profile.codec.sign(from.privateKey, tx) };
}

const send = (ctx: CheckContext, wire: string) => ctx.call('chain_sendRawTransaction', [wire]);

/** A funded fresh key and a valid 1-unit transfer from it to a fresh address, not yet signed. */
async function fundedTransfer(ctx: CheckContext): Promise<{ alice: Account; tx: Transfer }> {
  const alice = await ctx.wallet().fund(ctx);
  const { nonce } = await readAccount(ctx, alice.address);
  return { alice, tx: { chainId: await ctx.chainId(), to: ctx.profile.codec.newKey().address, value: 1n, nonce, fee: ctx.profile.fee } };
}

/**
 * Waits until the recipient holds exactly `balance` (an account not yet seen is "not yet", whatever the
 * node answers for it). { setup: true }: for a check that judges something else, a timeout is an error. The
 * recipient is a fresh key that only this check pays: holding more than `balance` is no "not yet" but a transfer
 * applied more than once (an outside tester's node credited twice; the check waited, then said "not seen").
 */
async function balanceReaches(ctx: CheckContext, address: string, balance: bigint, options: { setup?: boolean } = {}): Promise<void> {
  await ctx.waitFor(`${address.slice(0, 12)}… holding ${balance} base units`, async () => {
    const held = (await pollAccount(ctx, address))?.balance;
    if (held !== undefined && held > balance) {
      const message = `${address.slice(0, 12)}… holds ${held}, more than the ${balance} sent to it: a transfer applied more than once?`;
      if (options.setup === true) throw new CheckError(`setup: ${message}`);
      ctx.fail(message, `${balance}`, `${held}`);
    }
    return held === balance ? true : undefined;
  }, ctx.inclusionTimeoutMs(), { ...options, inBlocks: true });
}

/** Sends a transfer the check needs admitted to judge something else: a refusal is an error (no verdict), not a failure. */
async function admitted(ctx: CheckContext, wire: string, what: string): Promise<JsonValue> {
  const r = await send(ctx, wire);
  if (!r.ok) throw new CheckError(`setup: the node refused ${what} with ${r.error.code} (${r.error.message})`);
  return r.result;
}

/** JSON-RPC 2.0 §5.1: "Internal JSON-RPC error". */
const INTERNAL_ERROR = -32603;

/**
 * A transaction no sound node applies (a bad signature, a reused nonce, an overspend, another chain's)
 * must be rejected: refused at once (what the reference profile does; its codes are state/refusal-codes'),
 * or admitted and never applied. The spec leaves the node's reaction unshown (Errors: "the node's own
 * reaction to an insufficient balance, an invalid signature or a wrong nonce: not shown"), so what any
 * sound node does is only that the transaction takes no effect: a few blocks after its admission, the
 * (fresh) recipient holds nothing. A refusal with -32603 is not one (JSON-RPC 2.0 §5.1 keeps the code for the
 * server's own failures, whatever the node's other codes): it shows the node failing on the transaction.
 */

/**
 * A sender whose public key is a small-order point: funded first (a verifier that skips the key's check would
 * otherwise refuse it for its balance, and show nothing), then its transfer, "signed" with R = B and S = 1, which
 * RFC 8032's equation takes for any message under that key, must be rejected. The address is every run's (no one holds its
 * key): its balance and nonce are read, not assumed.
 */
async function smallOrderKeyRejected(ctx: CheckContext, key: { address: string; sign(tx: Transfer): string }): Promise<string> {
  const payer = await ctx.wallet().fund(ctx);
  const fee = ctx.profile.fee;
  const before = (await pollAccount(ctx, key.address))?.balance ?? 0n;
  await admitted(ctx, (await transfer(ctx, payer, key.address, 1n + fee)).wire, 'a valid transfer funding the small-order key\'s account');
  await ctx.waitFor(`${key.address.slice(0, 12)}… holding at least ${before + 1n + fee} base units`, async () => (((await pollAccount(ctx, key.address))?.balance ?? 0n) >= before + 1n + fee ? true : undefined), ctx.inclusionTimeoutMs(), { setup: true });
  const { nonce } = await readAccount(ctx, key.address);
  const to = ctx.profile.codec.newKey().address;
  return rejected(ctx, key.sign({ chainId: await ctx.chainId(), to, value: 1n, nonce, fee }), 'a transaction from a small-order public key (the identity point), signed R = B, S = 1 (an equation that holds for any message under that key)', to);
}

async function rejected(ctx: CheckContext, wire: string, what: string, recipient: string, holds = 0n): Promise<string> {
  await requireServed(ctx, 'chain_sendRawTransaction');
  const r = await send(ctx, wire);
  if (!r.ok) {
    // An internal error is the server failing on the transaction, not refusing it as bad input (as malformed-refused
    // judges malformed bytes): a verifier that throws on a crafted signature answers so.
    ctx.expect(r.error.code !== INTERNAL_ERROR, `${what} was answered as an internal error (-32603), not refused as bad input`, 'a client error code (JSON-RPC 2.0 §5.1 keeps -32603 for the server\'s own failures), or never applied', r.error);
    return `refused with ${r.error.code}`;
  }
  const from = await readHeight(ctx);
  const later = from + 3n;
  await ctx.waitFor(`block ${later} (three after the admission)`, async () => ((await readHeight(ctx)) >= later ? true : undefined), ctx.inclusionTimeoutMs(), { setup: true });
  const held = (await pollAccount(ctx, recipient))?.balance ?? 0n;
  ctx.expect(held === holds, `${what} was admitted and took effect: its recipient holds ${held} three blocks later`, `refused, or never applied (the recipient holds ${holds === 0n ? 'nothing' : `${holds}, as before`})`, `admitted (${show(r.result)}), recipient balance ${held}`);
  return `admitted, and never applied (block ${later})`;
}

/** A transfer of 7 from a freshly funded key to a fresh address, admitted and applied: the setup of the checks that send it again. */
async function appliedTransfer(ctx: CheckContext): Promise<{ alice: Account; bob: string; first: Awaited<ReturnType<typeof transfer>> }> {
  const alice = await ctx.wallet().fund(ctx);
  const bob = ctx.profile.codec.newKey().address;
  const first = await transfer(ctx, alice, bob, 7n);
  await admitted(ctx, first.wire, 'a valid transfer from a funded key');
  await balanceReaches(ctx, bob, 7n, { setup: true });
  return { alice, bob, first };
}

/** The transaction must be refused with some JSON-RPC error, by a node that serves chain_sendRawTransaction; returns the error. */
async function refused(ctx: CheckContext, wire: string, what: string): Promise<{ code: number; message: string; data?: JsonValue }> {
  await requireServed(ctx, 'chain_sendRawTransaction');
  const r = await send(ctx, wire);
  if (r.ok) ctx.fail(`chain_sendRawTransaction accepted ${what}`, 'a JSON-RPC error', show(r.result));
  return r.error;
}

function crafted(ctx: CheckContext): NonNullable<CheckContext['profile']['codec']['crafted']> {
  const c = ctx.profile.codec.crafted;
  if (!c) ctx.skip(`the profile's codec (${ctx.profile.codec.name}) has no crafted variants`);
  return c;
}

const SPEC_TX = 'spec: docs/interface.md#resource-transaction';
const base = { category: 'state' as const, scope: 'node' as const, needs: ['funds' as const] };

export const stateChecks: Check[] = [
  defineCheck({
    ...base,
    id: 'state/notification-executed',
    level: 'SHOULD',
    title: 'a transfer sent as a notification (no id, so nothing comes back) is still run: its recipient is credited',
    spec: 'JSON-RPC 2.0 §4.1 (a notification is a Request the Client wants no Response to: the Server sends none, nothing lets it skip the call)',
    async run(ctx: CheckContext) {
      await requireServed(ctx, 'chain_sendRawTransaction');
      const alice = await ctx.wallet().fund(ctx);
      // A notification's refusal is never seen: first a transfer of the same kind as a call, admitted and applied, shows
      // that this node takes the suite's transfers (its encoding is the network's choice: a codec the node does not
      // read is a setup that could not be done, not a notification skipped).
      const carol = ctx.profile.codec.newKey().address;
      const call = await transfer(ctx, alice, carol, 3n);
      await admitted(ctx, call.wire, 'a valid transfer from a funded key, sent as a call before the notification');
      await balanceReaches(ctx, carol, 3n, { setup: true });
      const bob = ctx.profile.codec.newKey().address;
      // The next nonce is known: the node's report of it is another check's (state/nonce-increments), not this one's premise.
      const { wire } = await transfer(ctx, alice, bob, 5n, { nonce: call.tx.nonce + 1n });
      // Whatever the node answers is another check's (transport/notification-not-answered): this one judges the effect.
      await ctx.post(requestText(ctx.method('chain_sendRawTransaction'), stringifyJson([wire])));
      await balanceReaches(ctx, bob, 5n);
      return 'a transfer sent as a call was applied, then one sent as a notification: its recipient holds 5 base units';
    },
  }),
  defineCheck({
    ...base,
    id: 'state/faucet-credits',
    level: 'SHOULD',
    title: 'a faucet claim raises the balance of a fresh address',
    spec: 'spec: docs/interface.md#chain_faucetclaim (test funds from a faucet)',
    async run(ctx: CheckContext) {
      if (!ctx.profile.faucet) ctx.skip('the profile says the network has no faucet');
      await requireServed(ctx, 'chain_faucetClaim');
      const address = ctx.profile.codec.newKey().address;
      const answer = await ctx.call('chain_faucetClaim', [address]);
      // Who may claim, how much and how often is the node's (the spec does not show claim rules): a node that refuses
      // a fresh address's claim (a faucet on another node of the network, say) shows no credit to judge.
      if (!answer.ok) ctx.skip(`this node refused a fresh address's claim with ${answer.error.code} (${answer.error.message}): its claim rules are its own (the spec does not show them), so there is no credit to judge`);
      const amount = ctx.field(answer.result, 'amount');
      await ctx.waitFor('the faucet credit', async () => ((await pollAccount(ctx, address))?.balance ?? 0n) > 0n ? true : undefined, ctx.inclusionTimeoutMs(), { inBlocks: true });
      if (typeof amount === 'string' && /^[0-9]+$/.test(amount)) {
        const { balance } = await readAccount(ctx, address);
        ctx.expect(balance === BigInt(amount), 'the balance after the claim is not the amount the faucet announced', amount, balance.toString());
      }
    },
  }),
  defineCheck({
    ...base,
    id: 'state/faucet-limit',
    level: 'PROFILE',
    title: "claims past the faucet's per-address limit are refused with FaucetLimit",
    spec: 'profile: docs/reference-profile.md#faucet',
    async run(ctx: CheckContext) {
      if (!ctx.profile.faucet) ctx.skip('the profile says the network has no faucet');
      const limit = ctx.profile.faucetLimit;
      if (limit === undefined) ctx.skip('the profile gives no faucetLimit');
      const code = errorCode(ctx.profile, 'FaucetLimit');
      const address = ctx.profile.codec.newKey().address;
      for (let i = 0; i < limit; i++) await ctx.result('chain_faucetClaim', [address]);
      const again = await ctx.call('chain_faucetClaim', [address]);
      if (again.ok) ctx.fail(`claim ${limit + 1} for one address was accepted`, `error ${code ?? '(any code)'} (FaucetLimit)`, show(again.result));
      if (code !== null && code !== undefined) ctx.expect(again.error.code === code, 'the refusal has the wrong code', `${code} (FaucetLimit)`, again.error);
      return `claim ${limit + 1} refused with ${again.error.code}`;
    },
  }),
  defineCheck({
    ...base,
    id: 'state/transfer-moves-value-and-fee',
    level: 'SHOULD',
    title: "a transfer with the profile's fee (10^15, the spec's example) moves exactly value to the recipient and value + fee out of the sender",
    spec: `${SPEC_TX}; docs/interface.md#units-fee (a fee of 10^15 base units is 0.001 of a token unit)`,
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const bob = ctx.profile.codec.newKey().address;
      const before = await readAccount(ctx, alice.address);
      const value = 123_456_789n;
      const fee = ctx.profile.fee;
      const { wire } = await transfer(ctx, alice, bob, value);
      // Admission is the setup (the encoding is the network's choice, the fee the profile's): the rule judged is what moves.
      await admitted(ctx, wire, 'a valid transfer from a funded key');
      await balanceReaches(ctx, bob, value);
      const after = await readAccount(ctx, alice.address);
      ctx.expect(after.balance === before.balance - value - fee, "the sender's balance did not drop by value + fee", (before.balance - value - fee).toString(), after.balance.toString());
      return `value ${value} and fee ${fee} moved exactly`;
    },
  }),
  defineCheck({
    ...base,
    id: 'state/nonce-increments',
    level: 'MUST',
    title: "each confirmed transaction raises the sender's nonce by one (two in turn)",
    spec: 'spec: docs/interface.md#resource-account (nonce: the sequence number the account\'s next transaction is to use); docs/interface.md#resource-transaction (nonce: equal to the sending account\'s current nonce)',
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const bob = ctx.profile.codec.newKey().address;
      const before = await readAccount(ctx, alice.address);
      const first = await transfer(ctx, alice, bob, 1000n);
      // Getting a transaction confirmed is the setup; the rule judged is what the nonce does then.
      await admitted(ctx, first.wire, 'a valid transfer from a funded key');
      await balanceReaches(ctx, bob, 1000n, { setup: true });
      const middle = await readAccount(ctx, alice.address);
      ctx.expect(middle.nonce === before.nonce + 1n, 'the nonce did not increase by one', (before.nonce + 1n).toString(), middle.nonce.toString());
      // A second one, signed with the nonce that must come next whatever the node says (an outside tester's node
      // reported nonce - 1 from nonce 2 on: one transaction from a fresh key never showed it).
      const second = await transfer(ctx, alice, bob, 1000n, { nonce: first.tx.nonce + 1n });
      await admitted(ctx, second.wire, 'a second valid transfer from the same key, with the next nonce');
      await balanceReaches(ctx, bob, 2000n, { setup: true });
      const after = await readAccount(ctx, alice.address);
      ctx.expect(after.nonce === before.nonce + 2n, 'the nonce did not increase by one at the second transaction', (before.nonce + 2n).toString(), after.nonce.toString());
      return `nonce ${before.nonce} -> ${middle.nonce} -> ${after.nonce}`;
    },
  }),
  defineCheck({
    ...base,
    id: 'state/transaction-in-block',
    level: 'PROFILE',
    title: 'chain_sendRawTransaction returns the transaction hash, and the transaction shows up in a block',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown',
    async run(ctx: CheckContext) {
      if (ctx.profile.fields.transactions === null) ctx.skip('the profile says blocks carry no transactions list');
      const alice = await ctx.wallet().fund(ctx);
      const { wire, hash } = await transfer(ctx, alice, ctx.profile.codec.newKey().address, 1n);
      const start = await readHeight(ctx);
      const result = await ctx.result('chain_sendRawTransaction', [wire]);
      expectSchemaOfSend(ctx, result);
      const sent = sentHash(ctx, result);
      if (hash !== undefined) ctx.expect(sameHex(sent, hash), 'the result is not the transaction hash', hash, result);
      let scanned = start > 0n ? start - 1n : 0n;
      const found = await ctx.waitFor('the transaction in a block', async () => {
        const tip = await readHeight(ctx);
        for (let h = scanned + 1n; h <= tip; h++) {
          const txs = ctx.field(await readBlock(ctx, h, 'although chain_blockNumber reported a height at or above it'), 'transactions');
          if (Array.isArray(txs) && txs.some((t) => listsHash(t, sent))) return h;
          scanned = h;
        }
        return undefined;
      }, ctx.inclusionTimeoutMs(), { inBlocks: true });
      return `in block ${found}`;
    },
  }),
  defineCheck({
    ...base,
    id: 'state/transfer-counted',
    level: 'SHOULD',
    title: 'a transfer applied is counted: among the blocks made from its sending on, one has a transaction_count above zero',
    spec: 'spec: docs/interface.md#resource-block (transaction_count: "Number of transactions in the block")',
    async run(ctx: CheckContext) {
      // What any sound node shows without a transactions list (the profile's matter): a transfer applied is in some
      // block above the height it was sent at, so the blocks from there on cannot all count none. A node that counts
      // others' transactions and not this one passes here: transaction-count-matches (PROFILE) reads the list.
      await requireServed(ctx, 'chain_getBlockByHeight');
      const alice = await ctx.wallet().fund(ctx);
      const bob = ctx.profile.codec.newKey().address;
      const sentAt = await readHeight(ctx);
      const t = await transfer(ctx, alice, bob, 7n);
      await admitted(ctx, t.wire, 'a valid transfer from a funded key');
      await balanceReaches(ctx, bob, 7n, { setup: true });
      let next = sentAt + 1n;
      const zero: bigint[] = [];
      // A node may show the effect before the block that holds it: the blocks are read until one counts, or time is up.
      const counted = await ctx.waitFor(
        `a block from height ${sentAt + 1n} on counting a transaction (the transfer sent at height ${sentAt}, applied)`,
        async () => {
          const tip = await readHeight(ctx);
          for (; next <= tip; next++) {
            const count = asU64(ctx.field(await readBlock(ctx, next, 'although chain_blockNumber reported a height at or above it'), 'transaction_count'));
            if (count !== undefined && count > 0n) return { height: next, count };
            zero.push(next);
          }
          return undefined;
        },
        ctx.inclusionTimeoutMs(),
        { inBlocks: true },
      );
      return `block ${counted.height} counts ${counted.count} transaction${counted.count === 1n ? '' : 's'} (the transfer was sent at height ${sentAt}${zero.length === 0 ? '' : `; ${zero.length} block${zero.length === 1 ? '' : 's'} before it counted none`})`;
    },
  }),
  defineCheck({
    ...base,
    id: 'state/sequential-nonces-queued',
    level: 'PROFILE',
    title: 'several transactions with consecutive nonces sent before a block are handled as the profile says: all accepted and included (reference), or one at a time',
    spec: 'profile: docs/reference-profile.md#transactions ("sequential nonces beyond the confirmed one are queued in order"); docs/profiles.md (sequentialNonces)',
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const bob = ctx.profile.codec.newKey().address;
      const { nonce } = await readAccount(ctx, alice.address);
      const chainId = await ctx.chainId();
      // Five in one batch, or as many as the profile's batch limit lets through (the limit is the node's choice).
      const n = Math.min(5, ctx.profile.maxBatch ?? 5);
      if (n < 2) ctx.skip(`the profile's maxBatch (${n}) leaves no room for two transactions in one batch`);
      const wires = Array.from({ length: n }, (_, i) => ctx.profile.codec.sign(alice.privateKey, { chainId, to: bob, value: 1n, nonce: nonce + BigInt(i), fee: ctx.profile.fee }).wire);
      const res = await ctx.post(wires.map((w, i) => ({ jsonrpc: '2.0', method: ctx.method('chain_sendRawTransaction'), params: [w], id: i + 1 })));
      let answers: JsonValue[];
      let sent = 'the batch';
      if (Array.isArray(res.json)) answers = res.json;
      else if (!refusedAsWhole(res)) ctx.fail(`the batch of ${n} transactions with consecutive nonces was answered with ${res.json === undefined ? `HTTP ${res.status} and no JSON` : 'one response object'}, not an array of ${n} (JSON-RPC 2.0 §6)`, `${n} results`, res.text.slice(0, 300));
      else {
        // Refused as a whole: the node's batch limit (not in the profile), or this batch's content. The same number
        // of plain calls tells which (docs/conformance-suite.md, rule 4: batch limits are the node's choice).
        if (await servesBatchOf(ctx, n)) ctx.fail(`the batch of ${n} transactions with consecutive nonces was refused as a whole (HTTP ${res.status}), while a batch of ${n} chain_blockNumber calls was served`, `${n} results`, res.text.slice(0, 300));
        // One at a time cannot be told from transactions that straddle a block when they go one call each.
        if (ctx.profile.sequentialNonces === 'refused') ctx.skip(`a batch of ${n} is over the node's batch limit (refused as a whole, as was a batch of ${n} chain_blockNumber calls; give its maxBatch in the profile), and one call each cannot show "one at a time"`);
        // Over the node's batch limit: the same transactions as calls of their own, back to back, before a block comes.
        answers = [];
        for (const w of wires) {
          const outcome = await ctx.call('chain_sendRawTransaction', [w]);
          answers.push(outcome.ok ? { result: outcome.result } : { error: outcome.error });
        }
        sent = `the ${n} calls (a batch of ${n} is over the node's batch limit)`;
      }
      const refusedOnes = answers.filter((a) => typeof a === 'object' && a !== null && !Array.isArray(a) && 'error' in a);
      if (ctx.profile.sequentialNonces === 'refused') {
        // One at a time: the first is taken, the ones after it wait for their turn.
        ctx.expect(answers.length === n && refusedOnes.length === n - 1, `the node did not take exactly the first of ${n} consecutive nonces`, `1 result and ${n - 1} errors (sequentialNonces: refused)`, answers);
        return 'the first taken, the others refused';
      }
      ctx.expect(answers.length === n && refusedOnes.length === 0, `not every transaction of ${sent} was accepted`, `${n} results`, answers);
      await balanceReaches(ctx, bob, BigInt(n));
      return `all ${n} included${sent === 'the batch' ? '' : `, sent as ${sent}`}`;
    },
  }),
  defineCheck({
    ...base,
    id: 'state/bad-signature-rejected',
    level: 'SHOULD',
    title: 'a transaction with a changed signature byte is rejected: refused as bad input (not as an internal error, -32603), or never applied',
    spec: "spec: docs/interface.md#transaction-submission (signed with the sender's private key); docs/interface.md#errors (the node's reaction to an invalid signature is not shown)",
    async run(ctx: CheckContext) {
      const { alice, tx } = await fundedTransfer(ctx);
      return rejected(ctx, crafted(ctx).badSignature(alice.privateKey, tx), 'a transaction whose signature does not verify', tx.to);
    },
  }),
  defineCheck({
    ...base,
    id: 'state/strict-signature',
    level: 'SHOULD',
    title: 'signatures only a lenient verifier accepts are rejected (refused as bad input, not as an internal error, or never applied): small-order R, non-canonical S, a small-order public key (RFC 8032 strict)',
    spec: 'design: strict verification (RFC 8032 §5.1.7, canonical S, R and A, small-order points refused), docs/transaction-codec.md#strict-signature-verification; "Taming the many EdDSAs"',
    needs: ['funds', 'crafted-transactions'],
    async run(ctx: CheckContext) {
      const c = crafted(ctx);
      const { alice, tx } = await fundedTransfer(ctx);
      const smallR = await rejected(ctx, c.smallOrderR(alice.privateKey, tx), 'a signature whose R is a small-order point', tx.to);
      const other = { ...tx, to: ctx.profile.codec.newKey().address };
      const highS = await rejected(ctx, c.nonCanonicalS(alice.privateKey, other), 'a signature with S + L (non-canonical S)', other.to);
      const key = c.smallOrderKey;
      const smallA = key === undefined ? 'not probed (the codec crafts no small-order sender key)' : await smallOrderKeyRejected(ctx, key);
      return `small-order R: ${smallR}; S + L: ${highS}; small-order public key: ${smallA}`;
    },
  }),
  defineCheck({
    ...base,
    id: 'state/nonce-reuse-rejected',
    level: 'SHOULD',
    title: 'a transaction reusing a confirmed nonce is rejected: refused as bad input (not as an internal error, -32603), or never applied',
    spec: `${SPEC_TX} (nonce: equal to the sending account's current nonce); docs/interface.md#errors (the node's reaction to a wrong nonce is not shown)`,
    async run(ctx: CheckContext) {
      const { alice, first } = await appliedTransfer(ctx);
      // The second spends the same nonce on another recipient: a node that applies it pays carol.
      const carol = ctx.profile.codec.newKey().address;
      const again = ctx.profile.codec.sign(alice.privateKey, { ...first.tx, to: carol, value: 8n });
      return rejected(ctx, again.wire, `a second transaction with the used nonce ${first.tx.nonce}`, carol);
    },
  }),
  defineCheck({
    ...base,
    id: 'state/replay-rejected',
    level: 'SHOULD',
    title: 'the same signed transaction sent again after it was applied is rejected: refused as bad input (not -32603), or answered and never applied again',
    spec: `${SPEC_TX} (nonce: equal to the sending account's current nonce, which the first use moved on); docs/interface.md#errors (the node's reaction is not shown)`,
    async run(ctx: CheckContext) {
      // An outside tester's node answered a replay with success and credited its recipient again: nonce-reuse-rejected
      // sends another transaction with the used nonce, never the very same bytes, which a node may tell apart.
      const { bob, first } = await appliedTransfer(ctx);
      return rejected(ctx, first.wire, 'the same signed transaction sent again after it was applied', bob, 7n);
    },
  }),
  defineCheck({
    ...base,
    id: 'state/nonce-gap',
    level: 'PROFILE',
    title: 'a transaction whose nonce skips ahead is handled as the profile says: refused with its NonceGap code (reference), or held and applied once the gap fills',
    spec: 'profile: docs/reference-profile.md#transactions; docs/profiles.md (nonceGap)',
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const { nonce } = await readAccount(ctx, alice.address);
      const GAP = 5n;
      const heldFor = ctx.profile.codec.newKey().address;
      const gapped = await transfer(ctx, alice, heldFor, 1n, { nonce: nonce + GAP });
      const what = `nonce ${nonce + GAP} while the account's is ${nonce}`;
      if (ctx.profile.nonceGap === 'held') {
        const r = await send(ctx, gapped.wire);
        if (!r.ok) ctx.fail(`chain_sendRawTransaction refused ${what} with ${r.error.code} (${r.error.message}), though the profile says gapped transactions are held`, 'a result (nonceGap: held)', show(r.error));
        // Held means kept: fill the gap, and the held transaction must follow the ones that filled it.
        const filler = ctx.profile.codec.newKey().address;
        for (let n = nonce; n < nonce + GAP; n++) {
          const fill = await send(ctx, (await transfer(ctx, alice, filler, 1n, { nonce: n })).wire);
          if (!fill.ok) throw new CheckError(`setup: filling the gap, the transfer at nonce ${n} was refused with ${fill.error.code} (${fill.error.message})`);
        }
        await balanceReaches(ctx, filler, GAP, { setup: true });
        await ctx.waitFor(
          `the held transaction (${what}) applied once the gap filled (its recipient holding 1)`,
          async () => ((await pollAccount(ctx, heldFor))?.balance === 1n ? true : undefined),
          ctx.inclusionTimeoutMs(),
          { inBlocks: true },
        );
        return `held, and applied once nonces ${nonce} to ${nonce + GAP - 1n} filled the gap`;
      }
      const code = errorCode(ctx.profile, 'NonceGap');
      const error = await refused(ctx, gapped.wire, what);
      if (code !== null && code !== undefined) ctx.expect(error.code === code, 'wrong code for a nonce gap', `${code} (NonceGap)`, error);
      return `refused with ${error.code}`;
    },
  }),
  defineCheck({
    ...base,
    id: 'state/overspend-rejected',
    level: 'SHOULD',
    title: 'value + fee above the balance is rejected: refused as bad input (not as an internal error, -32603), or never applied',
    spec: "spec: docs/interface.md#client-balance-check (a client makes sure the balance covers value plus fee); docs/interface.md#errors (the node's reaction to an insufficient balance is not shown)",
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const { balance } = await readAccount(ctx, alice.address);
      // A balance past 2^128 - 1 (chain_getAccount/balance-is-u128-string judges it) leaves no u128 value to send.
      if (balance >= 1n << 128n) throw new CheckError(`setup: the balance read, ${balance}, is past 2^128 - 1: no transfer of it can be written (chain_getAccount/balance-is-u128-string judges the balance)`);
      const to = ctx.profile.codec.newKey().address;
      const tx = await transfer(ctx, alice, to, balance);
      return rejected(ctx, tx.wire, `value ${balance} + fee ${ctx.profile.fee} from a balance of ${balance}`, to);
    },
  }),
  defineCheck({
    ...base,
    id: 'state/overflow-rejected',
    level: 'SHOULD',
    title: 'a transaction whose value + fee overflows 128 bits is rejected: refused as bad input (not as an internal error, -32603), or never applied',
    spec: `${SPEC_TX} (value, fee: unsigned 128-bit integers)`,
    needs: ['funds', 'crafted-transactions'],
    async run(ctx: CheckContext) {
      const { alice, tx } = await fundedTransfer(ctx);
      return rejected(ctx, crafted(ctx).overflow(alice.privateKey, tx), `value 2^128-1 with fee ${tx.fee > 0n ? tx.fee : 1n}`, tx.to);
    },
  }),
  defineCheck({
    ...base,
    id: 'state/malformed-refused',
    level: 'SHOULD',
    title: 'malformed transaction bytes are refused as bad input, not as an internal error',
    spec: `JSON-RPC 2.0 §5.1 (-32603 is for internal errors); ${SPEC_TX}`,
    async run(ctx: CheckContext) {
      const { alice, tx } = await fundedTransfer(ctx);
      const error = await refused(ctx, crafted(ctx).wrongLength(alice.privateKey, tx), 'a transaction one byte short');
      ctx.expect(error.code !== INTERNAL_ERROR, 'a malformed transaction was answered as an internal error (-32603)', 'a client error code', error);
    },
  }),
  defineCheck({
    ...base,
    id: 'state/wrong-chain-rejected',
    level: 'SHOULD',
    title: 'a transaction signed for another chain id is rejected: refused as bad input (not as an internal error, -32603), or never applied',
    spec: 'design: a signature for one network cannot be replayed on another (the chain id is signed: docs/transaction-codec.md#byte-layout-version-1)',
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const to = ctx.profile.codec.newKey().address;
      const tx = await transfer(ctx, alice, to, 1n, { chainId: (await ctx.chainId()) + 1n });
      return rejected(ctx, tx.wire, 'a transaction for another chain id', to);
    },
  }),
  defineCheck({
    ...base,
    id: 'state/refusal-codes',
    level: 'PROFILE',
    title: "each invalid transaction is refused at once with the profile's own code and data (reference: data.reason), or admitted where the profile says the node drops it later",
    spec: 'profile: docs/error-codes.md',
    needs: ['funds', 'crafted-transactions'],
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const bob = ctx.profile.codec.newKey().address;
      const c = crafted(ctx);
      const { nonce, balance } = await readAccount(ctx, alice.address);
      const tx: Transfer = { chainId: await ctx.chainId(), to: bob, value: 1n, nonce, fee: ctx.profile.fee };
      const cases: [string, string, string][] = [
        ['TxBadSignature', c.badSignature(alice.privateKey, tx), 'a bad signature'],
        ['TxMalformed', c.wrongLength(alice.privateKey, tx), 'bytes one short'],
        ['TxWrongChain', ctx.profile.codec.sign(alice.privateKey, { ...tx, chainId: tx.chainId + 1n }).wire, 'another chain id'],
        ['InsufficientBalance', ctx.profile.codec.sign(alice.privateKey, { ...tx, value: balance }).wire, 'value + fee above the balance'],
        ['AmountOverflow', c.overflow(alice.privateKey, tx), 'value + fee over 2^128-1'],
      ];
      if (ctx.profile.nonceGap === 'refused') cases.push(['NonceGap', ctx.profile.codec.sign(alice.privateKey, { ...tx, nonce: nonce + 3n }).wire, 'a nonce gap']);
      const judged: string[] = [];
      /** The refusal's code is the profile's (where it names one: null means not compared), and its data is as the profile says. */
      const expectCode = (name: string, error: { code: number; message: string; data?: JsonValue }, what: string): void => {
        const code = errorCode(ctx.profile, name);
        if (code !== null && code !== undefined) ctx.expect(error.code === code, `${what}: wrong code`, `${code} (${name})`, error);
        expectErrorData(ctx, error, what);
        judged.push(`${name} ${error.code}`);
      };
      for (const [name, wire, what] of cases) {
        if (ctx.profile.droppedLater.includes(name)) {
          // The profile says the node admits it and never applies it (the SHOULD checks judge the "never").
          const r = await send(ctx, wire);
          if (!r.ok) ctx.fail(`${what} was refused with ${r.error.code}, though the profile says the node admits it and drops it later`, `a result (droppedLater: ${name})`, show(r.error));
          judged.push(`${name} admitted`);
        } else {
          expectCode(name, await refused(ctx, wire, what), what);
        }
      }
      const good = ctx.profile.codec.sign(alice.privateKey, tx).wire;
      await admitted(ctx, good, 'a valid transfer from a funded key');
      // A node may answer a duplicate with the hash again (null code in the profile): then there is no refusal to judge.
      if (errorCode(ctx.profile, 'TxDuplicate') !== null) expectCode('TxDuplicate', await refused(ctx, good, 'the same transaction twice'), 'a duplicate');
      if (errorCode(ctx.profile, 'NonceTooLow') !== null && !ctx.profile.droppedLater.includes('NonceTooLow')) {
        expectCode('NonceTooLow', await refused(ctx, ctx.profile.codec.sign(alice.privateKey, { ...tx, value: 2n }).wire, 'a second transaction with a queued nonce'), 'a reused nonce');
      }
      return judged.join(', ');
    },
  }),
];

/** A chain_sendRawTransaction result must be as the profile says before its hash is read. */
function expectSchemaOfSend(ctx: CheckContext, result: JsonValue): void {
  const problems = ctx.problems('chain_sendRawTransaction', result, 'profile');
  if (problems.length > 0) ctx.fail(`chain_sendRawTransaction result is not as profile ${ctx.profile.name} says: ${problems.map((p) => `${p.pointer || '(result)'} ${p.message}`).join('; ')}`, 'the transaction hash, as the profile writes it', show(result));
}
