/**
 * Generated k6 tests under the real k6 (test/support/k6.ts finds it; without it these skip, saying so):
 * every built-in scenario against a reference node on loopback keeps its thresholds; faults break the
 * matching threshold and k6 exits 99; a split into execution segments sends what one process sends, keeps
 * every sender's nonces in order, and merges into the same counts.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../core/client/index.js';
import { parseJson } from '../../core/json/index.js';
import { referenceProfile } from '../../suites/profile/referenceProfile.js';
import { findK6, K6_SKIP_NOTE, runK6 } from '../../test/support/k6.js';
import { startDelayServer } from '../../test/support/loadServers.js';
import { startTestNode, type TestNode } from '../../test/support/suites.js';
import { prepareTarget, runLoad } from '../runLoad.js';
import { loadScenario, resolveScenario, type ScenarioOverrides } from '../scenario/loadScenario.js';
import type { K6Summary } from './K6Summary.js';
import { k6BucketMiddleUs, mergeK6Summaries } from './mergeK6Summaries.js';
import { writeK6Script } from './writeK6Script.js';

const k6 = findK6();
if (k6 === undefined) console.warn(`load/k6/k6.test.ts ${K6_SKIP_NOTE}`);

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-k6-'));
let node: TestNode;
beforeAll(async () => {
  if (k6 !== undefined) node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let tests = 0;
/** A scenario's k6 test for `url`, in a folder of its own. */
async function generate(name: string, overrides: ScenarioOverrides, url = node.url, segments = 1): Promise<string> {
  const out = join(dir, `${name}-${++tests}`);
  const scenario = loadScenario(name, overrides);
  const profile = referenceProfile();
  const prepared = await prepareTarget(url, { scenario, profile, profilePath: null, log: () => {} }, join(out, '.work'));
  writeK6Script({ scenario, url, profile, prepared, out, version: 'test', segments });
  return out;
}

const summariesIn = (folder: string): K6Summary[] =>
  readdirSync(folder)
    .filter((f) => /^chainrpc-summary.*\.json$/.test(f))
    .map((f) => parseJson(readFileSync(join(folder, f), 'utf8')) as unknown as K6Summary);

const calls = (s: K6Summary): { calls: number; ok: number } =>
  Object.values(s.methods).reduce((n, m) => ({ calls: n.calls + m.calls, ok: n.ok + m.ok }), { calls: 0, ok: 0 });

/** The q-quantile of one summary's buckets by the nearest-rank rule, as the bucket's middle (µs). */
function bucketQuantileUs(buckets: Record<string, number>, q: number): number {
  const entries = Object.entries(buckets).map(([k, n]) => [Number(k), n] as const).sort((a, b) => a[0] - b[0]);
  const rank = Math.max(1, Math.ceil(q * entries.reduce((t, [, n]) => t + n, 0)));
  let seen = 0;
  for (const [index, n] of entries) if ((seen += n) >= rank) return k6BucketMiddleUs(index);
  throw new Error('no samples in the buckets');
}

const quick = { rate: 20, duration: '2s', warmup: '500ms' } as const;

