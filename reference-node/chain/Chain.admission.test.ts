import { afterEach, describe, expect, it } from 'vitest';
import {
  bytesToHex,
  createMessageSigner,
  encodeTransactionBody,
  identityRSignature,
  keypairFromSeed,
  signingMessageForBody,
  U128_MAX,
  withSPlusL,
} from '../../core/codec/index.js';
import { verifyTransaction } from '../../core/codec/index.js';
import type { SignedTransaction } from '../../core/codec/index.js';
import { REFERENCE_CHAIN_RULES } from './ChainRules.js';
import type { ChainRules } from './ChainRules.js';
import type { Chain } from './Chain.js';
import { ChainError } from './ChainError.js';
import { alice, bob, CHAIN_ID, FEE, closeTestChains, openTestChain, produce, signer, TOKEN, transfer } from '../../test/support/chain.js';

afterEach(closeTestChains);

/** The ChainError a submission is refused with (fails the test if it is accepted or throws something else). */
async function refusal(chain: Chain, tx: string | SignedTransaction, source: 'client' | 'relay' = 'client'): Promise<ChainError> {
  try {
    await chain.submit(tx, source);
  } catch (error) {
    if (error instanceof ChainError) return error;
    throw error;
  }
  throw new Error('the transaction was accepted');
}

/** Replace the signature of a wire transaction. */
function withSignature(tx: SignedTransaction, signature: Uint8Array): string {
  return tx.wire.slice(0, 226) + bytesToHex(signature);
}

describe('admission: decoding', () => {
  it('wrong byte length and unknown version: TxMalformed with the codec message', async () => {
    const chain = await openTestChain();
    const good = transfer(alice, bob.address, 1n, 0n);
    const short = await refusal(chain, good.wire.slice(0, -2));
    expect(short.name).toBe('TxMalformed');
    expect(short.data).toEqual({ reason: expect.stringMatching(/176 bytes.*exactly 177/) as unknown });
    const long = await refusal(chain, good.wire + '00');
    expect(long.name).toBe('TxMalformed');
    const version = await refusal(chain, '02' + good.wire.slice(2));
    expect(version.name).toBe('TxMalformed');
    expect(version.data.reason).toMatch(/version/);
    expect((await refusal(chain, good.wire.slice(0, -1))).name).toBe('TxMalformed'); // odd length: a CodecError too
  });

  it('value + fee above u128 (well signed, bytes made by hand): AmountOverflow', async () => {
    const chain = await openTestChain();
    const key = keypairFromSeed('chain-test-alice').privateKey;
    const messageSigner = createMessageSigner(key);
    const body = encodeTransactionBody({ chainId: CHAIN_ID, sender: alice.address, to: bob.address, value: U128_MAX, nonce: 0n, fee: 0n });
    body[body.length - 1] = 1; // fee = 1: the last 16 bytes, big-endian
    const wire = bytesToHex(body) + bytesToHex(messageSigner.sign(signingMessageForBody(body)));
    const error = await refusal(chain, wire);
    expect(error.name).toBe('AmountOverflow');
    expect(error.data.reason).toMatch(/u128/);
  });
});

describe('admission: chain id and signature', () => {
  it('another chain id: TxWrongChain {expected, actual}', async () => {
    const chain = await openTestChain();
    const error = await refusal(chain, transfer(alice, bob.address, 1n, 0n, FEE, 99n).wire);
    expect(error.name).toBe('TxWrongChain');
    expect(error.data).toMatchObject({ expected: 7, actual: 99 });
  });

  it('a flipped signature byte, S + L, an identity R: TxBadSignature with the verifier reason', async () => {
    const chain = await openTestChain();
    const good = transfer(alice, bob.address, 1n, 0n);
    const sig = new Uint8Array(Buffer.from(good.signature, 'hex'));
    const flipped = sig.slice();
    flipped[40] = (flipped[40] ?? 0) ^ 1;
    const e1 = await refusal(chain, withSignature(good, flipped));
    expect(e1.name).toBe('TxBadSignature');
    const e2 = await refusal(chain, withSignature(good, withSPlusL(sig)));
    expect(e2.name).toBe('TxBadSignature');
    expect(e2.data.reason).toMatch(/S/);
    const key = keypairFromSeed('chain-test-alice');
    const body = encodeTransactionBody(good);
    const e3 = await refusal(chain, withSignature(good, identityRSignature(key.privateKey, key.publicKey, signingMessageForBody(body))));
    expect(e3.name).toBe('TxBadSignature');
    // A changed body byte (the value) under the old signature.
    const tampered = good.wire.slice(0, 146) + (good.wire[146] === '0' ? '1' : '0') + good.wire.slice(147);
    expect((await refusal(chain, tampered)).name).toBe('TxBadSignature');
    expect(chain.pendingCount()).toBe(0);
  });
});

