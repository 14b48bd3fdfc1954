// The engine as the CLI runs it: compiled JavaScript from dist/ in a plain node process (no tsx), its worker
// threads started from dist/ too. Needs `npx tsc -p tsconfig.build.json` first (npm test builds it).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCapacityServer, type CapacityServer } from '../../test/support/loadServers.js';

const dist = (file: string): string => fileURLToPath(new URL(`../../dist/load/engine/${file}`, import.meta.url));

let server: CapacityServer;
beforeAll(async () => {
  server = await startCapacityServer({ capacity: 5_000 });
});
afterAll(async () => {
  await server.stop();
});

describe('runEngine from dist/', () => {
  it('runs two worker threads from the compiled files and merges them', async () => {
    if (!existsSync(dist('engineWorker.js'))) throw new Error(`${dist('engineWorker.js')} is missing: run npx tsc -p tsconfig.build.json (npm test builds it first)`);
    const script = `
      const { runEngine } = await import(${JSON.stringify(dist('runEngine.js'))});
      const { fixedCallsSpec } = await import(${JSON.stringify(dist('fixedCallsSource.js'))});
      const run = await runEngine({
        url: ${JSON.stringify(server.endpoint)},
        model: { kind: 'open', distribution: 'uniform', stages: [{ from: 300, to: 300, durationMs: 1000 }] },
        warmupMs: 0, durationMs: 1000, maxInFlight: 100, timeoutMs: 5000, threads: 2,
        source: fixedCallsSpec({ calls: [{ method: 'a' }, { method: 'b' }], batchSize: 3 }),
      });
      console.log(JSON.stringify({ schedule: run.schedule, methods: run.methods.map((m) => [m.method, m.calls, m.ok]), stop: run.stop }));
    `;
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)));
    });
    const result = JSON.parse(out) as { schedule: { scheduled: number; sent: number }; methods: [string, number, number][]; stop: { reason: string } };
    expect(result.schedule).toMatchObject({ scheduled: 300, sent: 300 });
    // 300 batches of 3 calls, a and b in turn.
    expect(result.methods).toEqual([
      ['a', 450, 450],
      ['b', 450, 450],
    ]);
    expect(result.stop.reason).toBe('completed');
  }, 30_000);
});
