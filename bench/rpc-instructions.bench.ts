/**
 * `npm run bench:node:instructions`: CPU instructions per call, counted by valgrind's callgrind in the
 * server process, for
 *
 *   - the bare node:http baseline of `npm run bench:node` (one chain_blockNumber-shaped call),
 *   - the reference node: chain_blockNumber single calls, chain_getAccount single calls, and
 *     chain_getAccount in batches of 100 (instructions per call = per batch / 100), with the ratio of a
 *     single call's count to a batched call's (how much a batch saves per call).
 *
 * Unlike req/s on a shared machine, the count barely moves between runs (well under 1%), so it shows
 * what a change to the request path costs or saves.
 *
 * Each workload gets a server process of its own, run under callgrind with instrumentation off while it
 * starts and warms up (so the JIT has compiled the request path); instrumentation is switched on for
 * exactly the counted calls, then off, and the counters are dumped. The node runs with a block time of
 * 10 minutes, so no block is produced during the count. The load comes from this process over 4
 * keep-alive connections. Every answer is compared with the exact text expected.
 *
 * Needs valgrind (Debian: `apt-get install valgrind`). Options: --requests N (single calls counted per
 * workload, default 2000), --warmup N (requests per workload before counting, default 8000; a batch is one
 * request, so node:http's own per-request code is as warm for batches as for single calls), --batches N
 * (batches of 100 counted, default 100), --block-number-only (the bare server and chain_blockNumber alone: the
 * single-call ratio in half the time). With KEEP=1 in the environment the callgrind files are kept (their
 * folder is printed) for `callgrind_annotate`, one `<server>.callgrind.1` per workload; with PERF_MAP=1 the
 * servers also run with --perf-basic-prof, whose /tmp/perf-<pid>.map names the JIT code callgrind lists by
 * address (a JavaScript function's start and size per line).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { Agent, request } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI_PATH } from '../reference-node/devnet/startDevnet.js';
import { BARE_SERVER_SOURCE, startServerProcess } from './bareServer.js';

const { values } = parseArgs({ options: { requests: { type: 'string' }, warmup: { type: 'string' }, batches: { type: 'string' }, 'block-number-only': { type: 'boolean' } } });
const REQUESTS = Number(values.requests ?? 2000);
const WARMUP = Number(values.warmup ?? 8000);
const BATCHES = Number(values.batches ?? 100);
const BATCH_SIZE = 100;
const CONNECTIONS = 4;
// Optimizing compiles run on the main thread, so they all finish during the warm-up: under valgrind a
// background compiler thread can lag far behind and compile inside the counted window.
const NODE_FLAGS = ['--no-concurrent-recompilation', ...(process.env.PERF_MAP === '1' ? ['--perf-basic-prof'] : [])];

/** One kind of request, sent `calls` times per count; every answer must be exactly `answer`. */
interface Workload {
  readonly name: string;
  readonly body: string;
  readonly answer: string;
  /** JSON-RPC calls in one body. */
  readonly calls: number;
  /** Bodies sent in the counted window. */
  readonly count: number;
}

const call = (method: string, params: string[], id: number): { jsonrpc: '2.0'; method: string; params: string[]; id: number } => ({ jsonrpc: '2.0', method, params, id });
// Fixed addresses (never funded: each reads as an empty account), so every run sends the same bytes.
const addresses = Array.from({ length: BATCH_SIZE }, (_, i) => createHash('sha256').update(`chainrpc-instructions-${i}`).digest('hex'));
const emptyAccount = (id: number): string => `{"jsonrpc":"2.0","id":${id},"result":{"balance":"0","nonce":0}}`;

const BLOCK_NUMBER: Workload = {
  name: 'chain_blockNumber single calls',
  body: JSON.stringify(call('chain_blockNumber', [], 1)),
  // The node's tip is height 0 with a 10-minute block time; the bare server answers 42.
  answer: '{"jsonrpc":"2.0","id":1,"result":0}',
  calls: 1,
  count: REQUESTS,
};
const GET_ACCOUNT: Workload = {
  name: 'chain_getAccount single calls',
  body: JSON.stringify(call('chain_getAccount', [addresses[0] as string], 1)),
  answer: emptyAccount(1),
  calls: 1,
  count: REQUESTS,
};
const GET_ACCOUNT_BATCH: Workload = {
  name: `chain_getAccount in batches of ${BATCH_SIZE}`,
  body: JSON.stringify(addresses.map((a, i) => call('chain_getAccount', [a], i + 1))),
  answer: `[${addresses.map((_, i) => emptyAccount(i + 1)).join(',')}]`,
  calls: BATCH_SIZE,
  count: BATCHES,
};

