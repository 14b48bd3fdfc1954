/**
 * The recording proxy against a real reference node on loopback: what a client gets through it is what it gets
 * from the node directly (status, content type, body bytes), for calls, batches, notifications, a malformed
 * body, invalid UTF-8 and another HTTP method; the capture holds each exchange exactly, indexed, in order,
 * valid under schemas/load/capture.schema.json; an upstream that gives no answer, and the size bound.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sendExactHttp } from '../../core/client/sendExactHttp.js';
import { startTestNode, type TestNode } from '../../test/support/suites.js';
import { bodyBytes, CAPTURE_FORMAT } from './captureFormat.js';
import { CaptureWriter } from './CaptureWriter.js';
import { CaptureError, parseCapture, readCapture } from './readCapture.js';
import { RecordingProxy, underPrefix } from './RecordingProxy.js';

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

let files = 0;
function recorder(upstream: string, options: { maxBytes?: number; answers?: boolean; onFull?: () => void } = {}): Promise<{ proxy: RecordingProxy; writer: CaptureWriter; path: string }> {
  const path = join(dir, `capture-${++files}.ndjson`);
  const writer = new CaptureWriter(path, { format: CAPTURE_FORMAT, startedAt: new Date().toISOString(), upstream, answers: options.answers ?? true, tool: { name: 'chainrpc', version: 'test' } }, { maxBytes: options.maxBytes ?? 1024 ** 3, ...(options.onFull === undefined ? {} : { onFull: options.onFull }) });
  return RecordingProxy.start({ upstream, host: '127.0.0.1', port: 0, writer, answers: options.answers ?? true, maxBodyBytes: 1024 * 1024, timeoutMs: 5_000, originMs: performance.now() }).then((proxy) => {
    cleanups.push(() => proxy.close());
    return { proxy, writer, path };
  });
}

async function node(): Promise<TestNode> {
  const n = await startTestNode();
  cleanups.push(() => n.stop());
  return n;
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Requests whose answers do not change from one moment to the next (no head, no clock). */
const REQUESTS: { what: string; method: string; body?: Uint8Array; contentType?: string }[] = [
  { what: 'a call', method: 'POST', body: utf8('{"jsonrpc":"2.0","method":"chain_getBlockByHeight","params":[0],"id":7}') },
  { what: 'a batch with a notification and a bad call', method: 'POST', body: utf8('[{"jsonrpc":"2.0","method":"chain_getBlockByHeight","params":[0],"id":"a"},{"jsonrpc":"2.0","method":"chain_health","params":[]},{"jsonrpc":"2.0","method":"chain_getAccount","params":[12],"id":2}]') },
  { what: 'notifications only', method: 'POST', body: utf8('[{"jsonrpc":"2.0","method":"chain_health"}]') },
  { what: 'a malformed body', method: 'POST', body: utf8('{"jsonrpc":"2.0","method":') },
  { what: 'invalid UTF-8', method: 'POST', body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) },
  { what: 'another HTTP method', method: 'GET' },
  { what: 'another content type', method: 'POST', body: utf8('{"jsonrpc":"2.0","method":"chain_health","params":[],"id":1}'), contentType: 'text/plain' },
];

const send = (origin: string, r: (typeof REQUESTS)[number]) => sendExactHttp({ origin, method: r.method, path: '/rpc', headers: r.body === undefined ? {} : { 'content-type': r.contentType ?? 'application/json' }, body: r.body, timeoutMs: 5_000, maxBodyBytes: 1024 * 1024 });

