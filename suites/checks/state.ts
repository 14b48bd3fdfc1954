import { defineCheck } from '../Check.js';
import type { Check } from '../Check.js';
import type { CheckContext } from '../CheckContext.js';
import type { JsonValue } from '../../core/json/index.js';
import type { Transfer } from '../profile/TxCodec.js';
import { FEE, readAccount } from '../Wallet.js';
import type { Account } from '../Wallet.js';
import { show } from './support.js';

/**
 * State flows with fresh ed25519 keys: the faucet, a transfer with the spec's fee, and the
 * transactions a node must refuse. Every refusal is tried from a funded account, so that the only
 * thing wrong with the transaction is the defect under test.
 */

async function transfer(ctx: CheckContext, from: Account, to: string, value: bigint, overrides: Partial<Transfer> = {}): Promise<{ tx: Transfer; wire: string; hash?: string }> {
  const { nonce } = await readAccount(ctx, from.address);
  const tx: Transfer = { chainId: await ctx.chainId(), to, value, nonce, fee: FEE, ...overrides };
  return { tx, ...ctx.profile.codec.sign(from.privateKey, tx) };
}

const send = (ctx: CheckContext, wire: string) => ctx.call('chain_sendRawTransaction', [wire]);

/** A funded fresh key and a valid 1-unit transfer from it to a fresh address, not yet signed. */
async function fundedTransfer(ctx: CheckContext): Promise<{ alice: Account; tx: Transfer }> {
  const alice = await ctx.wallet().fund(ctx);
  const { nonce } = await readAccount(ctx, alice.address);
  return { alice, tx: { chainId: await ctx.chainId(), to: ctx.profile.codec.newKey().address, value: 1n, nonce, fee: FEE } };
}

/** Waits until the recipient holds exactly `balance`. */
async function balanceReaches(ctx: CheckContext, address: string, balance: bigint, node = ctx.node): Promise<void> {
  await ctx.waitFor(`${address.slice(0, 12)}… holding ${balance}`, async () => ((await readAccount(ctx, address, node)).balance === balance ? true : undefined));
}

/** The transaction must be refused with some JSON-RPC error; returns it. */
async function refused(ctx: CheckContext, wire: string, what: string): Promise<{ code: number; message: string; data?: JsonValue }> {
  const r = await send(ctx, wire);
  if (r.ok) ctx.fail(`chain_sendRawTransaction accepted ${what}`, 'a JSON-RPC error', show(r.result));
  return r.error;
}

function crafted(ctx: CheckContext): NonNullable<CheckContext['profile']['codec']['crafted']> {
  const c = ctx.profile.codec.crafted;
  if (!c) ctx.skip(`the profile's codec (${ctx.profile.codec.name}) has no crafted variants`);
  return c;
}

const SPEC_TX = 'spec: Resources > Transaction; Units';
const base = { category: 'state' as const, scope: 'node' as const, needs: ['funds' as const] };

