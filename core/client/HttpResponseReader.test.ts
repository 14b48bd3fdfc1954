import { describe, expect, it } from 'vitest';
import { HttpResponseReader, type HttpResponseReaderOptions } from './HttpResponseReader.js';

interface Read {
  readonly reader: HttpResponseReader;
  readonly text: string;
}

function reader(options: Partial<HttpResponseReaderOptions> = {}): HttpResponseReader {
  return new HttpResponseReader({ requestMethod: 'POST', maxBodyBytes: 1024 * 1024, ...options });
}

/** Feeds `wire` in pieces of `piece` bytes, then ends the connection when `close` is set. */
function read(wire: string | Buffer, piece = Infinity, options: Partial<HttpResponseReaderOptions> = {}, close = false): Read {
  const bytes = typeof wire === 'string' ? Buffer.from(wire, 'latin1') : wire;
  const r = reader(options);
  const step = Number.isFinite(piece) ? piece : bytes.length || 1;
  for (let i = 0; i < bytes.length; i += step) r.push(bytes.subarray(i, i + step));
  if (close) r.end();
  return { reader: r, text: r.body().toString('latin1') };
}

/** What a reader says from outside. */
function outcome({ reader: r, text }: Read): unknown {
  return { head: r.head, problem: r.problem, done: r.done, truncated: r.truncated, text };
}

/** The same response, read whole, byte by byte, and split at every position: one outcome. */
function everySplit(wire: string, options: Partial<HttpResponseReaderOptions> = {}, close = false): Read {
  const whole = read(wire, Infinity, options, close);
  expect(outcome(read(wire, 1, options, close))).toEqual(outcome(whole));
  const bytes = Buffer.from(wire, 'latin1');
  for (let at = 1; at < bytes.length; at++) {
    const r = reader(options);
    r.push(bytes.subarray(0, at));
    r.push(bytes.subarray(at));
    if (close) r.end();
    expect(outcome({ reader: r, text: r.body().toString('latin1') }), `split at ${at}`).toEqual(outcome(whole));
  }
  return whole;
}