describe('admission: duplicates and nonces', () => {
  it('the same transaction pending or confirmed: TxDuplicate {hash}', async () => {
    const chain = await openTestChain();
    const tx = transfer(alice, bob.address, 1n, 0n);
    expect(await chain.submit(tx.wire, 'client')).toMatchObject({ hash: tx.hash, status: 'pending', wire: tx.wire });
    const pending = await refusal(chain, tx.wire);
    expect(pending.name).toBe('TxDuplicate');
    expect(pending.data).toMatchObject({ hash: tx.hash });
    await produce(chain);
    expect(chain.transactionStatus(tx.hash)).toEqual({ status: 'confirmed', height: 1n, index: 0 });
    const confirmed = await refusal(chain, tx.wire);
    expect(confirmed.name).toBe('TxDuplicate');
    expect(confirmed.data).toMatchObject({ hash: tx.hash });
    // Relayed duplicates are refused the same way (the node ignores the error).
    expect((await refusal(chain, tx.wire, 'relay')).name).toBe('TxDuplicate');
  });

  it('nonce below the next pending one: NonceTooLow; above: NonceGap {expected, actual}', async () => {
    const chain = await openTestChain();
    await chain.submit(transfer(alice, bob.address, 1n, 0n).wire, 'client');
    const low = await refusal(chain, transfer(alice, bob.address, 2n, 0n).wire);
    expect(low.name).toBe('NonceTooLow');
    expect(low.data).toMatchObject({ expected: 1, actual: 0 });
    const gap = await refusal(chain, transfer(alice, bob.address, 2n, 5n).wire);
    expect(gap.name).toBe('NonceGap');
    expect(gap.data).toMatchObject({ expected: 1, actual: 5 });
    expect(chain.pendingNonce(alice.address)).toBe(1n);
    await produce(chain);
    const afterBlock = await refusal(chain, transfer(alice, bob.address, 3n, 0n).wire);
    expect(afterBlock.name).toBe('NonceTooLow');
    expect(afterBlock.data).toMatchObject({ expected: 1, actual: 0 });
  });

  it('sequential nonces are queued: 0..99 before a block, all included in order', async () => {
    const chain = await openTestChain();
    const txs = Array.from({ length: 100 }, (_, i) => transfer(alice, bob.address, BigInt(i + 1), BigInt(i)));
    for (const tx of txs) expect((await chain.submit(tx.wire, 'client')).status).toBe('pending');
    expect(chain.pendingCount()).toBe(100);
    expect(chain.pendingNonce(alice.address)).toBe(100n);
    const block = await produce(chain);
    expect(block.transactions.map((t) => t.hash)).toEqual(txs.map((t) => t.hash));
    expect(chain.getAccount(alice.address).nonce).toBe(100n);
    expect(chain.getAccount(bob.address).balance).toBe(5050n);
    expect(chain.pendingCount()).toBe(0);
  });
});

