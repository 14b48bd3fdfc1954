/**
 * `chainrpc watch` as a user runs it (the build, a real node on loopback): it watches for its duration, says a
 * line of what it saw and writes its reports; what cannot be watched is refused with exit 2.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from './support/suites.js';
import { startTestServer } from './support/startTestServer.js';
import { runChainrpc } from './runChainrpc.js';

let dir: string;
let node: TestNode;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-watch-'));
  node = await startTestNode();
});

afterAll(async () => {
  await node.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('chainrpc watch', () => {
  it('watches a node for its duration (its head, its process), then writes the reports', async () => {
    // The test node runs in this process: its pid is ours.
    const r = await runChainrpc('watch', '--url', node.url, '--pid', String(process.pid), '--duration', '2s', '--report-dir', dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^WATCHED 1 node for 2\.\d+ s: /m);
    expect(r.stderr).toMatch(/^watch: http:\/\/127\.0\.0\.1:\d+, heads read 20 times a second, for 2\.00 s$/m);
    // The pid is said with the URL it is read as (this process listens on the node's port: no warning), and a
    // head alone is said to have no lag or stalls to measure.
    expect(r.stderr).toMatch(/^watch: --pid \d+ is read as the process of http:\/\/127\.0\.0\.1:\d+ \(--pid pairs with --url by position\)$/m);
    expect(r.stderr).not.toMatch(/warning: process/);
    expect(r.stderr).toMatch(/^watch: one node's head is followed, and no --head-reference: its head lag and stalls cannot be measured/m);
    expect(r.stdout).toMatch(/^WATCHED 1 node for .*: head lag and stalls not measured/m);
    const folder = /^reports: (.+)$/m.exec(r.stdout)?.[1] ?? '';
    for (const file of ['report.json', 'summary.md', 'report.html']) expect(existsSync(join(folder, file)), file).toBe(true);
    expect(/^HTML report: (.+)$/m.exec(r.stdout)?.[1]).toMatch(/report\.html$/);
    const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as { format: string; stop: string; nodes: { health: { head?: { samples: number }; resources?: { samples: number } } }[] };
    expect(report.format).toBe('chainrpc-watch/1');
    expect(report.stop).toBe('duration');
    // 40 head reads and 8 process samples are due in 2 s; a quarter of them shows the watch read all along, on a
    // machine busy with the other process tests too (more than 20 failed once there).
    expect(report.nodes[0]?.health.head?.samples).toBeGreaterThanOrEqual(10);
    expect(report.nodes[0]?.health.resources?.samples).toBeGreaterThanOrEqual(2);
    expect(existsSync(join(dir, 'latest-watch'))).toBe(true);
  }, 30_000);

  it('reads other metrics by name from the node\'s /metrics (--metric), into the health rows', async () => {
    const r = await runChainrpc('watch', '--url', node.url, '--metrics-url', `${node.url}/metrics`, '--metric', 'chainrpc_node_head_height', '--duration', '2s', '--report-dir', dir);
    expect(r.code, r.stderr).toBe(0);
    const folder = /^reports: (.+)$/m.exec(r.stdout)?.[1] ?? '';
    const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as { nodes: { health: { resources?: { metrics?: { name: string; last: number }[] } } }[] };
    const height = report.nodes[0]?.health.resources?.metrics?.find((m) => m.name === 'chainrpc_node_head_height');
    expect(height?.last).toBeGreaterThanOrEqual(0);
    expect(readFileSync(join(folder, 'report.html'), 'utf8')).toContain('chainrpc_node_head_height');
  }, 30_000);

  it('a node that never answers: named in the last line with why its reads failed, and exit 3 when no node answered', async () => {
    // A port nothing listens on (the test node's, once it is stopped, could be taken again): port 1 refuses at once.
    const dead = 'http://127.0.0.1:1';
    const alone = await runChainrpc('watch', '--url', dead, '--duration', '1s', '--report-dir', dir);
    expect(alone.code, alone.stderr).toBe(3);
    expect(alone.stdout).toMatch(/^WATCHED 1 node for 1\.\d+ s: http:\/\/127\.0\.0\.1:1 never answered \(\d+ head reads failed: ECONNREFUSED[^\n]*\)$/m);
    // Nothing seen of heights: nothing said of lags or heights gone backwards.
    expect(alone.stdout).not.toMatch(/gone backwards|head lag/);
    expect(alone.stderr).toMatch(/^watch: no node answered a head read in 1\.\d+ s: is each node running, at that address and port\?$/m);
    // The report of what was seen is written all the same.
    expect(/^HTML report: (.+)$/m.exec(alone.stdout)?.[1]).toMatch(/report\.html$/);
    const beside = await runChainrpc('watch', '--url', node.url, '--url', dead, '--duration', '1s', '--report-dir', dir);
    expect(beside.code, beside.stderr).toBe(0);
    expect(beside.stdout).toMatch(/^WATCHED 2 nodes for .*: http:\/\/127\.0\.0\.1:1 never answered/m);
    expect(beside.stdout).not.toContain(`${node.url} never answered`);
  }, 30_000);

  it('a web page at the URL (HTTP 200, HTML): exit 3 with what it answered and the endpoint path hint, not "is each node running?"', async () => {
    const page = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome</body></html>');
    });
    try {
      const r = await runChainrpc('watch', '--url', page.url, '--duration', '1s', '--report-dir', dir);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(`${page.url} answered HTTP 200`);
      expect(r.stderr).toMatch(/--rpc-path|profile detect/);
      expect(r.stderr).not.toContain('is each node running');
    } finally {
      await page.close();
    }
  }, 30_000);

  it('refuses what cannot be watched (exit 2)', async () => {
    expect((await runChainrpc('watch', '--duration', '1s')).code).toBe(2);
    const nothing = await runChainrpc('watch', '--url', node.url, '--head-hz', '0', '--duration', '1s');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/nothing to watch/);
    const gone = await runChainrpc('watch', '--url', node.url, '--pid', '2147483646', '--duration', '1s');
    expect(gone.code).toBe(2);
    expect(gone.stderr).toMatch(/no such process here/);
    expect((await runChainrpc('watch', '--url', node.url, '--duration', 'soon')).code).toBe(2);
    const noMetrics = await runChainrpc('watch', '--url', node.url, '--metric', 'chainrpc_node_rpc_calls_total', '--duration', '1s');
    expect(noMetrics.code).toBe(2);
    expect(noMetrics.stderr).toMatch(/--metric chainrpc_node_rpc_calls_total is read from a node's Prometheus metrics: give --metrics-url/);
  }, 30_000);
});