if (spawnSync('valgrind', ['--version']).status !== 0 || spawnSync('callgrind_control', ['--version']).status !== 0) {
  console.error('valgrind (with callgrind_control) is not installed; on Debian: apt-get install valgrind');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-instructions-'));

/** Sends `count` bodies over CONNECTIONS keep-alive connections and checks every answer. */
async function drive(url: string, work: Workload, count: number, agent: Agent): Promise<void> {
  const send = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(`${url}/rpc`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(work.body) } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => (res.statusCode === 200 && text === work.answer ? resolve() : reject(new Error(`${work.name}: unexpected answer ${String(res.statusCode)}: ${text.slice(0, 300)}`))));
      });
      req.on('error', reject);
      req.end(work.body);
    });
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next++ < count) await send();
    }),
  );
}

/** Instructions per call of `work` in a server started by `start` (under callgrind). */
async function count(name: string, start: (launcher: string[]) => Promise<{ url: string; child: ChildProcess }>, work: Workload): Promise<number> {
  const outFile = join(dir, `${name}.callgrind`);
  const launcher = ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${outFile}`];
  const { url, child } = await start(launcher);
  const pid = String(child.pid);
  // The same connections warm up and are counted: the count holds no connection setup.
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  try {
    process.stdout.write(`  ${name}: warming up (${WARMUP} requests)...`);
    await drive(url, work, WARMUP, agent);
    execFileSync('callgrind_control', ['--instr=on', pid], { stdio: 'ignore' });
    await drive(url, work, work.count, agent);
    execFileSync('callgrind_control', ['--instr=off', pid], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['--dump', pid], { stdio: 'ignore' });
    process.stdout.write(` counted ${work.count * work.calls} calls\n`);
  } finally {
    agent.destroy();
    child.kill('SIGKILL');
  }
  // The dump taken above is the first numbered part: <outFile>.1.
  const dump = `${outFile}.1`;
  if (!existsSync(dump)) throw new Error(`callgrind wrote no dump for ${name}`);
  const totals = /^totals:\s+(\d+)/m.exec(readFileSync(dump, 'utf8'));
  if (!totals?.[1]) throw new Error(`no totals line in the ${name} dump`);
  return Number(totals[1]) / (work.count * work.calls);
}

try {
  console.log(
    `instructions per call (callgrind; ${REQUESTS} single calls or ${BATCHES} batches of ${BATCH_SIZE} counted per workload, after ${WARMUP} warm-up requests each); node v${process.versions.node}, ${new Date().toISOString()}\n`,
  );
  const bare = await count('bare', (launcher) => startServerProcess([...NODE_FLAGS, '-e', BARE_SERVER_SOURCE], launcher), { ...BLOCK_NUMBER, answer: '{"jsonrpc":"2.0","id":1,"result":42}' });
  // One node process per workload: a node warmed up on one workload and counted on another recompiles
  // inside the counted window, which would add the optimizing compiler's work to the count.
  const node = (name: string, work: Workload): Promise<number> =>
    count(name, (launcher) => startServerProcess([...NODE_FLAGS, CLI_PATH, 'node', '--port', '0', '--p2p-port', '0', '--data-dir', join(dir, `${name}-data`), '--block-time', '600000'], launcher), work);
  const blockNumber = await node('node-blockNumber', BLOCK_NUMBER);
  const fmt = (n: number): string => Math.round(n).toLocaleString('en-US').padStart(8);
  console.log(`\n  bare node:http constant answer, instructions/call                ${fmt(bare)}`);
  console.log(`  reference node chain_blockNumber, instructions/call              ${fmt(blockNumber)}`);
  console.log(`  ratio bare / node                                                ${(bare / blockNumber).toFixed(2)}x`);
  if (values['block-number-only'] !== true) {
    const single = await node('node-getAccount', GET_ACCOUNT);
    const batched = await node('node-getAccount-batch', GET_ACCOUNT_BATCH);
    console.log(`  reference node chain_getAccount single, instructions/call        ${fmt(single)}`);
    console.log(`  reference node chain_getAccount batched by ${BATCH_SIZE}, instructions/call ${fmt(batched)}`);
    console.log(`  ratio single / batched, per call (bench:node's goal is >= 10x in calls/s) ${(single / batched).toFixed(2)}x`);
  }
} finally {
  if (process.env.KEEP === undefined) rmSync(dir, { recursive: true, force: true });
  else console.log(dir);
}
