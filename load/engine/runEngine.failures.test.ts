// The engine when things go wrong: a target that refuses or dies, requests never answered, an interrupted run,
// a generator too slow for its schedule, a source that is busy or runs out, bad options.
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedPort, startCapacityServer, startDelayServer, type CapacityServer } from '../../test/support/loadServers.js';
import { madeSources, testSourceSpec } from '../../test/support/loadTestSource.js';
import { fixedCallsSpec } from '../../test/support/fixedCallsSource.js';
import { loadVerdict } from '../loadVerdict.js';
import { evaluateThresholds, parseThreshold } from '../scenario/Threshold.js';
import { runEngine, type EngineOptions } from './runEngine.js';

const CAPACITY = 1_000;
let server: CapacityServer;
beforeAll(async () => {
  server = await startCapacityServer({ capacity: CAPACITY });
});
afterAll(async () => {
  await server.stop();
});

const source = fixedCallsSpec({ calls: [{ method: 'chain_blockNumber' }, { method: 'chain_health' }] });
const open = (rate: number, durationMs: number): EngineOptions['model'] => ({ kind: 'open', distribution: 'uniform', stages: [{ from: rate, to: rate, durationMs }] });
const base = (over: Partial<EngineOptions>): EngineOptions => ({ url: server.endpoint, model: open(100, 1_000), warmupMs: 0, durationMs: 1_000, maxInFlight: 64, timeoutMs: 2_000, source, ...over });

describe('runEngine: a source that keeps its own times (a replay)', () => {
  it('sends at the source\'s times and stops at the end of the measured window, though the source never runs out', async () => {
    const run = await runEngine(base({ model: { kind: 'open', distribution: 'recorded', stages: [{ from: 50, to: 50, durationMs: 600 }] }, durationMs: 600, source: testSourceSpec({ dueEveryMs: 20 }) }));
    expect(run.stop.reason).toBe('completed');
    // Due at 0, 20, ..., 600 ms: 31 requests, none after the window.
    expect(run.schedule.sent).toBe(31);
    expect(run.schedule.dropped).toBe(0);
  });

  it('is refused by a source that keeps no times: the run fails with the reason', async () => {
    await expect(runEngine(base({ model: { kind: 'open', distribution: 'recorded', stages: [{ from: 50, to: 50, durationMs: 300 }] }, durationMs: 300, source: testSourceSpec({}) }))).rejects.toThrow(/keeps none \(RequestSource.due\)/);
  });
});

