import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcClient } from '../../core/client/index.js';
import { driveCorpus } from '../../test/support/loadCorpusDriver.js';
import { startProxy, startTestNetwork, startTestNode, TEST_BLOCK_MS, testProfile } from '../../test/support/suites.js';
import type { TestNode } from '../../test/support/suites.js';
import { makeCorpus } from '../corpus/makeCorpus.js';
import { readCorpus } from '../corpus/readCorpus.js';
import { Histogram } from '../metrics/Histogram.js';
import { InclusionTracker } from './InclusionTracker.js';

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-inclusion-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tipOf = async (url: string): Promise<number> => {
  const client = new RpcClient({ baseUrl: url });
  try {
    return await client.call<number>('chain_blockNumber');
  } finally {
    await client.close();
  }
};

/** Every transaction hash from height `from` to the tip, with its block's timestamp (ms). */
async function blockTimes(url: string, from: number): Promise<Map<string, number>> {
  const client = new RpcClient({ baseUrl: url });
  const out = new Map<string, number>();
  try {
    const tip = await client.call<number>('chain_blockNumber');
    for (let h = from; h <= tip; h++) {
      const block = await client.call<{ timestamp: number; transactions: string[] }>('chain_getBlockByHeight', [h]);
      for (const hash of block.transactions) out.set(hash, block.timestamp);
    }
  } finally {
    await client.close();
  }
  return out;
}

const corpus = async (url: string, name: string, senders: number, perSender: number): Promise<string> => {
  const out = join(dir, `${name}.json`);
  await makeCorpus({ url, out, senders, perSender, profile: testProfile(), seed: `inclusion-test-${name}`, threads: 1 });
  return out;
};

