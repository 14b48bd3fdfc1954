/**
 * `npm run bench:node:instructions`: CPU instructions per chain_blockNumber call, counted by valgrind's
 * callgrind in the server process, for the reference node and for the bare node:http baseline of
 * `npm run bench:node`. Unlike req/s on a shared machine, the count barely moves between runs
 * (well under 1%), so it shows what a change to the request path costs or saves.
 *
 * Each server runs under callgrind with instrumentation off while it starts and warms up (so the JIT
 * has compiled the request path); instrumentation is switched on for exactly --requests calls, then
 * off, and the counters are dumped. The node runs with a block time of 10 minutes, so no block is
 * produced during the count. The load comes from this process over 4 keep-alive connections.
 *
 * Needs valgrind (Debian: `apt-get install valgrind`). Options: --requests N (default 2000),
 * --warmup N (default 8000). With KEEP=1 in the environment the callgrind files are kept (their folder is
 * printed) for `callgrind_annotate`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI_PATH } from '../reference-node/devnet/startDevnet.js';
import { BARE_SERVER_SOURCE, startServerProcess } from './bareServer.js';

const { values } = parseArgs({ options: { requests: { type: 'string' }, warmup: { type: 'string' } } });
const REQUESTS = Number(values.requests ?? 2000);
const WARMUP = Number(values.warmup ?? 8000);
const CONNECTIONS = 4;
// Optimizing compiles run on the main thread, so they all finish during the warm-up: under valgrind a
// background compiler thread can lag far behind and compile inside the counted window.
const NODE_FLAGS = ['--no-concurrent-recompilation'];
const BODY = JSON.stringify({ jsonrpc: '2.0', method: 'chain_blockNumber', params: [], id: 1 });

if (spawnSync('valgrind', ['--version']).status !== 0 || spawnSync('callgrind_control', ['--version']).status !== 0) {
  console.error('valgrind (with callgrind_control) is not installed; on Debian: apt-get install valgrind');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-instructions-'));

/** Sends `count` calls over CONNECTIONS keep-alive connections and checks every answer. */
async function drive(url: string, count: number, agent: Agent): Promise<void> {
  const call = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(`${url}/rpc`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => (res.statusCode === 200 && text.startsWith('{"jsonrpc":"2.0","id":1,"result":') ? resolve() : reject(new Error(`unexpected answer ${String(res.statusCode)}: ${text}`))));
      });
      req.on('error', reject);
      req.end(BODY);
    });
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next++ < count) await call();
    }),
  );
}

/** Instructions per call in the server started by `start` (under callgrind). */
async function count(name: string, start: (launcher: string[]) => Promise<{ url: string; child: ChildProcess }>): Promise<number> {
  const outFile = join(dir, `${name}.callgrind`);
  const launcher = ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${outFile}`];
  const { url, child } = await start(launcher);
  const pid = String(child.pid);
  // The same connections warm up and are counted: the count holds no connection setup.
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  try {
    process.stdout.write(`  ${name}: warming up (${WARMUP} calls)...`);
    await drive(url, WARMUP, agent);
    execFileSync('callgrind_control', ['--instr=on', pid], { stdio: 'ignore' });
    await drive(url, REQUESTS, agent);
    execFileSync('callgrind_control', ['--instr=off', pid], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['--dump', pid], { stdio: 'ignore' });
    process.stdout.write(' counted\n');
  } finally {
    agent.destroy();
    child.kill('SIGKILL');
  }
  // The dump taken above is the first numbered part: <outFile>.1.
  const dump = `${outFile}.1`;
  if (!existsSync(dump)) throw new Error(`callgrind wrote no dump for ${name}`);
  const totals = /^totals:\s+(\d+)/m.exec(readFileSync(dump, 'utf8'));
  if (!totals?.[1]) throw new Error(`no totals line in the ${name} dump`);
  return Number(totals[1]) / REQUESTS;
}

try {
  console.log(`instructions per chain_blockNumber call (callgrind, ${REQUESTS} calls after ${WARMUP} warm-up); node v${process.versions.node}, ${new Date().toISOString()}\n`);
  const bare = await count('bare', (launcher) => startServerProcess([...NODE_FLAGS, '-e', BARE_SERVER_SOURCE], launcher));
  const node = await count('node', (launcher) =>
    startServerProcess([...NODE_FLAGS, CLI_PATH, 'node', '--port', '0', '--data-dir', join(dir, 'node-data'), '--block-time', '600000'], launcher),
  );
  const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
  console.log(`\n  bare node:http constant answer, instructions/call   ${fmt(bare)}`);
  console.log(`  reference node chain_blockNumber, instructions/call ${fmt(node)}`);
  console.log(`  ratio bare / node                                   ${(bare / node).toFixed(2)}x`);
} finally {
  if (process.env.KEEP === undefined) rmSync(dir, { recursive: true, force: true });
  else console.log(dir);
}
