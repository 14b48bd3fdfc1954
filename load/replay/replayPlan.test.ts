/**
 * What a replay sends of a capture, and when: each exchange kept or left out with its reason, the calls the
 * engine waits for, the recorded offsets divided by the speed (or the order at a rate), a loop's period, the
 * recorded head for rebasing; and the source that plays the plan in threads, with heights rebased.
 */
import { describe, expect, it } from 'vitest';
import { createTransactionSigner, generatePrivateKey } from '../../core/codec/index.js';
import { parseJson } from '../../core/json/index.js';
import { referenceCodec } from '../../profile/referenceCodec.js';
import { captureBody, CAPTURE_FORMAT, rpcIndex, type CaptureExchange } from '../capture/captureFormat.js';
import { readCapture, type Capture } from '../capture/readCapture.js';
import { recordedStages } from '../../cli/commands/load/replay.js';
import { headAt, recordedHeads, replayPlan, ReplayPlanError, type ReplaySettings, type ReplayTarget } from './replayPlan.js';
import { createSource, rebased, type ReplaySourceOptions } from './replaySource.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonValue } from '../../core/json/index.js';

const WIRE = { blockNumber: 'chain_blockNumber', blockByHeight: 'chain_getBlockByHeight', sendRawTransaction: 'chain_sendRawTransaction' };
const TARGET: ReplayTarget = { wire: WIRE, chainId: 7n, chainIdOf: (hex) => referenceCodec.chainIdOf?.(hex) };
const SETTINGS: ReplaySettings = { capture: 'c.ndjson', pace: { speed: 1 }, loop: false, methods: null, rebaseHeights: false, diff: null };

function exchange(t: number, body: string, o: { method?: string; contentType?: string | null; answer?: string; ms?: number } = {}): CaptureExchange {
  const request = captureBody(Buffer.from(body));
  return { t, method: o.method ?? 'POST', path: '/rpc', contentType: o.contentType === undefined ? 'application/json' : o.contentType, request, rpc: rpcIndex(request), status: 200, ms: o.ms ?? 1, ...(o.answer === undefined ? {} : { answer: captureBody(Buffer.from(o.answer)) }) };
}

const captureOf = (exchanges: CaptureExchange[]): Capture => ({ header: { format: CAPTURE_FORMAT, startedAt: '2026-11-27T00:00:00.000Z', upstream: 'http://127.0.0.1:1', answers: true, tool: { name: 'chainrpc', version: 'test' } }, exchanges, cutShort: false });

const call = (id: number | string | null, method = 'chain_blockNumber', params = '[]'): string => `{"jsonrpc":"2.0","method":"${method}","params":${params},"id":${JSON.stringify(id)}}`;

function signedFor(chainId: bigint): string {
  return createTransactionSigner(generatePrivateKey()).sign({ chainId, to: '00'.repeat(32), value: 1n, nonce: 0n, fee: 1n }).wire;
}

