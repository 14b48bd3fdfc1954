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
