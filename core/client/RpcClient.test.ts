import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcError } from './JsonRpcError.js';
import { createClient, retryAfterMs, type RpcClient } from './RpcClient.js';
import {
  closedPort,
  readRequestHead,
  sendJson,
  startRawTestServer,
  startTestServer,
  type RawTestServer,
  type ReceivedRequest,
  type TestHandler,
  type TestServer,
} from '../../test/support/startTestServer.js';
import { TransportError, type TransportErrorCode } from './TransportError.js';
import type { Exchange, RpcClientOptions } from './types.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  // Server first: destroying its sockets ends anything still in flight, so client.close() cannot hang.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(handler: TestHandler, options: Partial<RpcClientOptions> = {}): Promise<{ server: TestServer; client: RpcClient }> {
  const server = await startTestServer(handler);
  const client = createClient({ baseUrl: server.url, ...options });
  cleanups.push(() => client.close());
  cleanups.push(() => server.close());
  return { server, client };
}

interface RpcRequest {
  readonly method: string;
  readonly params: unknown[];
  readonly id: number;
}

/** A handler that answers each JSON-RPC request (single or batch) with `answer`'s response text. */
function rpcHandler(answer: (request: RpcRequest) => string): TestHandler {
  return (received, res) => {
    const parsed = JSON.parse(received.body.toString('utf8')) as RpcRequest | RpcRequest[];
    const text = Array.isArray(parsed) ? `[${parsed.map(answer).join(',')}]` : answer(parsed);
    sendJson(res, text);
  };
}

function result(id: number, value: string): string {
  return `{"jsonrpc":"2.0","id":${id},"result":${value}}`;
}

/** Never answers: the test's cleanup destroys the socket. */
const silent: TestHandler = () => undefined;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

async function transportError(promise: Promise<unknown>, code: TransportErrorCode): Promise<TransportError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(TransportError);
  const transport = error as TransportError;
  expect(transport.code, transport.message).toBe(code);
  return transport;
}

function body(request: ReceivedRequest | undefined): unknown {
  return JSON.parse(request?.body.toString('utf8') ?? 'null');
}

