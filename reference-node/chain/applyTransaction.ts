import { U128_MAX, U64_MAX } from '../../core/codec/index.js';
import type { SignedTransaction } from '../../core/codec/index.js';
import type { StateDraft } from './WorldState.js';

export type ApplyResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Execute one transaction of a block against a draft (docs/chain.md, "Applying a transaction"):
 * nonce must equal the sender's; debit value + fee and bump the nonce; credit `to` with value and
 * the proposer with fee; a transfer from the faucet address counts one claim for the recipient.
 * All or nothing: on failure the draft is left exactly as it was. Does not check the signature or
 * chain id (admission and block import do). `fee` is what the chain's rules charge (ChainRules.fee: the
 * transaction's fee field).
 */
export function applyTransaction(draft: StateDraft, tx: SignedTransaction, proposer: string, faucetAddress: string, fee: bigint = tx.fee): ApplyResult {
  const sender = draft.getAccount(tx.sender);
  if (tx.nonce !== sender.nonce) return { ok: false, reason: `nonce ${tx.nonce} is not the sender's nonce ${sender.nonce}` };
  if (sender.nonce === U64_MAX) return { ok: false, reason: 'sender nonce is at the u64 maximum' };
  const cost = tx.value + fee;
  if (cost > U128_MAX) return { ok: false, reason: 'value + fee exceeds the u128 maximum' };
  if (sender.balance < cost) return { ok: false, reason: `balance ${sender.balance} is below value + fee ${cost}` };

  // Balances after each step, computed before anything is written so that a failure leaves no trace.
  // Sender, recipient and proposer may be the same account; reading through `balances` handles it.
  const balances = new Map<string, bigint>();
  const balanceOf = (address: string): bigint => balances.get(address) ?? draft.getAccount(address).balance;
  balances.set(tx.sender, sender.balance - cost);
  const toBalance = balanceOf(tx.to) + tx.value;
  if (toBalance > U128_MAX) return { ok: false, reason: 'the recipient balance would exceed the u128 maximum' };
  balances.set(tx.to, toBalance);
  if (fee > 0n) {
    const proposerBalance = balanceOf(proposer) + fee;
    if (proposerBalance > U128_MAX) return { ok: false, reason: 'the proposer balance would exceed the u128 maximum' };
    balances.set(proposer, proposerBalance);
  }
  let claims: bigint | undefined;
  if (tx.sender === faucetAddress) {
    claims = draft.faucetCount(tx.to) + 1n;
    if (claims > U64_MAX) return { ok: false, reason: 'the recipient faucet claim count would exceed the u64 maximum' };
  }

  for (const [address, balance] of balances) {
    const nonce = address === tx.sender ? sender.nonce + 1n : draft.getAccount(address).nonce;
    draft.setAccount(address, { balance, nonce });
  }
  if (claims !== undefined) draft.setFaucetCount(tx.to, claims);
  return { ok: true };
}
