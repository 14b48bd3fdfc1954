import { describe, expect, it } from 'vitest';
import { U128_MAX } from '../../core/codec/index.js';
import { applyTransaction } from './applyTransaction.js';
import { alice, bob, FEE, nodeA, transfer } from '../../test/support/chain.js';
import { WorldState } from './WorldState.js';

const faucet = '00'.repeat(32);

function state(entries: [string, bigint, bigint][]): WorldState {
  const s = new WorldState();
  for (const [address, balance, nonce] of entries) s.setAccount(address, { balance, nonce });
  return s;
}

describe('applyTransaction', () => {
  it('debits value + fee, bumps the nonce, credits value and the proposer fee', () => {
    const draft = state([[alice.address, 1000n + FEE, 0n]]).draft();
    expect(applyTransaction(draft, transfer(alice, bob.address, 1000n, 0n), nodeA.id, faucet)).toEqual({ ok: true });
    expect(draft.getAccount(alice.address)).toEqual({ balance: 0n, nonce: 1n });
    expect(draft.getAccount(bob.address)).toEqual({ balance: 1000n, nonce: 0n });
    expect(draft.getAccount(nodeA.id)).toEqual({ balance: FEE, nonce: 0n });
  });

  it('sender = recipient = proposer nets correctly', () => {
    const proposer = alice.address;
    const draft = state([[alice.address, 1000n + FEE, 4n]]).draft();
    expect(applyTransaction(draft, transfer(alice, alice.address, 1000n, 4n), proposer, faucet).ok).toBe(true);
    expect(draft.getAccount(alice.address)).toEqual({ balance: 1000n + FEE, nonce: 5n });
  });

  it('refuses a wrong nonce, too little balance, a credit overflow; leaves the draft untouched', () => {
    const base = state([
      [alice.address, 1000n, 1n],
      [bob.address, U128_MAX - 5n, 0n],
    ]);
    const draft = base.draft();
    const root = draft.root;
    expect(applyTransaction(draft, transfer(alice, nodeA.id, 1n, 0n, 0n), nodeA.id, faucet)).toMatchObject({ ok: false, reason: expect.stringMatching(/nonce/) as unknown });
    expect(applyTransaction(draft, transfer(alice, nodeA.id, 1000n, 1n, 1n), nodeA.id, faucet)).toMatchObject({ ok: false, reason: expect.stringMatching(/balance/) as unknown });
    expect(applyTransaction(draft, transfer(alice, bob.address, 6n, 1n, 0n), nodeA.id, faucet)).toMatchObject({ ok: false, reason: expect.stringMatching(/recipient .*u128/) as unknown });
    expect(applyTransaction(draft, transfer(alice, nodeA.id, 1n, 1n, 10n), bob.address, faucet)).toMatchObject({ ok: false, reason: expect.stringMatching(/proposer .*u128/) as unknown });
    expect(draft.root).toBe(root);
    expect(draft.changes().accounts.size).toBe(0);
  });

  it('a transfer from the faucet address counts a claim for the recipient', () => {
    const draft = state([[alice.address, 10n, 0n]]).draft();
    expect(applyTransaction(draft, transfer(alice, bob.address, 1n, 0n, 0n), nodeA.id, alice.address).ok).toBe(true);
    expect(applyTransaction(draft, transfer(alice, bob.address, 1n, 1n, 0n), nodeA.id, alice.address).ok).toBe(true);
    expect(draft.faucetCount(bob.address)).toBe(2n);
    expect(draft.faucetCount(alice.address)).toBe(0n);
  });
});
