/**
 * `npm run test:leak-long`: the leak verdict against servers whose memory is known, over 2 minutes (too long for
 * CI; run and recorded in docs/load.md). Two node:http servers in child processes, each loaded with 100 calls a
 * second: one keeps 64 KiB per call for good (a leak of 6.25 MiB/s), the other makes and drops the same 64 KiB
 * (no leak). Each is read from /proc every 250 ms (ResourceSampler); after 20 s of warm-up, the verdict at
 * 50 MB/h must be leak for the first and no leak for the second, and the first's slope within 20% of the truth.
 *
 * Options: --seconds N (default 120).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { leakVerdict } from '../../load/health/leakFit.js';
import { pidSource, ResourceSampler } from '../../load/health/ResourceSampler.js';

const { values } = parseArgs({ options: { seconds: { type: 'string' } } });
const SECONDS = Number(values.seconds ?? 120);
const WARMUP_MS = 20_000;
const LIMIT = 50;

const server = (keep: boolean): string => `
const http = require('node:http');
const kept = [];
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const b = Buffer.alloc(64 * 1024, 1);
    ${keep ? 'kept.push(b);' : ''}
    res.end('{"jsonrpc":"2.0","id":1,"result":' + b[7] + '}');
  });
}).listen(0, '127.0.0.1', function () { process.stdout.write(this.address().port + '\\n'); });
`;

async function start(keep: boolean): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['-e', server(keep)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  return { child, url: `http://127.0.0.1:${line.toString().trim()}` };
}

/** 100 calls a second to `url` until `untilMs`; the calls answered. */
async function load(url: string, untilMs: number): Promise<number> {
  let calls = 0;
  const t0 = Date.now();
  while (Date.now() < untilMs) {
    const r = await fetch(url, { method: 'POST', body: '{}' });
    await r.text();
    calls++;
    const wait = t0 + calls * 10 - Date.now();
    if (wait > 0) await new Promise((res) => setTimeout(res, wait));
  }
  return calls;
}

const leaking = await start(true);
const steady = await start(false);
try {
  const samplers = [leaking, steady].map((s) => new ResourceSampler(pidSource(s.child.pid ?? 0), 250));
  const origin = Date.now();
  for (const s of samplers) s.start();
  console.log(`leak verdict over ${SECONDS} s, 100 calls/s to each server, /proc every 250 ms, warm-up ${WARMUP_MS / 1000} s, limit ${LIMIT} MB/h`);
  const until = origin + SECONDS * 1000;
  const [leakCalls] = await Promise.all([load(leaking.url, until), load(steady.url, until)]);
  await Promise.all(samplers.map((s) => s.stop()));
  const truth = (leakCalls * 64) / 1024 / (SECONDS / 3600);
  let ok = true;
  for (const [i, name] of ['keeps 64 KiB per call', 'keeps nothing'].entries()) {
    const r = samplers[i]?.resources([{ fromMs: origin + WARMUP_MS, toMs: until }], leakCalls, origin);
    const points = (r?.series ?? []).map((p) => ({ tMs: p.tMs, value: p.rssBytes / 1_048_576 }));
    const v = leakVerdict(points, { warmupMs: WARMUP_MS, limitPerHour: LIMIT });
    const fit = v.verdict === 'not-enough-data' ? undefined : v.fit;
    console.log(`  ${name}: ${v.verdict}${fit === undefined ? '' : `, slope ${fit.slopePerHour.toFixed(1)} MB/h (95% interval ${fit.slopeInterval.low.toFixed(1)} to ${fit.slopeInterval.high.toFixed(1)}), ${fit.n} points`}; peak RSS ${((r?.peakRssBytes ?? 0) / 1_048_576).toFixed(1)} MiB`);
    const want = i === 0 ? 'leak' : 'no-leak';
    if (v.verdict !== want) ok = false;
    if (i === 0 && fit !== undefined && Math.abs(fit.slopePerHour - truth) > 0.2 * truth) ok = false;
  }
  console.log(`  truth for the first: ${truth.toFixed(1)} MB/h; ${ok ? 'PASSED' : 'FAILED'}`);
  process.exitCode = ok ? 0 : 1;
} finally {
  leaking.child.kill('SIGKILL');
  steady.child.kill('SIGKILL');
}
