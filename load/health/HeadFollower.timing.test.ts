import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { HeadFollower } from './HeadFollower.js';
import { headHealth } from './headHealth.js';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r())))));

/** A node whose heights follow the wall clock (one every `blockMs` from `t0`), each served `lateMs` late. */
async function clockNode(t0: number, blockMs: number, lateMs: number): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const height = 100 + Math.floor(Math.max(0, Date.now() - t0 - lateMs) / blockMs);
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":1,"result":${height}}`);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('HeadFollower against nodes whose head lag is known', () => {
  it('measures a node serving each height 300 ms late within the sampling period + 5%, and 0 for one on time', async () => {
    const t0 = Date.now();
    const BLOCK = 250;
    const urls = [await clockNode(t0, BLOCK, 0), await clockNode(t0, BLOCK, 300)];
    const originMs = performance.now();
    const profile = referenceProfile();
    const followers = urls.map((url) => new HeadFollower({ url, profile, intervalMs: 50, originMs }));
    for (const f of followers) f.start();
    await new Promise((r) => setTimeout(r, 4_000));
    await Promise.all(followers.map((f) => f.stop()));
    const result = headHealth(followers.map((f) => f.followed()), { intervalMs: 50, endMs: performance.now() - originMs, startedAtMs: Date.now() });
    const onTime = result.get(urls[0] ?? '');
    const late = result.get(urls[1] ?? '');
    // 20 Hz: at least 60 calls in 4 s each, even on a busy machine.
    expect(onTime?.samples).toBeGreaterThanOrEqual(60);
    expect(onTime?.failed).toBe(0);
    expect(onTime?.blockTimeMs).toBeGreaterThan(BLOCK * 0.8);
    expect(onTime?.blockTimeMs).toBeLessThan(BLOCK * 1.2);
    const bound = 50 + 0.05 * 300;
    expect(onTime?.lagMs?.p50).toBeLessThanOrEqual(bound);
    expect(late?.lagMs?.p50).toBeGreaterThanOrEqual(300 - bound);
    expect(late?.lagMs?.p50).toBeLessThanOrEqual(300 + bound);
    expect(late?.stalls).toEqual([]);
    expect(late?.regressionCount).toBe(0);
  }, 20_000);
});
