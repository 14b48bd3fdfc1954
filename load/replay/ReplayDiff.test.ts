/**
 * The diff while replaying against a real second node on loopback: what it counts when that node answers a call
 * with something else than an answer to it, and which params it judges a call by when heights are rebased.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../core/json/index.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { captureBody, CAPTURE_FORMAT, rpcIndex, type CaptureExchange } from '../capture/captureFormat.js';
import type { PlannedRequest } from '../engine/RequestSource.js';
import { evaluateThresholds, parseThreshold } from '../scenario/Threshold.js';
import type { LoadRun, ThresholdResult } from '../model.js';
import { thresholdSaid } from '../figures.js';
import { ReplayDiffer } from './ReplayDiff.js';
import { createSource, type ReplaySourceOptions } from './replaySource.js';

const PROFILE = referenceProfile();

/** What the second node answers to a body: set per test. */
let answer: (body: string) => string = () => '';
const seen: string[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push(body);
      const text = answer(body);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const differ = (): ReplayDiffer =>
  new ReplayDiffer({ url: base, endpoint: `${base}/rpc`, profile: PROFILE, otherProfile: PROFILE, specName: (w) => w, otherWire: (s) => s, renames: false, timeoutMs: 5_000 }, 100);

const single = (id: number, method = 'chain_getAccount', params: JsonValue = ['ab'.repeat(32)]): PlannedRequest => ({
  body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', method, params, id })),
  calls: [{ id, method }],
  batch: false,
});

/** One request through the differ: the first node's result given, the second node's answer as the server gives it. */
async function diffOne(d: ReplayDiffer, request: PlannedRequest, params: JsonValue, own: JsonValue): Promise<void> {
  d.send(request, [params], undefined);
  await new Promise((r) => setTimeout(r, 0));
  d.answered(request, [{ kind: 'result', result: own }]);
  await d.close();
}

const ACCOUNT = { balance: '10', nonce: 0 };

describe('ReplayDiffer against a second node on loopback', () => {
  it('compares an answer that agrees, and finds none to differ', async () => {
    answer = (b) => JSON.stringify({ jsonrpc: '2.0', id: (JSON.parse(b) as { id: number }).id, result: ACCOUNT });
    const d = differ();
    await diffOne(d, single(5), ['ab'.repeat(32)], ACCOUNT);
    expect(d.summary()).toMatchObject({ compared: 1, mismatches: 0, notCompared: 0 });
  });

  it('counts an id-null error to every call as the error it is: a mismatch against a result', async () => {
    answer = () => '{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal"}}';
    const d = differ();
    await diffOne(d, single(5), ['ab'.repeat(32)], ACCOUNT);
    const diff = d.summary();
    expect(diff).toMatchObject({ compared: 1, mismatches: 1, notCompared: 0 });
    expect(diff.examples[0]?.why).toMatch(/one node answered a result, the other the error InternalError/);
  });

  it('counts an answer to another id (a string for a number) as a mismatch, naming why and showing what came', async () => {
    answer = (b) => JSON.stringify({ jsonrpc: '2.0', id: String((JSON.parse(b) as { id: number }).id), result: ACCOUNT });
    const d = differ();
    await diffOne(d, single(5), ['ab'.repeat(32)], ACCOUNT);
    const diff = d.summary();
    expect(diff).toMatchObject({ compared: 1, mismatches: 1, notCompared: 0 });
    expect(diff.examples[0]?.why).toMatch(/the second node answered with no JSON-RPC answer to this call \(the answer is to another id\)/);
    expect(diff.examples[0]?.other).toContain('"id":"5"');
  });

  it('counts an answer that is not JSON as a mismatch, and a second node that gives no answer at all as not compared', async () => {
    answer = () => '<html>bad gateway</html>';
    const d = differ();
    await diffOne(d, single(5), ['ab'.repeat(32)], ACCOUNT);
    expect(d.summary()).toMatchObject({ compared: 1, mismatches: 1, notCompared: 0 });
    const gone = new ReplayDiffer({ url: 'http://127.0.0.1:1', endpoint: 'http://127.0.0.1:1/rpc', profile: PROFILE, otherProfile: PROFILE, specName: (w) => w, otherWire: (s) => s, renames: false, timeoutMs: 2_000 }, 100);
    await diffOne(gone, single(5), ['ab'.repeat(32)], ACCOUNT);
    expect(gone.summary()).toMatchObject({ compared: 0, mismatches: 0, notCompared: 1 });
  });

  it('leaves the mismatches threshold unmeasured when no call was compared, and says why', () => {
    const run = { methods: [], diff: { url: base, compared: 0, mismatches: 0, setAside: 0, notCompared: 10, byMethod: [], examples: [] } } as unknown as LoadRun;
    const [t] = evaluateThresholds(run, [parseThreshold('mismatches == 0')]);
    expect(t).toMatchObject({ actual: null, ok: false });
    expect(thresholdSaid(t as ThresholdResult)).toBe('no call compared (the other side answered none the node did, or every call was set aside)');
    const compared = { methods: [], diff: { ...run.diff, compared: 3 } } as unknown as LoadRun;
    expect(evaluateThresholds(compared, [parseThreshold('mismatches == 0')])[0]).toMatchObject({ actual: 0, ok: true });
  });
});

describe('the replay source diffing rebased heights', () => {
  it('judges a block read by the height it sent (near the target head: set aside), not the height recorded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-replay-diff-'));
    try {
      const exchange = (t: number, body: string, answerText: string): CaptureExchange => {
        const request = captureBody(Buffer.from(body));
        return { t, method: 'POST', path: '/rpc', contentType: 'application/json', request, rpc: rpcIndex(request), status: 200, ms: 1, answer: captureBody(Buffer.from(answerText)) };
      };
      const header = { format: CAPTURE_FORMAT, startedAt: '2026-11-27T00:00:00.000Z', upstream: 'http://127.0.0.1:1', answers: true, tool: { name: 'chainrpc', version: 'test' } };
      // Recorded at head 120: the head read, then block 120 (at the head) and block 60 (far below it).
      const lines = [
        header,
        exchange(0, '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1}', '{"jsonrpc":"2.0","id":1,"result":120}'),
        exchange(10, '{"jsonrpc":"2.0","method":"chain_getBlockByHeight","params":[120],"id":2}', '{"jsonrpc":"2.0","id":2,"result":{"height":120}}'),
        exchange(20, '{"jsonrpc":"2.0","method":"chain_getBlockByHeight","params":[60],"id":3}', '{"jsonrpc":"2.0","id":3,"result":{"height":60}}'),
      ];
      const path = join(dir, 'c.ndjson');
      writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      // The second node has not the head block yet (one block behind): BlockNotFound for 5000, the block for 4940.
      answer = (b) => {
        const o = JSON.parse(b) as { id: number; method: string; params: number[] };
        if (o.method === 'chain_blockNumber') return JSON.stringify({ jsonrpc: '2.0', id: o.id, result: 4999 });
        const h = o.params[0] ?? 0;
        return JSON.stringify(h >= 5000 ? { jsonrpc: '2.0', id: o.id, error: { code: -32001, message: 'block not found' } } : { jsonrpc: '2.0', id: o.id, result: { height: h } });
      };
      const options: ReplaySourceOptions = {
        settings: { capture: path, pace: { speed: 1 }, loop: false, methods: null, rebaseHeights: true, diff: { url: base, endpoint: `${base}/rpc`, profile: null } },
        wire: { blockNumber: 'chain_blockNumber', blockByHeight: 'chain_getBlockByHeight', sendRawTransaction: 'chain_sendRawTransaction' },
        profile: null,
        chainId: '1',
        leadMs: 0,
        timeoutMs: 5_000,
        targetHead: 5000,
        genesisHeight: 0,
      };
      const source = await createSource(options as unknown as JsonValue, { index: 0, count: 1 });
      seen.length = 0;
      const own: Record<number, JsonValue> = { 1: 5000, 5000: { height: 5000 }, 4940: { height: 4940 } };
      for (let request = source.next(); request !== undefined && request !== null; request = source.next()) {
        const o = JSON.parse(request.body.toString()) as { method: string; params: number[] };
        await new Promise((r) => setTimeout(r, 0));
        source.onEnded?.(request, [{ kind: 'result', result: own[o.method === 'chain_blockNumber' ? 1 : (o.params[0] ?? 0)] ?? null }]);
      }
      await source.close?.();
      expect(seen.filter((b) => b.includes('getBlockByHeight')).map((b) => (JSON.parse(b) as { params: number[] }).params[0]).sort()).toEqual([4940, 5000]);
      // Block 5000 is at the target's head: set aside (the second node may not have it yet); block 4940 compared, equal.
      const byHeight = source.diff?.()?.byMethod.find((m) => m.method === 'chain_getBlockByHeight');
      expect(byHeight).toMatchObject({ compared: 1, mismatches: 0, setAside: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