describe('admission: arrival order while signatures verify on the thread pool', () => {
  it('200 transactions submitted at once, two senders interleaved, nonces in order: all pending, in arrival order', async () => {
    const chain = await openTestChain();
    const carol = signer('chain-test-carol');
    // carol has nothing yet: fund her in a block first.
    await chain.submit(transfer(alice, carol.address, 100n * TOKEN, 0n).wire, 'client');
    await produce(chain);
    const txs = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? transfer(alice, bob.address, 1n, BigInt(1 + i / 2)) : transfer(carol, bob.address, 1n, BigInt((i - 1) / 2))));
    // Not awaited one by one: every verification is in flight before the first is admitted.
    const outcomes = await Promise.all(txs.map((tx) => chain.submit(tx.wire, 'client')));
    // Out of order, a later nonce would have met NonceGap: every one pending is the order kept.
    expect(outcomes.map((o) => o.status)).toEqual(txs.map(() => 'pending'));
    expect(chain.pendingTransactions().map((t) => t.hash)).toEqual(txs.map((t) => t.hash));
  });

  it('a refused signature among them is refused with its reason and holds up no one after it', async () => {
    const chain = await openTestChain();
    const txs = Array.from({ length: 20 }, (_, i) => transfer(alice, bob.address, 1n, BigInt(i)));
    const forged = transfer(alice, bob.address, 2n, 10n);
    const wires: string[] = txs.map((t) => t.wire);
    // The 11th carries nonce 10 under another transaction's signature: the equation fails.
    wires[10] = forged.wire.slice(0, 226) + (txs[10] as SignedTransaction).wire.slice(226);
    const settled = await Promise.allSettled(wires.map((w) => chain.submit(w, 'client')));
    const names = settled.map((r): string => {
      if (r.status === 'fulfilled') return r.value.status;
      const reason: unknown = r.reason;
      return reason instanceof ChainError ? String(reason.name) : 'other';
    });
    // Nonce 10 never entered, so 11..19 meet a gap, each at its turn: exactly what one-by-one admission gives.
    expect(names).toEqual([...Array<string>(10).fill('pending'), 'TxBadSignature', ...Array<string>(9).fill('NonceGap')]);
  });

  it('a faucet claim takes its turn behind the transactions that arrived before it', async () => {
    const chain = await openTestChain();
    const txs = Array.from({ length: 30 }, (_, i) => transfer(alice, bob.address, 1n, BigInt(i)));
    const before = txs.map((tx) => chain.submit(tx.wire, 'client'));
    const claim = chain.claimFaucet(bob.address);
    await Promise.all([...before, claim]);
    expect(chain.pendingTransactions().map((t) => t.hash)).toEqual([...txs.map((t) => t.hash), (await claim).transaction_hash]);
  });
});

describe('admission: verifications started ahead of their turn (Chain.prepare, a batch\'s lookahead)', () => {
  /** The honest rules, counting the verifications they start. */
  function countingRules(): { rules: ChainRules; count: () => number } {
    let n = 0;
    return {
      rules: { ...REFERENCE_CHAIN_RULES, verify: (tx) => (n++, REFERENCE_CHAIN_RULES.verify(tx)) },
      count: () => n,
    };
  }

  it('a batch\'s transactions prepared, then submitted one after the other: each verified once, all admitted in order', async () => {
    const { rules, count } = countingRules();
    const chain = await openTestChain({ rules });
    const txs = Array.from({ length: 50 }, (_, i) => transfer(alice, bob.address, 1n, BigInt(i)));
    for (const tx of txs) chain.prepare(tx.wire);
    expect(count()).toBe(50);
    for (const tx of txs) expect((await chain.submit(tx.wire, 'client')).status).toBe('pending');
    expect(count()).toBe(50);
    expect(chain.pendingTransactions().map((t) => t.hash)).toEqual(txs.map((t) => t.hash));
    // Taken when used: the same bytes again are verified anew, and refused as what they are.
    expect((await refusal(chain, (txs[0] as SignedTransaction).wire)).name).toBe('TxDuplicate');
    expect(count()).toBe(51);
  });

  it('a prepared forgery is refused at its turn with its reason; what does not decode is left to its submit', async () => {
    const chain = await openTestChain();
    const good = transfer(alice, bob.address, 1n, 0n);
    const forged = transfer(alice, bob.address, 2n, 0n).wire.slice(0, 226) + good.wire.slice(226);
    chain.prepare(forged);
    chain.prepare('zz');
    chain.prepare(good.wire.slice(0, -2));
    expect((await refusal(chain, forged)).name).toBe('TxBadSignature');
    expect((await refusal(chain, 'zz')).name).toBe('TxMalformed');
    expect((await refusal(chain, good.wire.slice(0, -2))).name).toBe('TxMalformed');
    expect((await chain.submit(good.wire, 'client')).status).toBe('pending');
  });

  it('rules that verify at once (a variant\'s) are prepared alike: verified once, ahead of the submit', async () => {
    let n = 0;
    const chain = await openTestChain({ rules: { ...REFERENCE_CHAIN_RULES, verify: (tx) => (n++, verifyTransaction(tx)) } });
    const tx = transfer(alice, bob.address, 1n, 0n);
    chain.prepare(tx.wire);
    expect(n).toBe(1);
    expect((await chain.submit(tx.wire, 'client')).status).toBe('pending');
    expect(n).toBe(1);
  });
});