describe('replayPlan', () => {
  it('keeps each JSON-RPC POST with its calls, and counts every exchange it leaves out by reason', () => {
    const capture = captureOf([
      exchange(100, call(1)),
      exchange(110, `[${call('a', 'chain_health')},{"jsonrpc":"2.0","method":"chain_health","params":[]},${call(2)}]`),
      exchange(120, '[{"jsonrpc":"2.0","method":"chain_health","params":[]}]'),
      exchange(130, '{"jsonrpc":"2.0","method":'),
      exchange(140, call(3), { method: 'GET' }),
      exchange(150, call(4), { contentType: 'text/plain' }),
      exchange(160, `[${call(5)},${call(5)}]`),
      exchange(170, call(null)),
      exchange(180, call(6, 'chain_sendRawTransaction', `["${signedFor(7n)}"]`)),
      exchange(190, call(7, 'chain_sendRawTransaction', `["${signedFor(1n)}"]`)),
      exchange(200, call(8, 'chain_sendRawTransaction', '["00ff"]')),
    ]);
    const plan = replayPlan(capture, SETTINGS, TARGET);
    expect(plan.items.map((i) => ({ atMs: i.atMs, calls: i.calls, batch: i.batch }))).toEqual([
      { atMs: 0, calls: [{ id: 1, method: 'chain_blockNumber' }], batch: false },
      { atMs: 10, calls: [{ id: 'a', method: 'chain_health' }, { id: 2, method: 'chain_blockNumber' }], batch: true },
      { atMs: 80, calls: [{ id: 6, method: 'chain_sendRawTransaction' }], batch: false },
    ]);
    expect(plan.items[1]?.body.toString()).toBe(`[${call('a', 'chain_health')},{"jsonrpc":"2.0","method":"chain_health","params":[]},${call(2)}]`);
    expect(Object.fromEntries(plan.summary.leftOut.map((l) => [l.reason, l.count]))).toEqual({
      'notifications only': 1,
      'not JSON-RPC': 1,
      'not a JSON-RPC POST': 2,
      'ids the engine cannot match': 2,
      'signed for another chain': 1,
      'chain not known': 1,
    });
    expect(plan.summary).toMatchObject({ exchanges: 11, replayed: 3, spanMs: 80 });
  });

  it('divides the recorded offsets by the speed, or sends the order evenly at a rate; a loop comes back one period later', () => {
    const capture = captureOf([exchange(1000, call(1)), exchange(1004, call(2)), exchange(1010, call(3)), exchange(1030, call(4))]);
    const fast = replayPlan(capture, { ...SETTINGS, pace: { speed: 2 } }, TARGET);
    expect(fast.items.map((i) => i.atMs)).toEqual([0, 2, 5, 15]);
    expect(fast.periodMs).toBe(20); // the span and one mean gap
    expect(fast.summary.rate).toBeCloseTo(200, 6);
    const even = replayPlan(capture, { ...SETTINGS, pace: { rate: 100 } }, TARGET);
    expect(even.items.map((i) => i.atMs)).toEqual([0, 10, 20, 30]);
    expect(even.periodMs).toBe(40);
    expect(even.summary.transformations[0]).toMatch(/evenly at 100 requests\/s/);
  });

  it('--methods keeps only the requests whose calls are all of the chosen methods', () => {
    const capture = captureOf([exchange(0, call(1)), exchange(1, call(2, 'chain_health')), exchange(2, `[${call(3)},${call(4, 'chain_health')}]`)]);
    const plan = replayPlan(capture, { ...SETTINGS, methods: ['chain_blockNumber'] }, TARGET);
    expect(plan.items.map((i) => i.calls.map((c) => c.id))).toEqual([[1]]);
    expect(plan.summary.leftOut).toEqual([{ reason: 'methods not chosen', count: 2 }]);
  });

  it('says a last line cut short as an exchange left out', () => {
    const plan = replayPlan({ ...captureOf([exchange(0, call(1))]), cutShort: true }, SETTINGS, TARGET);
    expect(plan.summary.leftOut).toEqual([{ reason: 'cut short', count: 1 }]);
  });

  it('reads a capture in the order the requests arrived, whatever order its lines were written in (record writes each as it ends)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-capture-order-'));
    try {
      const path = join(dir, 'capture.ndjson');
      const header = captureOf([]).header;
      // A slow call arrived first (t 16) and was written last, after ten fast calls that came after it.
      const lines = [header, ...Array.from({ length: 10 }, (_, i) => exchange(39 + 20 * i, call(500 + i))), exchange(16, call(1))];
      writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
      const capture = readCapture(path);
      expect(capture.exchanges.map((e) => e.t)).toEqual([16, ...Array.from({ length: 10 }, (_, i) => 39 + 20 * i)]);
      const plan = replayPlan(capture, SETTINGS, TARGET);
      expect(plan.items.map((i) => i.atMs)).toEqual([0, ...Array.from({ length: 10 }, (_, i) => 23 + 20 * i)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a capture with nothing to replay, and rebasing without a recorded head', () => {
    expect(() => replayPlan(captureOf([exchange(0, 'not json')]), SETTINGS, TARGET)).toThrow(ReplayPlanError);
    expect(() => replayPlan(captureOf([exchange(0, call(1))]), { ...SETTINGS, rebaseHeights: true }, TARGET)).toThrow(/holds no answered chain_blockNumber/);
  });

  it('reads the recorded head from the answers to the head method, in a batch too', () => {
    const capture = captureOf([
      exchange(100, call(1), { answer: '{"jsonrpc":"2.0","id":1,"result":40}', ms: 2 }),
      exchange(200, `[${call('x', 'chain_health')},${call('y')}]`, { answer: '[{"jsonrpc":"2.0","id":"x","result":{}},{"jsonrpc":"2.0","id":"y","result":"0x2a"}]', ms: 4 }),
      exchange(300, call(3), { answer: '{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"busy"}}' }),
    ]);
    const heads = recordedHeads(capture, 'chain_blockNumber');
    expect(heads).toEqual([[101, 40], [202, 42]]);
    expect([headAt(heads, 0), headAt(heads, 150), headAt(heads, 202), headAt(heads, 10_000)]).toEqual([40, 40, 42, 42]);
    expect(replayPlan(capture, { ...SETTINGS, rebaseHeights: true }, TARGET).recordedHeads).toEqual(heads);
  });
});

