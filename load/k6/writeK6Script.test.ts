/**
 * The k6 test's data without k6: each call's params are drawn as the Node engine's table says
 * (load/requests/drawParams.ts), a method the k6 runtime cannot draw is refused rather than sent `[]`, the
 * thresholds k6 does not judge are the one list of K6Summary.ts, and the schedule lets every request in flight
 * at the end end, with the warm-up's drops apart from the measured window's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { resolveScenario, type ResolvedCall, type ResolvedScenario } from '../scenario/loadScenario.js';
import type { ScenarioSourceOptions } from '../scenario/scenarioSource.js';
import { parseThreshold } from '../scenario/Threshold.js';
import { k6DurationMs } from './checkK6Run.js';
import { K6_UNMEASURED_METRICS } from './K6Summary.js';
import { checkK6Scenario, K6_MEASURED_SCENARIO, k6DrawOf, k6MeasuredWindow, k6Scenarios, k6Thresholds, K6Unsupported, writeK6Script } from './writeK6Script.js';

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-k6-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scenario = (mix: unknown[], thresholds: string[] = []): ResolvedScenario =>
  resolveScenario({ name: 'draws', arrivals: { model: 'open', rate: 10 }, duration: '1s', mix, thresholds } as never);

const prepared: ScenarioSourceOptions = { mix: [], wire: {}, heights: { from: 1, to: 5 }, accounts: ['a'.repeat(64)], validate: 0, seed: 1, profile: null, transactions: null };

let tests = 0;
function write(s: ResolvedScenario): { mix: { draw?: string; mix?: { draw: string }[] }[] } {
  const out = join(dir, `t${++tests}`);
  writeK6Script({ scenario: s, url: 'http://127.0.0.1:1', profile: referenceProfile(), prepared, out, version: 'test' });
  return JSON.parse(readFileSync(join(out, 'data.json'), 'utf8')) as { mix: { draw?: string; mix?: { draw: string }[] }[] };
}

describe('writeK6Script: params', () => {
  it('draws each read method\'s params as load/requests/drawParams.ts says, and sends [] only to a method that takes none', () => {
    const data = write(scenario([{ method: 'chain_getAccount' }, { method: 'chain_getBlockByHeight' }, { method: 'chain_blockNumber' }, { batch: { size: 2, mix: [{ method: 'chain_getAccount' }] } }]));
    expect(data.mix.map((e) => e.draw)).toEqual(['account', 'height', 'none', undefined]);
    expect(data.mix[3]?.mix?.map((e) => e.draw)).toEqual(['account']);
  });

  it('refuses a method that takes params it cannot draw, naming the method and its params, instead of sending []', () => {
    const s = scenario([{ method: 'chain_blockNumber' }]);
    // A method that takes params (address) and that no draw of the table covers.
    const call: ResolvedCall = { ...(s.mix[0] as { call: ResolvedCall }).call, method: 'chain_faucetClaim' as ResolvedCall['method'] };
    const undrawable: ResolvedScenario = { ...s, mix: [{ kind: 'call', call }], reads: new Set([call.method]) };
    expect(() => write(undrawable)).toThrow(K6Unsupported);
    expect(() => write(undrawable)).toThrow(/chain_faucetClaim.*takes params \(address\).*drawParams\.ts has no draw/);
    // With fixed params it is sent as given.
    const fixed: ResolvedScenario = { ...undrawable, mix: [{ kind: 'call', call: { ...call, params: ['b'.repeat(64)] } }] };
    expect(write(fixed).mix.map((e) => e.draw)).toEqual(['none']);
  });

  it('refuses a method the Node engine draws but the k6 runtime cannot', () => {
    const table = { chain_getAccount: { node: () => ['x'] } };
    expect(() => k6DrawOf('chain_getAccount', table)).toThrow(K6Unsupported);
    expect(() => k6DrawOf('chain_getAccount', table)).toThrow(/chain_getAccount.*takes params \(address\).*only the Node engine draws/);
    expect(k6DrawOf('chain_getAccount', { chain_getAccount: { node: () => ['x'], k6: 'account' } })).toBe('account');
    expect(k6DrawOf('chain_health', {})).toBe('none');
  });
});

describe('checkK6Scenario: refused from the scenario alone, before any node is prepared', () => {
  const tx = (over: Record<string, unknown>): ResolvedScenario =>
    resolveScenario({ name: 'tx', arrivals: { model: 'open', rate: 10 }, duration: '1s', mix: [{ method: 'chain_sendRawTransaction' }], ...over });

  it('transactions in batches, a closed model of more connections than senders, a method it cannot draw', () => {
    const profile = referenceProfile();
    expect(() => checkK6Scenario(tx({ transactions: { batchSize: 4 } }), profile)).toThrow(/transactions in batches \(transactions\.batchSize > 1\)/);
    expect(() => checkK6Scenario(tx({ arrivals: { model: 'closed', connections: 8 }, transactions: { senders: 4 } }), profile)).toThrow(/a closed model of 8 connections over 4 senders/);
    const s = scenario([{ method: 'chain_blockNumber' }]);
    const call: ResolvedCall = { ...(s.mix[0] as { call: ResolvedCall }).call, method: 'chain_faucetClaim' as ResolvedCall['method'] };
    expect(() => checkK6Scenario({ ...s, mix: [{ kind: 'batch', weight: 1, size: 2, mix: [call as ResolvedCall & { method: 'chain_blockNumber' }] }] }, profile)).toThrow(/chain_faucetClaim.*takes params/);
    // What k6 runs: the most VUs, one request in flight each, no more than the senders.
    expect(checkK6Scenario(tx({ maxInFlight: 64, transactions: { senders: 16 } }), profile)).toBe(16);
    expect(checkK6Scenario(s, profile)).toBe(s.maxInFlight);
  });
});

describe('writeK6Script: the corpus\'s lanes bound the VUs', () => {
  /** A corpus file of `senders` lanes of 3 transactions each. */
  const corpusOf = (senders: number): string => {
    const file = join(dir, `corpus-${++tests}.json`);
    const lanes = Array.from({ length: senders }, (_, k) => ({ address: String(k).padStart(64, '0'), txs: [0, 1, 2].map((nonce) => ({ nonce, tx: `tx-${k}-${nonce}` })) }));
    writeFileSync(file, JSON.stringify({ senders: lanes }));
    return file;
  };
  const sending = (arrivals: Record<string, unknown>): ResolvedScenario =>
    resolveScenario({ name: 'tx', arrivals, duration: '6s', warmup: '1s', ...(arrivals.model === 'open' ? { maxInFlight: 64 } : {}), mix: [{ method: 'chain_sendRawTransaction' }], transactions: { senders: 32 } } as never);
  const writeWith = (s: ResolvedScenario, corpus: string): { maxVUs: number; scenarios: Record<string, { maxVUs?: number; preAllocatedVUs?: number }> } => {
    const out = join(dir, `t${++tests}`);
    const written = writeK6Script({ scenario: s, url: 'http://127.0.0.1:1', profile: referenceProfile(), prepared: { ...prepared, transactions: { corpus, batchSize: 1 } }, out, version: 'test' });
    const data = JSON.parse(readFileSync(join(out, 'data.json'), 'utf8')) as { scenarios: Record<string, { maxVUs?: number; preAllocatedVUs?: number }> };
    return { maxVUs: written.maxVUs, scenarios: data.scenarios };
  };

  it('gives k6 no more VUs than the corpus has lanes, whatever the scenario\'s senders say (--corpus)', () => {
    // An outside tester's --corpus of 6 senders under a scenario of 32 got maxVUs 32: 26 VUs found no lane and sent nothing.
    const { maxVUs, scenarios } = writeWith(sending({ model: 'open', rate: 20 }), corpusOf(6));
    expect(maxVUs).toBe(6);
    expect(scenarios.chainrpc).toMatchObject({ maxVUs: 6, preAllocatedVUs: 6 });
    // A corpus of more lanes than the scenario's senders keeps the scenario's bound.
    expect(writeWith(sending({ model: 'open', rate: 20 }), corpusOf(40)).maxVUs).toBe(32);
  });

  it('refuses a closed model of more connections than the corpus has lanes', () => {
    expect(() => writeWith(sending({ model: 'closed', connections: 8 }), corpusOf(6))).toThrow(/a closed model of 8 connections over a corpus of 6 senders/);
  });
});

