/**
 * `npm run bench:idle`: what an idle devnet costs the machine. A devnet of 3 MN + 2 LN reference nodes (real
 * processes, `chainrpc devnet`'s own start) runs with no client, at the default block time and at 300 ms (the
 * demo's); after a settling time, the CPU each node uses over a window is read from /proc/<pid>/stat (user +
 * system, every thread), with its wake-ups (voluntary context switches of its main thread). The baseline,
 * measured in the same window: an idle Node process holding one timer at the block time, the floor any Node
 * node pays. Goal: under 1% of a core per node at the default block time (docs/benchmarks.md).
 *
 * It reports and never fails on a slow run: a shared machine is noisy, and the baseline says how noisy.
 * Options: --window <s> (measured window, default 60), --settle <s> (before it, default 40: a node's start-up
 * and V8's first idle-time collection stay out), --block-times <ms,...> (default 1000,300).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REFERENCE_SETTINGS } from '../core/referenceSettings.js';
import { startDevnet } from '../reference-node/devnet/startDevnet.js';
import { cpuSeconds } from '../core/process/procStat.js';

const GOAL_PERCENT = 1;
const { values } = parseArgs({ options: { window: { type: 'string' }, settle: { type: 'string' }, 'block-times': { type: 'string' } } });
function seconds(text: string | undefined, fallback: number): number {
  const n = text === undefined ? fallback : Number(text);
  if (!Number.isFinite(n) || n <= 0) {
    console.error('usage: npm run bench:idle -- [--window <s>] [--settle <s>] [--block-times <ms,...>]');
    process.exit(2);
  }
  return n;
}
const WINDOW_S = seconds(values.window, 60);
const SETTLE_S = seconds(values.settle, 40);
const BLOCK_TIMES = (values['block-times'] ?? `${REFERENCE_SETTINGS.blockTimeMs},300`).split(',').map((t) => seconds(t, 0));

/** CPU seconds (user + system, all threads) a process has used, and its main thread's voluntary context switches. */
function usage(pid: number): { cpuS: number; wakeups: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { cpuS: cpuSeconds(pid) ?? Number.NaN, wakeups: Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0) };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Row {
  name: string;
  percent: number;
  wakeupsPerS: number;
}

async function measure(blockTimeMs: number): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chainrpc-idle-'));
  const floor = spawn(process.execPath, ['-e', `setInterval(() => {}, ${blockTimeMs})`], { stdio: 'ignore' });
  const net = await startDevnet({ mn: 3, ln: 2, blockTimeMs, chainId: 1n, dataDir, keepData: false });
  try {
    await sleep(SETTLE_S * 1000);
    const subjects = [...net.nodes.map((n) => ({ name: `${n.name} (${n.kind})`, pid: n.pid })), { name: 'baseline: idle node -e with a timer', pid: floor.pid ?? 0 }];
    const before = subjects.map((s) => usage(s.pid));
    const started = performance.now();
    await sleep(WINDOW_S * 1000);
    const after = subjects.map((s) => usage(s.pid));
    const elapsedS = (performance.now() - started) / 1000;
    return subjects.map((s, i) => ({
      name: s.name,
      percent: ((((after[i]?.cpuS ?? 0) - (before[i]?.cpuS ?? 0)) / elapsedS) * 100),
      wakeupsPerS: ((after[i]?.wakeups ?? 0) - (before[i]?.wakeups ?? 0)) / elapsedS,
    }));
  } finally {
    await net.stop();
    floor.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`idle devnet benchmark: 3 MN + 2 LN, no client; ${SETTLE_S} s to settle, then ${WINDOW_S} s measured, per block time`);
console.log(`node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown cpu'}), ${new Date().toISOString()}`);
for (const blockTimeMs of BLOCK_TIMES) {
  console.log(`\nblock time ${blockTimeMs} ms${blockTimeMs === REFERENCE_SETTINGS.blockTimeMs ? ' (the default)' : ''}: measuring...`);
  const rows = await measure(blockTimeMs);
  const nodes = rows.slice(0, -1);
  const baseline = rows.at(-1) as Row;
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`${'process'.padEnd(width)}  ${'% of a core'.padStart(11)}  ${'wake-ups/s'.padStart(10)}`);
  for (const r of rows) console.log(`${r.name.padEnd(width)}  ${r.percent.toFixed(2).padStart(11)}  ${r.wakeupsPerS.toFixed(1).padStart(10)}`);
  const mean = nodes.reduce((n, r) => n + r.percent, 0) / nodes.length;
  const worst = Math.max(...nodes.map((r) => r.percent));
  console.log(`mean per node ${mean.toFixed(2)}%, worst ${worst.toFixed(2)}%, the devnet ${(mean * nodes.length).toFixed(2)}% of a core; worst node / baseline ${(worst / Math.max(baseline.percent, 0.01)).toFixed(1)}x`);
  if (blockTimeMs === REFERENCE_SETTINGS.blockTimeMs) {
    console.log(worst < GOAL_PERCENT ? `goal met: every node under ${GOAL_PERCENT}% of a core` : `goal NOT met: a node at ${worst.toFixed(2)}% >= ${GOAL_PERCENT}% (if the baseline is far above 0, the machine is busy: re-run)`);
  }
}
