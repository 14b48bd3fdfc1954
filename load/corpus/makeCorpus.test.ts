import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcClient } from '../../core/client/index.js';
import { decodeTransaction, generateKeypair, verifyTransaction } from '../../core/codec/index.js';
import { startTestNode, testProfile } from '../../test/support/suites.js';
import type { TestNode } from '../../test/support/suites.js';
import { CORPUS_FORMAT } from './Corpus.js';
import { makeCorpus, SIGNING_THREAD_SHARE } from './makeCorpus.js';
import { readCorpus } from './readCorpus.js';

describe('makeCorpus / readCorpus against a reference node', () => {
  let node: TestNode;
  let dir: string;
  beforeAll(async () => {
    node = await startTestNode();
    dir = mkdtempSync(join(tmpdir(), 'chainrpc-corpus-'));
  });
  afterAll(async () => {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('funds senders through the faucet, signs on worker threads, and every transaction verifies in nonce order', async () => {
    const out = join(dir, 'faucet.json');
    const phases = new Set<string>();
    const summary = await makeCorpus({ url: node.url, out, senders: 5, perSender: 40, profile: testProfile(), seed: 'corpus-test-faucet', threads: 2, onProgress: (p) => phases.add(p.phase) });
    expect(summary).toMatchObject({ senders: 5, perSender: 40, transactions: 200, funded: 5, funding: 'faucet', chainId: '1', firstNonce: { min: 0, max: 0 } });
    expect(summary.signing.threads).toBe(2);
    expect([...phases]).toEqual(['funding', 'signing']);
    // Written atomically: no temporary file left beside it.
    expect(readdirSync(dir)).toEqual(['faucet.json']);

    const corpus = readCorpus(out);
    expect(corpus.format).toBe(CORPUS_FORMAT);
    expect(corpus.senders.map((l) => l.index)).toEqual([0, 1, 2, 3, 4]);
    expect(new Set(corpus.senders.map((l) => l.address)).size).toBe(5);
    for (const lane of corpus.senders) {
      expect(lane.txs.map((t) => t.nonce)).toEqual(Array.from({ length: 40 }, (_, i) => i));
      for (const t of lane.txs) {
        const tx = decodeTransaction(t.tx);
        expect(tx.sender).toBe(lane.address);
        expect(tx.nonce).toBe(BigInt(t.nonce));
        expect(tx.chainId).toBe(1n);
        expect(corpus.recipients).toContain(tx.to);
        expect(verifyTransaction({ ...tx, hash: t.hash ?? '' })).toEqual({ ok: true });
      }
    }
    // The senders hold what their lanes spend.
    const client = new RpcClient({ baseUrl: node.url });
    try {
      const account = await client.call<{ balance: string }>('chain_getAccount', [corpus.senders[0]?.address]);
      expect(BigInt(account.balance)).toBeGreaterThanOrEqual(40n * (BigInt(corpus.value) + BigInt(corpus.fee)));
    } finally {
      await client.close();
    }
  });

  it('sizes its signing threads to the corpus: a small one in this thread, one thread per 2,000 transactions up to every core', async () => {
    const small = await makeCorpus({ url: node.url, out: join(dir, 'small.json'), senders: 2, perSender: 10, profile: testProfile(), seed: 'corpus-test-small' });
    expect(small.signing.threads).toBe(1);
    const large = await makeCorpus({ url: node.url, out: join(dir, 'large.json'), senders: 2, perSender: SIGNING_THREAD_SHARE / 2 + 1, profile: testProfile(), seed: 'corpus-test-large' });
    expect(large.transactions).toBe(SIGNING_THREAD_SHARE + 2);
    expect(large.signing.threads).toBe(Math.min(2, availableParallelism()));
    rmSync(join(dir, 'small.json'));
    rmSync(join(dir, 'large.json'));
  });

  it('funds from a funded key, and the same seed again finds its senders funded', async () => {
    const master = generateKeypair();
    const client = new RpcClient({ baseUrl: node.url });
    try {
      await client.call('chain_faucetClaim', [master.address]);
      const out = join(dir, 'key.json');
      const options = { url: node.url, out, senders: 3, perSender: 10, profile: testProfile(), seed: 'corpus-test-key', funding: { kind: 'key', privateKey: master.privateKey } as const, threads: 1 };
      // The claim is a transaction: wait until the key's balance shows.
      while (BigInt((await client.call<{ balance: string }>('chain_getAccount', [master.address])).balance) === 0n) await new Promise((r) => setTimeout(r, 20));
      const summary = await makeCorpus(options);
      expect(summary).toMatchObject({ transactions: 30, funded: 3, funding: 'key' });
      const again = await makeCorpus({ ...options, out: join(dir, 'key2.json') });
      expect(again.funded).toBe(0);
      expect(readCorpus(join(dir, 'key2.json')).senders[0]?.txs[0]?.tx).toBe(readCorpus(out).senders[0]?.txs[0]?.tx);
    } finally {
      await client.close();
    }
  });

  it('says what to change when the faucet cannot give a sender enough', async () => {
    // 10 tokens a claim, one claim an address: 20,000 transactions at 0.001 token each need 20 tokens.
    await expect(makeCorpus({ url: node.url, out: join(dir, 'big.json'), senders: 1, perSender: 20_000, profile: testProfile(), seed: 'corpus-test-big' })).rejects.toThrow(
      /faucet gives 10000000000000000000 a claim and 1 claim\(s\) an address.*fewer transactions per sender/,
    );
    expect(readdirSync(dir)).not.toContain('big.json');
  });
});

describe('readCorpus refuses bad files with the pointer and the rule', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainrpc-corpus-bad-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const lane = (nonces: number[]) => ({ index: 0, address: 'ab'.repeat(32), txs: nonces.map((nonce) => ({ nonce, tx: '00ff', hash: null })) });
  const good = {
    format: CORPUS_FORMAT,
    createdAt: '2026-11-23T00:00:00.000Z',
    tool: { name: 'chainrpc', version: '0.1.0' },
    warning: 'test',
    chainId: '1',
    codec: 'chainrpc-tx-v1',
    profile: 'reference',
    method: 'chain_sendRawTransaction',
    keys: { derivation: 'x', seedSha256: '0'.repeat(64) },
    value: '1',
    fee: '1000',
    recipients: ['cd'.repeat(32)],
    senders: [lane([3, 4, 5])],
  };
  const write = (name: string, value: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  };

  it('reads a valid file', () => {
    expect(readCorpus(write('good.json', good)).senders[0]?.txs.map((t) => t.nonce)).toEqual([3, 4, 5]);
  });
  it('names the pointer and the rule of a schema violation', () => {
    expect(() => readCorpus(write('hex.json', { ...good, senders: [{ ...lane([0]), txs: [{ nonce: 0, tx: '0xff', hash: null }] }] }))).toThrow(/\/senders\/0\/txs\/0\/tx: .*\(rule: pattern\)/);
    expect(() => readCorpus(write('chain.json', { ...good, chainId: 1 }))).toThrow(/\/chainId: .*\(rule: type\)/);
  });
  it('refuses a lane whose nonces are not consecutive', () => {
    expect(() => readCorpus(write('gap.json', { ...good, senders: [lane([0, 2])] }))).toThrow(/\/senders\/0\/txs\/1\/nonce is 2, expected 1/);
  });
  it('refuses another format, a file that is not JSON, and a missing file', () => {
    expect(() => readCorpus(write('v2.json', { ...good, format: 'chainrpc-corpus/2' }))).toThrow(/is "chainrpc-corpus\/2", not "chainrpc-corpus\/1"/);
    expect(() => readCorpus(write('cut.json', JSON.stringify(good).slice(0, 50)))).toThrow(/is not JSON .*cut short/);
    expect(() => readCorpus(join(dir, 'none.json'))).toThrow(/does not exist; make one with `chainrpc load corpus/);
  });
});
