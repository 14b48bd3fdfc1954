import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { HeadFollower } from './HeadFollower.js';

let server: Server | undefined;
afterAll(() => new Promise<void>((r) => (server === undefined ? r() : server.close(() => r()))));

describe('HeadFollower: bounded memory', () => {
  it('keeps only the answers that change the height, and counts every answer', async () => {
    // Heights 7, 7, 7, ..., then 8, then 6 (a step back), then 8 again: four changes in many answers.
    let calls = 0;
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        calls++;
        const height = calls < 20 ? 7 : calls < 25 ? 8 : calls < 28 ? 6 : 8;
        res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":1,"result":${height}}`);
      });
    });
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
    const follower = new HeadFollower({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, profile: referenceProfile(), intervalMs: 2, originMs: performance.now() });
    follower.start();
    while (calls < 40) await new Promise((r) => setTimeout(r, 5));
    await follower.stop();
    expect(follower.samples.map((s) => s.height)).toEqual([7, 8, 6, 8]);
    const followed = follower.followed();
    // Every answer counted (the last may have come after stop, and is left out).
    expect(followed.answered).toBeGreaterThanOrEqual(calls - 1);
    expect(followed.answered).toBeLessThanOrEqual(calls);
    expect(followed.medianIntervalMs).toBeGreaterThan(0);
  });
});

/** A node on loopback whose answer to the n-th call (from 1) `answer` decides; undefined: it never answers that call. */
async function nodeAnswering(answer: (n: number) => string | undefined): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const s = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const text = answer(++calls);
      if (text !== undefined) res.writeHead(200, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    calls: () => calls,
    close: () => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); }),
  };
}

const until = async (ok: () => boolean, ms = 5_000): Promise<void> => {
  const end = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('HeadFollower: calls that fail', () => {
  it('counts a call left unanswered past its timeout as failed, then reads on', async () => {
    const node = await nodeAnswering((n) => (n === 2 ? undefined : `{"jsonrpc":"2.0","id":1,"result":${n}}`));
    const follower = new HeadFollower({ url: node.url, profile: referenceProfile(), intervalMs: 10, timeoutMs: 100, originMs: performance.now() });
    try {
      follower.start();
      await until(() => follower.answered >= 3);
      expect(follower.failed).toBe(1);
      expect(follower.lastFailure).toMatch(/no answer within 100 ms/);
      // The heights on both sides of the failed call.
      expect(follower.samples.map((s) => s.height).slice(0, 2)).toEqual([1, 3]);
    } finally {
      await follower.stop();
      await node.close();
    }
  });

  it('counts an answer without a height as failed, and says what it was', async () => {
    const node = await nodeAnswering((n) => (n === 1 ? '{"jsonrpc":"2.0","id":1,"result":"tall"}' : `{"jsonrpc":"2.0","id":1,"result":"0x${n.toString(16)}"}`));
    const follower = new HeadFollower({ url: node.url, profile: referenceProfile(), intervalMs: 5, originMs: performance.now() });
    try {
      follower.start();
      await until(() => follower.answered >= 2);
      expect(follower.failed).toBe(1);
      expect(follower.lastFailure).toBe('HTTP 200: not a height');
    } finally {
      await follower.stop();
      await node.close();
    }
  });

  it('says a JSON-RPC error answer by its code and message', async () => {
    const node = await nodeAnswering((n) => (n === 1 ? '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"temporarily unavailable"}}' : `{"jsonrpc":"2.0","id":1,"result":${n}}`));
    const follower = new HeadFollower({ url: node.url, profile: referenceProfile(), intervalMs: 5, originMs: performance.now() });
    try {
      follower.start();
      await until(() => follower.answered >= 2);
      expect(follower.failed).toBe(1);
      expect(follower.lastFailure).toBe('HTTP 200: JSON-RPC error -32000: temporarily unavailable');
    } finally {
      await follower.stop();
      await node.close();
    }
  });

  it('counts a node that refuses the connection as failed on every tick', async () => {
    const node = await nodeAnswering(() => '{}');
    await node.close();
    const follower = new HeadFollower({ url: node.url, profile: referenceProfile(), intervalMs: 5, originMs: performance.now() });
    follower.start();
    await until(() => follower.failed >= 3);
    await follower.stop();
    expect(follower.answered).toBe(0);
    expect(follower.lastFailure).toMatch(/ECONNREFUSED/);
  });

  it('stops within its timeout while a call hangs, the call counted as failed', async () => {
    const node = await nodeAnswering((n) => (n === 1 ? '{"jsonrpc":"2.0","id":1,"result":1}' : undefined));
    const follower = new HeadFollower({ url: node.url, profile: referenceProfile(), intervalMs: 10, timeoutMs: 300, originMs: performance.now() });
    try {
      follower.start();
      await until(() => node.calls() >= 2);
      const t0 = performance.now();
      await follower.stop();
      expect(performance.now() - t0).toBeLessThan(1_000);
      expect(follower.answered).toBe(1);
      expect(follower.failed).toBe(1);
    } finally {
      await node.close();
    }
  });
});