describe('call', () => {
  it('posts a JSON-RPC 2.0 request to {baseUrl}/rpc and returns the result', async () => {
    const { server, client } = await setup(rpcHandler((r) => result(r.id, '{"status":"ok","mode":"full"}')));
    await expect(client.call('chain_health')).resolves.toEqual({ status: 'ok', mode: 'full' });
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/rpc');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body.toString()).toBe('{"jsonrpc":"2.0","method":"chain_health","params":[],"id":1}');
  });

  it('numbers requests with increasing integer ids and matches each response by its id', async () => {
    // Answers arrive in the reverse order of the requests.
    const { server, client } = await setup(async (received, res) => {
      const { id, params } = body(received) as RpcRequest;
      await new Promise((resolve) => setTimeout(resolve, 100 - Number(params[0]) * 10));
      sendJson(res, result(id, String(params[0])));
    });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => client.call<number>('echo', [i])));
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(server.requests.map((r) => (body(r) as RpcRequest).id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('joins a base path and strips a trailing slash', async () => {
    const server = await startTestServer(rpcHandler((r) => result(r.id, 'true')));
    cleanups.push(() => server.close());
    const client = createClient({ baseUrl: `${server.url}/node-1/` });
    cleanups.push(() => client.close());
    expect(client.url).toBe(`${server.url}/node-1/rpc`);
    await expect(client.call('x')).resolves.toBe(true);
    expect(server.requests[0]?.url).toBe('/node-1/rpc');
  });

  it('returns integers beyond 2^53 exactly as bigint and sends bigint params as integer literals', async () => {
    const { server, client } = await setup(rpcHandler((r) => result(r.id, '{"max":18446744073709551615,"small":7}')));
    await expect(client.call('chain_blockNumber', [2n ** 64n - 1n])).resolves.toEqual({ max: 2n ** 64n - 1n, small: 7 });
    expect(server.requests[0]?.body.toString()).toContain('"params":[18446744073709551615]');
  });

  it('sends the client and per-call headers, one spelling each', async () => {
    const { server, client } = await setup(
      rpcHandler((r) => result(r.id, 'null')),
      { headers: { Authorization: 'Bearer t', 'X-A': '1' } },
    );
    await client.call('x', [], { headers: { 'x-a': '2' } });
    expect(server.requests[0]?.headers).toMatchObject({ authorization: 'Bearer t', 'x-a': '2', 'content-type': 'application/json' });
  });

  it('throws JsonRpcError with code, message, data, the request and a response excerpt', async () => {
    const { client } = await setup(
      rpcHandler(
        (r) => `{"jsonrpc":"2.0","id":${r.id},"error":{"code":-32601,"message":"Method not found","data":{"n":18446744073709551615}}}`,
      ),
    );
    const error = await rejection(client.call('chain_nope', [1]));
    expect(error).toBeInstanceOf(JsonRpcError);
    const rpc = error as JsonRpcError;
    expect(rpc.code).toBe(-32601);
    expect(rpc.rpcMessage).toBe('Method not found');
    expect(rpc.data).toEqual({ n: 2n ** 64n - 1n });
    expect(rpc.method).toBe('chain_nope');
    expect(rpc.id).toBe(1);
    expect(rpc.message).toBe('chain_nope: JSON-RPC error -32601: Method not found');
    expect(rpc.request.body).toBe('{"jsonrpc":"2.0","method":"chain_nope","params":[1],"id":1}');
    expect(rpc.response.status).toBe(200);
    expect(rpc.response.excerpt).toContain('"code":-32601');
    expect(rpc).not.toBeInstanceOf(TransportError);
  });

  it('accepts an error response with id null (the node could not read the id)', async () => {
    const { client } = await setup((_r, res) =>
      sendJson(res, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}', 400),
    );
    const error = await rejection(client.call('x'));
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).response.status).toBe(400);
  });

  it.each([
    ['a wrong jsonrpc version', '{"jsonrpc":"1.0","id":1,"result":1}', /"jsonrpc" must be "2.0"/],
    ['no jsonrpc member', '{"id":1,"result":1}', /"jsonrpc" member is missing/],
    ['another id', '{"jsonrpc":"2.0","id":2,"result":1}', /Response id 2 does not match request id 1/],
    ['a string id', '{"jsonrpc":"2.0","id":"1","result":1}', /Response id "1" does not match/],
    ['result with id null', '{"jsonrpc":"2.0","id":null,"result":1}', /Response id null/],
    ['both result and error', '{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}}', /both "result" and "error"/],
    ['neither result nor error', '{"jsonrpc":"2.0","id":1}', /neither "result" nor "error"/],
    ['an error without an integer code', '{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}', /"error.code" must be an integer/],
    ['an error without a message', '{"jsonrpc":"2.0","id":1,"error":{"code":1}}', /"error.message" must be a string/],
    ['an array for a single call', '[{"jsonrpc":"2.0","id":1,"result":1}]', /got an array/],
  ])('rejects a response with %s as BAD_RESPONSE', async (_name, text, message) => {
    const { client } = await setup((_r, res) => sendJson(res, text));
    const error = await transportError(client.call('x'), 'BAD_RESPONSE');
    expect(error.message).toMatch(message);
    expect(error.response?.excerpt).toBe(text);
    expect(error.request.body).toContain('"method":"x"');
  });
});

