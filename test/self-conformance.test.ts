/**
 * Self-conformance with real processes and the real CLI: `chainrpc test --level profile` (gating on
 * every level) passes against one reference node, and against a devnet of 3 MN + 2 LN given as five
 * --url, and writes every report.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../core/paths.js';
import { startDevnet } from '../reference-node/devnet/startDevnet.js';
import type { Devnet } from '../reference-node/devnet/startDevnet.js';
import type { RunResult } from '../suites/model.js';

const BIN = join(packageRoot, 'dist', 'cli', 'chainrpc.js');
const BLOCK_MS = 200;
let dir: string;
let net: Devnet;

function certify(urls: string[], reportDir: string): Promise<{ code: number | null; stdout: string; report: RunResult }> {
  return new Promise((resolve, reject) => {
    const args = [BIN, 'test', ...urls.flatMap((u) => ['--url', u]), '--level', 'profile', '--block-time', String(BLOCK_MS), '--report-dir', reportDir];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const path = join(reportDir, 'latest', 'report.json');
      if (!existsSync(path)) {
        reject(new Error(`no report (exit ${String(code)}):\n${stdout.slice(-3000)}`));
        return;
      }
      resolve({ code, stdout, report: JSON.parse(readFileSync(path, 'utf8')) as RunResult });
    });
  });
}

const problems = (report: RunResult): string[] =>
  report.results.filter((r) => r.status === 'fail' || r.status === 'error').map((r) => `${r.id} @ ${r.node}: ${r.status}: ${r.evidence.message}`);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-self-'));
  net = await startDevnet({ mn: 3, ln: 2, blockTimeMs: BLOCK_MS, chainId: 1n, dataDir: join(dir, 'devnet'), keepData: false });
}, 90_000);

afterAll(async () => {
  await net?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe('self-conformance', () => {
  it('certifies one reference node at every level (exit 0) and writes every report', async () => {
    const ln = net.nodes.find((n) => n.kind === 'LN');
    if (!ln) throw new Error('no LN');
    const r = await certify([ln.url], join(dir, 'one'));
    expect(problems(r.report)).toEqual([]);
    expect(r.code, r.stdout.slice(-2000)).toBe(0);
    expect(r.report.summary.certified).toBe(true);
    for (const f of ['report.json', 'junit.xml', 'summary.md', 'report.html', 'transcript.ndjson']) expect(existsSync(join(dir, 'one', 'latest', f)), f).toBe(true);
    expect(r.stdout).toContain('CERTIFIED');
  }, 120_000);

  it('certifies a devnet of 3 MN + 2 LN given as five --url, network checks included', async () => {
    const r = await certify(net.nodes.map((n) => n.url), join(dir, 'five'));
    expect(problems(r.report)).toEqual([]);
    expect(r.code).toBe(0);
    const network = r.report.results.filter((x) => x.scope === 'network');
    expect(network.length).toBeGreaterThan(3);
    expect(network.every((x) => x.status === 'pass')).toBe(true);
  }, 180_000);
});
