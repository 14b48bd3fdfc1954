/**
 * `chainrpc load k6` in process, before and around the node's setup: what k6 cannot run is refused before the
 * node or --out is touched, and a command that fails before the test is written leaves --out as it found it
 * (the real k6 runs are load/k6/k6.test.ts's, in the process lane).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainrpcError } from '../../../core/errors/ChainrpcError.js';
import { OWNED_MARKER } from '../../../core/files/ownedFolder.js';
import { K6_FOLDER } from '../../../load/k6/writeK6Script.js';
import { CliError } from '../../CliError.js';
import { claimTestFolder, k6Command } from './k6.js';

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-load-k6-'));
let server: Server;
let url: string;
/** Requests the node got. */
let requests = 0;
/** A port nothing listens on. */
let deadUrl: string;

beforeAll(async () => {
  // A node at height 7 that refuses every other call: a setup that reached it would fail at once (no funding).
  server = createServer((req, res) => {
    requests++;
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const answer = (call: { id?: unknown; method?: unknown }): unknown =>
        call.method === 'chain_blockNumber' ? { jsonrpc: '2.0', id: call.id, result: 7 } : { jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'no' } };
      const calls = JSON.parse(body) as { id?: unknown; method?: unknown } | { id?: unknown; method?: unknown }[];
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(calls) ? calls.map(answer) : answer(calls)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = createNetServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  deadUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise((r) => probe.close(r));
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

/** The command's failure (it must fail, with an error whose kind is its exit code). */
async function failure(args: string[]): Promise<ChainrpcError> {
  const error = await k6Command(args).then(
    (code) => new Error(`exit ${code}, not a failure`),
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ChainrpcError);
  return error as ChainrpcError;
}

/** A folder's entries, and the files' contents, to tell it is as it was. */
function snapshot(path: string): Record<string, string> {
  const names = readdirSync(path, { recursive: true, encoding: 'utf8' }).sort();
  return Object.fromEntries(names.map((name) => [name, statSync(join(path, name)).isDirectory() ? '/' : readFileSync(join(path, name), 'utf8')]));
}

describe('load k6: refused before the node or --out is touched', () => {
  it('transactions in batches (the tester: refused only once a whole corpus was funded and signed, leaving --out with it)', async () => {
    const out = join(dir, 'batched');
    const before = requests;
    const error = await failure(['send-raw-tx', '--url', url, '--batch-size', '4', '--out', out]);
    expect(error).toBeInstanceOf(CliError);
    expect(error.kind).toBe('usage');
    expect(error.message).toMatch(/^load k6: k6 cannot run this scenario: transactions in batches \(transactions\.batchSize > 1\)/);
    expect(requests - before, 'requests the node got').toBe(0);
    expect(existsSync(out)).toBe(false);
  });

  it('params the k6 runtime cannot draw, and Poisson arrivals', async () => {
    const before = requests;
    const poisson = join(dir, 'poisson.json');
    writeFileSync(poisson, JSON.stringify({ name: 'p', arrivals: { model: 'open', rate: 10, distribution: 'poisson' }, duration: '2s', mix: [{ method: 'chain_blockNumber' }] }));
    expect((await failure([poisson, '--url', url, '--out', join(dir, 'poisson')])).message).toMatch(/k6 cannot run this scenario: Poisson arrivals/);
    expect(requests - before).toBe(0);
    expect(existsSync(join(dir, 'poisson'))).toBe(false);
  });
});

describe('load k6: a failure before the test is written leaves --out as it found it', () => {
  it('a node that does not answer (exit 3): no folder made, nor its parents', async () => {
    const out = join(dir, 'new', 'deep', 'k6');
    const error = await failure(['reads', '--url', deadUrl, '--out', out]);
    expect(error.kind).toBe('target');
    expect(existsSync(join(dir, 'new'))).toBe(false);
  });

  it('an empty folder stays empty; a folder of an earlier test keeps its files and gains no .work', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect((await failure(['reads', '--url', deadUrl, '--out', empty])).kind).toBe('target');
    expect(readdirSync(empty)).toEqual([]);

    const earlier = join(dir, 'earlier');
    claimTestFolder(earlier);
    writeFileSync(join(earlier, 'script.js'), '// an earlier test');
    writeFileSync(join(earlier, 'chainrpc-summary.json'), '{}');
    const was = snapshot(earlier);
    expect((await failure(['reads', '--url', deadUrl, '--out', earlier])).kind).toBe('target');
    expect(snapshot(earlier)).toEqual(was);
  });

  it('a setup the node refuses (exit 1: no funding) leaves nothing either', async () => {
    const out = join(dir, 'unfunded');
    const error = await failure(['reads', '--url', url, '--out', out]);
    expect(error.kind, error.message).toBe('node');
    expect(existsSync(out)).toBe(false);
  });
});

describe('claimTestFolder', () => {
  it('undoes a claim: the folder it made and its parents made with it, or only the marker and .work of one that was there', () => {
    const base = join(dir, 'claims');
    mkdirSync(base);
    const made = claimTestFolder(join(base, 'a', 'b'));
    mkdirSync(join(base, 'a', 'b', '.work'));
    made.undo();
    expect(readdirSync(base)).toEqual([]);

    // A parent that came to hold something else stays, with it.
    const shared = claimTestFolder(join(base, 'p', 'q'));
    writeFileSync(join(base, 'p', 'mine.txt'), 'x');
    shared.undo();
    expect(readdirSync(join(base, 'p'))).toEqual(['mine.txt']);

    const old = join(base, 'old');
    mkdirSync(old);
    writeFileSync(join(old, 'script.js'), `// k6 test of the chainrpc scenario "reads", generated by chainrpc load k6: do not edit; make it again.\n`);
    const recognised = claimTestFolder(old);
    expect(existsSync(join(old, OWNED_MARKER))).toBe(true);
    recognised.undo();
    expect(readdirSync(old)).toEqual(['script.js']);
    expect(K6_FOLDER.recognise?.(old)).toBe(true);
  });
});
