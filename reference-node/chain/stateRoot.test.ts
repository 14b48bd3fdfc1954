import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../core/codec/index.js';
import { computeStateRoot, stateRootHex } from './stateRoot.js';
import { WorldState } from './WorldState.js';
import type { Account } from './types.js';

const addressArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(bytesToHex);
const accountArb = fc.record({ balance: fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }), nonce: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) });
const opArb = fc.oneof(
  fc.record({ kind: fc.constant('account' as const), address: addressArb, account: accountArb }),
  fc.record({ kind: fc.constant('faucet' as const), address: addressArb, count: fc.bigInt({ min: 0n, max: 5n }) }),
);

describe('state root', () => {
  it('incremental updates equal a from-scratch computation, whatever the order of changes', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const state = new WorldState();
        const draft = new WorldState().draft();
        const finalAccounts = new Map<string, Account>();
        const finalFaucet = new Map<string, bigint>();
        for (const op of ops) {
          if (op.kind === 'account') {
            state.setAccount(op.address, op.account);
            draft.setAccount(op.address, op.account);
            finalAccounts.set(op.address, op.account);
          } else {
            state.setFaucetCount(op.address, op.count);
            draft.setFaucetCount(op.address, op.count);
            finalFaucet.set(op.address, op.count);
          }
        }
        const scratch = computeStateRoot([...finalAccounts].reverse(), [...finalFaucet].reverse());
        expect(state.root).toBe(scratch);
        expect(draft.root).toBe(scratch);
      }),
    );
  });

  it('a draft over a filled state, entries changed many times and its root read between changes, has the root of the state it describes', () => {
    const pool = Array.from({ length: 4 }, (_, i) => String(i + 1).padStart(2, '0').repeat(32));
    const pooledOp = fc.oneof(
      fc.record({ kind: fc.constant('account' as const), address: fc.constantFrom(...pool), account: accountArb, read: fc.boolean() }),
      fc.record({ kind: fc.constant('faucet' as const), address: fc.constantFrom(...pool), count: fc.bigInt({ min: 0n, max: 3n }), read: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.array(pooledOp, { maxLength: 12 }), fc.array(pooledOp, { minLength: 1, maxLength: 60 }), (before, during) => {
        const base = new WorldState();
        const replayed = new WorldState();
        for (const op of before) {
          for (const state of [base, replayed]) {
            if (op.kind === 'account') state.setAccount(op.address, op.account);
            else state.setFaucetCount(op.address, op.count);
          }
        }
        const draft = base.draft();
        for (const op of during) {
          if (op.kind === 'account') {
            draft.setAccount(op.address, op.account);
            replayed.setAccount(op.address, op.account);
          } else {
            draft.setFaucetCount(op.address, op.count);
            replayed.setFaucetCount(op.address, op.count);
          }
          if (op.read) expect(draft.root).toBe(replayed.root);
        }
        expect(draft.root).toBe(computeStateRoot(replayed.accountEntries(), replayed.faucetEntries()));
        // The confirmed state takes the draft's changes to the same root (applyChanges checks it too).
        base.applyChanges(draft.changes());
        expect(base.root).toBe(replayed.root);
      }),
    );
  });

  it('empty accounts and zero counts contribute nothing; account and faucet entries differ', () => {
    const a = '01'.repeat(32);
    expect(computeStateRoot([[a, { balance: 0n, nonce: 0n }]], [[a, 0n]])).toBe(0n);
    expect(computeStateRoot([[a, { balance: 1n, nonce: 0n }]], [])).not.toBe(computeStateRoot([], [[a, 1n]]));
    expect(stateRootHex(0n)).toBe('0'.repeat(64));
  });

  it('the genesis-sized state root is 64 hex', () => {
    const state = new WorldState();
    state.setAccount('ab'.repeat(32), { balance: 10n ** 27n, nonce: 0n });
    expect(state.stateRoot).toMatch(/^[0-9a-f]{64}$/);
    expect(state.totalSupply()).toBe(10n ** 27n);
  });
});
