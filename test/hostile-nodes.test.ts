/**
 * Hostile nodes: a server that hangs, one that sends 100 MB, one that answers with invalid JSON, one
 * that resets every connection, and one that answers a first call properly and then hangs. `chainrpc
 * test` (the real process) must finish before its deadline with error verdicts (not fail: the node's
 * availability, not its conformance, is at fault), exit with the documented code, and write its reports.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../core/paths.js';
import type { RunResult } from '../suites/model.js';

const BIN = join(packageRoot, 'dist', 'cli', 'chainrpc.js');
let server: Server | undefined;
const sockets = new Set<Socket>();
let dir: string | undefined;

afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function serve(handler: Parameters<typeof createServer>[1], onConnection?: (s: Socket) => void): Promise<string> {
  server = createServer(handler);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    onConnection?.(s);
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs chainrpc test against the URL; resolves with the exit code, the time taken and the report. */
function certify(url: string, extra: string[] = []): Promise<{ code: number | null; ms: number; stdout: string; report: RunResult; html: string }> {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-hostile-'));
  const reportDir = dir;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'test', '--url', url, '--report-dir', reportDir, '--timeout', '1500', '--deadline', '40', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const latest = join(reportDir, 'latest');
      const reportPath = join(latest, 'report.json');
      if (!existsSync(reportPath)) {
        reject(new Error(`no report written (exit ${String(code)}):\n${stdout.slice(-2000)}`));
        return;
      }
      resolve({ code, ms: Date.now() - started, stdout, report: JSON.parse(readFileSync(reportPath, 'utf8')) as RunResult, html: join(latest, 'report.html') });
    });
  });
}

function expectErrorsOnly(report: RunResult): void {
  const statuses = new Set(report.results.map((r) => r.status));
  expect(statuses.has('fail'), 'a hostile node yields errors, never fails').toBe(false);
  expect(report.results.filter((r) => r.status === 'error').length).toBeGreaterThan(0);
}

describe('chainrpc test against hostile nodes', () => {
  it('a server that never answers: exit 3, errors, reports, well before the deadline', async () => {
    const url = await serve(() => undefined);
    const r = await certify(url);
    expect(r.code).toBe(3);
    expectErrorsOnly(r.report);
    expect(existsSync(r.html)).toBe(true);
    expect(r.ms).toBeLessThan(40_000);
  }, 60_000);

  it('a server that sends 100 MB: the suite stops reading at its cap', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let written = 0;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const pump = (): void => {
        while (written < 100 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end(']');
      };
      pump();
    });
    const r = await certify(url);
    expect(r.code).toBe(3);
    expectErrorsOnly(r.report);
    expect(r.report.results[0]?.evidence.message).toMatch(/more than \d+ bytes/);
  }, 60_000);

  it('a server that answers with invalid JSON: not a JSON-RPC endpoint (exit 3)', async () => {
    const url = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc": "2.0", "result": [1, 2,'));
    const r = await certify(url);
    expect(r.code).toBe(3);
    expectErrorsOnly(r.report);
    expect(r.report.results[0]?.evidence.message).toContain('does not answer JSON');
  }, 60_000);

  it('a server that resets every connection', async () => {
    const url = await serve(() => undefined, (s) => s.destroy());
    const r = await certify(url);
    expect(r.code).toBe(3);
    expectErrorsOnly(r.report);
  }, 60_000);

  it('a server that answers its first call and then hangs: every check gets a verdict, the run ends', async () => {
    let answered = false;
    const url = await serve((req, res) => {
      if (answered) return; // hang
      answered = true;
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":7}'));
    });
    const r = await certify(url, ['--concurrency', '16']);
    expect(r.code).toBe(1);
    expect(r.report.results.length).toBeGreaterThan(20);
    expect(r.report.results.every((x) => x.status === 'error' || x.status === 'skip')).toBe(true);
    expect(r.ms).toBeLessThan(45_000);
  }, 90_000);
});
