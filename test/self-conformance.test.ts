/**
 * Self-conformance with real processes and the real CLI: `chainrpc test --level profile` (gating on
 * every level) passes against one reference node, and against a devnet of 3 MN + 2 LN given as five
 * --url, and writes every report. A run that passes without having seen every MUST requirement hold
 * (checks left out, or skipped for want of funds) says PASSED, never CERTIFIED, and why.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../core/paths.js';
import { startDevnet } from '../reference-node/devnet/startDevnet.js';
import { catalogue } from '../suites/catalogue.js';
import type { Devnet } from '../reference-node/devnet/startDevnet.js';
import type { RunResult } from '../suites/model.js';
import { REFERENCE_SETTINGS } from '../profile/referenceProfile.js';
import { startTestNode, TEST_BLOCK_MS } from './support/suites.js';

const BIN = join(packageRoot, 'dist', 'cli', 'chainrpc.js');
const BLOCK_MS = 200;
let dir: string;
let net: Devnet;

function certify(urls: string[], reportDir: string, extra: string[] = [], blockMs = BLOCK_MS): Promise<{ code: number | null; stdout: string; report: RunResult }> {
  return new Promise((resolve, reject) => {
    const args = [BIN, 'test', ...urls.flatMap((u) => ['--url', u]), '--level', 'profile', '--block-time', String(blockMs), '--report-dir', reportDir, ...extra];
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
    // Its checks run side by side (16 per node): nothing Node warns about reaches the user.
    expect(r.stdout).not.toMatch(/Warning/);
  }, 180_000);

  it('passes without certifying when MUST checks are left out by --only, and names how many', async () => {
    const ln = net.nodes.find((n) => n.kind === 'LN');
    if (!ln) throw new Error('no LN');
    const r = await certify([ln.url], join(dir, 'only'), ['--only', 'transport/*']);
    expect(problems(r.report)).toEqual([]);
    expect(r.code).toBe(0);
    const leftOut = catalogue().filter((c) => c.level === 'MUST' && !c.id.startsWith('transport/')).length;
    expect(leftOut).toBeGreaterThan(0);
    expect(r.report.summary).toMatchObject({ passed: true, certified: false, verdict: `no failure at PROFILE level or above; not certified: ${leftOut} MUST check(s) left out by --only/--skip` });
    expect(r.stdout).toContain('PASSED at gate PROFILE');
    expect(r.stdout).not.toContain('CERTIFIED');
  }, 120_000);

  it('passes without certifying a node whose state checks could not be funded (no faucet, no --private-key): they are skipped, and said so', async () => {
    const node = await startTestNode({ faucet: false });
    try {
      // The node's own profile: the reference one, but without a faucet (its settings as the node runs).
      const { faucetLimit, maxBatch, maxBodyBytes } = REFERENCE_SETTINGS;
      const profile = join(dir, 'no-faucet.json');
      writeFileSync(profile, JSON.stringify({ name: 'no-faucet', faucet: false, faucetLimit, maxBatch, maxBodyBytes }));
      const r = await certify([node.url], join(dir, 'unfunded'), ['--profile', profile], TEST_BLOCK_MS);
      expect(problems(r.report)).toEqual([]);
      expect(r.code).toBe(0);
      const skipped = r.report.results.filter((x) => x.level === 'MUST' && x.status === 'skip');
      expect(skipped.length).toBeGreaterThan(0);
      expect(skipped.every((x) => /no faucet and no funded key/.test(x.evidence.message))).toBe(true);
      expect(r.report.summary).toMatchObject({ passed: true, certified: false, verdict: `no failure at PROFILE level or above; not certified: ${skipped.length} MUST check result(s) skipped` });
      expect(r.stdout).toContain('PASSED at gate PROFILE');
      // And what would run them, once.
      const hint = `${skipped.length} MUST check result(s) were skipped: the network has no faucet and no funded key was given. Give --private-key <hex>`;
      expect(r.report.hints?.filter((h) => h.startsWith(hint))).toHaveLength(1);
      expect(r.stdout).toContain(`hint: ${hint}`);
    } finally {
      await node.stop();
    }
  }, 120_000);
});
