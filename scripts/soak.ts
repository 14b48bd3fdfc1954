/**
 * `npm run soak`: the reference node's soak, as an operator would run one before trusting a release (a script,
 * not a CI test: it takes an hour by default). Starts a devnet of 1 MN + 1 LN (processes on loopback, block time
 * 1 s), runs the built-in `soak` scenario against the LN (`chainrpc load soak`: reads and one pre-signed transfer
 * in six at 50 calls/s, its head followed at 20 Hz beside the MN's as the reference, its process read from
 * /proc), stops the devnet, and prints the verdict and where the reports are. Exits with `chainrpc load`'s code (0: every
 * threshold kept, among them rss-growth < 50MB/h, stalls == 0 and head-lag-p99 < 1s; 99: one broken).
 *
 * Options: --duration <d> (default the scenario's, 60m), --report-dir <dir> (default .chainrpc/reports).
 * Recorded in docs/load.md ("A one-hour soak").
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../core/paths.js';
import { CLI_PATH, startDevnet } from '../reference-node/devnet/startDevnet.js';

const { values } = parseArgs({ options: { duration: { type: 'string' }, 'report-dir': { type: 'string' } } });
const reportDir = values['report-dir'] ?? join(packageRoot, '.chainrpc', 'reports');
/** The reference profile's block time: what the stall rule (3 block times) is measured in. */
const BLOCK_MS = 1_000;

console.log(`soak: starting a devnet of 1 MN + 1 LN reference nodes (block time ${BLOCK_MS} ms)...`);
const net = await startDevnet({ mn: 1, ln: 1, blockTimeMs: BLOCK_MS, chainId: 1n, dataDir: join(packageRoot, '.chainrpc', 'soak-devnet'), keepData: false });
let code: number;
try {
  for (const n of net.nodes) console.log(`  ${n.name}  ${n.kind}  ${n.url}  pid ${n.pid}`);
  const [mn, ln] = net.nodes;
  if (mn === undefined || ln === undefined) throw new Error('the devnet has no MN or no LN');
  // The LN under load, its head judged against the MN that makes the blocks (the tip): does a node that serves
  // clients keep up with its chain, and does its memory hold still, for an hour.
  const args = ['load', 'soak', '--url', ln.url, '--pid', String(ln.pid), '--head-reference', mn.url, '--report-dir', reportDir, ...(values.duration === undefined ? [] : ['--duration', values.duration])];
  console.log(`\n$ chainrpc ${args.join(' ')}\n`);
  code = spawnSync(process.execPath, [CLI_PATH, ...args], { stdio: 'inherit' }).status ?? 1;
} finally {
  await net.stop();
}
console.log(`\nsoak: chainrpc load exited ${code}; reports under ${reportDir} (latest)`);
process.exitCode = code;
