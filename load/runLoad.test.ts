// Every built-in scenario runs against a real reference node on loopback, through the real engine, with
// JSON-RPC-aware accounting and, for transactions, inclusion tracking (ratio 100% on an honest node).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../profile/referenceProfile.js';
import { startDelayServer } from '../test/support/loadServers.js';
import { startTestNode, type TestNode } from '../test/support/suites.js';
import { compareBaseline } from './compareBaseline.js';
import { loadReportFixture } from '../test/support/loadReportFixture.js';
import { runLoad } from './runLoad.js';
import { loadScenario } from './scenario/loadScenario.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => node.stop());

const quick = { rate: 40, duration: '2s', warmup: '300ms' } as const;
const run = async (name: string, extra = {}) => {
  const [result] = await runLoad({ scenario: loadScenario(name, { ...quick, ...extra }), urls: [node.url], profile: referenceProfile(), profileSource: null, threads: 1, log: () => {} });
  if (result === undefined) throw new Error('no run');
  return result;
};

describe('the load\'s own reads that go backwards (ReadWatch), on nodes that serve them', () => {
  it('a node with the fault height-regresses shows heights gone backwards in the load\'s reads; the honest node none, of every kind', async () => {
    const faulty = await startTestNode({ faults: ['height-regresses'] });
    try {
      // The heads not followed: what is counted comes from the load's own answers alone.
      const [bad] = await runLoad({ scenario: loadScenario('reads', quick), urls: [faulty.url], profile: referenceProfile(), profileSource: null, threads: 1, health: null, log: () => {} });
      const reads = bad?.health?.reads;
      expect(bad?.health?.head).toBeUndefined();
      // Every third chain_blockNumber answer two blocks lower: about a third of ~30 height reads.
      expect(reads?.counts.height).toBeGreaterThanOrEqual(3);
      expect(reads?.examples[0]?.kind).toBe('height');
      expect(BigInt(reads?.examples[0]?.previous.value ?? 0) - BigInt(reads?.examples[0]?.value ?? 0)).toBeGreaterThanOrEqual(1n);
    } finally {
      await faulty.stop();
    }
    const good = await run('reads', { thresholds: ['regressions == 0'] });
    expect(good.health?.reads?.counts).toEqual({ height: 0, block: 0, nonce: 0 });
    expect(good.health?.reads?.observed.block).toBeGreaterThan(5);
    expect(good.health?.reads?.observed.nonce).toBeGreaterThan(5);
    expect(good.thresholds.find((t) => t.metric === 'regressions')).toMatchObject({ actual: 0, ok: true });
  }, 60_000);
});

