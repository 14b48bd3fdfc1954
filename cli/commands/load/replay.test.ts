/**
 * `chainrpc load replay`'s refusals that come before any node is asked (in process: the command's own words).
 */
import { existsSync, mkdirSync, readdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../core/json/index.js';
import { importCapture } from '../../../load/capture/importCapture.js';
import { CAPTURE_FORMAT } from '../../../load/capture/captureFormat.js';
import { replayCommand } from './replay.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-replay-cmd-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const BODY = '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1}';

describe('chainrpc load replay --diff-recorded on a capture without answers', () => {
  it('says an imported capture of request bodies holds no answers (not that it was recorded with --no-answers)', async () => {
    const imported = importCapture(`${BODY}\n`, 'bodies', { file: 'bodies.txt', version: 't' });
    const path = join(dir, 'bodies.ndjson');
    writeFileSync(path, [imported.header, ...imported.exchanges, { end: true, exchanges: 1, reason: 'imported', endedAt: '2026-11-27T08:00:00.000Z' }].map((l) => `${stringifyJson(l as never)}\n`).join(''));
    const run = replayCommand([path, '--url', 'http://127.0.0.1:9', '--diff-recorded']);
    await expect(run).rejects.toThrow(/bodies\.ndjson was imported from request bodies \(chainrpc record import\) and holds no answers/);
    await expect(run).rejects.not.toThrow(/--no-answers/);
    await expect(replayCommand([path, '--url', 'http://127.0.0.1:9', '--rebase-heights'])).rejects.toThrow(/imported from request bodies: it holds no answers/);
  });

  it('says a capture recorded with --no-answers was', async () => {
    const path = join(dir, 'no-answers.ndjson');
    const header = { format: CAPTURE_FORMAT, startedAt: '2026-11-27T08:00:00.000Z', upstream: 'http://127.0.0.1:1', answers: false, tool: { name: 'chainrpc', version: 't' } };
    const exchange = { t: 0, method: 'POST', path: '/rpc', contentType: 'application/json', request: { text: BODY }, rpc: { methods: { chain_blockNumber: 1 }, batch: null, ids: [1], notifications: 0 }, status: 200, ms: 1 };
    writeFileSync(path, [header, exchange, { end: true, exchanges: 1, reason: 'interrupted', endedAt: '2026-11-27T08:00:01.000Z' }].map((l) => `${JSON.stringify(l)}\n`).join(''));
    await expect(replayCommand([path, '--url', 'http://127.0.0.1:9', '--diff-recorded'])).rejects.toThrow(/no-answers\.ndjson was recorded with --no-answers/);
  });
});

describe('chainrpc load replay --k6 against a node that does not answer', () => {
  it('exits with the node unreachable and leaves --out as it was: no folder made, nor its parents; an empty folder stays empty', async () => {
    const imported = importCapture(`${BODY}\n`, 'bodies', { file: 'bodies.txt', version: 't' });
    const path = join(dir, 'k6-bodies.ndjson');
    writeFileSync(path, [imported.header, ...imported.exchanges, { end: true, exchanges: 1, reason: 'imported', endedAt: '2026-11-27T08:00:00.000Z' }].map((l) => `${stringifyJson(l as never)}\n`).join(''));
    const out = join(dir, 'made', 'k6-test');
    await expect(replayCommand([path, '--url', 'http://127.0.0.1:9', '--rate', '5', '--k6', out])).rejects.toThrow(/nothing answered|unreachable|is the node running/);
    expect(existsSync(join(dir, 'made'))).toBe(false);
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    await expect(replayCommand([path, '--url', 'http://127.0.0.1:9', '--rate', '5', '--k6', empty])).rejects.toThrow();
    expect(readdirSync(empty)).toEqual([]);
  });
});
