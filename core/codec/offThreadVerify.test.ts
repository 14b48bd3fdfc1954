import { describe, expect, it } from 'vitest';
import { createTransactionSigner } from './createTransactionSigner.js';
import { generatePrivateKey } from './keys.js';
import { offThreadBacklog, VERIFY_SLOTS } from './offThreadVerify.js';
import { verifyTransaction, verifyTransactionOffThread } from './verifyTransaction.js';
import type { TransactionToVerify } from './verifyTransaction.js';

describe('verification on the thread pool', () => {
  const signer = createTransactionSigner(generatePrivateKey());
  const to = '11'.repeat(32);
  const txs = Array.from({ length: 40 }, (_, i) => signer.sign({ chainId: 7n, to, value: 1n, nonce: BigInt(i), fee: 1n }));

  it('keeps at most one verification per pool thread in the pool, the rest waiting their turn, and settles every one', async () => {
    const pending = txs.map((tx) => verifyTransactionOffThread(tx));
    const backlog = offThreadBacklog();
    expect(backlog.running).toBe(Math.min(VERIFY_SLOTS, txs.length));
    expect(backlog.waiting).toBe(txs.length - backlog.running);
    expect(await Promise.all(pending)).toEqual(txs.map(() => ({ ok: true })));
    expect(offThreadBacklog()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses what verifyTransaction refuses, for the same reason', async () => {
    const good = txs[0];
    if (good === undefined) throw new Error('no transaction');
    const flip = (hex: string, at: number): string => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);
    const fieldsOnly = { sender: good.sender, chainId: good.chainId, to: good.to, nonce: good.nonce, fee: good.fee, signature: good.signature };
    const bad: TransactionToVerify[] = [
      { ...good, signature: flip(good.signature, 3) }, // R changed: the equation fails (BAD_SIGNATURE)
      { ...good, value: 2n }, // another message: wire and hash no longer match the fields
      { ...fieldsOnly, value: 2n }, // another message, nothing to compare: the equation fails
      { ...good, signature: good.signature.slice(0, 64) + 'ff'.repeat(32) }, // S >= L
      { ...good, signature: 'zz' }, // not a signature at all
    ];
    for (const tx of bad) {
      const onThread = verifyTransaction(tx);
      expect(onThread.ok).toBe(false);
      expect(await verifyTransactionOffThread(tx)).toEqual(onThread);
    }
  });
});