describe.skipIf(k6 === undefined)('generated k6 tests under real k6', () => {
  const bin = k6 ?? 'k6';

  it.each(['reads', 'batch', 'send-raw-tx', 'mixed'])('%s: runs, every call answered with a result, its thresholds kept (exit 0)', async (name) => {
    const out = await generate(name, name === 'batch' ? { ...quick, batchSize: 5, rate: 10 } : quick);
    const run = await runK6(bin, ['script.js'], out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/every threshold kept/);
    const [summary] = summariesIn(out);
    if (summary === undefined) throw new Error('no summary written');
    expect(summary.segment).toBeNull();
    const rate = name === 'batch' ? 10 : 20;
    expect(summary.schedule.started).toBeGreaterThanOrEqual(rate * 2 - 1);
    expect(summary.schedule.started).toBeLessThanOrEqual(rate * 2 + 1);
    expect(summary.requests.count).toBe(summary.schedule.started);
    const { calls: n, ok } = calls(summary);
    expect(ok).toBe(n);
    if (name === 'batch') expect(Object.keys(summary.batchSizes)).toEqual(['5']);
    expect(Object.values(summary.thresholds).every(Boolean)).toBe(true);
  }, 60_000);

  it('errors inside batches (a node that reverses and truncates batch answers) break errors < 1%: k6 exits 99', async () => {
    const faulty = await startTestNode({ faults: ['batch-reversed-and-truncated'] });
    try {
      const out = await generate('batch', { ...quick, rate: 10, batchSize: 5 }, faulty.url);
      const run = await runK6(bin, ['script.js'], out);
      expect(run.code).toBe(99);
      const [summary] = summariesIn(out);
      expect(summary?.failures.missingElements).toBeGreaterThan(0);
      expect(summary?.thresholds['chainrpc_call_failed: rate<0.01']).toBe(false);
    } finally {
      await faulty.stop();
    }
  }, 60_000);

  it('transactions refused (a node that drops every second one, so the lanes meet gaps) break errors < 1%: k6 exits 99', async () => {
    const faulty = await startTestNode({ faults: ['admitted-tx-dropped'] });
    try {
      const out = await generate('send-raw-tx', quick, faulty.url);
      const run = await runK6(bin, ['script.js'], out);
      expect(run.code).toBe(99);
      const [summary] = summariesIn(out);
      expect(summary?.methods.chain_sendRawTransaction?.errors['-32006']).toBeGreaterThan(0);
    } finally {
      await faulty.stop();
    }
  }, 60_000);

  it('split into 2 and into 3 execution segments: the same total as one process, nonces in order, merged counts exact', async () => {
    const client = createClient({ baseUrl: node.url });
    try {
      const results: { parts: number; merged: ReturnType<typeof mergeK6Summaries>; summaries: K6Summary[] }[] = [];
      for (const [i, parts] of [1, 2, 3].entries()) {
        // Fresh senders for each run (their own seed), so each run starts every lane at its account's nonce.
        const out = await generate('send-raw-tx', { rate: 30, duration: '3s', warmup: '500ms', seed: 100 + i }, node.url, parts);
        const at = (k: number): string => (k === 0 ? '0' : k === parts ? '1' : `${k}/${parts}`);
        const sequence = Array.from({ length: parts + 1 }, (_, k) => at(k)).join(',');
        const runs = await Promise.all(
          Array.from({ length: parts }, (_, k) => runK6(
              bin,
              // Each instance reads only its own senders' lanes (k % parts = its index).
              parts === 1 ? ['script.js'] : ['--address', '127.0.0.1:0', '--execution-segment', `${at(k)}:${at(k + 1)}`, '--execution-segment-sequence', sequence, '-e', `CHAINRPC_CORPUS=corpus-${k}-of-${parts}.json`, 'script.js'],
              out,
            ),
          ),
        );
        for (const r of runs) expect(r.code, r.stderr).toBe(0);
        const summaries = summariesIn(out);
        expect(summaries).toHaveLength(parts);
        // Every sender sent: each instance found a lane for each of its VUs in its share of the corpus.
        for (const s of summaries) expect(s.requests.count).toBe(s.schedule.started);
        for (const s of summaries) {
          // No nonce-gap refusal anywhere: each sender's lane stayed in order across the instances.
          const sent = s.methods.chain_sendRawTransaction;
          expect(sent?.errors ?? {}).toEqual({});
          expect(sent?.ok).toBe(sent?.calls);
        }
        results.push({ parts, merged: mergeK6Summaries(summaries), summaries });
        // Inclusion 100%: every measured transaction (and the warm-up's before them) reaches the chain: the
        // senders' nonces rise by at least what the window sent and then stop, none beyond its lane.
        const corpus = parseJson(readFileSync(join(out, 'corpus.json'), 'utf8')) as unknown as { senders: { address: string; txs: { nonce: number }[] }[] };
        const sentTotal = summaries.reduce((n, s) => n + (s.methods.chain_sendRawTransaction?.ok ?? 0), 0);
        const firstNonces = corpus.senders.map((l) => l.txs[0]?.nonce ?? 0);
        const deadline = Date.now() + 15_000;
        let included = -1;
        let stable = 0;
        let nonces: number[] = [];
        while (Date.now() < deadline && stable < 3) {
          const accounts = await Promise.all(corpus.senders.map((l) => client.call<{ nonce: number }>('chain_getAccount', [l.address])));
          nonces = accounts.map((a) => Number(a.nonce));
          const now = nonces.reduce((n, nonce, k) => n + nonce - (firstNonces[k] ?? 0), 0);
          stable = now === included && now >= sentTotal ? stable + 1 : 0;
          included = now;
          await new Promise((r) => setTimeout(r, 300));
        }
        expect(stable).toBe(3);
        expect(included).toBeGreaterThanOrEqual(sentTotal);
        corpus.senders.forEach((l, k) => expect(nonces[k] ?? 0).toBeLessThanOrEqual((firstNonces[k] ?? 0) + l.txs.length));
      }
      const [one, two, three] = results;
      if (one === undefined || two === undefined || three === undefined) throw new Error('runs missing');
      // The same schedule split exactly: started (and dropped) add up to one process's, to within one
      // iteration per instance at the edge of the warm-up.
      for (const split of [two, three]) {
        expect(Math.abs(split.merged.schedule.scheduled - one.merged.schedule.scheduled)).toBeLessThanOrEqual(split.parts);
        const total = split.summaries.reduce((n, s) => n + s.requests.count, 0);
        expect(split.merged.schedule.sent).toBe(total);
        expect(split.merged.methods.reduce((n, m) => n + m.calls, 0)).toBe(split.summaries.reduce((n, s) => n + calls(s).calls, 0));
        expect(split.merged.latency.count).toBe(total);
      }
    } finally {
      await client.close();
    }
  }, 120_000);

  it('the Node engine and k6 give the same answer for a scenario both can hold: requests, achieved rate, latency', async () => {
    const overrides = { rate: 50, duration: '3s', warmup: '500ms' } as const;
    const out = await generate('reads', overrides);
    const run = await runK6(bin, ['script.js'], out);
    expect(run.code, run.stderr).toBe(0);
    const fromK6 = mergeK6Summaries(summariesIn(out));
    const [fromNode] = await runLoad({ scenario: loadScenario('reads', overrides), urls: [node.url], profile: referenceProfile(), profilePath: null, threads: 1, log: () => {} });
    if (fromNode === undefined) throw new Error('no Node engine run');
    // 50/s for 3 s: 150 requests each, to within the edge of the window.
    for (const r of [fromK6, fromNode]) expect(Math.abs(r.schedule.sent - 150)).toBeLessThanOrEqual(2);
    expect(Math.abs(fromK6.schedule.achievedRate - fromNode.schedule.achievedRate) / fromNode.schedule.achievedRate).toBeLessThan(0.03);
    expect(fromK6.methods.every((m) => m.ok === m.calls)).toBe(true);
    // A node that keeps up: the same order of latency from both (k6 times from the write, the engine from the
    // scheduled time; on an idle loopback node they differ by the engine's lag and k6's own overhead).
    const ratio = fromK6.latency.p50 / fromNode.latency.p50;
    expect(ratio).toBeGreaterThan(1 / 4);
    expect(ratio).toBeLessThan(4);
  }, 60_000);

  it('merged percentiles of a split run: the body of the distribution as the single run\'s, the tail between its instances\' own (a server whose latency is known)', async () => {
    // Every answer after 50 ms: the true latency is one value, so whatever the split, p50 and p90 of the
    // merged instances must land in the single run's bucket or the next (a bucket spans 9.05%). The tail is
    // the machine's: the split instances run side by side on shared cores, so their p99 may carry a stall the
    // single run never saw. What a correct merge must give there is a mixture's quantile, which lies between
    // the quantiles of its parts: a merge that shifts, drops or double-counts buckets falls outside.
    const server = await startDelayServer({ delayMs: 50 });
    try {
      const scenario = resolveScenario({ name: 'delay', arrivals: { model: 'open', rate: 40 }, duration: '3s', warmup: '500ms', maxInFlight: 40, validate: 0, mix: [{ method: 'chain_health' }], thresholds: ['p99 < 1s'] });
      const profile = referenceProfile();
      const merged: { parts: number; run: ReturnType<typeof mergeK6Summaries>; instances: K6Summary[] }[] = [];
      for (const parts of [1, 2, 3]) {
        const out = join(dir, `delay-${parts}`);
        const prepared = await prepareTarget(server.url, { scenario, profile, profilePath: null, log: () => {} }, join(out, '.work'));
        writeK6Script({ scenario, url: server.url, profile, prepared, out, version: 'test', segments: parts });
        const at = (k: number): string => (k === 0 ? '0' : k === parts ? '1' : `${k}/${parts}`);
        const sequence = Array.from({ length: parts + 1 }, (_, k) => at(k)).join(',');
        const runs = await Promise.all(
          Array.from({ length: parts }, (_, k) =>
            runK6(bin, parts === 1 ? ['script.js'] : ['--address', '127.0.0.1:0', '--execution-segment', `${at(k)}:${at(k + 1)}`, '--execution-segment-sequence', sequence, 'script.js'], out),
          ),
        );
        for (const r of runs) expect(r.code, r.stderr).toBe(0);
        const instances = summariesIn(out);
        expect(instances).toHaveLength(parts);
        merged.push({ parts, run: mergeK6Summaries(instances), instances });
      }
      const [single, ...splits] = merged;
      if (single === undefined) throw new Error('no single run');
      const bucket = 2 ** (1 / 8);
      for (const p of ['p50', 'p90'] as const) {
        // The true value (50 ms plus the loopback's fraction of a ms) sits in the single run's bucket.
        expect(single.run.latency[p]).toBeGreaterThan(45_000);
        expect(single.run.latency[p]).toBeLessThan(60_000);
        for (const split of splits) {
          const ratio = split.run.latency[p] / single.run.latency[p];
          expect(Math.abs(Math.log2(ratio)), `${p} of ${split.parts} instances: ${split.run.latency[p]} µs against ${single.run.latency[p]} µs`).toBeLessThanOrEqual(1 / 8 + 1e-9);
        }
      }
      for (const { parts, run, instances } of merged) {
        // No answer comes before the server's 50 ms, so no percentile of any run can sit below its bucket.
        for (const p of ['p50', 'p90', 'p99'] as const) expect(run.latency[p], `${p} of ${parts} instance(s)`).toBeGreaterThan(45_000);
        if (parts === 1) continue;
        for (const [p, q] of [['p50', 0.5], ['p90', 0.9], ['p99', 0.99]] as const) {
          const own = instances.map((s) => bucketQuantileUs(s.requests.latency, q));
          const [low, high] = [Math.min(...own), Math.max(...own)];
          // To the bucket: the instances' quantiles are read here with the nearest-rank rule, the merge's by the harness's histogram.
          expect(run.latency[p], `${p} of ${parts} instances: ${run.latency[p]} µs; the instances' own ${own.join(', ')} µs`).toBeGreaterThanOrEqual(low / bucket - 1);
          expect(run.latency[p], `${p} of ${parts} instances: ${run.latency[p]} µs; the instances' own ${own.join(', ')} µs`).toBeLessThanOrEqual(high * bucket + 1);
        }
      }
      for (const split of splits) expect(split.run.latency.count).toBe(split.run.schedule.sent);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
