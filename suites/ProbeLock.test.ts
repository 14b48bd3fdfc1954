import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks, startTestNode, testProfile } from '../test/support/suites.js';
import type { TestNode } from '../test/support/suites.js';
import { transportChecks } from './checks/transport/index.js';
import { ProbeLock } from './ProbeLock.js';

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('ProbeLock', () => {
  it('lets probes go one at a time, in the order they asked', async () => {
    const lock = new ProbeLock();
    const signal = new AbortController().signal;
    const log: string[] = [];
    let release = (): void => undefined;
    const first = lock.alone(signal, async () => {
      log.push('a starts');
      await new Promise<void>((r) => (release = r));
      log.push('a ends');
    });
    const second = lock.alone(signal, () => {
      log.push('b runs');
      return Promise.resolve();
    });
    const third = lock.alone(signal, () => {
      log.push('c runs');
      return Promise.resolve();
    });
    await tick();
    expect(log).toEqual(['a starts']);
    release();
    await Promise.all([first, second, third]);
    expect(log).toEqual(['a starts', 'a ends', 'b runs', 'c runs']);
  });

  it('a probe whose check is stopped while it waits leaves the queue, and the probes behind it go on', async () => {
    const lock = new ProbeLock();
    const run = new AbortController();
    let release = (): void => undefined;
    const holding = lock.alone(run.signal, () => new Promise<void>((r) => (release = r)));
    const stopped = new AbortController();
    const waiting = lock.alone(stopped.signal, () => Promise.resolve('ran'));
    const behind = lock.alone(run.signal, () => Promise.resolve('behind ran'));
    stopped.abort();
    await expect(waiting).rejects.toThrow(/the check was stopped/);
    release();
    await holding;
    await expect(behind).resolves.toBe('behind ran');
  });
});

/**
 * A node that dies on one body over its size limit (a node team's real crash: the body is read whole, then
 * something on its path throws out of the handler): the listener closes and every connection is cut. Below the
 * limit, requests go to a reference node.
 */
async function startFragileNode(target: string, limit: number): Promise<{ url: string; close(): Promise<void>; killedBy: () => string | undefined }> {
  let killedBy: string | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.length > limit) {
        killedBy ??= `${req.method ?? ''} of ${body.length} bytes`;
        server.close();
        server.closeAllConnections();
        return;
      }
      const up = httpRequest(`${target}${req.url ?? '/'}`, { method: req.method, headers: { 'content-type': req.headers['content-type'] ?? 'application/json' } }, (upRes) => {
        const { 'content-length': _length, 'transfer-encoding': _encoding, connection: _connection, 'keep-alive': _keepAlive, ...headers } = upRes.headers;
        res.writeHead(upRes.statusCode ?? 502, headers);
        upRes.pipe(res);
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    killedBy: () => killedBy,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('a node killed by one request, with checks running beside it', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode();
  });
  afterAll(async () => {
    await node.stop();
  });

  it('blames the one request that killed it: only that check fails; those beside it and after it end in error, naming it', async () => {
    const LIMIT = 20_000;
    const fragile = await startFragileNode(node.url, LIMIT);
    try {
      const results = await runChecks(transportChecks, [fragile.url], { profile: testProfile({ maxBodyBytes: LIMIT }) });
      expect(fragile.killedBy()).toBeDefined();
      const died = results.filter((r) => /the node died after this request/.test(r.evidence.message));
      expect(died.map((r) => `${r.id}: ${r.status}: ${r.evidence.message}`)).toHaveLength(1);
      const [killer] = died;
      expect(killer?.status).toBe('fail');
      // The blamed request is the one over the limit: its body, as the exchange shown keeps it, is that long.
      const shown = killer?.evidence.exchanges.find((e) => e.request.truncated === true || e.request.body.length > LIMIT);
      expect(shown, `${killer?.id}: ${killer?.evidence.message}`).toBeDefined();
      // Every other check that did not pass could not judge: an error (or a skip), never a failure.
      const others = results.filter((r) => r !== killer && r.status === 'fail');
      expect(others.map((r) => `${r.id}: ${r.evidence.message}`)).toEqual([]);
      // Those whose probe came after say after what the node stopped.
      const after = results.filter((r) => r.status === 'error' && /no longer answered before this check's request/.test(r.evidence.message));
      for (const r of after) expect(r.evidence.message).toContain(`(${killer?.id ?? ''})`);
    } finally {
      await fragile.close();
    }
  });
});
