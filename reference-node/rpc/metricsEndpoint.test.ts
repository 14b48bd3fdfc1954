// GET /metrics on the RPC server (any MetricsSource), beside POST /rpc on the same port, through real HTTP on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, post, startRpcServer } from '../../test/support/rpc.js';
import type { TestRpcServer } from '../../test/support/rpc.js';
import type { MetricsSource } from './types.js';

const CALL = '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1}';
const TEXT = '# TYPE a_metric gauge\na_metric 1\n';
const TYPE = 'text/plain; version=0.0.4; charset=utf-8';

let scrapes = 0;
let failing = false;
const source: MetricsSource = {
  contentType: TYPE,
  text: () => {
    scrapes++;
    return failing ? Promise.reject(new Error('collect failed')) : Promise.resolve(TEXT);
  },
};

const settled: string[] = [];
let server: TestRpcServer;
let plain: TestRpcServer;

beforeAll(async () => {
  server = await startRpcServer({ metrics: source, onSettled: (method, code) => settled.push(`${method ?? '-'} ${code ?? 'ok'}`) });
  plain = await startRpcServer();
});
afterAll(async () => {
  await Promise.all([server.close(), plain.close()]);
});

describe('GET /metrics', () => {
  it('answers 200 with the source text and its content type, read anew each time, a query string aside', async () => {
    const before = scrapes;
    for (const path of ['/metrics', '/metrics?name[]=a_metric']) {
      const answer = await httpRequest(server.url, { method: 'GET', path });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe(TYPE);
      expect(answer.headers['content-length']).toBe(String(TEXT.length));
      expect(answer.body).toBe(TEXT);
    }
    expect(scrapes - before).toBe(2);
  });

  it('HEAD: the headers of GET, no body', async () => {
    const answer = await httpRequest(server.url, { method: 'HEAD', path: '/metrics' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(TYPE);
    expect(answer.headers['content-length']).toBe(String(TEXT.length));
    expect(answer.body).toBe('');
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('%s /metrics: 405 with Allow: GET, HEAD', async (method) => {
    const answer = await httpRequest(server.url, { method, path: '/metrics', headers: { 'content-type': 'application/json' }, body: CALL });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD');
  });

  it('a source that fails: 500, logged, and the server goes on serving', async () => {
    failing = true;
    try {
      const answer = await httpRequest(server.url, { method: 'GET', path: '/metrics' });
      expect(answer.status).toBe(500);
      expect(answer.body).not.toContain('collect failed');
      expect(server.logged.at(-1)).toMatch(/collect failed/);
    } finally {
      failing = false;
    }
    expect((await httpRequest(server.url, { method: 'GET', path: '/metrics' })).status).toBe(200);
    expect((await post(server.url, CALL)).status).toBe(200);
  });

  it('without a source, /metrics is a path like any other: 404', async () => {
    const answer = await httpRequest(plain.url, { method: 'GET', path: '/metrics' });
    expect(answer.status).toBe(404);
  });

  it('leaves /rpc and the other paths as they were', async () => {
    expect((await post(server.url, CALL)).body).toBe('{"jsonrpc":"2.0","id":1,"result":42}');
    const get = await httpRequest(server.url, { method: 'GET', path: '/rpc' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    for (const path of ['/', '/metrics/', '/METRICS', '/rpc/metrics']) expect((await httpRequest(server.url, { method: 'GET', path })).status).toBe(404);
  });
});

describe('onSettled on the server', () => {
  it('is told of each call, of a body that is not UTF-8 (a parse error), and of no scrape', async () => {
    settled.length = 0;
    await post(server.url, CALL);
    await post(server.url, Buffer.from([0x7b, 0xff, 0x7d]));
    await post(server.url, '{"jsonrpc":"2.0","method":"nope","id":2}');
    await httpRequest(server.url, { method: 'GET', path: '/metrics' });
    expect(settled).toEqual(['chain_blockNumber ok', '- -32700', '- -32601']);
  });
});
