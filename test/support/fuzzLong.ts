// Long fuzz run, by hand: `npx tsx test/support/fuzzLong.ts [runs] [seed]` (default 200,000
// cases, a random seed; FUZZ_RUNS / FUZZ_SEED work too). The same property as runRpcFuzz.test.ts.
import { runRpcFuzz } from './runRpcFuzz.js';

const runs = Number(process.argv[2] ?? process.env.FUZZ_RUNS ?? 200_000);
const seedText = process.argv[3] ?? process.env.FUZZ_SEED;
const seed = seedText === undefined ? Date.now() ^ (Math.random() * 0x7fffffff) : Number(seedText);

// The server runs in this process: anything escaping a request handler lands here, and that is a failure.
process.on('uncaughtException', (error) => {
  console.error('FAIL: uncaught exception in the server:', error);
  process.exit(1);
});
process.on('unhandledRejection', (reason) => {
  console.error('FAIL: unhandled rejection in the server:', reason);
  process.exit(1);
});

console.log(`fuzzing the JSON-RPC server with ${runs} cases, seed ${seed}`);
const started = Date.now();
let next = 10_000;
try {
  const report = await runRpcFuzz({
    runs,
    seed,
    onProgress: (cases) => {
      if (cases >= next) {
        console.log(`  ${cases} cases, ${((Date.now() - started) / 1000).toFixed(0)} s`);
        next += 10_000;
      }
    },
  });
  console.log(`OK: ${report.cases} cases in ${(report.ms / 1000).toFixed(1)} s`);
  console.log(`  by kind:   ${JSON.stringify(report.byKind)}`);
  console.log(`  by status: ${JSON.stringify(report.byStatus)}`);
} catch (error) {
  console.error(`FAIL (seed ${seed}; rerun with: npx tsx test/support/fuzzLong.ts ${runs} ${seed}):`);
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
