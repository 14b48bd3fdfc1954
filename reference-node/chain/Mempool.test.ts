import { describe, expect, it } from 'vitest';
import { U128_MAX } from '../../core/codec/index.js';
import { isChainError } from './ChainError.js';
import type { ChainError } from './ChainError.js';
import { Mempool } from './Mempool.js';
import { alice, bob, transfer } from '../../test/support/chain.js';
import { DEFAULT_LIMITS } from './types.js';
import type { Account } from './types.js';
import type { StateReader } from './WorldState.js';

/** A state the chain itself cannot reach (supply above u128 in total), to exercise the overflow rule. */
function fakeState(accounts: Record<string, Account>): StateReader {
  return {
    getAccount: (address) => accounts[address] ?? { balance: 0n, nonce: 0n },
    faucetCount: () => 0n,
    root: 0n,
  };
}

const mempool = (): Mempool => new Mempool({ limits: DEFAULT_LIMITS, faucetAddress: '00'.repeat(32), now: () => 0 });

function refusal(run: () => unknown): ChainError {
  try {
    run();
  } catch (error) {
    if (isChainError(error)) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('Mempool', () => {
  it('refuses a credit that would take the recipient above u128, counting queued credits: AmountOverflow', () => {
    const state = fakeState({ [alice.address]: { balance: 100n, nonce: 0n }, [bob.address]: { balance: U128_MAX - 10n, nonce: 0n } });
    const pool = mempool();
    expect(pool.admit(transfer(alice, bob.address, 6n, 0n, 0n), 'client', state)).toBe('pending');
    const error = refusal(() => pool.admit(transfer(alice, bob.address, 5n, 1n, 0n), 'client', state));
    expect(error.name).toBe('AmountOverflow');
    expect(error.data.reason).toMatch(/u128/);
    expect(pool.admit(transfer(alice, bob.address, 4n, 1n, 0n), 'client', state)).toBe('pending');
  });

  it('a transfer to oneself credits nothing net', () => {
    const state = fakeState({ [alice.address]: { balance: U128_MAX - 1n, nonce: 0n } });
    const pool = mempool();
    expect(pool.admit(transfer(alice, alice.address, 1000n, 0n, 0n), 'client', state)).toBe('pending');
  });

  it('tracks next nonce and queued spend per sender; afterBlock rechecks against the new state', () => {
    let state = fakeState({ [alice.address]: { balance: 100n, nonce: 0n } });
    const pool = mempool();
    const t0 = transfer(alice, bob.address, 30n, 0n, 1n);
    const t1 = transfer(alice, bob.address, 30n, 1n, 1n);
    pool.admit(t0, 'client', state);
    pool.admit(t1, 'client', state);
    expect(pool.nextNonce(alice.address, state)).toBe(2n);
    expect(pool.pendingSpend(alice.address)).toBe(62n);
    // A peer's block confirmed t0 and alice also spent elsewhere: t1 no longer fits and is dropped.
    state = fakeState({ [alice.address]: { balance: 20n, nonce: 1n } });
    expect(pool.afterBlock([t0.hash], state)).toEqual([t1.hash]);
    expect(pool.size).toBe(0);
    expect(pool.nextNonce(alice.address, state)).toBe(1n);
  });
});
