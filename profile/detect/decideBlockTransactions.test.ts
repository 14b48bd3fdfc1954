import { describe, expect, it } from 'vitest';
import { decideBlockTransactions, transactionsOf } from './detectBlockTransactions.js';

describe('decideBlockTransactions', () => {
  it('tells hashes from objects, and falls back to the reference on a mixed list', () => {
    const hash = 'ab'.repeat(32);
    expect(decideBlockTransactions([hash, hash], 7n)).toMatchObject({ key: 'blockTransactions', value: 'hashes', confidence: 'high', evidence: 'block 7 lists 2: 2 string(s), 0 object(s)' });
    expect(decideBlockTransactions([{ hash }, { hash, kind: 'transfer' }], 9n)).toMatchObject({ value: 'objects', confidence: 'high' });
    expect(decideBlockTransactions([hash, { hash }], 9n)).toMatchObject({ value: 'hashes', confidence: 'low', evidence: expect.stringMatching(/neither all hashes nor all objects$/) as unknown });
  });

  it('reads the list under the key the draft names for it: a synonym (txs) as well as any spelling of transactions', () => {
    const tx = { hash: 'ab'.repeat(32) };
    // An outside tester's node: camelCase, its list under "txs" beside "numTxs"; detection named fields.transactions
    // "txs" and then read no list in its blocks, drafting "hashes" for a node whose blocks list objects.
    expect(transactionsOf({ height: '0x1', numTxs: '0x1', txs: [tx] })).toEqual([tx]);
    expect(transactionsOf({ Transactions: [tx] })).toEqual([tx]);
    expect(transactionsOf({ transaction_count: 0, transactions: [] })).toEqual([]);
    expect(transactionsOf({ txs: 3 })).toBeUndefined();
    expect(transactionsOf(['not a block'])).toBeUndefined();
  });
});