describe('k6Thresholds', () => {
  it('leaves exactly the metrics k6 does not measure (K6_UNMEASURED_METRICS) to the Node engine', () => {
    const texts = ['p99 < 250ms', 'errors < 1%', 'lag-p99 < 10ms', 'read-lag-p99 < 10ms', 'invalid < 1%', 'inclusion >= 99%', 'tti-p50 < 2s', 'tti-p99 < 5s', 'head-lag-p99 < 500ms', 'stalls == 0', 'regressions == 0', 'rss-growth < 50MB/h', 'head-lag-drift < 1s/h', 'failover < 3s', 'recovery < 5s', 'lost-tx == 0', 'duplicate-tx == 0', 'forks == 0', 'mismatches == 0'];
    const s = { ...scenario([{ method: 'chain_blockNumber' }]), thresholds: texts.map(parseThreshold) };
    const { thresholds, notJudged } = k6Thresholds(s, referenceProfile());
    expect(notJudged).toEqual(texts.filter((t) => [...K6_UNMEASURED_METRICS].some((m) => t.startsWith(`${m} `))));
    expect(notJudged).toHaveLength(K6_UNMEASURED_METRICS.size);
    expect(Object.keys(thresholds).sort()).toEqual(['chainrpc_call_failed', 'chainrpc_latency']);
  });
});