describe('batch', () => {
  it('returns outcomes in request order whatever order the node answers in', async () => {
    const { client } = await setup((received, res) => {
      const calls = body(received) as RpcRequest[];
      const answers = calls.map((c) =>
        c.method === 'fail'
          ? `{"jsonrpc":"2.0","id":${c.id},"error":{"code":-32000,"message":"no"}}`
          : result(c.id, JSON.stringify(`${c.method}:${String(c.params[0])}`)),
      );
      // A fixed shuffle: 3, 0, 4, 1, 2.
      sendJson(res, `[${[3, 0, 4, 1, 2].map((i) => answers[i]).join(',')}]`);
    });
    const outcomes = await client.batch([
      { method: 'a', params: [1] },
      { method: 'b', params: [2] },
      { method: 'fail' },
      { method: 'c', params: [3] },
      { method: 'd', params: [4] },
    ]);
    expect(outcomes).toEqual([
      { ok: true, result: 'a:1' },
      { ok: true, result: 'b:2' },
      { ok: false, error: { code: -32000, message: 'no' } },
      { ok: true, result: 'c:3' },
      { ok: true, result: 'd:4' },
    ]);
  });

  it('sends one array with distinct ids and empty params by default', async () => {
    const { server, client } = await setup(rpcHandler((r) => result(r.id, 'null')));
    await client.call('first');
    await client.batch([{ method: 'x' }, { method: 'y', params: [1] }]);
    expect(body(server.requests[1])).toEqual([
      { jsonrpc: '2.0', method: 'x', params: [], id: 2 },
      { jsonrpc: '2.0', method: 'y', params: [1], id: 3 },
    ]);
  });

  it('names the missing id', async () => {
    const { client } = await setup((received, res) => {
      const calls = body(received) as RpcRequest[];
      sendJson(
        res,
        `[${calls
          .filter((c) => c.id !== 2)
          .map((c) => result(c.id, '1'))
          .join(',')}]`,
      );
    });
    const error = await transportError(client.batch([{ method: 'a' }, { method: 'b' }, { method: 'c' }]), 'BAD_RESPONSE');
    expect(error.message).toContain('no response for id 2');
    expect(error.batchIds).toEqual({ missing: [2], duplicated: [], unexpected: [] });
  });

  it('names an extra id and a duplicated id', async () => {
    const { client } = await setup((received, res) => {
      const calls = body(received) as RpcRequest[];
      const answers = calls.map((c) => result(c.id, '1'));
      sendJson(res, `[${[...answers, result(999, '1'), result(1, '2')].join(',')}]`);
    });
    const error = await transportError(client.batch([{ method: 'a' }, { method: 'b' }]), 'BAD_RESPONSE');
    expect(error.message).toContain('more than one response for id 1');
    expect(error.message).toContain('response for id 999, which was not sent');
    expect(error.batchIds).toEqual({ missing: [], duplicated: [1], unexpected: [999] });
  });

  it('rejects a body that is not an array', async () => {
    const { client } = await setup((_r, res) => sendJson(res, '{"jsonrpc":"2.0","id":1,"result":1}'));
    const error = await transportError(client.batch([{ method: 'a' }]), 'BAD_RESPONSE');
    expect(error.message).toContain('expected a JSON array');
  });

  it('throws JsonRpcError when the node rejects the whole batch with one error object', async () => {
    const { client } = await setup((_r, res) =>
      sendJson(res, '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Batches not supported"}}'),
    );
    const error = await rejection(client.batch([{ method: 'a' }]));
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32600, method: 'batch', id: null });
  });
});

describe('notify', () => {
  it('sends no id and reports an empty 204 answer', async () => {
    const { server, client } = await setup((_r, res) => {
      res.writeHead(204);
      res.end();
    });
    const response = await client.notify('chain_ping', [1]);
    expect(body(server.requests[0])).toEqual({ jsonrpc: '2.0', method: 'chain_ping', params: [1] });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.json).toBeUndefined();
    expect(response.parseError).toMatch(/end of input/);
  });

  it('returns what a node that answers anyway sent', async () => {
    const { client } = await setup((_r, res) => sendJson(res, '{"jsonrpc":"2.0","id":null,"result":"pong"}'));
    const response = await client.notify('chain_ping');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ jsonrpc: '2.0', id: null, result: 'pong' });
  });
});

