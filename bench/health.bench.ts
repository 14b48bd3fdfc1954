/**
 * `npm run bench:health`: what following a node's head costs the machine that runs chainrpc (issue 24's goal:
 * under 1% of a core per node followed at 20 Hz). Nodes that answer chain_blockNumber (a bare node:http server
 * with a clock for a head) run in a child process, so only the followers' CPU is in this process's figure; the
 * baseline is the same process idle over the same time, measured right before.
 *
 * Options: --seconds N (each measurement, default 20), --targets a,b (followers at once, default 1,4).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { cpuSeconds } from '../core/process/procStat.js';
import type * as HeadFollowerModule from '../load/health/HeadFollower.js';
import type * as ReferenceProfileModule from '../profile/referenceProfile.js';
import { fromBuild } from './fromBuild.js';

// The followers as users run them: the build (npm run bench:health makes it first).
const { HeadFollower } = await fromBuild<typeof HeadFollowerModule>('load/health/HeadFollower.js');
const { referenceProfile } = await fromBuild<typeof ReferenceProfileModule>('profile/referenceProfile.js');

const { values } = parseArgs({ options: { seconds: { type: 'string' }, targets: { type: 'string' } } });
const SECONDS = Number(values.seconds ?? 20);
const TARGETS = (values.targets ?? '1,4').split(',').map(Number);

const NODES = `
const http = require('node:http');
const t0 = Date.now();
for (let i = 0; i < ${Math.max(...TARGETS)}; i++) {
  http.createServer((req, res) => { req.resume(); req.on('end', () => res.end('{"jsonrpc":"2.0","id":1,"result":' + Math.floor((Date.now() - t0) / 1000) + '}')); })
    .listen(0, '127.0.0.1', function () { process.stdout.write(this.address().port + '\\n'); });
}
`;

const child = spawn(process.execPath, ['-e', NODES], { stdio: ['ignore', 'pipe', 'inherit'] });
const ports: number[] = [];
child.stdout.setEncoding('utf8');
child.stdout.on('data', (d: string) => ports.push(...d.split('\n').filter(Boolean).map(Number)));
while (ports.length < Math.max(...TARGETS)) await once(child.stdout, 'data');

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** This process's CPU while `work` runs, % of one core. */
async function cpuPercent(work: () => Promise<void>): Promise<number> {
  const before = cpuSeconds('self') ?? Number.NaN;
  const t0 = performance.now();
  await work();
  return (((cpuSeconds('self') ?? Number.NaN) - before) * 100_000) / (performance.now() - t0);
}

console.log(`head followers' cost: ${SECONDS} s per measurement, 20 Hz; node v${process.versions.node}, ${new Date().toISOString()}\n`);
try {
  for (const n of TARGETS) {
    const idle = await cpuPercent(() => sleep(SECONDS * 1000));
    const followers = ports.slice(0, n).map((port) => new HeadFollower({ url: `http://127.0.0.1:${port}`, profile: referenceProfile(), intervalMs: 50, originMs: performance.now() }));
    const busy = await cpuPercent(async () => {
      for (const f of followers) f.start();
      await sleep(SECONDS * 1000);
      await Promise.all(followers.map((f) => f.stop()));
    });
    const reads = followers.reduce((s, f) => s + f.answered, 0);
    const perTarget = (busy - idle) / n;
    console.log(`  ${n} node(s) followed: ${busy.toFixed(2)}% of a core against ${idle.toFixed(2)}% idle; ${(reads / SECONDS / n).toFixed(1)} reads/s per node; ${perTarget.toFixed(2)}% of a core per node (goal: under 1%)`);
  }
} finally {
  child.kill('SIGTERM');
}
