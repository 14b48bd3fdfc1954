import { describe, expect, it } from 'vitest';
import { decideBlockTransactions } from './detectBlockTransactions.js';

describe('decideBlockTransactions', () => {
  it('tells hashes from objects, and falls back to the reference on a mixed list', () => {
    const hash = 'ab'.repeat(32);
    expect(decideBlockTransactions([hash, hash], 7n)).toMatchObject({ key: 'blockTransactions', value: 'hashes', confidence: 'high', evidence: 'block 7 lists 2: 2 string(s), 0 object(s)' });
    expect(decideBlockTransactions([{ hash }, { hash, kind: 'transfer' }], 9n)).toMatchObject({ value: 'objects', confidence: 'high' });
    expect(decideBlockTransactions([hash, { hash }], 9n)).toMatchObject({ value: 'hashes', confidence: 'low', evidence: expect.stringMatching(/neither all hashes nor all objects$/) as unknown });
  });
});
