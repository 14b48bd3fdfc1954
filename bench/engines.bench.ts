/**
 * `npm run bench:engines`: where the Node engine and k6 must differ, measured. A server stalls completely for
 * 200 ms at the start of every second (test/support/loadServers.ts, its own process); both engines send
 * chain_health at 500/s for 5 s with 10 requests at a time at most: the Node engine with 10 connections and
 * a queue (latency from each request's scheduled time), k6 with 10 VUs (constant-arrival-rate; an iteration
 * that finds no free VU is dropped, and latency runs from the write). The truth is what a client arriving at
 * 500/s meets: p90 100 ms, p99 190 ms, p99.9 199 ms. Needs k6 ($K6_BIN or the PATH).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJson } from '../core/json/index.js';
import type { K6Summary } from '../load/k6/K6Summary.js';
import { mergeK6Summaries } from '../load/k6/mergeK6Summaries.js';
import { writeK6Script } from '../load/k6/writeK6Script.js';
import type { LoadRun } from '../load/model.js';
import { prepareTarget, runLoad } from '../load/runLoad.js';
import { resolveScenario } from '../load/scenario/loadScenario.js';
import { referenceProfile } from '../profile/referenceProfile.js';
import { findK6, runK6 } from '../test/support/k6.js';
import { startStallProcess } from './bareServer.js';

const k6 = findK6();
if (k6 === undefined) throw new Error('bench:engines needs k6: set K6_BIN to a k6 binary (v0.48 or later) or put k6 on the PATH');

const RATE = 500;
const SECONDS = 5;
const PERIOD_MS = 1_000;
const STALL_MS = 200;
const truth = (p: number): number => Math.max(0, STALL_MS - PERIOD_MS * (1 - p));

const stall = await startStallProcess(PERIOD_MS, STALL_MS);
const dir = mkdtempSync(join(tmpdir(), 'chainrpc-engines-'));
try {
  const profile = referenceProfile();
  const base = { name: 'stall', arrivals: { model: 'open', rate: RATE }, duration: `${SECONDS}s`, warmup: '0ms', timeout: '10s', validate: 0, mix: [{ method: 'chain_health' }] };
  // The Node engine: 10 connections, requests queue for one (counted), latency from the scheduled time.
  const engine = resolveScenario({ ...base, connections: 10, maxInFlight: 10_000 });
  const [fromNode] = await runLoad({ scenario: engine, urls: [stall.url], profile, profileSource: null, threads: 1, maxLagP99Us: 50_000, log: () => {} });
  // k6: 10 VUs (the in-flight cap is its VU cap).
  const k6Scenario = resolveScenario({ ...base, maxInFlight: 10 });
  const out = join(dir, 'k6');
  const prepared = await prepareTarget(stall.url, { scenario: k6Scenario, profile, profileSource: null, log: () => {} }, join(dir, 'work'));
  writeK6Script({ scenario: k6Scenario, url: stall.url, profile, prepared, out, version: 'bench' });
  await runK6(k6, ['script.js'], out, 120_000);
  const summaries = readdirSync(out).filter((f) => f.startsWith('chainrpc-summary')).map((f) => parseJson(readFileSync(join(out, f), 'utf8')) as unknown as K6Summary);
  const fromK6 = mergeK6Summaries(summaries);
  if (fromNode === undefined) throw new Error('no Node engine run');

  const ms = (us: number): string => (us / 1000).toFixed(1).padStart(8);
  const row = (label: string, r: LoadRun | undefined, t?: [number, number, number, number]): void => {
    const cells = r === undefined ? (t ?? [0, 0, 0, 0]).map((v) => v.toFixed(1).padStart(8)) : [r.latency.p50, r.latency.p90, r.latency.p99, r.latency.p999].map(ms);
    const counts = r === undefined ? ''.padStart(20) : `${String(r.schedule.sent).padStart(8)} ${String(r.schedule.dropped).padStart(8)}`;
    console.log(`  ${label.padEnd(52)} ${counts}   ${cells.join(' ')}`);
  };
  console.log(`engines benchmark: a server stalling ${STALL_MS} ms every ${PERIOD_MS} ms, ${RATE}/s for ${SECONDS} s, 10 at a time; node v${process.versions.node}, ${new Date().toISOString()}\n`);
  console.log(`  ${'measured by'.padEnd(52)} ${'sent'.padStart(8)} ${'dropped'.padStart(8)}   ${['p50', 'p90', 'p99', 'p99.9'].map((h) => h.padStart(8)).join(' ')}  (ms)`);
  row('the truth (arrivals at 500/s, from the intended time)', undefined, [truth(0.5), truth(0.9), truth(0.99), truth(0.999)]);
  row('Node engine, 10 connections, queue (from the schedule)', fromNode);
  row('k6 0.48+, 10 VUs, constant-arrival-rate (from the write)', fromK6);
} finally {
  stall.child.kill();
  rmSync(dir, { recursive: true, force: true });
}