describe('admission: balance, overflow, capacity', () => {
  it('balance less queued spends below value + fee: InsufficientBalance {available, required} as decimals', async () => {
    const chain = await openTestChain();
    const all = await refusal(chain, transfer(alice, bob.address, 1000n * TOKEN, 0n).wire);
    expect(all.name).toBe('InsufficientBalance');
    expect(all.data).toMatchObject({ available: (1000n * TOKEN).toString(), required: (1000n * TOKEN + FEE).toString() });
    await chain.submit(transfer(alice, bob.address, 600n * TOKEN, 0n).wire, 'client');
    const queued = await refusal(chain, transfer(alice, bob.address, 400n * TOKEN, 1n).wire);
    expect(queued.name).toBe('InsufficientBalance');
    expect(queued.data).toMatchObject({ available: (400n * TOKEN - FEE).toString(), required: (400n * TOKEN + FEE).toString() });
    const empty = await refusal(chain, transfer(bob, alice.address, 1n, 0n, 0n).wire);
    expect(empty.data).toMatchObject({ available: '0', required: '1' });
  });

  it('mempool full in total or per sender: MempoolFull {limit}', async () => {
    const chain = await openTestChain({ limits: { maxPending: 3, maxPendingPerSender: 2 } });
    await chain.submit(transfer(alice, bob.address, 1n, 0n).wire, 'client');
    await chain.submit(transfer(alice, bob.address, 1n, 1n).wire, 'client');
    const perSender = await refusal(chain, transfer(alice, bob.address, 1n, 2n).wire);
    expect(perSender.name).toBe('MempoolFull');
    expect(perSender.data).toMatchObject({ limit: 2 });
    await chain.claimFaucet(bob.address);
    const total = await refusal(chain, transfer(signer('chain-test-carol'), bob.address, 0n, 0n, 0n).wire);
    expect(total.name).toBe('MempoolFull');
    expect(total.data).toMatchObject({ limit: 3 });
    await produce(chain);
    expect((await chain.submit(transfer(alice, bob.address, 1n, 2n).wire, 'client')).status).toBe('pending');
  });

  it('a decoded transaction object is admitted like its wire form', async () => {
    const chain = await openTestChain();
    const tx = transfer(alice, bob.address, 1n, 0n);
    expect((await chain.submit(tx, 'client')).hash).toBe(tx.hash);
    const forged = { ...transfer(alice, bob.address, 1n, 1n), value: 2n }; // fields no longer match wire and signature
    expect((await refusal(chain, forged)).name).toBe('TxMalformed');
  });
});

describe('relayed transactions out of order', () => {
  it('a gapped relayed transaction is held, then promoted when the gap fills', async () => {
    const chain = await openTestChain();
    const txs = [0n, 1n, 2n, 3n].map((n) => transfer(alice, bob.address, 1n, n));
    const [t0, t1, t2, t3] = txs as [SignedTransaction, SignedTransaction, SignedTransaction, SignedTransaction];
    expect((await chain.submit(t2.wire, 'relay')).status).toBe('held');
    expect((await chain.submit(t3.wire, 'relay')).status).toBe('held');
    expect((await refusal(chain, t2.wire, 'relay')).name).toBe('TxDuplicate');
    expect(chain.heldCount()).toBe(2);
    expect(chain.pendingCount()).toBe(0);
    expect(chain.transactionStatus(t2.hash)).toEqual({ status: 'held' });
    expect((await chain.submit(t0.wire, 'relay')).status).toBe('pending');
    expect(chain.pendingCount()).toBe(1);
    expect((await chain.submit(t1.wire, 'client')).status).toBe('pending');
    expect(chain.heldCount()).toBe(0);
    expect(chain.pendingTransactions().map((t) => t.hash)).toEqual(txs.map((t) => t.hash));
    const block = await produce(chain);
    expect(block.transactions.map((t) => t.nonce)).toEqual([0n, 1n, 2n, 3n]);
  });

  it('held transactions expire, and are bounded per sender', async () => {
    let now = 0;
    const chain = await openTestChain({ now: () => now, limits: { maxHeldPerSender: 2, heldTtlMs: 60_000 } });
    await chain.submit(transfer(alice, bob.address, 1n, 1n).wire, 'relay');
    await chain.submit(transfer(alice, bob.address, 1n, 2n).wire, 'relay');
    const full = await refusal(chain, transfer(alice, bob.address, 1n, 3n).wire, 'relay');
    expect(full.name).toBe('MempoolFull');
    expect(full.data).toMatchObject({ limit: 2 });
    now = 61_000;
    await chain.submit(transfer(alice, bob.address, 1n, 0n).wire, 'client'); // expiry runs first: nothing to promote
    expect(chain.heldCount()).toBe(0);
    expect(chain.pendingCount()).toBe(1);
  });
});
