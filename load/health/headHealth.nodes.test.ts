import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { startTestNode, type TestNode } from '../../test/support/suites.js';
import { HeadFollower } from './HeadFollower.js';
import { headHealth } from './headHealth.js';

const servers: Server[] = [];
const nodes: TestNode[] = [];
afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A node whose heights follow the wall clock, one every 200 ms, `lateMs` late. */
const clockNode = (t0: number, lateMs: number): Promise<string> =>
  listen(createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":1,"result":${50 + Math.floor(Math.max(0, Date.now() - t0 - lateMs) / 200)}}`));
  }));

/** A load balancer as users meet one: each request to the next backend in turn. */
function roundRobin(backends: readonly string[]): Promise<string> {
  let next = 0;
  return listen(createServer((req, res) => {
    const target = new URL(req.url ?? '/', backends[next++ % backends.length]);
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  }));
}

/** Follows the nodes' heads for `ms` at 20 Hz; each one's HeadHealth. */
async function follow(urls: readonly string[], ms: number): Promise<ReturnType<typeof headHealth>> {
  const originMs = performance.now();
  const followers = urls.map((url) => new HeadFollower({ url, profile: referenceProfile(), intervalMs: 50, originMs }));
  for (const f of followers) f.start();
  await new Promise((r) => setTimeout(r, ms));
  await Promise.all(followers.map((f) => f.stop()));
  return headHealth(followers.map((f) => f.followed()), { intervalMs: 50, endMs: performance.now() - originMs, startedAtMs: Date.now() });
}

describe('heights gone backwards, on nodes that serve them', () => {
  it('a reference node with the fault height-regresses shows them, with both answers; an honest one none', async () => {
    const faulty = await startTestNode({ faults: ['height-regresses'] });
    const honest = await startTestNode();
    nodes.push(faulty, honest);
    const result = await follow([faulty.url, honest.url], 1_500);
    const bad = result.get(faulty.url);
    expect(bad?.failed).toBe(0);
    // Every third answer is two blocks lower: about 10 of ~30 reads (fewer reads on a busy machine).
    expect(bad?.regressionCount).toBeGreaterThanOrEqual(3);
    const [first] = bad?.regressions ?? [];
    expect((first?.previous.height ?? 0) - (first?.height ?? 0)).toBeGreaterThanOrEqual(1);
    expect(result.get(honest.url)?.regressionCount).toBe(0);
  }, 20_000);

  it('two nodes 3 blocks apart behind one round-robin balancer read as one node going back and forth; one node behind it does not', async () => {
    const t0 = Date.now();
    const ahead = await clockNode(t0, 0);
    const behind = await clockNode(t0, 600);
    const balanced = await roundRobin([ahead, behind]);
    const single = await roundRobin([ahead]);
    const result = await follow([balanced, single], 1_500);
    // Every read from the node behind, after one from the node ahead, is lower: about half of ~30 reads.
    expect(result.get(balanced)?.regressionCount).toBeGreaterThanOrEqual(4);
    expect(result.get(single)?.regressionCount).toBe(0);
  }, 20_000);
});