describe('RecordingProxy', () => {
  it('passes every request and answer through unchanged, and records each exchange exactly, in order', async () => {
    const n = await node();
    const { proxy, writer, path } = await recorder(n.url);
    const got: { status: number; type: string | undefined; body: string }[] = [];
    for (const r of REQUESTS) {
      const direct = await send(n.url, r);
      const through = await send(proxy.url, r);
      const seen = (x: typeof direct) => ({ status: x.status, type: x.headers['content-type'], body: Buffer.from(x.body).toString('base64') });
      expect(seen(through), r.what).toEqual(seen(direct));
      got.push(seen(through));
    }
    await proxy.close();
    writer.close('interrupted');
    const capture = readCapture(path);
    expect(capture.header).toMatchObject({ format: CAPTURE_FORMAT, upstream: n.url, answers: true });
    expect(capture.end).toMatchObject({ end: true, exchanges: REQUESTS.length, reason: 'interrupted' });
    expect(capture.cutShort).toBe(false);
    expect(capture.exchanges.map((e) => e.method)).toEqual(REQUESTS.map((r) => r.method));
    capture.exchanges.forEach((e, i) => {
      const r = REQUESTS[i];
      expect(Buffer.from(bodyBytes(e.request)).equals(Buffer.from(r?.body ?? new Uint8Array(0))), r?.what).toBe(true);
      expect(e.status).toBe(got[i]?.status);
      expect(e.answer === undefined ? undefined : bodyBytes(e.answer).toString('base64')).toBe(got[i]?.body);
      expect(e.path).toBe('/rpc');
      expect(e.ms).toBeGreaterThan(0);
      if (i > 0) expect(e.t).toBeGreaterThanOrEqual(capture.exchanges[i - 1]?.t ?? 0);
    });
    const [call, batch, notifications, malformed, invalid] = capture.exchanges;
    expect(call?.rpc).toEqual({ methods: { chain_getBlockByHeight: 1 }, batch: null, ids: [7], notifications: 0 });
    expect(batch?.rpc).toEqual({ methods: { chain_getBlockByHeight: 1, chain_health: 1, chain_getAccount: 1 }, batch: 3, ids: ['a', 2], notifications: 1 });
    expect(notifications?.rpc).toMatchObject({ batch: 1, notifications: 1, ids: [] });
    expect(malformed?.rpc).toBeNull();
    expect(invalid?.request).toEqual({ base64: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64') });
    expect(proxy.passed).toBe(REQUESTS.length);
  });

  it('an upstream URL with a path: the proxy\'s root is that path itself (not the path and a slash), other targets go under it', async () => {
    const n = await node();
    const { proxy } = await recorder(`${n.url}/rpc`);
    const call = REQUESTS[0] as (typeof REQUESTS)[number];
    const at = (path: string) => sendExactHttp({ origin: proxy.url, method: 'POST', path, headers: { 'content-type': 'application/json' }, body: call.body, timeoutMs: 5_000, maxBodyBytes: 1024 * 1024 });
    const direct = await send(n.url, call);
    for (const path of ['/', '/?x=1']) {
      const through = await at(path);
      expect(through.status, path).toBe(200);
      expect(Buffer.from(through.body).toString(), path).toBe(Buffer.from(direct.body).toString());
    }
    // Under the path: /rpc/rpc, which the node does not serve.
    expect((await at('/rpc')).status).toBe(404);
    expect(underPrefix('/rpc', '/')).toBe('/rpc');
    expect(underPrefix('/rpc', '/?a=b')).toBe('/rpc?a=b');
    expect(underPrefix('/v1', '/rpc')).toBe('/v1/rpc');
    expect(underPrefix('', '/')).toBe('/');
  });

  it('--no-answers keeps statuses and times, not the answers', async () => {
    const n = await node();
    const { proxy, writer, path } = await recorder(n.url, { answers: false });
    await send(proxy.url, REQUESTS[0] as (typeof REQUESTS)[number]);
    await proxy.close();
    writer.close('duration');
    const capture = readCapture(path);
    expect(capture.header.answers).toBe(false);
    expect(capture.exchanges[0]).toMatchObject({ status: 200 });
    expect(capture.exchanges[0]?.answer).toBeUndefined();
  });

  it('passes repeated header fields back field by field: two Set-Cookie lines stay two (RFC 9110 §5.3)', async () => {
    const upstream = createHttpServer((req, res) => req.resume().on('end', () => {
      res.writeHead(418, [['set-cookie', 'a=1'], ['set-cookie', 'b=2; Path=/'], ['x-note', 'kept']].flat());
      res.end('{}');
    }));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => upstream.close(() => r())));
    const { proxy, writer } = await recorder(`http://127.0.0.1:${(upstream.address() as { port: number }).port}`);
    const raw = await new Promise<string[]>((resolve, reject) => {
      const u = new URL(proxy.url);
      request({ host: u.hostname, port: u.port, path: '/rpc', method: 'POST' }, (res) => {
        res.resume();
        resolve(res.rawHeaders);
      }).on('error', reject).end('{"jsonrpc":"2.0","method":"chain_health","params":[],"id":1}');
    });
    const pairs = raw.flatMap((v, i) => (i % 2 === 0 ? [[v.toLowerCase(), raw[i + 1]]] : []));
    expect(pairs.filter(([k]) => k === 'set-cookie')).toEqual([['set-cookie', 'a=1'], ['set-cookie', 'b=2; Path=/']]);
    expect(pairs).toContainEqual(['x-note', 'kept']);
    await proxy.close();
    writer.close('interrupted');
  });

  it('an upstream that gives no answer: the client gets a 502 saying so, the exchange is recorded as a failure', async () => {
    // A port nothing listens on any more.
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const { proxy, writer, path } = await recorder(`http://127.0.0.1:${closed}`);
    const r = await send(proxy.url, REQUESTS[0] as (typeof REQUESTS)[number]);
    expect(r.status).toBe(502);
    expect(Buffer.from(r.body).toString()).toMatch(/the upstream gave no answer/);
    await proxy.close();
    writer.close('interrupted');
    const [e] = readCapture(path).exchanges;
    expect(e).toMatchObject({ status: null });
    expect(e?.failure).toMatch(/ECONNREFUSED|refused|connect/i);
  });

  it('a client that goes away mid-request: nothing reaches the node or the capture, and the proxy goes on', async () => {
    const n = await node();
    const { proxy, writer, path } = await recorder(n.url);
    const { port } = new URL(proxy.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => {
        socket.write('POST /rpc HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"jsonrpc"');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on('error', reject);
    });
    await new Promise((r) => setTimeout(r, 50));
    expect((await send(proxy.url, REQUESTS[0] as (typeof REQUESTS)[number])).status).toBe(200);
    await proxy.close();
    writer.close('interrupted');
    expect(readCapture(path).exchanges.map((e) => e.rpc?.ids)).toEqual([[7]]);
  });

  it('stops recording at its size bound, says so once and in the end line, and goes on passing traffic', async () => {
    const n = await node();
    let told = 0;
    const { proxy, writer, path } = await recorder(n.url, { maxBytes: 4_000, onFull: () => told++ });
    for (let i = 0; i < 20; i++) expect((await send(proxy.url, REQUESTS[0] as (typeof REQUESTS)[number])).status).toBe(200);
    await proxy.close();
    writer.close('duration');
    const capture = readCapture(path);
    expect(told).toBe(1);
    expect(capture.exchanges.length).toBeGreaterThan(0);
    expect(capture.exchanges.length).toBeLessThan(20);
    expect(capture.end).toMatchObject({ reason: 'max-size', exchanges: capture.exchanges.length });
    expect(proxy.passed).toBe(20);
    // The bound holds but for the end line, which says where the recording stopped.
    const endLine = readFileSync(path, 'utf8').trimEnd().split('\n').at(-1) ?? '';
    expect(statSync(path).size - endLine.length - 1).toBeLessThanOrEqual(4_000);
  });
});

