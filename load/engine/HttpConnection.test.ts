import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_DEFAULTS } from '../../core/client/index.js';
import { TRANSPORT_CAUSE, type Exchange } from '../metrics/classifyExchange.js';
import { HttpConnection, MAX_RESPONSE_BYTES, parseTarget, RequestEncoder } from './HttpConnection.js';

const servers: (Server | HttpServer)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A raw TCP server: `answer` writes whatever bytes it likes for each request head+body it reads. */
async function rawServer(answer: (socket: Socket, request: string, n: number) => void): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  let n = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let pending = '';
    socket.on('data', (d: Buffer) => {
      pending += d.toString('latin1');
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1) return;
        const length = Number(/content-length: (\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const request = pending.slice(0, end + 4 + length);
        pending = pending.slice(end + 4 + length);
        answer(socket, request, n++);
      }
    });
    socket.on('error', () => {});
  });
  const close = server.close.bind(server);
  server.close = (cb?: (err?: Error) => void) => {
    for (const s of sockets) s.destroy();
    return close(cb);
  };
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`, connections: () => connections };
}

/** Sends `count` requests one after another on one connection and collects the exchanges. */
async function exchanges(url: string, count: number, timeoutMs = 2_000): Promise<{ exchanges: Exchange[]; written: (number | undefined)[] }> {
  const target = parseTarget(url);
  const encoder = new RequestEncoder(target);
  const out: Exchange[] = [];
  const written: (number | undefined)[] = [];
  await new Promise<void>((resolve) => {
    const connection = new HttpConnection<number>(target, {
      ended: (c, i, exchange, writtenMs) => {
        out.push(exchange);
        written.push(writtenMs);
        if (i + 1 < count) c.send(encoder.wire(Buffer.from(`{"n":${i + 1}}`)), i + 1);
        else {
          clearInterval(sweeper);
          c.close();
          resolve();
        }
      },
    });
    const sweeper = setInterval(() => connection.expire(performance.now() - timeoutMs), 10);
    connection.send(encoder.wire(Buffer.from('{"n":0}')), 0);
  });
  return { exchanges: out, written };
}

const text = (e: Exchange | undefined): string => (e?.kind === 'answer' ? `${e.status} ${e.body.toString()}` : `${e?.kind}`);

describe('parseTarget', () => {
  it('reads host, port and path of an http: URL', () => {
    expect(parseTarget('http://127.0.0.1:8545/rpc?x=1')).toEqual({ host: '127.0.0.1', port: 8545, path: '/rpc?x=1', hostHeader: '127.0.0.1:8545' });
    expect(parseTarget('http://[::1]/')).toMatchObject({ host: '::1', port: 80, path: '/' });
  });

  it('refuses what it cannot speak, saying what to do', () => {
    expect(() => parseTarget('https://node.example/rpc')).toThrow(/http: only/);
    expect(() => parseTarget('nope')).toThrow(/not a URL/);
  });
});

describe('HttpConnection', () => {
  it('keeps one connection alive for many requests, sending the exact head and body', async () => {
    const seen: string[] = [];
    const server = await rawServer((socket, request) => {
      seen.push(request);
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\nok');
    });
    const { exchanges: got, written } = await exchanges(server.url, 50);
    expect(got.map(text)).toEqual(Array.from({ length: 50 }, () => '200 ok'));
    expect(written.every((w) => typeof w === 'number')).toBe(true);
    expect(server.connections()).toBe(1);
    expect(seen[0]).toBe(`POST /rpc HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"n":0}`);
  });

  it('reads answers split byte by byte, chunked bodies with trailers, and an interim 100', async () => {
    const server = await rawServer((socket, _, n) => {
      const answers = [
        'HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world',
        'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n',
        'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n\r\nbusy',
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
      ];
      const bytes = Buffer.from(answers[n % answers.length] as string);
      // One byte per write, each its own TCP segment (Nagle off), to prove the parser resumes anywhere.
      socket.setNoDelay(true);
      let i = 0;
      const drip = (): void => {
        if (i < bytes.length) socket.write(bytes.subarray(i, ++i), () => setImmediate(drip));
      };
      drip();
    });
    const { exchanges: got } = await exchanges(server.url, 4);
    expect(got.map(text)).toEqual(['200 hello world', '200 hello world', '503 busy', '200 abc']);
  });

  it('reads a head equal to the last one as that one, and every other head for itself (status, length, close)', async () => {
    const heads = [
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
      'HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nyes',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
      'HTTP/1.1 503 Service Unavailable\r\nContent-Length: 2\r\n\r\nno',
      'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok',
      'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
    ];
    const server = await rawServer((socket, _, n) => {
      const answer = heads[n] as string;
      if (answer.includes('close')) socket.end(answer);
      else socket.write(answer);
    });
    const { exchanges: got } = await exchanges(server.url, heads.length);
    expect(got.map(text)).toEqual(['200 ok', '200 ok', '200 yes', '200 ok', '503 no', '200 ok', '200 ok', '200 ok']);
    // The first connection, and one after each answer that said it closes.
    expect(server.connections()).toBe(3);
  });

  it('connects again when the server closes after an answer (Connection: close, or a body read to the close)', async () => {
    const server = await rawServer((socket, _, n) => {
      if (n % 2 === 0) socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\na');
      else socket.end('HTTP/1.0 200 OK\r\n\r\nread to the close');
    });
    const { exchanges: got } = await exchanges(server.url, 4);
    expect(got.map(text)).toEqual(['200 a', '200 read to the close', '200 a', '200 read to the close']);
    expect(server.connections()).toBe(4);
  });

  it('connects again after a node:http server closes an idle keep-alive connection', async () => {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    server.keepAliveTimeout = 50;
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const target = parseTarget(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const encoder = new RequestEncoder(target);
    const results: string[] = [];
    await new Promise<void>((resolve) => {
      const c = new HttpConnection<number>(target, {
        ended: (conn, i, exchange) => {
          results.push(text(exchange));
          if (i === 0) setTimeout(() => conn.send(encoder.wire(Buffer.from('{}')), 1), 200); // after the server's 50 ms
          else resolve();
        },
      });
      c.send(encoder.wire(Buffer.from('{}')), 0);
    });
    expect(results).toEqual(['200 {}', '200 {}']);
    server.closeAllConnections();
  });

  it('ends a request that outlives its timeout as a timeout, then works on a new connection', async () => {
    const server = await rawServer((socket, _, n) => {
      if (n === 0) return; // never answered
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
    const started = performance.now();
    const { exchanges: got } = await exchanges(server.url, 2, 150);
    expect(got.map(text)).toEqual(['timeout', '200 ok']);
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    expect(server.connections()).toBe(2);
  });

  it('ends an answer completed after its deadline as a timeout, at the deadline, whenever the sweep comes (none here)', async () => {
    // Answers 1 and 3 come 300 ms after the request, past the 200 ms timeout; 0 and 2 come at once. No sweeper runs:
    // the answer itself is judged against its own deadline when it ends (a sweep every timeoutMs/10 let an answer
    // landing between the deadline and the next sweep pass as a success).
    const server = await rawServer((socket, _, n) => {
      const answer = (): void => void socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      if (n % 2 === 1) setTimeout(answer, 300);
      else answer();
    });
    const target = parseTarget(server.url);
    const encoder = new RequestEncoder(target);
    const got: { exchange: Exchange; endedMs: number; startedMs: number }[] = [];
    await new Promise<void>((resolve) => {
      const connection = new HttpConnection<number>(
        target,
        {
          ended: (c, i, exchange, _written, endedMs) => {
            got.push({ exchange, endedMs, startedMs: c.startedMs });
            if (i + 1 < 4) c.send(encoder.wire(Buffer.from('{}')), i + 1);
            else resolve();
          },
        },
        200,
      );
      connection.send(encoder.wire(Buffer.from('{}')), 0);
    });
    expect(got.map((g) => text(g.exchange))).toEqual(['200 ok', 'timeout', '200 ok', 'timeout']);
    // A timeout ends at its deadline: its latency is its timeout, not when it was seen.
    for (const g of got.filter((x) => x.exchange.kind === 'timeout')) expect(g.endedMs - g.startedMs).toBeCloseTo(200, 6);
    // The late answer was read whole: the connection stays usable (no new connection for it).
    expect(server.connections()).toBe(1);
  });

  it('reports a refused connection as a transport failure, never written, and tells its owner', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const target = parseTarget(`http://127.0.0.1:${port}/`);
    const connects: boolean[] = [];
    const ended = await new Promise<{ exchange: Exchange; written: number | undefined }>((resolve) => {
      new HttpConnection<null>(target, {
        ended: (_, __, exchange, written) => resolve({ exchange, written }),
        connected: (ok) => connects.push(ok),
      }).send(Buffer.from('x'), null);
    });
    expect(ended.exchange).toMatchObject({ kind: 'transport', cause: 'connection refused', reason: expect.stringMatching(/ECONNREFUSED/) as unknown });
    expect(ended.written).toBeUndefined();
    expect(connects).toEqual([false]);
  });

  it('reports garbage instead of HTTP as a transport failure', async () => {
    const server = await rawServer((socket) => socket.write('SSH-2.0-OpenSSH\r\n\r\n'));
    const { exchanges: got } = await exchanges(server.url, 1);
    expect(got[0]).toMatchObject({ kind: 'transport', cause: TRANSPORT_CAUSE.unreadable, reason: expect.stringMatching(/not an HTTP/) as unknown });
  });
});

