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
import { ReplayDiffer } from './ReplayDiff.js';
import { classifyExchange } from '../metrics/classifyExchange.js';
import type { PlannedRequest } from '../engine/RequestSource.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { stringifyJson } from '../../core/json/index.js';
import { CaptureWriter } from '../capture/CaptureWriter.js';
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

  it('says a last line cut short as an exchange left out, counted among the exchanges too (the counts add up)', () => {
    const plan = replayPlan({ ...captureOf([exchange(0, call(1)), exchange(1, call(null))]), cutShort: true }, SETTINGS, TARGET);
    expect(plan.summary.leftOut).toEqual([{ reason: 'cut short', count: 1 }, { reason: 'ids the engine cannot match', count: 1 }]);
    expect(plan.summary).toMatchObject({ exchanges: 3, replayed: 1 });
    expect(plan.summary.replayed + plan.summary.leftOut.reduce((n, l) => n + l.count, 0)).toBe(plan.summary.exchanges);
    expect(() => replayPlan({ ...captureOf([exchange(1, call(null))]), cutShort: true }, SETTINGS, TARGET)).toThrow(/nothing to replay: 2 exchanges, left out: 1 cut short, 1 ids/);
  });

  it('reads an end line cut short as no exchange lost (the capture just has no end)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-capture-cut-'));
    try {
      const path = join(dir, 'capture.ndjson');
      const lines = [captureOf([]).header, exchange(0, call(1))].map((l) => JSON.stringify(l)).join('\n');
      writeFileSync(path, `${lines}\n{"end":true,"exchan`);
      const endCut = readCapture(path);
      expect([endCut.cutShort, endCut.end, endCut.exchanges.length]).toEqual([false, undefined, 1]);
      writeFileSync(path, `${lines}\n{"t":5,"method":"PO`);
      expect(readCapture(path).cutShort).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says the recorded answers a transcript cut at 4 KiB are not comparable, when diffing against the recording', () => {
    // An import of a transcript keeps the exchange (its status) without the answer it cut.
    const cut = { ...exchange(10, call(2, 'rpc.discover')), status: 200 };
    const capture = captureOf([exchange(0, call(1), { answer: '{"jsonrpc":"2.0","id":1,"result":4}' }), cut]);
    const recorded = replayPlan(capture, { ...SETTINGS, diff: { url: 'the recording', endpoint: null, profile: null } }, TARGET);
    expect(recorded.summary.transformations.join('; ')).toContain('the answers compared with those the capture recorded; 1 recorded answer cut at the 4 KiB a chainrpc test transcript keeps: its call cannot be compared (counted as not compared)');
    const other = replayPlan(capture, { ...SETTINGS, diff: { url: 'http://127.0.0.1:2', endpoint: 'http://127.0.0.1:2/rpc', profile: null } }, TARGET);
    expect(other.summary.transformations.join('; ')).not.toMatch(/cut at the 4 KiB/);
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
    // Request bodies (every t 0) looped at their recorded times: a pass takes no time, the loop would never end.
    const bodies = captureOf([exchange(0, call(1)), exchange(0, call(2))]);
    expect(() => replayPlan(bodies, { ...SETTINGS, loop: true }, TARGET)).toThrow(/its 2 requests were all recorded at the same instant .*replay it at a --rate/);
    expect(replayPlan(bodies, { ...SETTINGS, loop: true, pace: { rate: 10 } }, TARGET).periodMs).toBe(200);
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

describe('ids beyond 2^53', () => {
  const BIG = '9007199254740993';
  const HUGE = '123456789012345678901234567890';
  const bigCall = (id: string, method = 'chain_blockNumber'): string => `{"jsonrpc":"2.0","method":"${method}","params":[],"id":${id}}`;

  it('are replayed with their ids exact, matched by the engine to that id only, and compared by the diff', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-replay-bigid-'));
    try {
      // Through the file, as record writes it and replay reads it: the lossless JSON keeps every digit.
      const path = join(dir, 'c.ndjson');
      const writer = new CaptureWriter(path, captureOf([]).header, { maxBytes: 1 << 20 });
      writer.add(exchange(0, bigCall(BIG), { answer: `{"jsonrpc":"2.0","id":${BIG},"result":40}`, ms: 2 }));
      writer.add(exchange(10, `[${bigCall(HUGE)},${bigCall('9007199254740992', 'chain_health')}]`));
      writer.add(exchange(20, `[${bigCall(BIG)},${bigCall(BIG, 'chain_health')}]`));
      writer.close('imported');
      const capture = readCapture(path);
      const plan = replayPlan(capture, SETTINGS, TARGET);
      expect(plan.items.map((i) => i.calls)).toEqual([
        [{ id: 9007199254740993n, method: 'chain_blockNumber' }],
        [{ id: 123456789012345678901234567890n, method: 'chain_blockNumber' }, { id: 9007199254740992n, method: 'chain_health' }],
      ]);
      // Only the id repeated within its batch is left out.
      expect(plan.summary.leftOut).toEqual([{ reason: 'ids the engine cannot match', count: 1 }]);
      // The recorded head is read from an answer whose id is beyond 2^53 (rebasing).
      expect(recordedHeads(capture, 'chain_blockNumber')).toEqual([[1, 40]]);

      const [single, batch] = plan.items.map((i): PlannedRequest => ({ body: i.body, calls: i.calls, batch: i.batch })) as [PlannedRequest, PlannedRequest];
      const answer = (text: string): ReturnType<typeof classifyExchange> => classifyExchange(single, { kind: 'answer', status: 200, body: Buffer.from(text) });
      expect(answer(`{"jsonrpc":"2.0","id":${BIG},"result":41}`).calls).toEqual([{ kind: 'result', result: 41 }]);
      // The id rounded to a double (9007199254740992) is another id.
      expect(answer('{"jsonrpc":"2.0","id":9007199254740992,"result":41}').calls[0]?.kind).toBe('unanswered');
      expect(answer(`{"jsonrpc":"2.0","id":"${BIG}","result":41}`).calls[0]?.kind).toBe('unanswered');
      const batchAnswer = classifyExchange(batch, { kind: 'answer', status: 200, body: Buffer.from(`[{"jsonrpc":"2.0","id":9007199254740992,"result":{}},{"jsonrpc":"2.0","id":${HUGE},"result":7}]`) });
      expect(batchAnswer.calls).toEqual([{ kind: 'result', result: 7 }, { kind: 'result', result: {} }]);
      expect(batchAnswer.extraElements || batchAnswer.missingElements).toBe(false);

      // --diff-recorded: the recorded answer, id beyond 2^53, is the other side.
      const profile = referenceProfile();
      const differ = new ReplayDiffer({ url: 'the recording', endpoint: null, profile, otherProfile: profile, specName: (w) => w, otherWire: (s) => s, renames: false, timeoutMs: 1000 }, 40);
      differ.send(single, plan.items[0]?.params ?? [], plan.items[0]?.answer);
      differ.answered(single, [{ kind: 'result', result: 41 }]);
      expect(differ.summary()).toMatchObject({ compared: 1, notCompared: 0 });
      expect(stringifyJson(plan.items[1]?.calls[0]?.id ?? null)).toBe(HUGE);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
    const moved = rebased({ body }, 'chain_getBlockByHeight', 100, 1000, 0);
    const out = parseJson(moved.body.toString()) as { params: unknown[] }[];
    expect(out.map((o) => o.params[0])).toEqual([995, '0x3e3', 902, 95, 'latest']);
    // The params as sent, for the diff to judge a height against the target's head (not the recorded heights).
    expect(moved.params).toEqual([[995], ['0x3e3'], [902], [95], ['latest']]);
    const low = parseJson(rebased({ body }, 'chain_getBlockByHeight', 100, 10, 1).body.toString()) as { params: unknown[] }[];
    expect(low.map((o) => o.params[0])).toEqual([5, '0x5', 1, 95, 'latest']);
  });

  it('gives the params of the calls alone, in order: a notification in the batch has none in the list', () => {
    const body = Buffer.from(`[${call(1, 'chain_getBlockByHeight', '[95]')},{"jsonrpc":"2.0","method":"chain_getBlockByHeight","params":[96]},${call(3, 'chain_blockNumber', '[]')}]`);
    expect(rebased({ body }, 'chain_getBlockByHeight', 100, 200, 0).params).toEqual([[195], []]);
  });
});

describe('the measured window [0, duration)', () => {
  it('a loop at --rate r for d sends r × d requests: one due at d itself is outside the window', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-replay-window-'));
    try {
      const capture = captureOf([exchange(0, call(1)), exchange(100, call(2)), exchange(200, call(3)), exchange(300, call(4))]);
      const path = join(dir, 'c.ndjson');
      writeFileSync(path, [capture.header, ...capture.exchanges].map((l) => JSON.stringify(l)).join('\n') + '\n');
      const sent = async (settings: Partial<ReplaySettings>, threads = 1): Promise<number[]> => {
        const options: ReplaySourceOptions = { settings: { ...SETTINGS, capture: path, loop: true, ...settings }, wire: WIRE, profile: null, chainId: '7', leadMs: 200, timeoutMs: 5000, targetHead: null, genesisHeight: 0 };
        const dues: number[] = [];
        for (let index = 0; index < threads; index++) {
          const source = await createSource(options as unknown as JsonValue, { index, count: threads });
          for (let due = source.due?.(); due !== undefined && dues.length < 1000; due = source.due?.()) {
            dues.push(due - 200);
            source.next();
          }
        }
        return dues.sort((a, b) => a - b);
      };
      for (const [rate, seconds] of [[10, 3], [20, 2], [3, 7]] as const) {
        const pace = { rate };
        const periodMs = replayPlan(capture, { ...SETTINGS, pace }, TARGET).periodMs;
        const dues = await sent({ pace, windowMs: seconds * 1000 });
        expect(dues).toHaveLength(rate * seconds);
        expect(Math.max(...dues)).toBeLessThan(seconds * 1000);
        expect(await sent({ pace, windowMs: seconds * 1000 }, 3)).toHaveLength(rate * seconds);
        // The report's target rate: the stages hold as many requests as are sent.
        const stages = recordedStages(replayPlan(capture, { ...SETTINGS, pace }, TARGET).items.map((i) => i.atMs), periodMs, seconds * 1000, true);
        expect(stages.reduce((n, s) => n + (s.from * s.durationMs) / 1000, 0)).toBeCloseTo(rate * seconds, 9);
      }
      // --speed: 4 requests 100 ms apart, a 400 ms period, for 2 s: 20 (the 21st would be due at 2 s).
      expect(await sent({ pace: { speed: 1 }, windowMs: 2000 })).toHaveLength(20);
      expect(await sent({ pace: { speed: 2 }, windowMs: 2000 })).toHaveLength(40);
      expect(recordedStages([0, 100, 200, 300], 400, 2000, true).reduce((n, s) => n + (s.from * s.durationMs) / 1000, 0)).toBeCloseTo(20, 9);
      // Without --loop, a --duration shorter than the pass: what is due before it.
      expect(await sent({ pace: { speed: 1 }, loop: false, windowMs: 200 })).toEqual([0, 100]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
