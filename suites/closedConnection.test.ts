// A node that closes the connection on one call, without an answer, while it answers every other: the check whose
// call it is fails (a JSON-RPC server answers every call); a close that does not come again is no verdict on the node.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks, startTestNode } from '../test/support/suites.js';
import type { TestNode } from '../test/support/suites.js';
import { resultOf } from '../test/support/transportChecks.js';
import { errors } from './checks/transport/errors.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(() => node.stop());

/** A proxy to the node that destroys the socket of a request `closes` picks (the n-th such request, from 1), unanswered. */
async function closingProxy(target: string, closes: (body: string, n: number) => boolean): Promise<{ url: string; closed: () => number; stop: () => Promise<void> }> {
  let seen = 0;
  let closed = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (/"chain_getBlockByHeight","params":\["/.test(body) && closes(body, ++seen)) {
        closed++;
        req.socket.destroy();
        return;
      }
      const up = httpRequest(`${target}${req.url ?? '/'}`, { method: req.method, headers: { 'content-type': 'application/json' } }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, { 'content-type': 'application/json' });
        upRes.pipe(res);
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, closed: () => closed, stop: () => new Promise<void>((r) => server.close(() => r())).then(() => undefined) };
}

const INVALID_PARAMS = 'transport/invalid-params';

describe('a node that closes the connection on a call without answering it', () => {
  it('fails the check of that call when it closes it again while it answers a plain call between: not "could not reach"', async () => {
    // An outside tester's node dropped the connection on chain_getBlockByHeight with a string height only: eight checks
    // (three MUST) ended in error as "Could not reach", and the node was never failed.
    const proxy = await closingProxy(node.url, () => true);
    try {
      const r = resultOf(await runChecks(errors.filter((c) => c.id === INVALID_PARAMS), [proxy.url]), INVALID_PARAMS);
      expect(`${r.status}: ${r.evidence.message}`).toMatch(/^fail: .*closed the connection without answering this request, twice, while it answered a plain call between them/);
      expect(r.evidence.actual).toMatch(/closed the connection without a complete answer/);
      expect(proxy.closed()).toBe(2);
    } finally {
      await proxy.stop();
    }
  });

  it('passes when the close does not come again (a connection dropped once is no verdict on the node)', async () => {
    const proxy = await closingProxy(node.url, (_body, n) => n === 1);
    try {
      const r = resultOf(await runChecks(errors.filter((c) => c.id === INVALID_PARAMS), [proxy.url]), INVALID_PARAMS);
      expect(`${r.status}: ${r.evidence.message}`).toMatch(/^pass/);
      expect(proxy.closed()).toBe(1);
    } finally {
      await proxy.stop();
    }
  });
});
