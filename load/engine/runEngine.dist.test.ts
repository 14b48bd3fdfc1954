// The engine as the CLI runs it: compiled JavaScript from dist/ in a plain node process (no tsx), its worker
// threads started from dist/ too. Needs `npx tsc -p tsconfig.build.json` first (npm test builds it).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCapacityServer, type CapacityServer } from '../../test/support/loadServers.js';

const dist = (file: string): string => fileURLToPath(new URL(`../../dist/load/engine/${file}`, import.meta.url));

// A request source as a user would write one: a plain JavaScript module outside the package, named by its URL.
// Calls a and b in turn, in batches of 3 (ids 1 to 3).
const SOURCE = `
export function createSource() {
  let n = 0;
  return {
    next() {
      const calls = [0, 1, 2].map((i) => ({ id: i + 1, method: (n + i) % 2 === 0 ? 'a' : 'b' }));
      n += 3;
      const body = JSON.stringify(calls.map((c) => ({ jsonrpc: '2.0', id: c.id, method: c.method, params: [] })));
      return { body: Buffer.from(body), calls, batch: true };
    },
  };
}
`;

let server: CapacityServer;
let dir: string;
beforeAll(async () => {
  server = await startCapacityServer({ capacity: 5_000 });
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-dist-source-'));
  writeFileSync(join(dir, 'source.mjs'), SOURCE);
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('runEngine from dist/', () => {
  it('runs two worker threads from the compiled files, with a source module of plain JavaScript, and merges them (node started with V8 options)', async () => {
    if (!existsSync(dist('engineWorker.js'))) throw new Error(`${dist('engineWorker.js')} is missing: run npx tsc -p tsconfig.build.json (npm test builds it first)`);
    const script = `
      const { runEngine } = await import(${JSON.stringify(dist('runEngine.js'))});
      const run = await runEngine({
        url: ${JSON.stringify(server.endpoint)},
        model: { kind: 'open', distribution: 'uniform', stages: [{ from: 300, to: 300, durationMs: 1000 }] },
        warmupMs: 0, durationMs: 1000, maxInFlight: 100, timeoutMs: 5000, threads: 2,
        source: { module: ${JSON.stringify(pathToFileURL(join(dir, 'source.mjs')).href)}, options: null },
      });
      console.log(JSON.stringify({ schedule: run.schedule, methods: run.methods.map((m) => [m.method, m.calls, m.ok]), stop: run.stop }));
    `;
    const out = await new Promise<string>((resolve, reject) => {
      // With node options a worker refuses (V8's, as users give them for long runs): the threads still start.
      execFile(process.execPath, ['--max-old-space-size=512', '--stack-size=2000', '--input-type=module', '-e', script], { timeout: 20_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)));
    });
    const result = JSON.parse(out) as { schedule: { scheduled: number; sent: number; dropped: number }; methods: [string, number, number][]; stop: { reason: string } };
    // Every scheduled request sent, or dropped as late where a busy machine held the threads back (this test shares
    // the cores with other process-level tests: it judges the merge, not the pace): none lost, none counted twice.
    const { scheduled, sent, dropped } = result.schedule;
    expect(scheduled).toBe(300);
    expect(sent + dropped).toBe(300);
    expect(sent).toBeGreaterThan(0);
    // Batches of 3 calls, a and b in turn (each thread's source alternates its own), every one answered.
    const [a, b] = result.methods;
    expect([a?.[0], b?.[0]]).toEqual(['a', 'b']);
    expect((a?.[1] ?? 0) + (b?.[1] ?? 0)).toBe(3 * sent);
    expect(Math.abs((a?.[1] ?? 0) - (b?.[1] ?? 0))).toBeLessThanOrEqual(6);
    expect([a?.[2], b?.[2]]).toEqual([a?.[1], b?.[1]]);
    expect(result.stop.reason).toBe('completed');
  }, 30_000);
});
