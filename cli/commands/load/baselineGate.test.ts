// The --baseline gate as a user runs it (`chainrpc load <scenario> --baseline <report.json>`, in this process), against
// real servers on loopback: what an outside tester found it compared (another load, another node's run, a baseline
// its own report did not trust, a baseline without figures) is refused before a request is sent, and a comparison
// that fails after the run never costs the run's report.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseJson } from '../../../core/json/index.js';
import type { LoadReport } from '../../../load/model.js';
import { startDelayServer, type LoadServer } from '../../../test/support/loadServers.js';
import { CliError } from '../../CliError.js';
import { publishLoadReport } from './publishLoadReport.js';
import { runCommand } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-baseline-gate-'));
let a: LoadServer;
let b: LoadServer;
/** The scenario the baseline ran: 40 requests/s of chain_health. */
const scenario = join(dir, 'gate.json');
const GATE = { name: 'gate', arrivals: { model: 'open', rate: 40 }, duration: '1s', warmup: '200ms', validate: 0, mix: [{ method: 'chain_health' }] };
let baseline: string;
let reports = 0;

/** `chainrpc load` with these arguments (and a fresh report folder); its exit code and what it printed. */
async function load(args: string[]): Promise<{ code: number; stdout: string; reportDir: string }> {
  const reportDir = join(dir, `reports-${++reports}`);
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    const code = await runCommand([...args, '--head-hz', '0', '--max-lag', '1s', '--report-dir', reportDir]);
    return { code, stdout, reportDir };
  } finally {
    spy.mockRestore();
  }
}

const reportIn = (reportDir: string): LoadReport => parseJson(readFileSync(join(reportDir, 'latest-load', 'report.json'), 'utf8')) as unknown as LoadReport;

/** A copy of the baseline with `change` made to it, as a file. */
function baselineWith(name: string, change: (r: LoadReport) => unknown): string {
  const report = parseJson(readFileSync(baseline, 'utf8')) as unknown as LoadReport;
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(change(report) ?? report));
  return file;
}

/** Expects `chainrpc load` to refuse with a usage error matching `message`, neither node having received a request. */
async function refusedUnsent(args: string[], message: RegExp): Promise<void> {
  const before = a.requests() + b.requests();
  const error = await load(args).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(CliError);
  expect((error as CliError).message).toMatch(message);
  expect(a.requests() + b.requests()).toBe(before);
}

beforeAll(async () => {
  a = await startDelayServer({ delayMs: 5 });
  b = await startDelayServer({ delayMs: 5 });
  writeFileSync(scenario, JSON.stringify(GATE));
  const recorded = await load([scenario, '--url', a.url]);
  expect(recorded.code).toBe(0);
  baseline = join(recorded.reportDir, 'latest-load', 'report.json');
}, 60_000);

afterAll(async () => {
  await a.stop();
  await b.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('--baseline: only like for like, refused before anything is sent', () => {
  it('refuses a baseline measured at another rate, with other connections, or of another scenario file of the same name', async () => {
    // Before: the run at 80/s went, and "failed" on the achieved rate against the baseline's 40/s.
    await refusedUnsent([scenario, '--rate', '80', '--url', a.url, '--baseline', baseline], /measured under another load than this run's.*arrivals: the baseline's open, 40\/s, uniform arrivals, this run's open, 80\/s, uniform arrivals/);
    await refusedUnsent([scenario, '--connections', '8', '--url', a.url, '--baseline', baseline], /connections: the baseline's 64, this run's 8/);
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ ...GATE, arrivals: { model: 'open', rate: 40, distribution: 'poisson' }, mix: [{ method: 'chain_blockNumber' }] }));
    await refusedUnsent([other, '--url', a.url, '--baseline', baseline], /arrivals: .*poisson arrivals; mix: .*chain_health.*chain_blockNumber/);
  });

  it('refuses a baseline run its own report did not trust (a node that never answered), saying why', async () => {
    const dead = baselineWith('dead', (r) => {
      const run = r.runs[0] as LoadReport['runs'][number];
      run.valid = false;
      run.invalid = ['the target became unreachable: every connection to 127.0.0.1:9 failed (ECONNREFUSED)'];
      run.stop = { reason: 'target-unreachable', atMs: 10, message: 'ECONNREFUSED' };
    });
    await refusedUnsent([scenario, '--url', a.url, '--baseline', dead], /its run of http:\/\/127\.0\.0\.1:\d+ is not one to compare with, its report marked it NOT TRUSTED: the target became unreachable/);
  });

  it('refuses a baseline whose runs lack their figures (checked against the report schema), before the run rather than crashing after it', async () => {
    const bare = join(dir, 'bare.json');
    writeFileSync(bare, JSON.stringify({ format: 'chainrpc-load/2', runs: [{ url: a.url, scenario: 'gate' }] }));
    await refusedUnsent([scenario, '--url', a.url, '--baseline', bare], /is not a load report .*required field/);
    const timeline = baselineWith('timeline', (r) => ({ ...r, runs: [{ ...r.runs[0], timeline: 'x' }] }));
    await refusedUnsent([scenario, '--url', a.url, '--baseline', timeline], /\/runs\/0\/timeline must be an array/);
  });

  it('takes the same load run for longer: the length of a run is not its load', async () => {
    const { code, reportDir } = await load([scenario, '--duration', '1500ms', '--url', a.url, '--baseline', baseline]);
    expect([0, 99]).toContain(code);
    expect(reportIn(reportDir).baseline?.deltas.map((d) => d.metric)).toEqual([`${a.url} gate p50`, `${a.url} gate p99`, `${a.url} gate achievedRate`, `${a.url} gate errors%`]);
  }, 30_000);
});

describe('--baseline: each node with its own baseline run', () => {
  it('compares a node with the baseline\'s run of its URL when another URL is new, and says the new one has none', async () => {
    // Before: one new URL paired every run by position, so B was judged against A's baseline and A not at all.
    const { reportDir, stdout } = await load([scenario, '--url', b.url, '--url', a.url, '--baseline', baseline]);
    const metrics = reportIn(reportDir).baseline?.deltas.map((d) => d.metric) ?? [];
    expect(metrics).toEqual([`${a.url} gate p50`, `${a.url} gate p99`, `${a.url} gate achievedRate`, `${a.url} gate errors%`]);
    expect(stdout).toContain(`load: --baseline: ${b.url}: the baseline has no run of it (nor one of another URL left over), so it is not compared`);
  }, 30_000);
});

describe('publishLoadReport: the measured run is never lost to the comparison', () => {
  it('writes the report of what ran, then raises the failure, when the comparison fails', async () => {
    const report = parseJson(readFileSync(baseline, 'utf8')) as unknown as LoadReport;
    // A baseline read past every check (as one could be before they were whole): its run has no latency.
    const broken = { ...report, runs: report.runs.map((r) => ({ ...r, latency: undefined })) } as unknown as LoadReport;
    const reportDir = join(dir, 'crash-reports');
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const published = publishLoadReport({ command: 'load', argv: [], createdAt: new Date(), scenario: report.scenario, profile: 'reference', runs: report.runs, sweeps: [], interrupted: false, baseline: { path: baseline, report: broken }, reportDir });
      await expect(published).rejects.toThrow(TypeError);
      expect(errors.mock.calls.map((c) => String(c[0])).join('')).toContain('the comparison with --baseline failed; the report was written without it');
    } finally {
      spy.mockRestore();
      errors.mockRestore();
    }
    expect(existsSync(join(reportDir, 'latest-load', 'report.json'))).toBe(true);
    expect(reportIn(reportDir).runs).toHaveLength(1);
  });
});