describe('HttpResponseReader', () => {
  it('reads a Content-Length response, lower-casing names and joining repeated fields', () => {
    const { reader: r, text } = everySplit(
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-A: 1\r\nx-a:  2 \r\nContent-Length: 7\r\n\r\n{"a":1}EXTRA',
    );
    expect(r.done).toBe(true);
    expect(r.head).toEqual({ status: 200, headers: { 'content-type': 'application/json', 'x-a': '1, 2', 'content-length': '7' }, fields: [['content-type', 'application/json'], ['x-a', '1'], ['x-a', '2'], ['content-length', '7']] });
    expect(text).toBe('{"a":1}');
    expect(r.truncated).toBe(false);
  });

  it('de-chunks a chunked body with extensions and trailers', () => {
    const { reader: r, text } = everySplit(
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: t\r\n\r\n',
    );
    expect(r.done).toBe(true);
    expect(text).toBe('hello world');
    expect(r.head?.headers['x-trailer']).toBeUndefined();
  });

  it('lets Transfer-Encoding override Content-Length, and reads to the close when chunked is not last', () => {
    expect(read('HTTP/1.1 200 OK\r\ncontent-length: 100\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n').text).toBe('ok');
    const gzip = read('HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\nabc');
    expect(gzip.reader.done).toBe(false);
    gzip.reader.end();
    expect(gzip.reader.done).toBe(true);
  });

  it('reads a body without framing until the connection closes', () => {
    const open = read('HTTP/1.0 200 OK\r\ncontent-type: text/plain\r\n\r\nuntil close');
    expect(open.reader.done).toBe(false);
    const { reader: r, text } = everySplit('HTTP/1.0 200 OK\r\ncontent-type: text/plain\r\n\r\nuntil close', {}, true);
    expect(r.done).toBe(true);
    expect(text).toBe('until close');
  });

  it('skips interim responses (100 Continue, 103 Early Hints) and keeps the final one', () => {
    const { reader: r, text } = everySplit(
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 413 Payload Too Large\r\ncontent-length: 2\r\n\r\n{}',
    );
    expect(r.head).toMatchObject({ status: 413, headers: { 'content-length': '2' } });
    expect(text).toBe('{}');
  });

  it('reads no body for HEAD, 204, 304 and 101', () => {
    expect(read('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n', Infinity, { requestMethod: 'HEAD' }).reader.done).toBe(true);
    expect(read('HTTP/1.1 204 No Content\r\n\r\n').reader.done).toBe(true);
    expect(read('HTTP/1.1 304 Not Modified\r\ncontent-length: 5\r\n\r\n').reader.done).toBe(true);
    expect(read('HTTP/1.1 101 Switching Protocols\r\nupgrade: x\r\n\r\n\u0001\u0002').reader.head?.status).toBe(101);
  });

  it('accepts bare LF line ends, a missing reason phrase and obs-fold (RFC 9112 §2.2, §4, §5.2)', () => {
    const { reader: r, text } = everySplit('HTTP/1.1 200\nx-long: a\n  b\ncontent-length: 2\n\nok');
    expect(r.head).toMatchObject({ status: 200, headers: { 'x-long': 'a b', 'content-length': '2' } });
    expect(text).toBe('ok');
  });

  it('keeps a field named __proto__ as data', () => {
    const r = read('HTTP/1.1 200 OK\r\n__proto__: x\r\ncontent-length: 0\r\n\r\n').reader;
    expect(Object.getOwnPropertyDescriptor(r.head?.headers, '__proto__')?.value).toBe('x');
  });

  it('cuts the body at maxBodyBytes and is then done', () => {
    const body = 'a'.repeat(100);
    for (const wire of [
      `HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n${body}`,
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n64\r\n${body}\r\n0\r\n\r\n`,
      `HTTP/1.1 200 OK\r\n\r\n${body}`,
    ]) {
      const { reader: r, text } = read(wire, 7, { maxBodyBytes: 10 });
      expect(r.done).toBe(true);
      expect(r.truncated).toBe(true);
      expect(text).toBe('a'.repeat(10));
    }
    const exact = read(`HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n${'b'.repeat(10)}`, 3, { maxBodyBytes: 10 });
    expect(exact.reader.truncated).toBe(false);
  });

  it.each([
    ['an SSH banner', 'SSH-2.0-OpenSSH_9.6\r\n', /does not start with an HTTP status line: it starts "SSH-2.0/],
    ['a TLS alert', Buffer.from([0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x46]), /does not start with an HTTP status line/],
    ['HTTP/2', 'HTTP/2 200\r\n\r\n', /malformed status line/],
    ['HTTP/2.0', 'HTTP/2.0 200 OK\r\n\r\n', /unsupported HTTP version HTTP\/2.0/],
    ['a two-digit status', 'HTTP/1.1 20 OK\r\n\r\n', /malformed status line/],
    ['a field without a colon', 'HTTP/1.1 200 OK\r\nnocolon\r\n\r\n', /malformed header field line "nocolon"/],
    ['space before the colon', 'HTTP/1.1 200 OK\r\nx-a : 1\r\n\r\n', /malformed header field line/],
    ['a fold before any field', 'HTTP/1.1 200 OK\r\n folded\r\n\r\n', /starts with whitespace/],
    ['conflicting Content-Lengths', 'HTTP/1.1 200 OK\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n', /invalid Content-Length "1, 2"/],
    ['a negative Content-Length', 'HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n', /invalid Content-Length/],
    ['a bad chunk size', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n', /malformed chunk size line "zz"/],
    ['a huge chunk size', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nfffffffffffffff\r\n', /malformed chunk size/],
    ['chunk data without CRLF', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nokXX\r\n', /expected CRLF after 2 bytes/],
  ])('reports %s as a problem', (_name, wire, problem) => {
    const { reader: r } = read(wire);
    expect(r.problem).toMatch(problem);
    expect(r.done).toBe(false);
  });

  it('says "not HTTP" from the first bytes, before any newline', () => {
    const r = reader();
    r.push(Buffer.from('<ht'));
    expect(r.problem).toMatch(/does not start with an HTTP status line: it starts "<ht"/);
  });

  it('bounds the head and the chunk size line', () => {
    const r = reader({ maxHeadBytes: 1024 });
    r.push(Buffer.from('HTTP/1.1 200 OK\r\n'));
    for (let i = 0; i < 100 && r.problem === undefined; i++) r.push(Buffer.from(`x-${i}: ${'v'.repeat(20)}\r\n`));
    expect(r.problem).toBe('a response head longer than 1024 bytes');
    const endless = reader({ maxHeadBytes: 1024 });
    endless.push(Buffer.from('HTTP/1.1 200 OK\r\nx: '));
    endless.push(Buffer.alloc(2000, 0x61));
    expect(endless.problem).toBe('a response head longer than 1024 bytes');
    const chunk = read(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1;${'e'.repeat(5000)}`).reader;
    expect(chunk.problem).toBe('a chunk size line longer than 4096 bytes');
  });

  it('says what was missing when the connection ended early', () => {
    const missing = (wire: string): string => {
      const r = read(wire).reader;
      r.end();
      expect(r.done).toBe(false);
      return r.missing();
    };
    expect(missing('')).toBe('before any byte of a response');
    expect(missing('HTTP/1.1 2')).toBe('before the status line was complete');
    expect(missing('HTTP/1.1 200 OK\r\nx: 1\r\n')).toBe('before the response head was complete');
    expect(missing('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc')).toBe('after 3 of 10 body bytes (content-length)');
    expect(missing('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n')).toBe(
      'before the end of the chunked body (3 body bytes read)',
    );
  });
});