describe('HttpConnection: an answer over the size limit', () => {
  const MiB = 1024 * 1024;
  const OVER = /an answer over the load engine's limit of 16777216 bytes \(16 MiB\)/;
  const ok = Buffer.from('{"jsonrpc":"2.0","id":1,"result":1}');
  /** The second request's answer, after a first one over the limit: proves the first connection was closed. */
  const thenOk = (socket: Socket): void => {
    socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${ok.length}\r\n\r\n`);
    socket.write(ok);
  };

  it('is the probe\'s limit: 16 MiB, as core/client reads answers', () => {
    expect(MAX_RESPONSE_BYTES).toBe(CLIENT_DEFAULTS.maxResponseBytes);
    expect(MAX_RESPONSE_BYTES).toBe(16_777_216);
  });

  it('a Content-Length over it: a transport failure at once, before the body is read, and the connection closed', async () => {
    // The body never comes: the failure is the head's alone, well within the timeout.
    const server = await rawServer((socket, _, n) => (n === 0 ? socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${20_000_000}\r\n\r\n{"jsonrpc"`) : thenOk(socket)));
    const started = performance.now();
    const { exchanges: got } = await exchanges(server.url, 2, 5_000);
    expect(got[0]).toMatchObject({ kind: 'transport', cause: TRANSPORT_CAUSE.tooLarge, reason: expect.stringMatching(OVER) as unknown });
    expect((got[0] as { reason: string }).reason).toContain('Content-Length 20000000');
    expect(text(got[1])).toBe(`200 ${ok.toString()}`);
    expect(server.connections()).toBe(2);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('a chunked body that grows over it, and a body read to the close: transport failures, the connection closed', async () => {
    const chunk = Buffer.alloc(MiB, 0x61);
    const chunked = await rawServer((socket, _, n) => {
      if (n > 0) return thenOk(socket);
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      for (let i = 0; i < 20; i++) socket.write(Buffer.concat([Buffer.from(`${MiB.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
      socket.write('0\r\n\r\n');
    });
    const a = await exchanges(chunked.url, 2, 10_000);
    expect(a.exchanges[0]).toMatchObject({ kind: 'transport', cause: TRANSPORT_CAUSE.tooLarge, reason: expect.stringMatching(OVER) as unknown });
    expect(text(a.exchanges[1])).toBe(`200 ${ok.toString()}`);
    expect(chunked.connections()).toBe(2);

    const toClose = await rawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\n\r\n');
      for (let i = 0; i < 20; i++) socket.write(chunk);
      socket.end();
    });
    const b = await exchanges(toClose.url, 1, 10_000);
    expect(b.exchanges[0]).toMatchObject({ kind: 'transport', cause: TRANSPORT_CAUSE.tooLarge, reason: expect.stringMatching(OVER) as unknown });
  }, 20_000);

  it('a chunk of 8 MiB that comes over many reads is taken as it comes, and read whole, byte for byte', async () => {
    const chunk = Buffer.alloc(8 * 1024 * 1024);
    for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31) & 0xff;
    const server = await rawServer((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n`);
      for (let at = 0; at < chunk.length; at += 16 * 1024) socket.write(chunk.subarray(at, at + 16 * 1024));
      socket.write('\r\n3\r\nend\r\n0\r\n\r\n');
    });
    const { exchanges: got } = await exchanges(server.url, 1, 10_000);
    const body = got[0]?.kind === 'answer' ? got[0].body : Buffer.alloc(0);
    expect(body.length).toBe(chunk.length + 3);
    expect(body.subarray(0, chunk.length).equals(chunk)).toBe(true);
    expect(body.subarray(chunk.length).toString()).toBe('end');
  }, 20_000);

  it('an answer of exactly 16 MiB is read whole', async () => {
    const body = Buffer.alloc(MAX_RESPONSE_BYTES, 0x20);
    const server = await rawServer((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`);
      socket.write(body);
    });
    const { exchanges: got } = await exchanges(server.url, 1, 10_000);
    expect(got[0]?.kind).toBe('answer');
    expect(got[0]?.kind === 'answer' ? got[0].body.length : 0).toBe(MAX_RESPONSE_BYTES);
  }, 20_000);
});
