// The HTTP layer: status policy, limits, timeouts, keep-alive, hostile clients and load, all on loopback.
import { Agent } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../core/json/index.js';
import { createRpcServer } from './createRpcServer.js';
import { httpRequest, member, post, rawExchange, rawStatus, startRpcServer } from '../../test/support/rpc.js';
import type { HttpAnswer, TestRpcServer } from '../../test/support/rpc.js';

const CALL = '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1}';
const ANSWER = '{"jsonrpc":"2.0","id":1,"result":42}';
const LIMIT = 1024;

let server: TestRpcServer;

beforeAll(async () => {
  server = await startRpcServer({ maxBodyBytes: LIMIT });
});
afterAll(async () => {
  await server.close();
});

function expectInvalidRequest(answer: HttpAnswer, reason: RegExp): void {
  expect(answer.headers['content-type']).toBe('application/json');
  const body = parseJson(answer.body);
  expect(member(body, 'id')).toBeNull();
  expect(member(member(body, 'error'), 'code')).toBe(-32600);
  expect(member(member(member(body, 'error'), 'data'), 'reason')).toMatch(reason);
}

const stillServes = async (): Promise<void> => {
  expect((await post(server.url, CALL)).body).toBe(ANSWER);
};

describe('HTTP status policy', () => {
  it('POST /rpc: 200, application/json', async () => {
    const answer = await post(server.url, CALL);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['content-length']).toBe(String(ANSWER.length));
    expect(answer.body).toBe(ANSWER);
  });

  it('a query string does not change the endpoint', async () => {
    const answer = await httpRequest(server.url, { path: '/rpc?x=1', body: CALL, headers: { 'content-type': 'application/json' } });
    expect(answer.body).toBe(ANSWER);
  });

  it('notifications only: 204, no body, no content type', async () => {
    const answer = await post(server.url, '{"jsonrpc":"2.0","method":"chain_blockNumber"}');
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
    expect(answer.headers['content-type']).toBeUndefined();
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('%s /rpc: 405 with Allow: POST and a -32600 body', async (method) => {
    const answer = await httpRequest(server.url, { method, headers: { 'content-type': 'application/json' }, ...(method === 'GET' ? {} : { body: CALL }) });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('POST');
    expectInvalidRequest(answer, /use POST/);
  });

  it('HEAD /rpc: 405 with Allow: POST (and, being HEAD, no body)', async () => {
    const answer = await httpRequest(server.url, { method: 'HEAD' });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('POST');
    expect(answer.body).toBe('');
  });

  it.each([
    ['no content type', undefined],
    ['text/plain', 'text/plain'],
    ['application/jsonx', 'application/jsonx'],
    ['application/json-rpc', 'application/json-rpc'],
    ['form data', 'application/x-www-form-urlencoded'],
  ])('%s: 415 with a -32600 body', async (_name, type) => {
    const answer = await httpRequest(server.url, { body: CALL, headers: type === undefined ? {} : { 'content-type': type } });
    expect(answer.status).toBe(415);
    expectInvalidRequest(answer, /application\/json/);
  });

  it.each(['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8', ' application/json ; foo=bar'])('content type %j is accepted', async (type) => {
    const answer = await httpRequest(server.url, { body: CALL, headers: { 'content-type': type } });
    expect(answer.status).toBe(200);
  });

  it.each(['/', '/rpc/', '/RPC', '/p2p/unknown', '/favicon.ico'])('path %s: 404 with a JSON body', async (path) => {
    const answer = await httpRequest(server.url, { path, body: CALL, headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(404);
    expectInvalidRequest(answer, /POST \/rpc/);
  });

  it('the peer protocol is not served on the JSON-RPC port: /p2p/* is 404 for every method', async () => {
    for (const [method, path] of [['POST', '/p2p/hello'], ['POST', '/p2p/block'], ['GET', '/p2p/blocks?from=0'], ['POST', '/p2p/txs'], ['POST', '/p2p/faucet']] as const) {
      const answer = await httpRequest(server.url, { method, path, ...(method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}) });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
    }
    await stillServes();
  });
});

describe('body size limit (413)', () => {
  it('exactly the limit is read; one byte more is 413', async () => {
    const pad = (n: number): string => `${CALL.slice(0, -1)},"pad":"${'x'.repeat(n - CALL.length - 9)}"}`;
    expect(pad(LIMIT)).toHaveLength(LIMIT);
    expect((await post(server.url, pad(LIMIT))).body).toBe(ANSWER);
    const over = await post(server.url, pad(LIMIT + 1));
    expect(over.status).toBe(413);
    expectInvalidRequest(over, /at most 1024/);
    expect(over.headers.connection).toBe('close');
  });

  it('decided from Content-Length before reading: 1 GiB declared, a few bytes sent, answered at once', async () => {
    const head = 'POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n{"jsonrpc"';
    const answer = await rawExchange(server.port, head, 10_000);
    expect(rawStatus(answer.text)).toBe(413);
    expect(answer.text).toMatch(/connection: close/i);
    expect(answer.text).toMatch(/"code":-32600/);
    // The server closed the connection instead of waiting for (and reading) the rest of the gibibyte.
    expect(answer.closed).toBe(true);
    expect(answer.elapsedMs).toBeLessThan(8_000);
  });

  it('a chunked body is counted while streaming and cut off at the limit', async () => {
    let sent = 0;
    const head = 'POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const chunk = 'x'.repeat(16 * 1024);
    const frame = `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    const answer = await rawExchange(server.port, head, 20_000, (write) => {
      // A client that would stream forever.
      const timer = setInterval(() => {
        if (write(frame)) sent += chunk.length;
      }, 1);
      return () => clearInterval(timer);
    });
    expect(answer.closed).toBe(true);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    expect(rawStatus(answer.text)).toBe(413);
    await stillServes();
  });

  it('Expect: 100-continue with a body over the limit: 413 and no 100 Continue', async () => {
    const answer = await rawExchange(server.port, 'POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n');
    expect(rawStatus(answer.text)).toBe(413);
    expect(answer.text).not.toMatch(/100 Continue/);
  });

  it('Expect: 100-continue within the limit: 100 Continue, then the answer', async () => {
    const answer = await rawExchange(
      server.port,
      `POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${CALL.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      5_000,
      (write) => {
        const timer = setTimeout(() => write(CALL), 100);
        return () => clearTimeout(timer);
      },
    );
    expect(answer.text.startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK')).toBe(true);
    expect(answer.text.endsWith(ANSWER)).toBe(true);
  });
});

describe('connections', () => {
  it('keep-alive: several requests share one connection', async () => {
    let connections = 0;
    const count = (): void => {
      connections++;
    };
    server.rpc.server.on('connection', count);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 5; i++) expect((await post(server.url, CALL, agent)).body).toBe(ANSWER);
      expect(connections).toBe(1);
    } finally {
      agent.destroy();
      server.rpc.server.off('connection', count);
    }
  });

  it('Connection: close is honoured', async () => {
    const answer = await rawExchange(server.port, `POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${CALL.length}\r\nConnection: close\r\n\r\n${CALL}`);
    expect(answer.closed).toBe(true);
    expect(rawStatus(answer.text)).toBe(200);
    expect(answer.text.endsWith(ANSWER)).toBe(true);
  });

  it('two pipelined requests on one connection are both answered, in order', async () => {
    const one = `POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${CALL.length}\r\n\r\n${CALL}`;
    const answer = await rawExchange(server.port, one + one.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
    expect(answer.text.split('HTTP/1.1 200 OK')).toHaveLength(3);
  });

  it.each([
    ['garbage', 'HELLO THERE\r\n\r\n'],
    ['a bad header line', 'POST /rpc HTTP/1.1\r\nHost t\r\n\r\n'],
    ['a bad Content-Length', 'POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n'],
    ['both Content-Length and chunked', 'POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['binary noise', Buffer.from([0, 1, 2, 255, 254, 13, 10, 13, 10])],
  ])('malformed HTTP (%s): 400, connection closed, server unharmed', async (_name, bytes) => {
    const answer = await rawExchange(server.port, bytes);
    expect(answer.closed).toBe(true);
    expect(rawStatus(answer.text)).toBe(400);
    await stillServes();
  });

  it('garbage after a good request on a keep-alive connection: 200, then 400', async () => {
    const answer = await rawExchange(server.port, `POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${CALL.length}\r\n\r\n${CALL}`, 5_000, (write) => {
      const timer = setTimeout(() => write('NONSENSE\r\n\r\n'), 100);
      return () => clearTimeout(timer);
    });
    expect(answer.closed).toBe(true);
    expect(rawStatus(answer.text)).toBe(200);
    expect(answer.text).toMatch(/\r\n\r\n\{"jsonrpc":"2.0","id":1,"result":42\}HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it('headers larger than node:http takes: 431', async () => {
    const answer = await rawExchange(server.port, `POST /rpc HTTP/1.1\r\nHost: t\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(rawStatus(answer.text)).toBe(431);
    await stillServes();
  });

  it('a client that disconnects mid-body does no harm', async () => {
    const answer = await rawExchange(server.port, 'POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"json', 200);
    expect(answer.text).toBe('');
    await stillServes();
  });
});

describe('timeouts', () => {
  it('a client that sends its body too slowly is cut off by requestTimeoutMs (408)', async () => {
    const slow = await startRpcServer({ requestTimeoutMs: 500 });
    try {
      let sent = 0;
      const answer = await rawExchange(slow.port, 'POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n', 15_000, (write) => {
        // One byte every 200 ms: never idle long, but far too slow overall.
        const timer = setInterval(() => {
          write('{');
          sent++;
        }, 200);
        return () => clearInterval(timer);
      });
      expect(answer.closed).toBe(true);
      expect(rawStatus(answer.text)).toBe(408);
      expect(sent).toBeLessThan(50);
      expect(answer.elapsedMs).toBeLessThan(10_000);
    } finally {
      await slow.close();
    }
  });

  it('a client that sends its headers too slowly is cut off by headersTimeoutMs', async () => {
    const slow = await startRpcServer({ headersTimeoutMs: 300 });
    try {
      const head = 'POST /rpc HTTP/1.1\r\nHost: t\r\nX-Slow: ';
      const answer = await rawExchange(slow.port, head, 15_000, (write) => {
        const timer = setInterval(() => write('a'), 100);
        return () => clearInterval(timer);
      });
      expect(answer.closed).toBe(true);
      expect(answer.elapsedMs).toBeLessThan(10_000);
    } finally {
      await slow.close();
    }
  });

  it('an idle keep-alive connection is closed after keepAliveTimeoutMs', async () => {
    const idle = await startRpcServer({ keepAliveTimeoutMs: 200 });
    try {
      const answer = await rawExchange(idle.port, `POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${CALL.length}\r\n\r\n${CALL}`, 10_000);
      expect(answer.text.endsWith(ANSWER)).toBe(true);
      expect(answer.closed).toBe(true);
      expect(answer.elapsedMs).toBeLessThan(8_000);
    } finally {
      await idle.close();
    }
  });
});

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.once('error', reject);
  });
}

describe('load', () => {
  it('1,000 concurrent connections, all open before any request, each get a correct answer', async () => {
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 1000; i += 100) {
        sockets.push(...(await Promise.all(Array.from({ length: 100 }, () => openSocket(server.port)))));
      }
      expect(sockets).toHaveLength(1000);
      const answers = sockets.map((socket, i) => {
        const done = readAll(socket);
        const body = `{"jsonrpc":"2.0","method":"test_echo","params":[${i}],"id":${i}}`;
        socket.write(`POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
        return done;
      });
      const texts = await Promise.all(answers);
      texts.forEach((text, i) => {
        expect(rawStatus(text)).toBe(200);
        expect(text.endsWith(`{"jsonrpc":"2.0","id":${i},"result":[${i}]}`)).toBe(true);
      });
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 60_000);
});

describe('close()', () => {
  it('waits for a call in flight, closes idle keep-alive connections, then stops accepting', async () => {
    const s = await startRpcServer();
    const agent = new Agent({ keepAlive: true });
    try {
      expect((await post(s.url, CALL, agent)).body).toBe(ANSWER); // leaves an idle keep-alive socket
      const inFlight = post(s.url, '{"jsonrpc":"2.0","method":"test_slow","params":[300],"id":1}');
      await new Promise((resolve) => setTimeout(resolve, 100));
      await s.close();
      expect((await inFlight).body).toBe('{"jsonrpc":"2.0","id":1,"result":"done"}');
      await expect(post(s.url, CALL)).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      agent.destroy();
    }
  });

  it('destroys calls still running after the grace period', async () => {
    const s = await startRpcServer({ closeGraceMs: 100 });
    const inFlight = post(s.url, '{"jsonrpc":"2.0","method":"test_slow","params":[5000],"id":1}');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await s.close();
    expect(Date.now() - started).toBeLessThan(4_000);
    await expect(inFlight).rejects.toThrow();
  });

  it('close() twice is one close; listen() reports a busy port', async () => {
    const s = await startRpcServer();
    const other = createRpcServer({ methods: {} });
    await expect(other.listen(s.port, '127.0.0.1')).rejects.toThrow(/EADDRINUSE/);
    await Promise.all([s.close(), s.close()]);
  });
});

describe('setMethods', () => {
  it('replaces the method table', async () => {
    const s = createRpcServer({ methods: {} });
    const { url } = await s.listen(0);
    try {
      expect((await post(url, CALL)).body).toMatch(/-32601/);
      s.setMethods({ chain_blockNumber: () => 7 });
      expect((await post(url, CALL)).body).toBe('{"jsonrpc":"2.0","id":1,"result":7}');
    } finally {
      await s.close();
    }
  });
});

describe('answers their clients do not read', () => {
  it('past the budget, requests get 503 (Retry-After) and nothing runs until the answers are read; then served again', async () => {
    // An outside tester's connections left 27 MB answers unread until the node ran out of memory.
    let ran = 0;
    const s = createRpcServer({ methods: { big: () => 'x'.repeat(24_000_000), chain_blockNumber: () => ++ran }, maxUnreadChars: 1_000_000 });
    const { url } = await s.listen(0, '127.0.0.1');
    const port = Number(new URL(url).port);
    const greedy = await openSocket(port);
    try {
      const body = '{"jsonrpc":"2.0","method":"big","params":[],"id":1}';
      // Sent, and never read: the answer (24 MB, more than the kernel's buffers take) stays in the node.
      greedy.pause();
      greedy.write(`POST /rpc HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
      await new Promise((r) => setTimeout(r, 300));
      const refused = await post(url, CALL);
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.body).toMatch(/characters of answers its clients have not read yet/);
      expect(ran).toBe(0);
      // The greedy client reads its answer: the node serves again.
      const read = readAll(greedy);
      greedy.resume();
      greedy.end();
      expect((await read).length).toBeGreaterThan(24_000_000);
      const served = await post(url, CALL);
      expect(served.status).toBe(200);
      expect(ran).toBe(1);
      // A client that reads its answers, on one keep-alive connection, is never refused: each answer is counted
      // only until it has gone.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let i = 0; i < 3; i++) expect((await post(url, body, agent)).status).toBe(200);
        expect((await post(url, CALL, agent)).status).toBe(200);
      } finally {
        agent.destroy();
      }
    } finally {
      greedy.destroy();
      await s.close();
    }
  }, 30_000);
});