describe('built-in scenarios against the reference node', () => {
  it('reads: every call of the mix answered with a valid result, at the target rate', async () => {
    const r = await run('reads');
    const calls = r.methods.reduce((n, m) => n + m.calls, 0);
    expect(calls).toBeGreaterThanOrEqual(70);
    expect(r.methods.map((m) => m.method).sort()).toEqual(['chain_blockNumber', 'chain_getAccount', 'chain_getBlockByHeight', 'chain_health', 'chain_pouLocal']);
    for (const m of r.methods) expect([m.method, m.ok, m.invalid]).toEqual([m.method, m.calls, 0]);
    // This lane shares the cores with the fault matrix: the rate is held loosely, and of the scenario's thresholds
    // only those that judge answers (errors), never time (p99, achieved, dropped: the timing lane's and bench's).
    expect(r.schedule.achievedRate).toBeGreaterThan(30);
    const answerThresholds = r.thresholds.filter((t) => t.metric === 'errors');
    expect(answerThresholds.length).toBeGreaterThan(0);
    expect(answerThresholds.every((t) => t.ok)).toBe(true);
  }, 60_000);

  it('batch: batches of the given size, every call inside accounted for', async () => {
    const r = await run('batch', { batchSize: 5, rate: 10 });
    expect(r.batchSizes.map((b) => b.size)).toEqual(['5']);
    const calls = r.methods.reduce((n, m) => n + m.calls, 0);
    expect(calls).toBe(r.batchSizes[0]?.requests === undefined ? -1 : r.batchSizes[0].requests * 5);
    expect(r.methods.every((m) => m.ok === m.calls)).toBe(true);
  }, 60_000);

  it('send-raw-tx: a corpus made and sent, every accepted transaction included; the corpus goes with the run', async () => {
    const workDir = mkdtempSync(join(tmpdir(), 'chainrpc-load-work-'));
    const logs: string[] = [];
    const [r] = await runLoad({ scenario: loadScenario('send-raw-tx', { ...quick, rate: 20 }), urls: [node.url], profile: referenceProfile(), profileSource: null, threads: 1, log: (line) => logs.push(line), workDir });
    if (r === undefined) throw new Error('no run');
    expect(logs.some((line) => line.includes(workDir))).toBe(true);
    expect(readdirSync(workDir)).toEqual([]);
    rmSync(workDir, { recursive: true, force: true });
    expect(r.inclusion).toBeDefined();
    expect(r.inclusion?.accepted).toBeGreaterThan(30);
    expect(r.inclusion?.ratio).toBe(1);
    expect(r.inclusion?.pending).toBe(0);
    expect(r.inclusion?.timeToInclusionMs.p50).toBeGreaterThan(0);
    // The figures are the measured window's transactions, as the request figures are; the warm-up's apart.
    const sent = r.methods.find((m) => m.method === 'chain_sendRawTransaction');
    expect(r.inclusion?.accepted).toBe(sent?.ok);
    expect(r.inclusion?.timeToInclusionMs.count).toBe(sent?.ok);
    expect(r.inclusion?.warmup?.accepted).toBeGreaterThan(0);
    // The pending series counts the same transactions, and tracking's end is recorded for the chart's last point.
    expect(Math.max(...r.timeline.map((p) => p.included ?? 0))).toBeLessThanOrEqual(sent?.ok ?? 0);
    expect(r.inclusion?.followedAfterMs).toBeGreaterThanOrEqual(0);
  }, 90_000);

  it('mixed: reads and transactions together', async () => {
    const r = await run('mixed', { rate: 30 });
    expect(r.methods.map((m) => m.method)).toContain('chain_sendRawTransaction');
    expect(r.inclusion?.ratio).toBe(1);
  }, 90_000);

  it('send-raw-tx against a node that drops every second transaction it answers: the inclusion figures show it', async () => {
    const faulty = await startTestNode({ faults: ['admitted-tx-dropped'] });
    try {
      const [r] = await runLoad({ scenario: loadScenario('send-raw-tx', { ...quick, rate: 20 }), urls: [faulty.url], profile: referenceProfile(), profileSource: null, threads: 1, log: () => {} });
      const inclusion = r?.inclusion;
      if (inclusion === undefined) throw new Error('no inclusion figures');
      expect(inclusion.accepted).toBeGreaterThan(5);
      expect(inclusion.ratio).toBeLessThan(0.9);
      expect(inclusion.pending).toBeGreaterThan(0);
      expect(inclusion.included + inclusion.pending).toBe(inclusion.accepted);
      // The lanes behind a dropped nonce meet a gap.
      expect(Object.keys(inclusion.refused)).toContain('-32006');
      const threshold = r?.thresholds.find((t) => t.name.startsWith('inclusion'));
      expect(threshold?.ok).toBe(false);
    } finally {
      await faulty.stop();
    }
  }, 90_000);
});

