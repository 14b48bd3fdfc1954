/**
 * `npm run demo` (README command 1, after the build): start a devnet of 3 MN + 2 LN reference nodes
 * (separate processes on loopback), certify it with `chainrpc test` against all five base URLs, then load it
 * briefly with `chainrpc load mixed` (reads and signed transfers, inclusion tracked) against the first
 * node, stop the devnet, and print where both HTML reports are. Exits with the first non-zero exit code of
 * the two commands (0 when the devnet passed and the load's thresholds were kept). A load whose figures
 * cannot be trusted because this machine was too busy to keep the schedule is run again, saying so, up to
 * LOAD_ATTEMPTS in all.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packageRoot } from '../core/paths.js';
import { CLI_PATH, startDevnet } from '../reference-node/devnet/startDevnet.js';

const BLOCK_MS = 300;
/**
 * Runs of the load at most. On this 2-core machine, shared with other work, a load beside the devnet was NOT
 * TRUSTED in about one run of six (send lag p99 over 5 ms for a moment), and once, on 2026-11-27, twice in a
 * row (9.2 then 5.2 ms, with the other runs of the hour at 1.2 to 3.0 ms).
 */
const LOAD_ATTEMPTS = 3;
const reportDir = join(packageRoot, '.chainrpc', 'reports');

/** Runs chainrpc with `args`, its output shown as it comes; resolves with its exit code. */
function chainrpc(args: string[]): number {
  console.log(`\n$ chainrpc ${args.map((a) => (a.startsWith('/') ? relative(process.cwd(), a) || '.' : a)).join(' ')}\n`);
  const r = spawnSync(process.execPath, [CLI_PATH, ...args], { stdio: 'inherit' });
  return r.status ?? 1;
}

/** The folder `<reportDir>/latest` points at now (each command repoints it). */
const latestFolder = (): string => join(reportDir, readlinkSync(join(reportDir, 'latest')));

/** The verdict line of the load report in `folder` ("PASSED: ...", "NOT TRUSTED: ..."), or '' without one. */
function loadVerdict(folder: string): string {
  try {
    const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as { verdict?: { summary?: unknown } };
    return typeof report.verdict?.summary === 'string' ? report.verdict.summary : '';
  } catch {
    return '';
  }
}

console.log(`demo: starting a devnet of 3 MN + 2 LN reference nodes (block time ${BLOCK_MS} ms)...`);
const net = await startDevnet({ mn: 3, ln: 2, blockTimeMs: BLOCK_MS, chainId: 1n, dataDir: join(packageRoot, '.chainrpc', 'demo-devnet'), keepData: false });
let testCode: number;
let loadCode: number;
let certified: string;
let loaded: string;
try {
  for (const n of net.nodes) console.log(`  ${n.name}  ${n.kind}  ${n.url}  peers ${n.p2pUrl}  pid ${n.pid}`);
  testCode = chainrpc(['test', ...net.nodes.flatMap((n) => ['--url', n.url]), '--level', 'profile', '--block-time', String(BLOCK_MS), '--report-dir', reportDir]);
  certified = latestFolder();
  const first = net.nodes.find((n) => n.kind === 'MN');
  const light = net.nodes.find((n) => n.kind === 'LN');
  if (first === undefined || light === undefined) throw new Error('the devnet has no MN or no LN');
  // Light, so it runs beside the devnet on two cores, and long enough for the report's charts to show
  // something: 10 s at 100 requests/s on an MN and on an LN in turn, one call in five a signed transfer whose
  // inclusion is tracked; both nodes' heads followed all along (head lag, stalls) and their processes read
  // (CPU per call, memory). The generator shares the two cores with the devnet's five processes, so its lag bound is
  // the one `chainrpc load --devnet` gives such a run, 25 ms (the 5 ms default is for a generator with cores of its
  // own: a fresh clone's demo under a host's busy minute went NOT TRUSTED three times in a row at 6 to 9 ms).
  const load = ['load', 'mixed', '--url', first.url, '--url', light.url, '--pid', String(first.pid), '--pid', String(light.pid), '--rate', '100', '--duration', '10s', '--warmup', '2s', '--max-lag', '25ms', '--report-dir', reportDir];
  loadCode = chainrpc(load);
  loaded = latestFolder();
  // NOT TRUSTED judges the generator, not the node: on a machine busy with other work it may lag its own
  // schedule. A safety net only (the devnet's idle nodes leave the generator its schedule): again, saying so,
  // up to LOAD_ATTEMPTS runs, then the verdict stands.
  for (let attempt = 2; attempt <= LOAD_ATTEMPTS && loadCode === 1 && loadVerdict(loaded).startsWith('NOT TRUSTED'); attempt++) {
    console.log(`\ndemo: the load's figures were not trusted: this machine was too busy to keep the schedule (see above); running it again (${attempt} of ${LOAD_ATTEMPTS}).`);
    loadCode = chainrpc(load);
    loaded = latestFolder();
  }
} finally {
  await net.stop();
  console.log('\ndemo: devnet stopped.');
}
console.log(`demo: conformance report: ${join(certified, 'report.html')}`);
console.log(`demo: load report:        ${join(loaded, 'report.html')}`);
// The last word: what each part found, and the exit code (a first-time user's demo on a busy machine ended NOT
// TRUSTED, exit 1, and its last lines said neither).
const exitCode = testCode !== 0 ? testCode : loadCode;
console.log(`demo: conformance exit ${testCode}; load ${loadVerdict(loaded).split(':')[0] || `exit ${loadCode}`} (exit ${loadCode}); the demo exits ${exitCode}${exitCode === 0 ? '' : ' (see the reports above)'}`);
process.exitCode = exitCode;