describe('CaptureWriter', () => {
  it('never overwrites a file that is there, even one made after the command looked', () => {
    const path = join(dir, 'taken.ndjson');
    writeFileSync(path, 'somebody else\'s capture\n');
    expect(() => new CaptureWriter(path, { format: CAPTURE_FORMAT, startedAt: new Date().toISOString(), upstream: 'http://127.0.0.1:9', answers: true, tool: { name: 'chainrpc', version: 'test' } }, { maxBytes: 1024 })).toThrow(/EEXIST/);
    expect(readFileSync(path, 'utf8')).toBe('somebody else\'s capture\n');
  });
});

describe('readCapture', () => {
  const header = `{"format":"${CAPTURE_FORMAT}","startedAt":"2026-11-27T08:00:00.000Z","upstream":"http://127.0.0.1:1","answers":true,"tool":{"name":"chainrpc","version":"x"}}`;
  const exchange = '{"t":1.5,"method":"POST","path":"/rpc","contentType":"application/json","request":{"text":"{}"},"rpc":null,"status":200,"ms":0.4,"answer":{"text":"{}"}}';

  it('reads a capture killed while it wrote up to its last whole line, and says the rest was cut short', () => {
    const capture = parseCapture(`${header}\n${exchange}\n${exchange.slice(0, 30)}`, 'c.ndjson');
    expect(capture.exchanges).toHaveLength(1);
    expect(capture.cutShort).toBe(true);
    expect(capture.end).toBeUndefined();
  });

  it('reads a file line by line, lines across its reads whole and multi-byte characters intact, as the text reader does', () => {
    // 3,000 lines of about 1.3 KB: lines cross the reader's 1 MiB reads, some inside a multi-byte character.
    const line = (i: number): string => exchange.replace('"request":{"text":"{}"}', `"request":{"text":${JSON.stringify(`{"n":${i},"pad":"${'é€'.repeat(200 + (i % 7))}"}`)}}`);
    const text = `${header}\n${Array.from({ length: 3_000 }, (_, i) => line(i)).join('\n')}\n${exchange.slice(0, 40)}`;
    const path = join(dir, 'large.ndjson');
    writeFileSync(path, text);
    const read = readCapture(path);
    expect(read).toEqual(parseCapture(text, path));
    expect(read.exchanges).toHaveLength(3_000);
    expect(read.exchanges[2_999]?.request).toEqual({ text: `{"n":2999,"pad":"${'é€'.repeat(200 + (2_999 % 7))}"}` });
    expect(read.cutShort).toBe(true);
  });

  it('refuses what is not a capture, naming the line and the rule', () => {
    const path = join(dir, 'not-a-capture.json');
    writeFileSync(path, '{"format":"chainrpc-corpus/1"}\n');
    expect(() => readCapture(path)).toThrow(/is not a capture this chainrpc reads: its first line's format is "chainrpc-corpus\/1"/);
    expect(() => parseCapture('', 'e.ndjson')).toThrow(/is not a capture: it is empty/);
    expect(() => parseCapture('hello\n', 'h.ndjson')).toThrow(CaptureError);
    expect(() => parseCapture(`${header}\n${exchange.replace('"status":200', '"status":"ok"')}\n`, 'b.ndjson')).toThrow(/b\.ndjson:2: not a valid exchange line .*status/);
    expect(() => parseCapture(`${header}\n{"end":true,"exchanges":0,"reason":"duration","endedAt":"x"}\n${exchange}\n`, 'a.ndjson')).toThrow(/a\.ndjson:3: a line after the end line/);
  });

  it('refuses a capture whose end line counts other exchanges than it holds (lines removed or added since), and reads one that agrees', () => {
    const end = (n: number): string => `{"end":true,"exchanges":${n},"reason":"duration","endedAt":"2026-11-27T08:01:00.000Z"}`;
    expect(parseCapture(`${header}\n${exchange}\n${exchange}\n${end(2)}\n`, 'ok.ndjson').exchanges).toHaveLength(2);
    expect(() => parseCapture(`${header}\n${exchange}\n${end(3)}\n`, 'less.ndjson')).toThrow(/less\.ndjson: its end line counts 3 exchanges, and it holds 1: lines were lost or removed .*remove the end line too/);
    expect(() => parseCapture(`${header}\n${exchange}\n${exchange}\n${end(1)}\n`, 'more.ndjson')).toThrow(/counts 1 exchange, and it holds 2: lines were added/);
    // Without its end line, a part of a capture is read as it is.
    expect(parseCapture(`${header}\n${exchange}\n`, 'part.ndjson').exchanges).toHaveLength(1);
  });
});