export const stateChecks: Check[] = [
  defineCheck({
    ...base,
    id: 'state/faucet-credits',
    level: 'SHOULD',
    title: 'a faucet claim raises the balance of a fresh address',
    spec: 'spec: Methods table (chain_faucetClaim): "claim test funds"',
    async run(ctx: CheckContext) {
      if (!ctx.profile.faucet) ctx.skip('the profile says the network has no faucet');
      const address = ctx.profile.codec.newKey().address;
      const claim = await ctx.result('chain_faucetClaim', [address]);
      const amount = ctx.field(claim, 'amount');
      await ctx.waitFor('the faucet credit', async () => ((await readAccount(ctx, address)).balance > 0n ? true : undefined));
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
      const address = ctx.profile.codec.newKey().address;
      for (let i = 0; i < ctx.profile.faucetLimit; i++) await ctx.result('chain_faucetClaim', [address]);
      const again = await ctx.call('chain_faucetClaim', [address]);
      if (again.ok) ctx.fail(`claim ${ctx.profile.faucetLimit + 1} for one address was accepted`, `error ${ctx.profile.errorCodes.FaucetLimit} (FaucetLimit)`, show(again.result));
      ctx.expect(again.error.code === ctx.profile.errorCodes.FaucetLimit, 'the refusal has the wrong code', `${ctx.profile.errorCodes.FaucetLimit} (FaucetLimit)`, again.error);
    },
  }),
  defineCheck({
    ...base,
    id: 'state/transfer-moves-value-and-fee',
    level: 'SHOULD',
    title: 'a transfer with fee 10^15 moves exactly value to the recipient and value + fee out of the sender',
    spec: `${SPEC_TX}: "A fee equal to 10^15 base units is 0.001 of a token unit"`,
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const bob = ctx.profile.codec.newKey().address;
      const before = await readAccount(ctx, alice.address);
      const value = 123_456_789n;
      const { wire } = await transfer(ctx, alice, bob, value);
      await ctx.result('chain_sendRawTransaction', [wire]);
      await balanceReaches(ctx, bob, value);
      const after = await readAccount(ctx, alice.address);
      ctx.expect(after.balance === before.balance - value - FEE, "the sender's balance did not drop by value + fee", (before.balance - value - FEE).toString(), after.balance.toString());
      return `value ${value} and fee ${FEE} moved exactly`;
    },
  }),
  defineCheck({
    ...base,
    id: 'state/nonce-increments',
    level: 'MUST',
    title: "a confirmed transaction raises the sender's nonce by one",
    spec: 'spec: Resources > Account ("nonce: sequence number to use for the account\'s next transaction"); Transaction ("must equal the sender account\'s current nonce")',
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const bob = ctx.profile.codec.newKey().address;
      const before = await readAccount(ctx, alice.address);
      const { wire } = await transfer(ctx, alice, bob, 1000n);
      await ctx.result('chain_sendRawTransaction', [wire]);
      await balanceReaches(ctx, bob, 1000n);
      const after = await readAccount(ctx, alice.address);
      ctx.expect(after.nonce === before.nonce + 1n, 'the nonce did not increase by one', (before.nonce + 1n).toString(), after.nonce.toString());
    },
  }),
  defineCheck({
    ...base,
    id: 'state/transaction-in-block',
    level: 'PROFILE',
    title: 'chain_sendRawTransaction returns the transaction hash, and the transaction shows up in a block',
    spec: 'profile: docs/reference-profile.md#results-the-spec-leaves-unshown',
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const { wire, hash } = await transfer(ctx, alice, ctx.profile.codec.newKey().address, 1n);
      const start = await ctx.result('chain_blockNumber');
      const result = await ctx.result('chain_sendRawTransaction', [wire]);
      if (hash !== undefined) ctx.expect(result === hash, 'the result is not the transaction hash', hash, result);
      let scanned = typeof start === 'number' ? start - 1 : 0;
      await ctx.waitFor('the transaction in a block', async () => {
        const tip = await ctx.result('chain_blockNumber');
        if (typeof tip !== 'number') return undefined;
        for (let h = scanned + 1; h <= tip; h++) {
          const block = await ctx.result('chain_getBlockByHeight', [h]);
          const txs = ctx.field(block, 'transactions');
          if (Array.isArray(txs) && txs.includes(result)) return true;
          scanned = h;
        }
        return undefined;
      });
    },
  }),
  defineCheck({
    ...base,
    id: 'state/sequential-nonces-queued',
    level: 'PROFILE',
    title: 'several transactions with consecutive nonces sent before a block are all accepted and included',
    spec: 'profile: docs/reference-profile.md#transactions ("sequential nonces beyond the confirmed one are queued in order")',
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const bob = ctx.profile.codec.newKey().address;
      const { nonce } = await readAccount(ctx, alice.address);
      const chainId = await ctx.chainId();
      const wires = Array.from({ length: 5 }, (_, i) => ctx.profile.codec.sign(alice.privateKey, { chainId, to: bob, value: 1n, nonce: nonce + BigInt(i), fee: FEE }).wire);
      const res = await ctx.post(wires.map((w, i) => ({ jsonrpc: '2.0', method: ctx.method('chain_sendRawTransaction'), params: [w], id: i + 1 })));
      const answers = Array.isArray(res.json) ? res.json : [];
      const refusedOnes = answers.filter((a) => typeof a === 'object' && a !== null && !Array.isArray(a) && 'error' in a);
      ctx.expect(answers.length === 5 && refusedOnes.length === 0, 'not every transaction of the batch was accepted', '5 results', answers);
      await balanceReaches(ctx, bob, 5n);
    },
  }),
  defineCheck({
    ...base,
    id: 'state/bad-signature-refused',
    level: 'SHOULD',
    title: 'a transaction with a changed signature byte is refused',
    spec: `${SPEC_TX}: "signed with the sender's private key"`,
    async run(ctx: CheckContext) {
      const { alice, tx } = await fundedTransfer(ctx);
      await refused(ctx, crafted(ctx).badSignature(alice.privateKey, tx), 'a transaction whose signature does not verify');
    },
  }),
  defineCheck({
    ...base,
    id: 'state/strict-signature',
    level: 'SHOULD',
    title: 'signatures only a lenient verifier accepts are refused: small-order R, non-canonical S (RFC 8032 strict)',
    spec: 'design: strict verification (RFC 8032 §5.1.7, canonical S, R and A, small-order points refused); "Taming the many EdDSAs"',
    needs: ['funds', 'crafted-transactions'],
    async run(ctx: CheckContext) {
      const c = crafted(ctx);
      const { alice, tx } = await fundedTransfer(ctx);
      await refused(ctx, c.smallOrderR(alice.privateKey, tx), 'a signature whose R is a small-order point');
      await refused(ctx, c.nonCanonicalS(alice.privateKey, tx), 'a signature with S + L (non-canonical S)');
    },
  }),
  defineCheck({
    ...base,
    id: 'state/nonce-reuse-refused',
    level: 'SHOULD',
    title: 'a transaction reusing a confirmed nonce is refused',
    spec: `${SPEC_TX}: "nonce: must equal the sender account's current nonce"`,
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const bob = ctx.profile.codec.newKey().address;
      const first = await transfer(ctx, alice, bob, 7n);
      await ctx.result('chain_sendRawTransaction', [first.wire]);
      await balanceReaches(ctx, bob, 7n);
      const again = ctx.profile.codec.sign(alice.privateKey, { ...first.tx, value: 8n });
      await refused(ctx, again.wire, `a second transaction with the used nonce ${first.tx.nonce}`);
    },
  }),
  defineCheck({
    ...base,
    id: 'state/nonce-gap-refused',
    level: 'PROFILE',
    title: 'a transaction whose nonce skips ahead is refused with NonceGap',
    spec: 'profile: docs/reference-profile.md#transactions',
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const { nonce } = await readAccount(ctx, alice.address);
      const gapped = await transfer(ctx, alice, ctx.profile.codec.newKey().address, 1n, { nonce: nonce + 5n });
      const error = await refused(ctx, gapped.wire, `nonce ${nonce + 5n} while the account's is ${nonce}`);
      ctx.expect(error.code === ctx.profile.errorCodes.NonceGap, 'wrong code for a nonce gap', `${ctx.profile.errorCodes.NonceGap} (NonceGap)`, error);
    },
  }),
  defineCheck({
    ...base,
    id: 'state/overspend-refused',
    level: 'SHOULD',
    title: 'value + fee above the balance is refused',
    spec: `${SPEC_TX}: "check that the sender's balance is at least value plus fee"; Errors`,
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const { balance } = await readAccount(ctx, alice.address);
      const tx = await transfer(ctx, alice, ctx.profile.codec.newKey().address, balance);
      await refused(ctx, tx.wire, `value ${balance} + fee ${FEE} from a balance of ${balance}`);
    },
  }),
  defineCheck({
    ...base,
    id: 'state/overflow-refused',
    level: 'SHOULD',
    title: 'a transaction whose value + fee overflows 128 bits is refused',
    spec: `${SPEC_TX}: "value, fee: unsigned 128-bit integer"`,
    needs: ['funds', 'crafted-transactions'],
    async run(ctx: CheckContext) {
      const { alice, tx } = await fundedTransfer(ctx);
      await refused(ctx, crafted(ctx).overflow(alice.privateKey, tx), 'value 2^128-1 with fee 1');
    },
  }),
  defineCheck({
    ...base,
    id: 'state/malformed-refused',
    level: 'SHOULD',
    title: 'malformed transaction bytes are refused as bad input, not as an internal error',
    spec: 'JSON-RPC 2.0 §5.1 (-32603 is for internal errors); spec: Transaction',
    async run(ctx: CheckContext) {
      const { alice, tx } = await fundedTransfer(ctx);
      const error = await refused(ctx, crafted(ctx).wrongLength(alice.privateKey, tx), 'a transaction one byte short');
      ctx.expect(error.code !== -32603, 'a malformed transaction was answered as an internal error (-32603)', 'a client error code', error);
    },
  }),
  defineCheck({
    ...base,
    id: 'state/wrong-chain-refused',
    level: 'SHOULD',
    title: 'a transaction signed for another chain id is refused',
    spec: 'design: a signature for one network cannot be replayed on another',
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const tx = await transfer(ctx, alice, ctx.profile.codec.newKey().address, 1n, { chainId: (await ctx.chainId()) + 1n });
      await refused(ctx, tx.wire, 'a transaction for another chain id');
    },
  }),
  defineCheck({
    ...base,
    id: 'state/refusal-codes',
    level: 'PROFILE',
    title: "each refusal carries the profile's own code and a data.reason",
    spec: 'profile: docs/error-codes.md',
    needs: ['funds', 'crafted-transactions'],
    async run(ctx: CheckContext) {
      const alice = await ctx.wallet().fund(ctx);
      const bob = ctx.profile.codec.newKey().address;
      const c = crafted(ctx);
      const { nonce, balance } = await readAccount(ctx, alice.address);
      const tx: Transfer = { chainId: await ctx.chainId(), to: bob, value: 1n, nonce, fee: FEE };
      const cases: [string, string, string][] = [
        ['TxBadSignature', c.badSignature(alice.privateKey, tx), 'a bad signature'],
        ['TxMalformed', c.wrongLength(alice.privateKey, tx), 'bytes one short'],
        ['TxWrongChain', ctx.profile.codec.sign(alice.privateKey, { ...tx, chainId: tx.chainId + 1n }).wire, 'another chain id'],
        ['NonceGap', ctx.profile.codec.sign(alice.privateKey, { ...tx, nonce: nonce + 3n }).wire, 'a nonce gap'],
        ['InsufficientBalance', ctx.profile.codec.sign(alice.privateKey, { ...tx, value: balance }).wire, 'value + fee above the balance'],
        ['AmountOverflow', c.overflow(alice.privateKey, tx), 'value + fee over 2^128-1'],
      ];
      for (const [name, wire, what] of cases) {
        const error = await refused(ctx, wire, what);
        ctx.expect(error.code === ctx.profile.errorCodes[name], `${what}: wrong code`, `${ctx.profile.errorCodes[name]} (${name})`, error);
        const reason = typeof error.data === 'object' && error.data !== null && !Array.isArray(error.data) ? error.data.reason : undefined;
        ctx.expect(typeof reason === 'string' && reason.length > 0, `${what}: no data.reason`, 'data.reason, a sentence', error);
      }
      const good = ctx.profile.codec.sign(alice.privateKey, tx).wire;
      await ctx.result('chain_sendRawTransaction', [good]);
      const dup = await refused(ctx, good, 'the same transaction twice');
      ctx.expect(dup.code === ctx.profile.errorCodes.TxDuplicate, 'a duplicate: wrong code', `${ctx.profile.errorCodes.TxDuplicate} (TxDuplicate)`, dup);
      const reuse = await refused(ctx, ctx.profile.codec.sign(alice.privateKey, { ...tx, value: 2n }).wire, 'a second transaction with a queued nonce');
      ctx.expect(reuse.code === ctx.profile.errorCodes.NonceTooLow, 'a reused nonce: wrong code', `${ctx.profile.errorCodes.NonceTooLow} (NonceTooLow)`, reuse);
    },
  }),
];
