/**
 * `npm run bench:cli`: how long `chainrpc --help` takes to start and exit, against `node -e 0`
 * measured in the same run (the floor no Node CLI can go under on this machine). The goal is a
 * median under 150 ms for the compiled binary users run (dist/cli/chainrpc.js); the ratio and the
 * difference say how much of that is chainrpc's own loading, which the absolute figure cannot on a
 * shared, noisy machine. It reports and never fails on a slow run.
 *
 * The two commands run alternately, in ABBA order, so a noisy neighbour or a warming disk cache
 * weighs on both alike. Each figure is the wall time of a whole process: spawn, load, print, exit.
 *
 * Options: --runs N (timed runs of each, default 20), --warmup N (untimed runs of each, default 3),
 * --bin PATH (the chainrpc script to time, default dist/cli/chainrpc.js: to compare another build).
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../core/paths.js';

const GOAL_MS = 150;

const { values } = parseArgs({ options: { runs: { type: 'string' }, warmup: { type: 'string' }, bin: { type: 'string' } } });
function count(text: string | undefined, fallback: number, min: number): number {
  const n = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(n) || n < min) {
    console.error('usage: npx tsx bench/cli.bench.ts [--runs N] [--warmup N] [--bin PATH]   (runs >= 1, warmup >= 0)');
    process.exit(2);
  }
  return n;
}
const RUNS = count(values.runs, 20, 1);
const WARMUP = count(values.warmup, 3, 0);
const BIN = values.bin === undefined ? join(packageRoot, 'dist', 'cli', 'chainrpc.js') : resolve(values.bin);

interface Subject {
  label: string;
  args: string[];
  times: number[];
}
const shownBin = relative(process.cwd(), BIN).startsWith('..') ? BIN : relative(process.cwd(), BIN);
const help: Subject = { label: `node ${shownBin} --help`, args: [BIN, '--help'], times: [] };
const floor: Subject = { label: 'node -e 0', args: ['-e', '0'], times: [] };

/** Runs the subject once to its exit; returns the wall time in ms. */
function time(subject: Subject): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, subject.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - start;
  // A binary that fails fast would look like a win: refuse to time anything but a working help.
  if (r.status !== 0 || (subject === help && !r.stdout.toString().includes('Commands:'))) {
    console.error(`${subject.label} failed (exit ${String(r.status)}):\n${r.stderr.toString()}${r.stdout.toString()}`);
    process.exit(1);
  }
  return ms;
}

/** Nearest-rank percentile (p in 0..1) of an unsorted sample. */
function percentile(sample: readonly number[], p: number): number {
  const sorted = [...sample].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

console.log(`chainrpc --help start-up benchmark: ${RUNS} runs of each after ${WARMUP} warm-ups, alternating (ABBA)`);
console.log(`node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown cpu'}), ${new Date().toISOString()}`);
console.log('measuring...');

for (let i = 0; i < WARMUP; i++) {
  time(help);
  time(floor);
}
for (let i = 0; i < RUNS; i++) {
  const pair = i % 2 === 0 ? [help, floor] : [floor, help];
  for (const subject of pair) subject.times.push(time(subject));
}

const ms = (x: number): string => `${x.toFixed(1)} ms`;
const helpMedian = percentile(help.times, 0.5);
const floorMedian = percentile(floor.times, 0.5);
const rows: [string, string, string][] = [
  [help.label, ms(helpMedian), ms(percentile(help.times, 0.9))],
  [floor.label, ms(floorMedian), ms(percentile(floor.times, 0.9))],
  ['difference (chainrpc - node)', ms(helpMedian - floorMedian), ms(percentile(help.times, 0.9) - percentile(floor.times, 0.9))],
  ['ratio chainrpc / node', `${(helpMedian / floorMedian).toFixed(2)}x`, `${(percentile(help.times, 0.9) / percentile(floor.times, 0.9)).toFixed(2)}x`],
];
const width = Math.max(...rows.map(([name]) => name.length));
console.log('');
console.log(`${'measurement'.padEnd(width)}  ${'median'.padStart(10)}  ${'p90'.padStart(10)}`);
console.log(`${'-'.repeat(width)}  ${'-'.repeat(10)}  ${'-'.repeat(10)}`);
for (const [name, median, p90] of rows) console.log(`${name.padEnd(width)}  ${median.padStart(10)}  ${p90.padStart(10)}`);
console.log('');
console.log(
  helpMedian < GOAL_MS
    ? `goal met: median ${ms(helpMedian)} < ${GOAL_MS} ms`
    : `goal NOT met: median ${ms(helpMedian)} >= ${GOAL_MS} ms (if node -e 0 is far above its usual figure too, the machine is busy: re-run)`,
);
