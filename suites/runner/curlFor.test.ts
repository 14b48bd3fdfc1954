import { execFile, execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startTestServer } from '../../test/support/startTestServer.js';
import type { TestServer } from '../../test/support/startTestServer.js';
import type { Exchange } from '../model.js';
import { curlFor } from './curlFor.js';

const run = promisify(execFile);

const exchangeTo = (url: string, body: string, headers: Record<string, string> = {}): Exchange => ({
  node: url,
  request: { method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, body },
  ms: 1,
  startedAt: '2025-03-01T12:00:00.000Z',
});

const hasCurl = ((): boolean => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const SKIP_NOTE = 'skipped: curl is not installed, so the generated commands cannot be run';
if (!hasCurl) console.warn(SKIP_NOTE);

describe('curlFor', () => {
  it('writes the plain form for a printable body, without the headers curl computes itself', () => {
    const cmd = curlFor(exchangeTo('http://127.0.0.1:8545/rpc', '{"a":"it\'s"}', { 'content-length': '999', host: 'x', 'user-agent': 'chainrpc/0.1.0' }));
    expect(cmd).toBe(
      `curl -sS -X POST 'http://127.0.0.1:8545/rpc' -H 'content-type: application/json' -H 'user-agent: chainrpc/0.1.0' --data-binary '{"a":"it'\\''s"}'`,
    );
  });

  it('pipes a body with control characters through printf octal escapes', () => {
    const cmd = curlFor(exchangeTo('http://h/rpc', '-a\u0000\n%s\\\'9é'));
    expect(cmd).toBe(`printf '\\055a\\000\\012\\045s\\134\\0479\\303\\251' | curl -sS -X POST 'http://h/rpc' -H 'content-type: application/json' --data-binary @-`);
  });

  it('sends an empty POST body as one, and no body only where none was sent', () => {
    const ex = exchangeTo('http://h/rpc', '');
    expect(curlFor(ex)).toBe(`curl -sS -X POST 'http://h/rpc' -H 'content-type: application/json' --data-binary ''`);
    ex.request.bodyless = true;
    expect(curlFor(ex)).toBe(`curl -sS -X POST 'http://h/rpc' -H 'content-type: application/json'`);
  });

  it('leaves out --data-binary for a GET without a body and quotes an unusual method', () => {
    const ex = exchangeTo('http://h/rpc', '');
    ex.request.method = 'GET';
    expect(curlFor(ex)).toBe(`curl -sS -X GET 'http://h/rpc' -H 'content-type: application/json'`);
    ex.request.method = 'M;rm';
    expect(curlFor(ex)).toContain(`-X 'M;rm'`);
  });
});

const BODIES: [string, string][] = [
  ['an empty body', ''],
  ['compact JSON', '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1}'],
  ['single quotes and shell syntax', `{"q":"it's","cmd":"$(touch /tmp/pwned) \`id\` $HOME * ; | & > < ! ~ # \\\\"}`],
  ['printf directives and backslashes', '%s %d %% %b \\n \\0 \\x41 \\\\ 100%'],
  ['a leading dash', '--data-binary'],
  ['newlines, tabs and CR', '[\n\t{"a":1},\r\n\t{"b":2}\r]\n'],
  ['NUL and other controls', '\u0000{"x":"\u0001\u0007\u001b[31m\u007f"}\u0000'],
  ['digits right after an escape', '\u00011234\u00005678'],
  ['non-ASCII text', '{"city":"Zürich","jp":"日本語","emoji":"🦀✓","nbsp":"\u00a0"}'],
  ['bidi and zero-width characters', 'a\u202eb\u200bc\u2028d\ufeff'],
  ['a large body', `[${Array.from({ length: 400 }, (_, i) => `{"jsonrpc":"2.0","method":"m${i}","params":["${'ab'.repeat(32)}"],"id":${i}}`).join(',')}]`],
];

// The POSIX shells at hand, each once (on Debian sh is dash).
const shells = [...new Map(['sh', 'bash', 'dash', 'zsh', 'ksh'].filter((s) => existsSync(`/bin/${s}`)).map((s) => [realpathSync(`/bin/${s}`), s])).values()];

describe.skipIf(!hasCurl)(`curlFor, run with curl by ${shells.join(', ')}${hasCurl ? '' : ` (${SKIP_NOTE})`}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer((_req, res) => sendJson(res, '{"jsonrpc":"2.0","result":"ok","id":1}'));
  });
  afterAll(async () => {
    await server.close();
  });

  for (const shell of shells) {
    it.each(BODIES)(`${shell}: the node receives exactly the bytes of %s`, async (_name, body) => {
      const before = server.requests.length;
      const cmd = curlFor(exchangeTo(`${server.url}/rpc`, body, { 'content-length': '1', 'user-agent': 'chainrpc/0.1.0' }));
      const { stdout } = await run(shell, ['-c', cmd], { encoding: 'utf8', timeout: 10_000 });
      expect(stdout).toBe('{"jsonrpc":"2.0","result":"ok","id":1}');
      expect(server.requests).toHaveLength(before + 1);
      const received = server.requests[before];
      expect(received?.method).toBe('POST');
      expect(received?.url).toBe('/rpc');
      expect(received?.headers['content-type']).toBe('application/json');
      expect(received?.headers['user-agent']).toBe('chainrpc/0.1.0');
      expect(received?.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
      expect(received?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    });
  }

  it('a request recorded as sent without a body reaches the node without one: no Content-Length, no Transfer-Encoding', async () => {
    const before = server.requests.length;
    const ex = exchangeTo(`${server.url}/rpc`, '');
    ex.request.bodyless = true;
    await run('sh', ['-c', curlFor(ex)], { encoding: 'utf8', timeout: 10_000 });
    const received = server.requests[before];
    expect(received?.headers['content-length']).toBeUndefined();
    expect(received?.headers['transfer-encoding']).toBeUndefined();
    expect(received?.body.length).toBe(0);
  });
});