describe('k6Scenarios', () => {
  const timed = (arrivals: { model: string; stages?: unknown; [k: string]: unknown }): ResolvedScenario =>
    resolveScenario({ name: 'timed', arrivals, ...(arrivals.stages === undefined ? { duration: '6s' } : {}), warmup: '2s', timeout: '10s', mix: [{ method: 'chain_blockNumber' }] } as never);
  const open = timed({ model: 'open', rate: 20 });

  it('stops the measured scenario only after the request timeout and a margin, so a request in flight at its end ends and is counted', () => {
    // k6 stopped requests 5 s after the end, before their 10 s timeout: 40 of 121 were never counted.
    for (const s of [open, timed({ model: 'closed', connections: 2 }), timed({ model: 'open', stages: [{ from: 10, to: 20, duration: '6s' }] })]) {
      const measured = k6Scenarios(s, 4)[K6_MEASURED_SCENARIO] as { gracefulStop: string };
      expect(k6DurationMs(measured.gracefulStop), s.model.kind).toBeGreaterThanOrEqual(s.timeoutMs + 1000);
    }
  });

  it('has k6 start, before the run, VUs enough for answers within a second at the peak rate: 100 at least, maxVUs at most', () => {
    // k6 drops the iterations due while it starts a VU mid-run: an outside tester's node answering in 600 ms at 250/s
    // had 104 to 134 dropped with 100 VUs started before the run, and none with 256.
    const at = (rate: number, maxVUs: number): unknown => (k6Scenarios(timed({ model: 'open', stages: [{ from: rate / 2, to: rate, duration: '6s' }] }), maxVUs)[K6_MEASURED_SCENARIO] as { preAllocatedVUs: number }).preAllocatedVUs;
    expect(at(250, 256)).toBe(250);
    expect(at(1000, 256)).toBe(256);
    expect(at(20, 256)).toBe(100);
    expect(at(20, 4)).toBe(4);
  });

  it('runs an open model\'s warm-up as a scenario of its own before the measured one, stopped gracefully so its last requests end in the window', () => {
    // Apart, so that k6's dropped_iterations of the measured scenario are the window's own; stopped gracefully, so
    // that its requests in flight at the window's start end there and count toward the achieved rate, as the Node
    // engine counts them (stopped at once, an outside tester's node answering in 200 ms got 98.0% over 10 s).
    expect(k6Scenarios(open, 4)).toEqual({
      warmup: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '2000ms', preAllocatedVUs: 4, maxVUs: 4, gracefulStop: '12000ms' },
      chainrpc: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '6000ms', startTime: '2000ms', preAllocatedVUs: 4, maxVUs: 4, gracefulStop: '12000ms' },
    });
    // k6's constant-arrival-rate lasts 1 s at least: a shorter warm-up is a flat ramp.
    const short = resolveScenario({ name: 'short', arrivals: { model: 'open', rate: 20 }, duration: '2s', warmup: '500ms', mix: [{ method: 'chain_blockNumber' }] });
    expect(k6Scenarios(short, 4).warmup).toMatchObject({ executor: 'ramping-arrival-rate', startRate: 20, stages: [{ target: 20, duration: '500ms' }] });
    const ramp = k6Scenarios(timed({ model: 'open', stages: [{ from: 10, to: 20, duration: '6s' }] }), 4);
    expect(ramp.chainrpc).toMatchObject({ executor: 'ramping-arrival-rate', startRate: 10, stages: [{ target: 20, duration: '6000ms' }], startTime: '2000ms' });
    expect(ramp.warmup).toMatchObject({ rate: 10, duration: '2000ms' });
  });

  it('warms up an open model that signs transactions inside its measured scenario: no transaction abandoned in flight, no nonce gap', () => {
    const signing = (arrivals: Record<string, unknown>): ResolvedScenario =>
      resolveScenario({ name: 'tx', arrivals, ...(arrivals.stages === undefined ? { duration: '6s' } : {}), warmup: '2s', timeout: '10s', mix: [{ method: 'chain_sendRawTransaction' }], transactions: { senders: 4 } } as never);
    const steady = signing({ model: 'open', rate: 20 });
    expect(k6Scenarios(steady, 4)).toEqual({ chainrpc: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '8000ms', preAllocatedVUs: 4, maxVUs: 4, gracefulStop: '12000ms' } });
    expect(k6MeasuredWindow(steady)).toEqual({ scenario: K6_MEASURED_SCENARIO, afterMs: 2000 });
    const ramp = k6Scenarios(signing({ model: 'open', stages: [{ from: 10, to: 20, duration: '6s' }] }), 4);
    expect(ramp).toEqual({ chainrpc: expect.objectContaining({ executor: 'ramping-arrival-rate', startRate: 10, stages: [{ target: 10, duration: '2000ms' }, { target: 20, duration: '6000ms' }] }) as unknown });
    // Reads keep the warm-up apart (its drops are not the window's).
    expect(k6MeasuredWindow(open)).toEqual({ scenario: K6_MEASURED_SCENARIO, afterMs: 0 });
  });
});