describe('inclusion tracking on an honest reference node', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode();
  });
  afterAll(() => node.stop());

  it('by block hashes: every transaction included, times positive and within a few block times, chain throughput and blocks', async () => {
    const path = await corpus(node.url, 'hashes', 6, 30);
    const tracker = await InclusionTracker.start({ url: node.url, profile: testProfile(), seriesIntervalMs: 50 });
    expect(tracker.method).toBe('block-hashes');
    // The block time is read from the chain's timestamps, and polls go well inside it.
    expect(tracker.blockTimeMs).toBeGreaterThanOrEqual(TEST_BLOCK_MS * 0.8);
    expect(tracker.blockTimeMs).toBeLessThanOrEqual(TEST_BLOCK_MS * 1.5);
    expect(tracker.pollIntervalMs).toBe(20);
    const scheduled = new Map<string, number>();
    const startTip = await tipOf(node.url);
    await driveCorpus({
      endpoint: `${node.url}/rpc`,
      corpus: path,
      rate: 600,
      onTracked: (o) => {
        scheduled.set((o.tag as { hash: string }).hash, o.scheduledAtMs);
        tracker.record(o);
      },
    });
    const { stats, series, endedBy, unanswered } = await tracker.finish();
    expect(endedBy).toBe('all-included');
    expect(stats).toMatchObject({ method: 'block-hashes', accepted: 180, included: 180, pending: 0, ratio: 1, refused: {} });
    expect(unanswered).toBe(0);
    const tti = stats.timeToInclusionMs;
    expect(tti.count).toBe(180);
    expect(tti.min).toBeGreaterThan(0);
    // Included in the next block or the one after, seen within a poll: a few block times at most.
    expect(tti.max).toBeLessThan(5 * TEST_BLOCK_MS);
    expect(tti.p50).toBeLessThanOrEqual(tti.p99);
    // 180 transactions sent over ~0.3 s land in a handful of 100 ms blocks.
    expect(stats.perBlock.blocks).toBeGreaterThanOrEqual(2);
    expect(stats.perBlock.max).toBeGreaterThanOrEqual(stats.perBlock.mean);
    expect(stats.perBlock.mean * stats.perBlock.blocks).toBeCloseTo(180);
    expect(stats.chainTps).toBeGreaterThan(100);
    expect(stats.chainTps).toBeLessThan(2000);
    // Against the truth: each block's own timestamp (the node's clock, the same machine's). The tracker sees a
    // block at most one poll interval (plus a read) after it was made, never before.
    const truth = new Histogram();
    for (const [hash, ts] of await blockTimes(node.url, startTip + 1)) {
      const at = scheduled.get(hash);
      if (at !== undefined) truth.record(Math.max(0, ts - at));
    }
    const exact = truth.toData();
    expect(exact.count).toBe(180);
    expect(tti.p50 - exact.p50).toBeGreaterThan(-5);
    expect(tti.p50 - exact.p50).toBeLessThan(tracker.pollIntervalMs + 40);
    expect(tti.max - exact.max).toBeLessThan(tracker.pollIntervalMs + 40);
    // The series ends with everything included and nothing pending, and pending was seen above 0 on the way.
    expect(series[series.length - 1]).toMatchObject({ pending: 0, included: 180 });
    expect(series.some((p) => p.pending > 0)).toBe(true);
  });

  it('counts the measured window\'s transactions only: the warm-up\'s are followed but counted apart, in every figure and the series', async () => {
    const path = await corpus(node.url, 'window', 4, 10);
    const tracker = await InclusionTracker.start({ url: node.url, profile: testProfile(), seriesIntervalMs: 50 });
    const scheduled: number[] = [];
    await driveCorpus({ endpoint: `${node.url}/rpc`, corpus: path, rate: 200, onTracked: (o) => {
      scheduled.push(o.scheduledAtMs);
      tracker.record(o);
    } });
    // The first 10 sends are the warm-up: the window opens at the 11th's scheduled time.
    const fromMs = [...scheduled].sort((x, y) => x - y)[10] ?? 0;
    const { stats, series } = await tracker.finish([{ fromMs, toMs: fromMs + 60_000 }]);
    expect(stats).toMatchObject({ accepted: 30, included: 30, pending: 0, ratio: 1, refused: {}, warmup: { accepted: 10, included: 10, refused: 0 } });
    expect(stats.timeToInclusionMs.count).toBe(30);
    expect(stats.perBlock.mean * stats.perBlock.blocks).toBeCloseTo(30);
    // The series is of the same 30: it ends where the figures do.
    expect(series.at(-1)).toMatchObject({ pending: 0, included: 30 });
    expect(Math.max(...series.map((p) => p.included))).toBe(30);
    expect(stats.followedAfterMs).toBeGreaterThanOrEqual(0);
  });

  it('by sender nonces, with batches of distinct senders: the same answer without reading hashes', async () => {
    const path = await corpus(node.url, 'nonces', 8, 10);
    const tracker = await InclusionTracker.start({ url: node.url, profile: testProfile(), method: 'sender-nonce' });
    await driveCorpus({ endpoint: `${node.url}/rpc`, corpus: path, batchSize: 4, rate: 100, onTracked: (o) => tracker.record(o) });
    const { stats, endedBy } = await tracker.finish();
    expect(endedBy).toBe('all-included');
    expect(stats).toMatchObject({ method: 'sender-nonce', accepted: 80, included: 80, pending: 0, ratio: 1, refused: {} });
    expect(stats.timeToInclusionMs.min).toBeGreaterThan(0);
    expect(stats.timeToInclusionMs.max).toBeLessThan(5 * TEST_BLOCK_MS);
    expect(stats.chainTps).toBeGreaterThan(0);
  });

  it('picks sender nonces by itself where blocks list no hashes (the spec shows only transaction_count and proposer)', async () => {
    // A node whose blocks carry no `transactions`: the reference node behind a proxy that removes them.
    const strip = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(strip);
      if (typeof value === 'object' && value !== null && 'result' in value) {
        const { result } = value;
        if (typeof result === 'object' && result !== null && 'transactions' in result) {
          const { transactions: _dropped, ...rest } = result as Record<string, unknown>;
          return { ...value, result: rest };
        }
      }
      return value;
    };
    const proxy = await startProxy(node.url, (res) => ({ ...res, body: JSON.stringify(strip(JSON.parse(res.body) as unknown)) }));
    try {
      const path = await corpus(node.url, 'no-hashes', 4, 5);
      const tracker = await InclusionTracker.start({ url: proxy.url, profile: testProfile() });
      expect(tracker.method).toBe('sender-nonce');
      await driveCorpus({ endpoint: `${proxy.url}/rpc`, corpus: path, onTracked: (o) => tracker.record(o) });
      const { stats } = await tracker.finish();
      expect(stats).toMatchObject({ method: 'sender-nonce', accepted: 20, included: 20, pending: 0, ratio: 1 });
      await expect(InclusionTracker.start({ url: proxy.url, profile: testProfile(), method: 'block-hashes' })).rejects.toThrow(/list no transaction hashes/);
    } finally {
      await proxy.close();
    }
  });

  it('two threads\' shares sent at once: disjoint senders, every transaction accepted and included', async () => {
    const path = await corpus(node.url, 'shares', 6, 8);
    const tracker = await InclusionTracker.start({ url: node.url, profile: testProfile() });
    const senders = [new Set<string>(), new Set<string>()];
    await Promise.all(
      [0, 1].map((index) =>
        driveCorpus({ endpoint: `${node.url}/rpc`, corpus: path, share: { index, count: 2 }, batchSize: 2, onTracked: (o) => {
          senders[index]?.add((o.tag as { sender: string }).sender);
          tracker.record(o);
        } }),
      ),
    );
    const { stats } = await tracker.finish();
    expect(stats).toMatchObject({ accepted: 48, included: 48, ratio: 1, refused: {} });
    expect([senders[0]?.size, senders[1]?.size]).toEqual([3, 3]);
    expect([...(senders[0] ?? [])].filter((s) => senders[1]?.has(s))).toEqual([]);
  });

  it('counts refusals by code: the same corpus sent again is refused as duplicates', async () => {
    const path = await corpus(node.url, 'twice', 3, 5);
    const first = await InclusionTracker.start({ url: node.url, profile: testProfile() });
    await driveCorpus({ endpoint: `${node.url}/rpc`, corpus: path, onTracked: (o) => first.record(o) });
    expect((await first.finish()).stats.ratio).toBe(1);
    const again = await InclusionTracker.start({ url: node.url, profile: testProfile(), graceMs: 200 });
    await driveCorpus({ endpoint: `${node.url}/rpc`, corpus: path, onTracked: (o) => again.record(o) });
    const { stats, endedBy } = await again.finish();
    expect(stats).toMatchObject({ accepted: 0, included: 0, pending: 0, ratio: 0, refused: { '-32009': 15 } });
    expect(endedBy).toBe('all-included'); // nothing accepted, nothing to wait for
  });

  it('counts an unanswered send as accepted once the chain shows it, and apart otherwise', async () => {
    const path = await corpus(node.url, 'unanswered', 1, 2);
    const lane = readCorpus(path).senders[0];
    const tracker = await InclusionTracker.start({ url: node.url, profile: testProfile() });
    const client = new RpcClient({ baseUrl: node.url });
    try {
      for (const tx of lane?.txs ?? []) {
        const scheduledAtMs = performance.timeOrigin + performance.now();
        const hash = await client.call<string>('chain_sendRawTransaction', [tx.tx]);
        const tag = { hash: tx.hash, sender: lane?.address ?? '', nonce: tx.nonce };
        // The first answer "got lost": the engine would report it unanswered.
        const outcome = tx.nonce === 0 ? { kind: 'unanswered' as const, reason: 'timeout' } : { kind: 'result' as const, result: hash };
        tracker.record({ tag, scheduledAtMs, endedAtMs: scheduledAtMs + 1, outcome });
      }
    } finally {
      await client.close();
    }
    // A send that never reached the node.
    const now = performance.timeOrigin + performance.now();
    tracker.record({ tag: { hash: 'ab'.repeat(32), sender: 'cd'.repeat(32), nonce: 0 }, scheduledAtMs: now, endedAtMs: now, outcome: { kind: 'unanswered', reason: 'connection refused' } });
    const result = await tracker.finish();
    expect(result.stats).toMatchObject({ accepted: 2, included: 2, pending: 0, ratio: 1 });
    expect(result.unanswered).toBe(1);
  });

  it('counts tags it cannot follow apart, and never throws on them', async () => {
    const tracker = await InclusionTracker.start({ url: node.url, profile: testProfile() });
    tracker.record({ tag: 'not a tag', scheduledAtMs: 0, endedAtMs: 0, outcome: { kind: 'result', result: 'x' } });
    tracker.record({ tag: { sender: 'ab', nonce: 1.5, hash: null }, scheduledAtMs: 0, endedAtMs: 0, outcome: { kind: 'result', result: 'x' } });
    const result = await tracker.stop();
    expect(result.untracked).toBe(2);
    expect(result.stats.accepted).toBe(0);
    expect(result.endedBy).toBe('stopped');
  });
});

