/**
 * `chainrpc record` as a user runs it (the build, a reference node on loopback): clients sent through the URL it
 * prints get the node's answers; Ctrl-C ends the recording with the end line written and exit 0; --duration ends
 * it by itself; a capture is never overwritten (exit 2); an upstream that is down is said at once (exit 3); a port
 * in use is exit 2 with nothing written; record import refuses a capture (exit 2).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCapture } from '../load/capture/readCapture.js';
import { startTestNode, type TestNode } from './support/suites.js';
import { runChainrpc, startChainrpc } from './runChainrpc.js';

let dir: string;
let node: TestNode;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-record-'));
  node = await startTestNode();
});

afterAll(async () => {
  await node.stop();
  rmSync(dir, { recursive: true, force: true });
});

const call = async (url: string, body: string): Promise<{ status: number; text: string }> => {
  const res = await fetch(`${url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, text: await res.text() };
};

describe('chainrpc record', () => {
  it('passes calls through the URL it prints; Ctrl-C ends the recording, the capture whole and synced, exit 0', async () => {
    const out = join(dir, 'ctrl-c.ndjson');
    const run = startChainrpc(['record', '--upstream', node.url, '--out', out]);
    const printed = await run.waitFor(/^recording: http:\/\/127\.0\.0\.1:\d+ → /);
    const proxy = /^recording: (\S+)/.exec(printed)?.[1] ?? '';
    const body = '{"jsonrpc":"2.0","method":"chain_getBlockByHeight","params":[0],"id":1}';
    const direct = await call(node.url, body);
    for (let i = 0; i < 5; i++) expect(await call(proxy, body)).toEqual(direct);
    expect((await call(proxy, '[{"jsonrpc":"2.0","method":"chain_health","params":[],"id":1},{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":2}]')).status).toBe(200);
    run.child.kill('SIGINT');
    expect(await run.closed(15_000)).toBe(true);
    expect(run.child.exitCode, run.stderr()).toBe(0);
    expect(run.stdout()).toMatch(/^recorded 6 exchange\(s\) of 6 passed on: /m);
    const capture = readCapture(out);
    expect(capture.end).toMatchObject({ reason: 'interrupted', exchanges: 6 });
    expect(capture.exchanges.map((e) => Object.keys(e.rpc?.methods ?? {}))).toEqual([...Array.from({ length: 5 }, () => ['chain_getBlockByHeight']), ['chain_health', 'chain_blockNumber']]);
    expect(capture.exchanges[0]?.answer).toEqual({ text: direct.text });
  }, 60_000);

  it('--duration ends the recording by itself', async () => {
    const out = join(dir, 'duration.ndjson');
    const r = await runChainrpc('record', '--upstream', node.url, '--out', out, '--duration', '1s');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/, for 1\.00 s; capture: /);
    expect(readCapture(out).end).toMatchObject({ reason: 'duration', exchanges: 0 });
  }, 30_000);

  it('refuses to overwrite a capture (exit 2) and says at once that the upstream is down (exit 3)', async () => {
    const taken = join(dir, 'taken.ndjson');
    writeFileSync(taken, 'mine\n');
    const overwrite = await runChainrpc('record', '--upstream', node.url, '--out', taken, '--duration', '1s');
    expect(overwrite.code).toBe(2);
    expect(overwrite.stderr).toMatch(/taken\.ndjson exists; give another --out/);
    const down = await runChainrpc('record', '--upstream', 'http://127.0.0.1:9', '--out', join(dir, 'down.ndjson'), '--duration', '1s');
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/the upstream http:\/\/127\.0\.0\.1:9 cannot be reached \(ECONNREFUSED\)/);
    expect(existsSync(join(dir, 'down.ndjson'))).toBe(false);
    const missing = await runChainrpc('record', '--out', join(dir, 'x.ndjson'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/give --upstream/);
  }, 30_000);

  it('a port already in use is exit 2 with nothing written: the same --out is taken on the next try', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    const out = join(dir, 'busy.ndjson');
    try {
      const refused = await runChainrpc('record', '--upstream', node.url, '--out', out, '--listen', String(port), '--duration', '1s');
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`));
      expect(existsSync(out)).toBe(false);
    } finally {
      busy.close();
    }
    const again = await runChainrpc('record', '--upstream', node.url, '--out', out, '--duration', '1s');
    expect(again.code, again.stderr).toBe(0);
    expect(readCapture(out).end).toMatchObject({ reason: 'duration', exchanges: 0 });
  }, 30_000);

  it('record import: a capture of request bodies, read back whole; the help says what it takes', async () => {
    const bodies = join(dir, 'bodies.txt');
    writeFileSync(bodies, '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1}\n{"jsonrpc":"2.0","method":"chain_health","params":[],"id":2}\n');
    const out = join(dir, 'imported.ndjson');
    const r = await runChainrpc('record', 'import', bodies, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^imported 2 exchange\(s\) of request bodies: /);
    const capture = readCapture(out);
    expect(capture.end).toMatchObject({ reason: 'imported', exchanges: 2 });
    expect(capture.exchanges.map((e) => Object.keys(e.rpc?.methods ?? {})[0])).toEqual(['chain_blockNumber', 'chain_health']);
    const again = await runChainrpc('record', 'import', bodies, '--out', out);
    expect(again.code).toBe(2);
    // A capture is one already: refused, nothing written.
    const reimport = await runChainrpc('record', 'import', out, '--out', join(dir, 'reimported.ndjson'));
    expect(reimport.code).toBe(2);
    expect(reimport.stderr).toMatch(/imported\.ndjson is already a capture \(chainrpc-capture\/1\): replay it directly/);
    expect(existsSync(join(dir, 'reimported.ndjson'))).toBe(false);
    const help = await runChainrpc('record', 'import', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: chainrpc record import <file> --out <capture\.ndjson>/);
  }, 30_000);
});
