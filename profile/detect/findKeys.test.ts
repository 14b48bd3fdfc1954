import { describe, expect, it } from 'vitest';
import { resultFieldNames } from '../resultFields.js';
import { decideFields } from './decideFields.js';
import { findKeys, RESULT_FIELDS } from './findKeys.js';

const BLOCK = RESULT_FIELDS.block;

describe('findKeys', () => {
  it('RESULT_FIELDS covers every result field of the interface', () => {
    expect([...new Set(Object.values(RESULT_FIELDS).flat())].sort()).toEqual(resultFieldNames());
  });

  it('finds exact, camelCase and other spellings, then synonyms', () => {
    const keys = findKeys({ height: 1, blockHash: 'h', Parent_Hash: 'p', time: 5, proposer: 'x', num_txs: 0, txs: [] }, BLOCK);
    expect(keys).toEqual({
      height: { key: 'height', how: 'exact' },
      hash: { key: 'blockHash', how: 'synonym' },
      parent_hash: { key: 'Parent_Hash', how: 'spelling' },
      timestamp: { key: 'time', how: 'synonym' },
      proposer: { key: 'proposer', how: 'exact' },
      transaction_count: { key: 'num_txs', how: 'synonym' },
      transactions: { key: 'txs', how: 'synonym' },
    });
  });

  it('knows the usual synonyms', () => {
    const one = (object: Record<string, number>, name: string): string | null | undefined => findKeys(object, [name])[name]?.key;
    expect(one({ txCount: 1 }, 'transaction_count')).toBe('txCount');
    expect(one({ prev_hash: 1 }, 'parent_hash')).toBe('prev_hash');
    expect(one({ previous_hash: 1 }, 'parent_hash')).toBe('previous_hash');
    expect(one({ last_block_hash: 1 }, 'parent_hash')).toBe('last_block_hash');
    expect(one({ block_hash: 1 }, 'hash')).toBe('block_hash');
    expect(one({ score: 1 }, 'local_score')).toBe('score');
    expect(one({ is_leader: 1 }, 'local_is_leader')).toBe('is_leader');
    expect(one({ Balance: 1 }, 'balance')).toBe('Balance');
  });

  it('gives each key to one field, exact matches first', () => {
    // "hash" is hash's own key, so transaction_hash may not take it as a synonym.
    const keys = findKeys({ hash: 'a', leader: 'b', is_leader: true }, ['transaction_hash', 'hash', 'leader', 'local_is_leader']);
    expect(keys.hash?.key).toBe('hash');
    expect(keys.transaction_hash).toEqual({ key: null, how: 'absent' });
    expect(keys.local_is_leader?.key).toBe('is_leader');
  });
});

describe('decideFields', () => {
  it('snake_case keys as the spec names them: no exceptions', () => {
    const d = decideFields([{ source: 'b', result: { height: 1, hash: 'h', parent_hash: 'p', timestamp: 1, proposer: 'x', transaction_count: 0, transactions: [] }, names: BLOCK }]);
    expect(d.keyCase).toBe('snake_case');
    expect(d.fields).toEqual({});
  });

  it('camelCase keys: keyCase camelCase, fields only the exceptions (synonyms, missing fields)', () => {
    const d = decideFields([
      { source: 'b', result: { height: 1, hash: 'h', prevHash: 'p', timestamp: 1, proposer: 'x', txCount: 0 }, names: BLOCK },
      { source: 'l', result: { localScore: 1, leader: 'x', localIsLeader: true }, names: RESULT_FIELDS.pouLocal },
      { source: 'h', result: { status: 'ok', mode: 'MN', chainId: 1 }, names: RESULT_FIELDS.health },
    ]);
    expect(d.keyCase).toBe('camelCase');
    expect(d.fields).toEqual({ parent_hash: 'prevHash', transaction_count: 'txCount', transactions: null });
    expect(d.findings.find((f) => f.key === 'fields.parent_hash')?.confidence).toBe('medium');
  });

  it('a key decided by value wins over the name (the key that holds a transaction hash)', () => {
    const d = decideFields([{ source: 't', result: { id: 'ab'.repeat(32), accepted: true }, names: RESULT_FIELDS.tx, known: { transaction_hash: 'id' } }]);
    expect(d.fields).toEqual({ transaction_hash: 'id' });
  });

  it('fields of results never read are left to keyCase', () => {
    const d = decideFields([]);
    expect(d.fields).toEqual({});
    expect(d.findings.find((f) => f.key === 'keyCase')?.confidence).toBe('low');
  });
});