describe('inclusion tracking on nodes that do not include', () => {
  it('an LN that never relays (no-relay): accepted with a hash, never included, pending at the end', async () => {
    const net = await startTestNetwork(['MN', 'LN'], (i) => (i === 1 ? { faults: ['no-relay'] } : {}));
    try {
      const ln = net.urls[1] ?? '';
      const path = await corpus(ln, 'no-relay', 4, 5);
      const tracker = await InclusionTracker.start({ url: ln, profile: testProfile(), graceMs: 4 * TEST_BLOCK_MS });
      await driveCorpus({ endpoint: `${ln}/rpc`, corpus: path, onTracked: (o) => tracker.record(o) });
      const { stats, endedBy, series } = await tracker.finish();
      expect(endedBy).toBe('grace');
      expect(stats).toMatchObject({ accepted: 20, included: 0, pending: 20, ratio: 0, chainTps: 0, perBlock: { blocks: 0, mean: 0, max: 0 } });
      expect(stats.timeToInclusionMs.count).toBe(0);
      expect(series[series.length - 1]).toMatchObject({ pending: 20, included: 0 });
    } finally {
      await net.stop();
    }
  });

  it('a node that dies mid-run: polls fail, counted with the last error, and the tracker still reports', async () => {
    const node = await startTestNode();
    let stopped = false;
    try {
      const tracker = await InclusionTracker.start({ url: node.url, profile: testProfile() });
      await node.stop();
      stopped = true;
      await new Promise((r) => setTimeout(r, 5 * tracker.pollIntervalMs));
      const result = await tracker.stop();
      expect(result.pollErrors).toBeGreaterThan(0);
      expect(result.lastPollError).toMatch(/^\d{4}-\d\d-\d\dT.*: /);
    } finally {
      if (!stopped) await node.stop();
    }
  });
});
