/**
 * Imports (importCapture.ts): request bodies one per line, each kept exactly; a chainrpc test transcript, each
 * exchange's request, answer and time, one node's only, what a transcript cut at 4 KiB left out and counted; the
 * result a capture readCapture reads back.
 */
import { describe, expect, it } from 'vitest';
import { renderTranscript } from '../../reports/conformance/renderTranscript.js';
import type { Exchange } from '../../suites/model.js';
import { bodyBytes, CAPTURE_FORMAT } from './captureFormat.js';
import { detectImport, importCapture } from './importCapture.js';
import { parseCapture } from './readCapture.js';
import { stringifyJson } from '../../core/json/index.js';

const asCapture = (imported: ReturnType<typeof importCapture>): ReturnType<typeof parseCapture> =>
  parseCapture([imported.header, ...imported.exchanges, { end: true, exchanges: imported.exchanges.length, reason: 'imported', endedAt: '2026-11-27T08:00:00.000Z' }].map((l) => `${stringifyJson(l as never)}\n`).join(''), 'imported');

const exchange = (node: string, at: string, body: string, answer: string | undefined, extra: Partial<Exchange> = {}): Exchange => ({
  node,
  request: { method: 'POST', url: `${node}/rpc`, headers: { 'content-type': 'application/json' }, body },
  ...(answer === undefined ? { failure: 'REFUSED: connection refused' } : { response: { status: 200, headers: { 'content-type': 'application/json' }, body: answer, truncated: false } }),
  ms: 1.5,
  startedAt: at,
  ...extra,
});

describe('importCapture', () => {
  it('request bodies, one per line: each kept exactly, indexed, no timing and no answers', () => {
    const text = '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1}\n\n[{"jsonrpc":"2.0","method":"chain_health","id":2}]\r\nnot json at all\n';
    expect(detectImport(text)).toBe('bodies');
    const imported = importCapture(text, 'bodies', { file: 'bodies.txt', version: 't' });
    expect(imported.header).toMatchObject({ format: CAPTURE_FORMAT, answers: false });
    expect(imported.exchanges.map((e) => bodyBytes(e.request).toString())).toEqual(['{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1}', '[{"jsonrpc":"2.0","method":"chain_health","id":2}]', 'not json at all']);
    expect(imported.exchanges.map((e) => e.rpc?.batch ?? null)).toEqual([null, 1, null]);
    expect(imported.exchanges.every((e) => e.t === 0 && e.status === null && e.answer === undefined)).toBe(true);
    expect(asCapture(imported).exchanges).toHaveLength(3);
  });

  it("a chainrpc test transcript: one node's exchanges, their answers and offsets; what was cut at 4 KiB left out and counted", () => {
    const a = 'http://127.0.0.1:1';
    const b = 'http://127.0.0.1:2';
    const text = renderTranscript([
      exchange(a, '2026-11-27T08:00:00.000Z', '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1}', '{"jsonrpc":"2.0","id":1,"result":8}'),
      exchange(b, '2026-11-27T08:00:00.100Z', '{"jsonrpc":"2.0","method":"chain_health","params":[],"id":1}', '{}'),
      exchange(a, '2026-11-27T08:00:00.250Z', '{"jsonrpc":"2.0","method":"chain_getAccount","params":["ab"],"id":2}', undefined),
      exchange(a, '2026-11-27T08:00:00.300Z', 'x'.repeat(40), '{}', { request: { method: 'POST', url: `${a}/rpc`, headers: {}, body: 'x…', truncated: true } }),
    ]);
    expect(detectImport(text)).toBe('transcript');
    expect(() => importCapture(text, 'transcript', { file: 't.ndjson', version: 't' })).toThrow(/holds exchanges with 2 nodes .*give --node/);
    const imported = importCapture(text, 'transcript', { file: 't.ndjson', version: 't', node: a });
    expect(imported.exchanges.map((e) => [e.t, e.path, e.status, Object.keys(e.rpc?.methods ?? {})[0]])).toEqual([
      [0, '/rpc', 200, 'chain_blockNumber'],
      [250, '/rpc', null, 'chain_getAccount'],
    ]);
    expect(imported.exchanges[0]?.answer).toEqual({ text: '{"jsonrpc":"2.0","id":1,"result":8}' });
    // The header says when the recording began, the moment every t counts from: the first exchange's start.
    expect(imported.header.startedAt).toBe('2026-11-27T08:00:00.000Z');
    expect(importCapture(text, 'transcript', { file: 't.ndjson', version: 't', node: b }).header.startedAt).toBe('2026-11-27T08:00:00.100Z');
    expect(imported.exchanges[1]?.failure).toMatch(/REFUSED/);
    expect(imported.skipped).toEqual({ 'the request was longer than the 4 KiB a transcript keeps': 1 });
    expect(asCapture(imported).exchanges).toHaveLength(2);
    expect(() => importCapture(text, 'transcript', { file: 't.ndjson', version: 't', node: 'http://127.0.0.1:3' })).toThrow(/holds no exchange with http:\/\/127\.0\.0\.1:3/);
  });

  it('bodies have no times: the header says when they were imported', () => {
    const before = Date.now();
    const imported = importCapture('{"jsonrpc":"2.0","method":"chain_health","params":[],"id":1}\n', 'bodies', { file: 'b.txt', version: 't' });
    expect(Date.parse(imported.header.startedAt)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(imported.header.startedAt)).toBeLessThanOrEqual(Date.now());
  });

  it('refuses a chainrpc capture (already one: replay it directly), whatever --from says', () => {
    const capture = asCapture(importCapture('{"jsonrpc":"2.0","method":"chain_health","params":[],"id":1}\n', 'bodies', { file: 'b.txt', version: 't' }));
    const text = [capture.header, ...capture.exchanges, { end: true, exchanges: 1, reason: 'imported', endedAt: '2026-11-27T08:00:00.000Z' }].map((l) => stringifyJson(l as never)).join('\n');
    for (const from of ['bodies', 'transcript'] as const) {
      expect(() => importCapture(text, from, { file: 'c.ndjson', version: 't' })).toThrow(/c\.ndjson is already a capture \(chainrpc-capture\/1\): replay it directly \(chainrpc load replay c\.ndjson\)/);
    }
    // Another version of the format: a capture still, not bodies.
    expect(() => importCapture('{"format":"chainrpc-capture/2","startedAt":"x"}\n', 'bodies', { file: 'c2.ndjson', version: 't' })).toThrow(/already a capture \(chainrpc-capture\/2\)/);
  });

  it('refuses a file that is neither, naming the line', () => {
    expect(() => importCapture('\n\n', 'bodies', { file: 'e.txt', version: 't' })).toThrow(/holds no request body/);
    expect(() => importCapture('{"node":"x","request":{},"startedAt":"2026"}\n{"oops":1}\n', 'transcript', { file: 'x.ndjson', version: 't' })).toThrow(/x\.ndjson:2: not an exchange of a transcript/);
  });
});
