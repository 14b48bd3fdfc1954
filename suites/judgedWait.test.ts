/**
 * Waiting is not judging (docs/conformance-suite.md, rule 4): a check that waits for what comes with blocks (an
 * inclusion, a credit) and does not see it fails only when the chain made blocks meanwhile; on a chain slower than
 * the profile's block time, the wait says nothing of the node, and the check is an error. Against a loopback
 * server whose height stands still or moves, through the real runner.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCheck } from './Check.js';
import { runChecks, testProfile } from '../test/support/suites.js';

let server: Server;
let url: string;
let started = Date.now();
/** Heights a second: 0, the chain stands still. */
let blocksPerSecond = 0;
/** Refuse every other request for the rate (HTTP 429, Retry-After: 0), as a rate-limited node does. */
let refuseHalf = false;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (refuseHalf && requests++ % 2 === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"rate limit exceeded"}}');
        return;
      }
      const id = /"id":(\d+|"[^"]*")/.exec(body)?.[1] ?? 'null';
      const height = 10 + Math.floor(((Date.now() - started) * blocksPerSecond) / 1000);
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":${id},"result":${height}}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

/** A check that waits 600 ms for a credit that never comes. */
const waits = defineCheck({
  id: 'test/judged-wait',
  level: 'SHOULD',
  category: 'state',
  scope: 'node',
  title: 'a credit that never comes',
  spec: 'test',
  async run(ctx) {
    await ctx.waitFor('the credit', () => Promise.resolve(undefined), 600, { inBlocks: true });
    return 'seen';
  },
});

/** The same wait, its probe reading the node (as a check's probe does). */
const readsWhileWaiting = defineCheck({
  id: 'test/judged-wait-reading',
  level: 'SHOULD',
  category: 'state',
  scope: 'node',
  title: 'a credit that never comes, looked for by reading the node',
  spec: 'test',
  async run(ctx) {
    await ctx.waitFor('the credit', async () => {
      await ctx.call('chain_blockNumber');
      return undefined;
    }, 600, { inBlocks: true });
    return 'seen';
  },
});

describe('a judged wait for what comes with blocks', () => {
  it('is an error on a chain that made fewer than 3 blocks meanwhile, naming the profile\'s block time', async () => {
    started = Date.now();
    blocksPerSecond = 0;
    const [result] = await runChecks([waits], [url], { profile: testProfile({ blockTimeMs: 100 }) });
    expect(result?.status).toBe('error');
    expect(result?.evidence.message).toMatch(/the credit was not seen within 600 ms, in which the chain made 0 blocks \(a verdict needs 3\): the chain is slower than the profile's block time \(100 ms\)/);
  });

  it('is a failure once the chain made its blocks and the thing never came', async () => {
    started = Date.now();
    blocksPerSecond = 20;
    const [result] = await runChecks([waits], [url], { profile: testProfile({ blockTimeMs: 100 }) });
    expect(result?.status).toBe('fail');
    expect(result?.evidence.message).toMatch(/the credit did not happen within 600 ms, in which the chain made \d+ blocks/);
  });

  it('is an error when the node refused reads for the rate meanwhile: its probe was held back, no verdict', async () => {
    started = Date.now();
    blocksPerSecond = 20;
    refuseHalf = true;
    try {
      const [result] = await runChecks([readsWhileWaiting], [url], { profile: testProfile({ blockTimeMs: 100 }) });
      expect(result?.status).toBe('error');
      expect(result?.evidence.message).toMatch(/the credit was not seen within 600 ms, in which the node refused \d+ of the run's requests for its rate \(HTTP 429\): the check's reads were held back; no verdict/);
    } finally {
      refuseHalf = false;
    }
    // Read without refusals, the same wait is a failure: the refusals alone made the difference.
    started = Date.now();
    const [result] = await runChecks([readsWhileWaiting], [url], { profile: testProfile({ blockTimeMs: 100 }) });
    expect(result?.status).toBe('fail');
  });
});
