// `npm run test:fuzz-target-long [cases] [seed]`: chainrpc fuzz against a devnet of real node processes (1 MN and
// 1 LN, the build), both URLs at once: every case judged on each node, valid cases compared between them
// (differential). The done-means of docs/fuzz.md: 0 findings over 100,000 cases (the default). Prints
// progress, the verdict, and exits 1 on any finding or tool error (flaky sightings are printed, as the verdict says them).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fuzzVerdict } from '../../fuzz/fuzzVerdict.js';
import { runFuzz } from '../../fuzz/run/runFuzz.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { startDevnet } from '../../reference-node/devnet/startDevnet.js';

const cases = Number(process.argv[2] ?? 100_000);
const seed = Number(process.argv[3] ?? Math.floor(Math.random() * 2 ** 32));
const dir = mkdtempSync(join(tmpdir(), 'chainrpc-fuzz-long-'));
const devnet = await startDevnet({ mn: 1, ln: 1, blockTimeMs: 300, chainId: 1n, dataDir: join(dir, 'devnet'), keepData: false });
const urls = devnet.nodes.map((n) => n.url);
console.log(`fuzzing ${urls.join(' and ')} (MN, LN) with ${cases.toLocaleString('en-US')} cases, seed ${seed}`);
let code: number;
try {
  const run = await runFuzz({
    urls,
    profile: referenceProfile(),
    seed,
    cases,
    durationMs: null,
    only: [],
    concurrency: 4,
    maxRate: 5_000,
    maxBodyBytes: 1024 * 1024,
    timeoutMs: 5_000,
    livenessEvery: 100,
    version: 'long',
    onProgress: (p) => {
      if (Math.round(p.atMs / 1000) % 10 === 0) console.log(`  ${(p.atMs / 1000).toFixed(0)} s: ${p.cases.toLocaleString('en-US')} cases, ${p.casesPerSecond} cases/s, ${p.findings} findings, ${p.liveness} liveness probes`);
    },
    onFinding: (f) => console.log(`  FINDING ${f.id} ${f.oracle} ${f.method ?? ''} (${f.recheck}) on ${f.url}: ${f.message}\n    ${f.minimal.curl}`),
  });
  const verdict = fuzzVerdict(run);
  console.log(`${run.cases.toLocaleString('en-US')} cases (${Object.entries(run.byFamily).map(([f, n]) => `${f} ${n}`).join(', ')}) in ${(run.durationMs / 1000).toFixed(0)} s to each of ${urls.length} nodes; ${run.targets.map((t) => `${t.url}: ${t.cases} cases, ${t.livenessChecks} probes, median ${t.medianMs} ms, ${t.state}`).join('; ')}`);
  console.log(`${verdict.standing.length} findings, ${verdict.flaky.length} flaky sightings, ${run.toolErrors.length} tool errors`);
  code = verdict.standing.length === 0 && run.toolErrors.length === 0 ? 0 : 1;
} finally {
  await devnet.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