describe('the replay source', () => {
  it('gives thread k of n the requests k, k + n, ... at their times, over every pass when it loops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-replay-source-'));
    try {
      const capture = captureOf([exchange(10, call(1)), exchange(14, call(2)), exchange(20, call(3))]);
      const path = join(dir, 'c.ndjson');
      writeFileSync(path, [capture.header, ...capture.exchanges].map((l) => JSON.stringify(l)).join('\n') + '\n');
      const options: ReplaySourceOptions = { settings: { ...SETTINGS, capture: path, pace: { speed: 2 }, loop: true }, wire: WIRE, profile: null, chainId: '7', leadMs: 100, timeoutMs: 5000, targetHead: null, genesisHeight: 0 };
      const played: [number, string][] = [];
      for (const index of [0, 1]) {
        const source = await createSource(options as unknown as JsonValue, { index, count: 2 });
        for (let i = 0; i < 4; i++) {
          const due = source.due?.() as number;
          const request = source.next();
          played.push([due, request?.body.toString() ?? '']);
        }
      }
      played.sort((a, b) => a[0] - b[0]);
      // One pass: 0, 2, 5 ms; the period is the span and one mean gap (5 + 2.5).
      expect(played).toEqual([0, 2, 5, 7.5, 9.5, 12.5, 15, 17, 20].slice(0, 8).map((t, i) => [100 + t, call((i % 3) + 1)]));
      const once = await createSource({ ...options, settings: { ...options.settings, loop: false } } as unknown as JsonValue, { index: 0, count: 1 });
      const bodies = [once.next(), once.next(), once.next()].map((r) => r?.body.toString());
      expect(bodies).toEqual([call(1), call(2), call(3)]);
      expect([once.due?.(), once.next()]).toEqual([undefined, undefined]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rebased', () => {
  it('asks each height at the same depth below the target head, written as it was, never below the first height', () => {
    const body = Buffer.from(`[${call(1, 'chain_getBlockByHeight', '[95]')},${call(2, 'chain_getBlockByHeight', '["0x5f"]')},${call(3, 'chain_getBlockByHeight', '[2]')},${call(4, 'chain_getAccount', '[95]')},${call(5, 'chain_getBlockByHeight', '["latest"]')}]`);
    const out = parseJson(rebased({ body }, 'chain_getBlockByHeight', 100, 1000, 0).toString()) as { params: unknown[] }[];
    expect(out.map((o) => o.params[0])).toEqual([995, '0x3e3', 902, 95, 'latest']);
    const low = parseJson(rebased({ body }, 'chain_getBlockByHeight', 100, 10, 1).toString()) as { params: unknown[] }[];
    expect(low.map((o) => o.params[0])).toEqual([5, '0x5', 1, 95, 'latest']);
  });
});

describe('recordedStages', () => {
  it('gives the rate of each second of the run, so the stages add up to the requests sent', () => {
    const stages = recordedStages([0, 100, 900, 1200, 2500], 3000, 2600, false);
    expect(stages).toEqual([{ from: 3, to: 3, durationMs: 1000 }, { from: 1, to: 1, durationMs: 1000 }, { from: 1 / 0.6, to: 1 / 0.6, durationMs: 600 }]);
    const looped = recordedStages([0, 500], 1000, 3000, true);
    expect(looped.reduce((n, s) => n + (s.from * s.durationMs) / 1000, 0)).toBe(6); // 0, 500, 1000, ..., 2500
  });
});
