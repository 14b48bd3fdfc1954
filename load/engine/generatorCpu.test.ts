/**
 * The generator's CPU in a run's figures (`schedule.generatorCpu`): what chainrpc's process took of the machine.
 * Its truth is a request source that spends a known CPU time on each request it gives: the run must say at least
 * that much per request, its total and its share of a core must agree with it, and a source that costs nothing at
 * the same rate must show less.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeneratorCpu } from '../model.js';
import { fixedCallsSpec } from '../../test/support/fixedCallsSource.js';
import { startDelayServer, type LoadServer } from '../../test/support/loadServers.js';
import { runEngine, type EngineResult } from './index.js';

let server: LoadServer;
beforeAll(async () => {
  server = await startDelayServer({ delayMs: 1 });
});
afterAll(async () => {
  await server.stop();
});

const RATE = 50;
const COST_US = 4_000;

/** A 1 s open run at RATE/s whose source spends `costUs` of CPU on each request; the run and its wall time (s). */
async function runAt(costUs: number): Promise<{ run: EngineResult; wallSeconds: number }> {
  const t0 = performance.now();
  const run = await runEngine({
    url: server.endpoint,
    model: { kind: 'open', distribution: 'uniform', stages: [{ from: RATE, to: RATE, durationMs: 1_000 }] },
    warmupMs: 0,
    durationMs: 1_000,
    maxInFlight: 100,
    timeoutMs: 5_000,
    source: fixedCallsSpec({ calls: [{ method: 'chain_blockNumber' }], cpuPerRequestUs: costUs }),
  });
  return { run, wallSeconds: (performance.now() - t0) / 1000 };
}

const cpuOf = (run: EngineResult): GeneratorCpu => {
  const cpu = run.schedule.generatorCpu;
  if (cpu === undefined) throw new Error('the run says nothing of the generator\'s CPU');
  return cpu;
};

describe("the generator's CPU", () => {
  it('is at least what a costly source spent per request, and its total and share of a core agree', async () => {
    const { run, wallSeconds } = await runAt(COST_US);
    const cpu = cpuOf(run);
    const said = JSON.stringify({ cpu, sent: run.schedule.sent, wallSeconds });
    expect(run.schedule.sent, said).toBe(RATE);
    // No warm-up: the requests it counts are the run's.
    expect(cpu.requests, said).toBe(run.schedule.sent);
    expect(cpu.wallSeconds, said).toBeLessThanOrEqual(wallSeconds);
    expect(cpu.perRequestUs, said).toBeGreaterThanOrEqual(COST_US);
    expect(cpu.seconds, said).toBeGreaterThanOrEqual((COST_US * run.schedule.sent) / 1e6);
    // The share is over the run's own wall time, within the call's: at least the CPU over the call's time.
    expect(cpu.percentOfCore, said).toBeGreaterThanOrEqual((100 * cpu.seconds) / wallSeconds - 0.01);
    expect(cpu.percentOfCore, said).toBeGreaterThanOrEqual((100 * COST_US * RATE) / 1e6 / wallSeconds);
  });

  it('is less for a source that costs nothing, at the same rate', async () => {
    const cheap = cpuOf((await runAt(0)).run);
    const costly = cpuOf((await runAt(COST_US)).run);
    expect(cheap.perRequestUs ?? Infinity, JSON.stringify({ cheap, costly })).toBeLessThan((costly.perRequestUs ?? 0) - COST_US / 2);
  });
});