describe('transport failures', () => {
  it('times out a node that never answers: TIMEOUT', async () => {
    const { client } = await setup(silent);
    const error = await transportError(client.call('x', [], { timeoutMs: 200 }), 'TIMEOUT');
    expect(error.message).toContain('200 ms');
    expect(error.request.url).toMatch(/\/rpc$/);
  });

  it('applies the client-wide default timeout', async () => {
    const { client } = await setup(silent, { timeoutMs: 150 });
    await transportError(client.call('x'), 'TIMEOUT');
  });

  it('times out a body that stalls after the headers, keeping the status as evidence', async () => {
    const { client } = await setup((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":"2.0",');
    });
    const error = await transportError(client.call('x', [], { timeoutMs: 300 }), 'TIMEOUT');
    expect(error.response?.status).toBe(200);
  });

  it('stops on the caller AbortSignal: ABORTED', async () => {
    const { client } = await setup(silent);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await transportError(client.call('x', [], { signal: controller.signal }), 'ABORTED');
  });

  it('does not send at all when the signal is already aborted', async () => {
    const { server, client } = await setup(rpcHandler((r) => result(r.id, '1')));
    await transportError(client.call('x', [], { signal: AbortSignal.abort() }), 'ABORTED');
    expect(server.requests).toHaveLength(0);
  });

  it('reports a closed port as REFUSED', async () => {
    const port = await closedPort();
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}` });
    cleanups.push(() => client.close());
    const error = await transportError(client.call('x'), 'REFUSED');
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.details).toMatch(/node is running/);
    expect(error.cause).toBeDefined();
  });

  it('reports a 2xx non-JSON body as NOT_JSON with status, content-type and excerpt', async () => {
    const { client } = await setup((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>gateway says hi</body></html>');
    });
    const error = await transportError(client.call('x'), 'NOT_JSON');
    expect(error.message).toContain('HTTP 200, content-type text/html');
    expect(error.details).toContain('<html><body>gateway says hi');
    expect(error.response).toMatchObject({ status: 200, contentType: 'text/html', excerpt: '<html><body>gateway says hi</body></html>' });
  });

  it.each([
    ['an empty body', Buffer.alloc(0), /end of input/],
    ['invalid UTF-8', Buffer.from([0x22, 0xff, 0x22]), /not valid UTF-8/],
    ['a byte order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(result(1, '1'))]), /Expected a JSON value/],
  ])('reports %s as NOT_JSON', async (_name, bytes, details) => {
    const { client } = await setup((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(bytes);
    });
    const error = await transportError(client.call('x'), 'NOT_JSON');
    expect(error.details).toMatch(details);
  });

  it('reports a non-2xx status without a JSON-RPC body as HTTP_STATUS', async () => {
    const { client } = await setup((_r, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('Bad Gateway');
    });
    const error = await transportError(client.call('x'), 'HTTP_STATUS');
    expect(error.message).toContain('HTTP 502');
    expect(error.response?.excerpt).toBe('Bad Gateway');
  });

  it('reports a non-2xx JSON body that is not JSON-RPC as HTTP_STATUS', async () => {
    const { client } = await setup((_r, res) => sendJson(res, '{"message":"rate limited"}', 429), { rateLimitRetries: 0 });
    const error = await transportError(client.call('x'), 'HTTP_STATUS');
    expect(error.details).toContain('"jsonrpc" member is missing');
  });

  it('still reads a JSON-RPC error sent with a non-2xx status as JsonRpcError', async () => {
    const { client } = await setup(rpcHandler((r) => `{"jsonrpc":"2.0","id":${r.id},"error":{"code":-32603,"message":"Internal error"}}`));
    await expect(client.call('x')).rejects.toBeInstanceOf(JsonRpcError);
  });

  it('stops reading an endless body at the cap: BODY_TOO_LARGE, and the server sees the socket close early', async () => {
    const MiB = 1024 * 1024;
    let written = 0;
    let completed = false;
    let serverDone: () => void = () => undefined;
    const served = new Promise<void>((resolve) => (serverDone = resolve));
    const { client } = await setup(async (_r, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no length to fail fast on
      const chunk = Buffer.alloc(MiB, 0x20);
      const closed = once(res, 'close');
      for (let i = 0; i < 50 && !res.destroyed; i++) {
        written += chunk.length;
        if (!res.write(chunk)) await Promise.race([once(res, 'drain'), closed]);
      }
      completed = !res.destroyed;
      res.end();
      await closed;
      serverDone();
    });
    const error = await transportError(client.call('x', [], { maxResponseBytes: 64 * 1024 }), 'BODY_TOO_LARGE');
    expect(error.message).toContain('65536 bytes');
    expect(error.response?.truncated).toBe(true);
    await served;
    expect(completed).toBe(false);
    expect(written).toBeLessThan(50 * MiB);
  });

  it('gives up at once on a declared Content-Length above the cap', async () => {
    const { client } = await setup((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 50 * 1024 * 1024 });
      res.write(' ');
    });
    const error = await transportError(client.call('x', [], { maxResponseBytes: 1024 }), 'BODY_TOO_LARGE');
    expect(error.details).toContain('declared content-length: 52428800');
  });
});

describe('raw', () => {
  it('reports a 405 plain-text answer to GET as is', async () => {
    const { server, client } = await setup((_r, res) => {
      res.writeHead(405, { 'content-type': 'text/plain', allow: 'POST' });
      res.end('Method Not Allowed');
    });
    const response = await client.raw({ method: 'GET' });
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/rpc' });
    expect(response.status).toBe(405);
    expect(response.headers).toMatchObject({ 'content-type': 'text/plain', allow: 'POST' });
    expect(response.text).toBe('Method Not Allowed');
    expect(response.body).toEqual(Buffer.from('Method Not Allowed'));
    expect(response.json).toBeUndefined();
    expect(response.parseError).toBeDefined();
    expect(response.truncated).toBe(false);
    expect(response.timing.ttfbMs).not.toBeNull();
    expect(response.timing.totalMs).toBeGreaterThanOrEqual(0);
  });

  it('sends arbitrary bytes with exactly the headers given, and parses a JSON answer', async () => {
    const { server, client } = await setup((received, res) => {
      sendJson(res, JSON.stringify({ bytes: [...received.body], contentType: received.headers['content-type'] ?? null }));
    });
    const bytes = new Uint8Array([0x7b, 0xff, 0x00, 0x22]);
    const response = await client.raw({ body: bytes, headers: { 'Content-Type': 'text/plain' }, path: '/rpc?x=1' });
    expect(server.requests[0]?.url).toBe('/rpc?x=1');
    expect(response.json).toEqual({ bytes: [0x7b, 0xff, 0x00, 0x22], contentType: 'text/plain' });
    // No content-type is added when none is given.
    const bare = await client.raw({ body: '{"jsonrpc":"2.0"' });
    expect(bare.json).toEqual({ bytes: [...Buffer.from('{"jsonrpc":"2.0"')], contentType: null });
  });

  it('keeps at most maxBodyBytes and says it truncated', async () => {
    const { client } = await setup((_r, res) => {
      res.writeHead(200);
      res.end(Buffer.alloc(1024 * 1024, 0x61));
    });
    const response = await client.raw({ body: '', maxBodyBytes: 1000 });
    expect(response.truncated).toBe(true);
    expect(response.body.length).toBe(1000);
    expect(response.parseError).toMatch(/truncated/);
  });
});

describe('raw exact', () => {
  async function rawSetup(
    onConnection: (socket: Socket) => void,
    options: Partial<RpcClientOptions> = {},
  ): Promise<{ server: RawTestServer; client: RpcClient }> {
    const server = await startRawTestServer(onConnection);
    const client = createClient({ baseUrl: server.url, ...options });
    cleanups.push(() => client.close());
    cleanups.push(() => server.close());
    return { server, client };
  }

  it('says a node that answers after an unrequested 100 Continue answered (NETWORK, naming it), not that nothing answered', async () => {
    // RFC 9110 §15.2 lets a server send it; undici refuses it ("bad response"). It was said REFUSED: "is the node running?".
    const body = '{"jsonrpc":"2.0","id":1,"result":5}';
    const { client } = await rawSetup((socket) => {
      socket.on('data', () => socket.write(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`));
    });
    const error = await client.call('chain_blockNumber').then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe('NETWORK');
    expect((error as TransportError).message).toMatch(/answered with bytes this client does not read as an HTTP response \(UND_ERR_SOCKET: bad response\)/);
  });

  it('returns the answer of a node that answers 413 and closes while the body is going out', async () => {
    const text = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"too large"}}';
    const exchanges: Exchange[] = [];
    const { client } = await rawSetup(
      (socket) => {
        socket.write(`HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/json\r\ncontent-length: ${text.length}\r\nconnection: close\r\n\r\n${text}`);
        socket.destroy();
      },
      { onExchange: (e) => exchanges.push(e) },
    );
    const body = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const response = await client.raw({ exact: true, body, headers: { 'content-type': 'application/json' } });
    expect(response).toMatchObject({ status: 413, text, truncated: false, json: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'too large' } } });
    expect(response.headers['content-type']).toBe('application/json');
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]).toMatchObject({ kind: 'raw', request: { httpMethod: 'POST', url: `${client.url}` }, response: { status: 413, text } });
    expect(exchanges[0]?.request.bytes.length).toBe(body.length);
  });

  it('sends no content-length and no transfer-encoding with omitContentLength', async () => {
    let head = '';
    const { server, client } = await rawSetup((socket) => {
      void readRequestHead(socket).then((request) => {
        head = request.head;
        socket.end('HTTP/1.1 411 Length Required\r\ncontent-length: 0\r\n\r\n');
      });
    }, { headers: { Authorization: 'Bearer t' } });
    const response = await client.raw({ exact: true, omitContentLength: true });
    expect(head).toBe(`POST /rpc HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\nauthorization: Bearer t\r\nconnection: close\r\n\r\n`);
    expect(response.status).toBe(411);
    expect(response.parseError).toMatch(/end of input/);
  });

  it('reports the same failures as the pool: TIMEOUT, REFUSED, and onExchange sees them', async () => {
    const exchanges: Exchange[] = [];
    const { client } = await rawSetup(() => undefined, { onExchange: (e) => exchanges.push(e) });
    await transportError(client.raw({ exact: true, timeoutMs: 150 }), 'TIMEOUT');
    expect(exchanges[0]?.error?.code).toBe('TIMEOUT');
    const port = await closedPort();
    const refused = createClient({ baseUrl: `http://127.0.0.1:${port}` });
    cleanups.push(() => refused.close());
    await transportError(refused.raw({ exact: true }), 'REFUSED');
  });

  it('refuses omitContentLength without exact', async () => {
    const { client } = await setup(silent);
    await expect(client.raw({ omitContentLength: true })).rejects.toThrow(TypeError);
  });

  it('close() waits for an exact exchange in flight', async () => {
    const { client } = await rawSetup((socket) => {
      void readRequestHead(socket).then(() => setTimeout(() => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'), 100));
    });
    const pending = client.raw({ exact: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await client.close();
    await expect(pending).resolves.toMatchObject({ status: 200, text: 'ok' });
  });
});

describe('rpcPath', () => {
  it.each([
    ['/', '', '/'],
    ['/v1/jsonrpc', '', '/v1/jsonrpc'],
    ['/', '/node-1', '/node-1'],
    ['/v1/jsonrpc/', '/node-1', '/node-1/v1/jsonrpc/'],
  ])('rpcPath %j under base path %j: call, batch, notify and raw go to %s', async (rpcPath, basePath, expected) => {
    const server = await startTestServer(rpcHandler((r) => result(r.id, 'true')));
    cleanups.push(() => server.close());
    const client = createClient({ baseUrl: `${server.url}${basePath}`, rpcPath });
    cleanups.push(() => client.close());
    expect(client.url).toBe(`${server.url}${expected}`);
    await client.call('a');
    await client.batch([{ method: 'b' }]);
    await client.notify('c');
    await client.raw({ body: '{"jsonrpc":"2.0","method":"d","params":[],"id":9}' });
    await client.raw({ exact: true, body: '{"jsonrpc":"2.0","method":"e","params":[],"id":10}' });
    expect(server.requests.map((r) => r.url)).toEqual([expected, expected, expected, expected, expected]);
  });

  it("defaults to '/rpc', and raw's path is still appended to the base path as is", async () => {
    const server = await startTestServer((_r, res) => sendJson(res, '{}'));
    cleanups.push(() => server.close());
    const client = createClient({ baseUrl: `${server.url}/node-1`, rpcPath: '/' });
    cleanups.push(() => client.close());
    await client.raw({ path: '/other', method: 'GET' });
    const defaulted = createClient({ baseUrl: server.url });
    cleanups.push(() => defaulted.close());
    expect(defaulted.url).toBe(`${server.url}/rpc`);
    await defaulted.raw({ method: 'GET' });
    expect(server.requests.map((r) => r.url)).toEqual(['/node-1/other', '/rpc']);
  });

  it('rejects an rpcPath that is not a path', () => {
    for (const rpcPath of ['rpc', '', '/rpc?key=1', '/a#b', '/a b'])
      expect(() => createClient({ baseUrl: 'http://x', rpcPath }), rpcPath).toThrow(/Invalid rpcPath/);
  });
});

describe('connections', () => {
  it('reuses keep-alive connections for sequential calls', async () => {
    const { server, client } = await setup(rpcHandler((r) => result(r.id, '1')));
    for (let i = 0; i < 20; i++) await client.call('x');
    expect(server.requests).toHaveLength(20);
    // undici's Pool marks a socket free a microtask after the body ends, so back-to-back calls
    // alternate between two warm sockets; without keep-alive this would be 20.
    expect(server.connections()).toBeLessThanOrEqual(2);
  });

  it('opens at most `connections` sockets', async () => {
    const { server, client } = await setup(
      async (received, res) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        sendJson(res, result((body(received) as RpcRequest).id, '1'));
      },
      { connections: 2 },
    );
    await Promise.all(Array.from({ length: 6 }, () => client.call('x')));
    expect(server.connections()).toBeLessThanOrEqual(2);
  });

  it('refuses calls after close()', async () => {
    const { client } = await setup(rpcHandler((r) => result(r.id, '1')));
    await client.close();
    await expect(client.call('x')).rejects.toThrow(/closed/);
  });
});

describe('onExchange', () => {
  it('sees every exchange: request bytes, response, timing, and the error when one failed', async () => {
    const exchanges: Exchange[] = [];
    const { client } = await setup(
      rpcHandler((r) => result(r.id, '"ok"')),
      { onExchange: (e) => exchanges.push(e) },
    );
    await client.call('a');
    await client.batch([{ method: 'b' }]);
    await client.notify('c');
    await client.raw({ body: '{"jsonrpc":"2.0","method":"r","params":[],"id":7}', headers: { 'content-type': 'application/json' } });
    await transportError(client.call('d', [], { signal: AbortSignal.abort() }), 'ABORTED');
    expect(exchanges.map((e) => e.kind)).toEqual(['call', 'batch', 'notify', 'raw', 'call']);
    const [first] = exchanges;
    expect(first?.request.body).toBe('{"jsonrpc":"2.0","method":"a","params":[],"id":1}');
    expect(Buffer.from(first?.request.bytes ?? []).toString()).toBe(first?.request.body);
    expect(first?.response).toMatchObject({ status: 200, text: result(1, '"ok"'), truncated: false });
    expect(first?.timing.startedAt).toBeGreaterThan(0);
    expect(first?.error).toBeUndefined();
    expect(exchanges[4]?.error?.code).toBe('ABORTED');
    expect(exchanges[4]?.response).toBeUndefined();
  });
});

describe('options', () => {
  it('rejects a base URL it cannot use', () => {
    expect(() => createClient({ baseUrl: 'localhost:8545' })).toThrow(TypeError);
    expect(() => createClient({ baseUrl: 'ftp://x' })).toThrow(/http and https/);
    expect(() => createClient({ baseUrl: 'http://x/?key=1' })).toThrow(/query/);
    expect(() => createClient({ baseUrl: 'http://x', timeoutMs: 0 })).toThrow(RangeError);
  });
});

describe('a node that refuses for the rate (HTTP 429)', () => {
  const limited = (times: number, retryAfter: string | undefined): { handler: TestHandler; seen: () => number } => {
    let seen = 0;
    const handler: TestHandler = (received, res) => {
      seen++;
      const id = (JSON.parse(received.body.toString('utf8')) as RpcRequest).id;
      if (seen <= times) {
        if (retryAfter !== undefined) res.setHeader('retry-after', retryAfter);
        sendJson(res, `{"jsonrpc":"2.0","id":${id},"error":{"code":-32005,"message":"rate limit exceeded"}}`, 429);
      } else sendJson(res, result(id, '"0x1"'));
    };
    return { handler, seen: () => seen };
  };

  it('is asked again after its Retry-After, and the answer that is not a refusal is the call\'s', async () => {
    const node = limited(2, '0');
    const exchanges: Exchange[] = [];
    const { client } = await setup(node.handler, { onExchange: (e) => exchanges.push(e) });
    await expect(client.call('x')).resolves.toBe('0x1');
    expect(node.seen()).toBe(3);
    expect(exchanges.map((e) => e.response?.status)).toEqual([429, 429, 200]);
  });

  it('after rateLimitRetries, the last refusal is interpreted like any answer', async () => {
    const node = limited(100, '0');
    const { client } = await setup(node.handler, { rateLimitRetries: 2 });
    await expect(client.call('x')).rejects.toBeInstanceOf(JsonRpcError);
    expect(node.seen()).toBe(3);
    const raw = await client.raw({ body: '{"jsonrpc":"2.0","method":"x","params":[],"id":9}', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(429);
    expect(node.seen()).toBe(6);
  });

  it('reads Retry-After as seconds or a date, waits 0.5 s doubling without one, and never more than 5 s', () => {
    const now = Date.parse('2026-11-28T00:00:00Z');
    expect(retryAfterMs('2', 0, now)).toBe(2000);
    expect(retryAfterMs(' 0 ', 3, now)).toBe(0);
    expect(retryAfterMs('Sat, 28 Nov 2026 00:00:03 GMT', 0, now)).toBe(3000);
    expect(retryAfterMs('Fri, 27 Nov 2026 23:00:00 GMT', 0, now)).toBe(0);
    expect(retryAfterMs(undefined, 0, now)).toBe(500);
    expect(retryAfterMs('soon', 2, now)).toBe(2000);
    expect(retryAfterMs('3600', 0, now)).toBe(5000);
    expect(retryAfterMs(undefined, 10, now)).toBe(5000);
  });

  it('keeps its own pace with maxRequestsPerSecond: five calls at 20/s take at least four intervals', async () => {
    const { client } = await setup(rpcHandler((r) => result(r.id, '1')), { maxRequestsPerSecond: 20 });
    const started = performance.now();
    await Promise.all(Array.from({ length: 5 }, () => client.call('x')));
    expect(performance.now() - started).toBeGreaterThanOrEqual(4 * 50 - 1);
  });
});
