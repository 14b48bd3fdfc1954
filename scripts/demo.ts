/**
 * `npm run demo` (README command 1, after the build): start a devnet of 3 MN + 2 LN reference nodes
 * (separate processes on loopback), certify it with `chainrpc test` against all five base URLs, write
 * the reports, stop the devnet, and print where the HTML report is. Exits with chainrpc test's code.
 */
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { packageRoot } from '../core/paths.js';
import { CLI_PATH, startDevnet } from '../reference-node/devnet/startDevnet.js';

const BLOCK_MS = 300;
const reportDir = join(packageRoot, '.chainrpc', 'reports');

console.log(`demo: starting a devnet of 3 MN + 2 LN reference nodes (block time ${BLOCK_MS} ms)...`);
const net = await startDevnet({ mn: 3, ln: 2, blockTimeMs: BLOCK_MS, chainId: 1n, dataDir: join(packageRoot, '.chainrpc', 'demo-devnet'), keepData: false });
let code: number;
try {
  for (const n of net.nodes) console.log(`  ${n.name}  ${n.kind}  ${n.url}  pid ${n.pid}`);
  const args = ['test', ...net.nodes.flatMap((n) => ['--url', n.url]), '--level', 'profile', '--block-time', String(BLOCK_MS), '--report-dir', reportDir];
  console.log(`\n$ chainrpc ${args.map((a) => (a.startsWith('/') ? relative(process.cwd(), a) || '.' : a)).join(' ')}\n`);
  const r = spawnSync(process.execPath, [CLI_PATH, ...args], { stdio: 'inherit' });
  code = r.status ?? 1;
} finally {
  await net.stop();
  console.log('\ndemo: devnet stopped.');
}
console.log(`demo: HTML report: ${join(reportDir, 'latest', 'report.html')}`);
process.exitCode = code;