describe('several --url: each node\'s segments merged into one run', () => {
  it('leaves the segments\' drain ticks out of the merged timeline, so the baseline\'s noise is the window\'s', async () => {
    // Two steady nodes (every answer after 20 ms), 3 s at 50/s: 3 rounds of 1 s each. Each segment's drain tick
    // (an answer or two after its window) used to sit at the next segment's start, inside the merged window, and
    // took the achieved rate's allowance against the run itself from about 0.1 to about 0.5 (the outside tester's).
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-multi-'));
    const a = await startDelayServer({ delayMs: 20 });
    const b = await startDelayServer({ delayMs: 20 });
    try {
      const file = join(dir, 'steady.json');
      writeFileSync(file, JSON.stringify({ name: 'steady', arrivals: { model: 'open', rate: 50 }, duration: '3s', warmup: '300ms', mix: [{ method: 'chain_health' }] }));
      const runs = await runLoad({ scenario: loadScenario(file), urls: [a.endpoint, b.endpoint], profile: referenceProfile(), profileSource: null, threads: 1, log: () => {} });
      expect(runs).toHaveLength(2);
      const report = { ...loadReportFixture('plain'), runs };
      for (const run of runs) {
        expect(run.durationMs).toBe(3_000);
        const window = run.timeline.filter((p) => p.tMs >= 0 && p.tMs < run.durationMs);
        // One point per second of the window, each a whole tick of the node's answers: no repeated tMs.
        expect(window.map((p) => p.tMs)).toEqual([0, 1_000, 2_000]);
        const times = run.timeline.map((p) => p.tMs);
        expect(times).toEqual([...times].sort((x, y) => x - y));
        expect(new Set(times).size).toBe(times.length);
        // The baseline's noise is the window's three seconds, nothing else (exact, whatever the machine did).
        const achieved = compareBaseline('self.json', report, [run]).deltas.find((d) => d.metric === `${run.url} steady achievedRate`);
        const counts = window.map((p) => p.completed);
        const mean = counts.reduce((x, y) => x + y, 0) / 3;
        const rse = Math.sqrt(counts.reduce((x, c) => x + (c - mean) ** 2, 0) / 2 / 3) / mean;
        expect(achieved?.allowed).toBeCloseTo(0.1 + 2 * Math.SQRT2 * rse, 9);
      }
    } finally {
      await a.stop();
      await b.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('Ctrl-C during the first node\'s turn of a comparison: the run of that node says the other was not loaded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-notloaded-'));
    const [a, b] = [await startDelayServer({ delayMs: 5 }), await startDelayServer({ delayMs: 5 })];
    try {
      const file = join(dir, 'pair.json');
      writeFileSync(file, JSON.stringify({ name: 'pair', arrivals: { model: 'open', rate: 50 }, duration: '2s', warmup: '200ms', mix: [{ method: 'chain_health' }] }));
      const stop = new AbortController();
      const runs = await runLoad({ scenario: loadScenario(file), urls: [a.endpoint, b.endpoint], profile: referenceProfile(), profileSource: null, threads: 1, signal: stop.signal, onProgress: () => stop.abort(), log: () => {} });
      expect(runs.map((r) => r.url)).toEqual([a.endpoint]);
      expect(runs[0]?.stop.reason).toBe('interrupted');
      expect(runs[0]?.stop.message).toContain(`${b.endpoint} not loaded: interrupted before its turn`);
    } finally {
      await a.stop();
      await b.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('Ctrl-C in the warm-up: a run that says it measured nothing, keeps the scenario\'s target, and is not valid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-warmup-'));
    const server = await startDelayServer({ delayMs: 5 });
    try {
      const file = join(dir, 'warm.json');
      writeFileSync(file, JSON.stringify({ name: 'warm', arrivals: { model: 'open', rate: 50 }, duration: '2s', warmup: '4s', mix: [{ method: 'chain_health' }] }));
      const stop = new AbortController();
      // The first tick of the warm-up (its progress) is the moment: the engine runs, nothing is measured yet.
      const runs = await runLoad({ scenario: loadScenario(file), urls: [server.endpoint], profile: referenceProfile(), profileSource: null, threads: 1, signal: stop.signal, onProgress: () => stop.abort(), log: () => {} });
      const [r] = runs;
      expect(r?.durationMs).toBe(0);
      expect(r?.schedule.targetRate).toBe(50);
      expect(r?.valid).toBe(false);
      expect(r?.invalid.join(' ')).toMatch(/^nothing was measured: the run was interrupted [\d,]+ ms into the 4,000 ms warm-up$/);
      expect(r?.stop).toMatchObject({ reason: 'interrupted', atMs: 0 });
      expect(r?.stop.message).not.toMatch(/-\d/);
      const into = Number(/interrupted ([\d,]+) ms/.exec(r?.stop.message ?? '')?.[1]?.replace(/,/g, ''));
      expect(into).toBeGreaterThan(0);
      expect(into).toBeLessThan(4_000);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
