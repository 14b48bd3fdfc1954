import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { pidSource, ResourceSampler } from './ResourceSampler.js';

/**
 * A node whose costs are known: each call burns 2 ms of CPU (measured by the process's own clock) and keeps
 * 256 KiB it never frees (filled, so resident); GET /cpu says the CPU it has used, by its own clock
 * (process.cpuUsage, getrusage), the truth the sampler's /proc readings are held to.
 */
const SERVER = `
const http = require('node:http');
const kept = [];
http.createServer((req, res) => {
  req.resume();
  if (req.method === 'GET') return void res.end(JSON.stringify(process.cpuUsage()));
  req.on('end', () => {
    const start = process.cpuUsage();
    for (;;) { const u = process.cpuUsage(start); if (u.user + u.system >= 2000) break; }
    kept.push(Buffer.alloc(256 * 1024, 7));
    res.end('{"jsonrpc":"2.0","id":1,"result":1}');
  });
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });
`;

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

describe('ResourceSampler against a node whose CPU and memory per call are known', () => {
  it('measures the CPU per call the node itself counts, and the RSS growing by 256 KiB per call, within their tolerances', async () => {
    const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    const url = `http://127.0.0.1:${line.toString().trim()}`;
    const sampler = new ResourceSampler(pidSource(child.pid ?? 0), 100);
    const origin = Date.now();
    sampler.start();
    await new Promise((r) => setTimeout(r, 300));
    const ownCpuUs = async (): Promise<number> => {
      const u = (await (await fetch(url)).json()) as { user: number; system: number };
      return u.user + u.system;
    };
    const cpuFrom = await ownCpuUs();
    const fromMs = Date.now();
    let answered = 0;
    // 40 calls a second for 4 s, one at a time.
    while (Date.now() - fromMs < 4_000) {
      const started = Date.now();
      const r = await fetch(url, { method: 'POST', body: '{}' });
      await r.text();
      answered++;
      const wait = 25 - (Date.now() - started);
      if (wait > 0) await new Promise((res) => setTimeout(res, wait));
    }
    const toMs = Date.now();
    const cpuTo = await ownCpuUs();
    await new Promise((r) => setTimeout(r, 300));
    await sampler.stop();
    const figures = sampler.resources([{ fromMs, toMs }], answered, origin);
    expect(figures.missed).toBe(0);
    expect(figures.samples).toBeGreaterThanOrEqual(30);
    // At least the 2,000 µs burnt; and what the node counts itself over the window, within 10% (/proc counts in
    // ticks of 10 ms, and the window's ends fall between two samples 100 ms apart).
    const truth = (cpuTo - cpuFrom) / answered;
    expect(truth).toBeGreaterThanOrEqual(2_000);
    expect(figures.cpuPerCallUs).toBeGreaterThanOrEqual(truth * 0.9);
    expect(figures.cpuPerCallUs).toBeLessThanOrEqual(truth * 1.1);
    // 256 KiB per call at the rate achieved, in MB (MiB) per hour, within 20%.
    const growth = (answered * 256) / 1024 / ((toMs - fromMs) / 3_600_000);
    const trend = figures.rssTrend?.mbPerHour ?? 0;
    expect(trend).toBeGreaterThanOrEqual(growth * 0.8);
    expect(trend).toBeLessThanOrEqual(growth * 1.2);
    expect(figures.peakRssBytes).toBeGreaterThan(answered * 256 * 1024 * 0.8);
  }, 20_000);
});