describe('k6Thresholds: drops and latency', () => {
  const s = (thresholds: string[]): ResolvedScenario =>
    resolveScenario({ name: 'drops', arrivals: { model: 'open', rate: 20 }, duration: '6s', warmup: '2s', mix: [{ method: 'chain_blockNumber' }], thresholds });

  it('limits the measured window\'s drops: achieved >= 90% allows 10% of the window\'s iterations, the warm-up\'s left out', () => {
    const { thresholds, dropLimits } = k6Thresholds(s(['achieved >= 90%', 'dropped == 0']), referenceProfile());
    // 20/s over the 6 s window: 120 iterations, 12 may drop (the whole test's 160 would allow 16).
    expect(dropLimits.map((l) => l.op)).toEqual(['<=', '==']);
    expect(dropLimits[0]?.limit).toBeCloseTo(12, 9);
    expect(dropLimits[1]?.limit).toBe(0);
    // The runtime names the measured scenario's drops itself, with each instance's share of the limits.
    expect(Object.keys(thresholds)).toEqual([]);
  });

  it('judges latency over the run once per request, and a method\'s per call', () => {
    const { thresholds } = k6Thresholds(s(['p50 < 50ms', 'chain_blockNumber:p99 < 100ms']), referenceProfile());
    expect(thresholds).toEqual({ chainrpc_latency: ['p(50)<50'], 'chainrpc_call_latency{method:chain_blockNumber}': ['p(99)<100'] });
  });
});