describe('runEngine: the target fails', () => {
  it('stops a run against a port nobody listens on as target-unreachable, with what it measured', async () => {
    const port = await refusedPort();
    const started = performance.now();
    const run = await runEngine(base({ url: `http://127.0.0.1:${port}/rpc`, model: open(200, 20_000), durationMs: 20_000, unreachableMs: 1_000 }));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(run.stop.reason).toBe('target-unreachable');
    expect(run.stop.message).toMatch(/ECONNREFUSED/);
    expect(run.valid).toBe(false);
    expect(run.invalid.join(' ')).toMatch(/unreachable/);
    expect(run.failures.transport).toBeGreaterThan(100);
    expect(run.methods.every((m) => m.unanswered === m.calls && m.ok === 0)).toBe(true);
    expect(run.durationMs).toBeLessThan(3_000);
  });

  it('says when and how a node died mid-run, and keeps what it measured before', async () => {
    const dying = await startCapacityServer({ capacity: 5_000 });
    setTimeout(() => void dying.stop(), 1_000);
    const run = await runEngine(base({ url: dying.endpoint, model: open(200, 20_000), durationMs: 20_000, unreachableMs: 1_000 }));
    expect(run.stop.reason).toBe('target-unreachable');
    expect(run.stop.atMs).toBeGreaterThan(1_900);
    expect(run.stop.atMs).toBeLessThan(4_000);
    // "failed ... from ~1000 ms": the message says when the connections began to fail.
    const from = Number(/from (\d+) ms/.exec(run.stop.message ?? '')?.[1]);
    expect(from).toBeGreaterThan(800);
    expect(from).toBeLessThan(1_600);
    const ok = run.methods.reduce((n, m) => n + m.ok, 0);
    expect(ok).toBeGreaterThan(150);
    expect(run.failures.transport).toBeGreaterThan(0);
    // The verdict says when the node stopped answering (~1 s, when its calls began to fail), and when the run
    // gave up on it (a second of failures later); it used to give the latter as the former.
    const { summary } = loadVerdict([{ ...run, url: dying.url, scenario: 'dying', thresholds: [] }], [], undefined, false);
    const [, went, gaveUp] = /stopped answering (\d+\.\d) s into the run \(the run stopped at (\d+\.\d) s\)/.exec(summary) ?? [];
    expect(Number(went), summary).toBeGreaterThanOrEqual(0.8);
    expect(Number(went), summary).toBeLessThan(1.6);
    expect(Number(gaveUp)).toBeCloseTo(run.stop.atMs / 1000, 0);
  });

  it('counts requests never answered as timeouts, their calls unanswered, latency at the timeout', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((s) => {
      sockets.add(s);
      s.resume();
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const run = await runEngine(base({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/rpc`, model: open(50, 1_000), timeoutMs: 200 }));
      expect(run.failures.timeouts).toBe(50);
      expect(run.methods.reduce((n, m) => n + m.unanswered, 0)).toBe(50);
      expect(run.latency.p50).toBeGreaterThanOrEqual(200_000);
      expect(run.latency.p50).toBeLessThan(400_000);
      expect(run.stop.reason).toBe('completed');
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });
});

describe('runEngine: an answer after its timeout', () => {
  it('counts every answer that comes after the timeout as a timeout, its latency the timeout, whatever the sweep\'s period', async () => {
    // Every answer 215 ms after its request, the timeout 200 ms (swept every 20 ms): the truth is 50 timeouts.
    // Before, an answer landing between the deadline and the next sweep was taken as a success (5 of 50 in a run).
    const late = await startDelayServer({ delayMs: 215 });
    try {
      const run = await runEngine(base({ url: late.endpoint, model: open(50, 1_000), timeoutMs: 200 }));
      expect(late.requests()).toBe(50);
      expect(run.failures.timeouts).toBe(50);
      expect(run.methods.reduce((n, m) => n + m.ok, 0)).toBe(0);
      expect(run.methods.reduce((n, m) => n + m.unanswered, 0)).toBe(50);
      // A timeout ends at its deadline, the timeout after it was handed to its connection: never at the 215 ms answer.
      expect(run.service.max).toBeLessThan(201_000);
      expect(run.latency.min).toBeGreaterThanOrEqual(199_000);
    } finally {
      await late.stop();
    }
  });
});

describe('runEngine: the achieved rate is what the node served', () => {
  it('counts results and JSON-RPC errors, never transport failures or HTTP errors, in the achieved rate and the achieved threshold', async () => {
    // In turn: HTTP 503, a JSON-RPC error, the connection reset, a result. Served: the error and the result, half.
    let n = 0;
    const mixed = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number };
        const kind = n++ % 4;
        if (kind === 2) {
          req.socket.destroy();
          return;
        }
        const body = JSON.stringify(kind === 1 ? { jsonrpc: '2.0', id, error: { code: -32005, message: 'limited' } } : { jsonrpc: '2.0', id, result: 'ok' });
        res.writeHead(kind === 0 ? 503 : 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    await new Promise<void>((r) => mixed.listen(0, '127.0.0.1', r));
    try {
      const run = await runEngine(base({ url: `http://127.0.0.1:${(mixed.address() as AddressInfo).port}/rpc`, model: open(100, 1_000), source: fixedCallsSpec({ calls: [{ method: 'chain_health' }] }) }));
      expect(n).toBe(100);
      expect(run.failures.httpStatus).toEqual({ '503': 25 });
      expect(run.failures.transport).toBe(25);
      expect(run.methods[0]).toMatchObject({ calls: 100, ok: 25, errors: { '-32005': 25 }, unanswered: 50 });
      // 50 served, all answered at once inside the 1 s window (before: 100 requests ended, 100/s, "100%").
      expect(run.schedule.achievedRate).toBeLessThanOrEqual(50);
      expect(run.schedule.achievedRate).toBeGreaterThanOrEqual(48);
      const [achieved] = evaluateThresholds({ ...run, url: 'http://127.0.0.1', scenario: 'mixed', thresholds: [] }, [parseThreshold('achieved >= 99%')]);
      expect(achieved?.ok).toBe(false);
    } finally {
      mixed.closeAllConnections();
      await new Promise((r) => mixed.close(r));
    }
  });
});

describe('runEngine: the target rate', () => {
  it('is the rate the stages ask for over the window, not one arrival over a 1 ms window', async () => {
    const run = await runEngine(base({ model: open(5, 1), durationMs: 1 }));
    expect(run.schedule.scheduled).toBe(1);
    expect(run.schedule.targetRate).toBe(5);
    // A ramp from 0 to 100/s over 1 s asks for 50 arrivals: 50/s.
    const ramp = await runEngine(base({ model: { kind: 'open', distribution: 'uniform', stages: [{ from: 0, to: 100, durationMs: 1_000 }] } }));
    expect(ramp.schedule.scheduled).toBe(50);
    expect(ramp.schedule.targetRate).toBe(50);
  });
});

describe('runEngine: stopping and validity', () => {
  it('on abort: stops sending, returns the partial run as interrupted, promptly', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 700);
    const started = performance.now();
    const run = await runEngine(base({ model: open(300, 10_000), durationMs: 10_000, warmupMs: 200, signal: controller.signal }));
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(run.stop.reason).toBe('interrupted');
    expect(run.durationMs).toBeGreaterThan(300);
    expect(run.durationMs).toBeLessThan(1_500);
    expect(run.latency.count).toBeGreaterThan(100);
    expect(Math.abs(run.schedule.achievedRate - 300) / 300).toBeLessThan(0.1);
  });

  it('marks a run whose generator fell behind its schedule invalid, and says why', async () => {
    // Each request takes the source 4 ms to make: 250/s at most, against a schedule of 500/s.
    const run = await runEngine(base({ model: open(500, 1_000), source: testSourceSpec({ busyMs: 4 }) }));
    expect(run.valid).toBe(false);
    expect(run.invalid.join(' ')).toMatch(/fell behind its schedule: send lag p99/);
    expect(run.schedule.lagUs.p99).toBeGreaterThan(100_000);
  });

  it('says both when the send lag p99 is over its bound and a send went more than 200 ms late', async () => {
    // Each request takes the source 250 ms to make, due every 100 ms: request k is taken up about k × 150 ms late.
    const run = await runEngine(base({ model: open(10, 1_000), source: testSourceSpec({ busyMs: 250 }) }));
    expect(run.schedule.lagUs.max).toBeGreaterThan(200_000);
    expect(run.invalid.join(' ')).toMatch(/fell behind its schedule: send lag p99/);
    // The stall was left out whenever the p99 rule fired.
    expect(run.invalid.join(' ')).toMatch(/the generator stalled: one send went \d+\.\d ms late/);
  });

  it('counts a busy source (null) as drops, and ends early when the source runs out', async () => {
    const busy = await runEngine(base({ model: open(200, 1_000), source: testSourceSpec({ busyEvery: 4 }) }));
    expect(busy.schedule.dropped).toBe(50);
    expect(busy.schedule.sent).toBe(150);
    const short = await runEngine(base({ model: open(200, 5_000), durationMs: 5_000, source: testSourceSpec({ limit: 100 }) }));
    expect(short.schedule.sent).toBe(100);
    expect(short.stop.message).toMatch(/no more requests/);
    expect(short.durationMs).toBeGreaterThan(400);
    expect(short.durationMs).toBeLessThan(700);
    // The source heard of every request's end, and was closed.
    expect(madeSources.at(-1)).toEqual({ ended: 100, closed: true });
    // Spent in the warm-up (a corpus too small for its rate): said so, not "at -1530 ms".
    const spent = await runEngine(base({ model: open(200, 1_000), warmupMs: 1_000, durationMs: 1_000, source: testSourceSpec({ limit: 20 }) }));
    expect(spent.stop.message).toMatch(/^the request source had no more requests \d+ ms before the measured window opened, in the warm-up: nothing was measured/);
  });

  it('rejects with the error of a source that throws, in this thread and in a worker', async () => {
    await expect(runEngine(base({ model: open(200, 2_000), durationMs: 2_000, source: testSourceSpec({ throwAfter: 20 }) }))).rejects.toThrow(/request source .* failed: boom/);
    await expect(runEngine(base({ model: open(200, 2_000), durationMs: 2_000, threads: 2, source: testSourceSpec({ throwAfter: 20 }) }))).rejects.toThrow(/failed: boom/);
  });

  it('refuses bad options with a clear error', async () => {
    await expect(runEngine(base({ url: 'https://x/rpc' }))).rejects.toThrow(/http: only/);
    await expect(runEngine(base({ durationMs: 2_000 }))).rejects.toThrow(/must equal the sum of the stages' durations \(1000\)/);
    await expect(runEngine(base({ maxInFlight: 0 }))).rejects.toThrow(/maxInFlight must be a positive integer/);
    await expect(runEngine(base({ source: { module: '/nowhere/source.js', options: null } }))).rejects.toThrow(/could not be loaded/);
    await expect(runEngine(base({ source: { module: new URL('./Schedule.ts', import.meta.url).href, options: null } }))).rejects.toThrow(/no createSource export/);
  });
});

