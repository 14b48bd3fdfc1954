import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Three lanes (docs/development.md, "Test lanes"). `npm test` runs them all: `unit` and `process` side by side
 * first, then `timing` alone, so that nothing shares the cores with a test that judges time.
 *
 * - unit: the fast lane, for every save (`npm run test:unit`, under a minute, no build needed): everything
 *   not named below, in process, on loopback.
 * - process: whole-program proofs with real processes, the build, a real browser, or many nodes: test/ (the
 *   CLI, the devnet, kill -9, the fault matrix, legal variations, ...), every `*.dist.test.ts` (runs the
 *   compiled build), every `*.browser.test.ts` (Chromium), and the in-place files below that start many
 *   nodes or wait on block times for seconds.
 * - timing: tests whose assertions judge time against a known truth (rates, percentiles, lags): the engine
 *   against its ground-truth servers, the sweep, k6, the inclusion tracker, the head follower against nodes whose
 *   lag is known, the fuzzer's proof (its slow oracle) and --seek slow's ranking. They run last and one file at
 *   a time, alone on the machine.
 */
const TIMING = [
  'load/engine/runEngine.test.ts',
  'load/engine/runEngine.batches.test.ts',
  'load/engine/runEngine.failures.test.ts',
  'load/engine/runEngine.stall.test.ts',
  'load/engine/runEngine.accuracy.test.ts',
  'load/sweep/runSweep.test.ts',
  'load/k6/k6.timing.test.ts',
  'load/inclusion/InclusionTracker.test.ts',
  'fuzz/run/runFuzz.proof.test.ts',
  'fuzz/run/*.timing.test.ts',
  'load/health/**/*.timing.test.ts',
  'load/chaos/**/*.timing.test.ts',
  'load/replay/**/*.timing.test.ts',
];

const PROCESS = [
  'test/**/*.test.ts',
  'load/k6/k6.test.ts',
  '**/*.dist.test.ts',
  '**/*.browser.test.ts',
  // In place, beside their code, but seconds long each: many nodes, or waits of several block times.
  'reference-node/faults/faults.test.ts',
  'reference-node/chain/Chain.crash.test.ts',
  'reference-node/node/fuzzNode.test.ts',
  'reference-node/node/heartbeat.test.ts',
  'reference-node/node/heightClaims.test.ts',
  'reference-node/node/peerInput.test.ts',
  'reference-node/node/faucetForwarding.test.ts',
  'reference-node/node/relayAgain.test.ts',
  'profile/detect/detectVariations.test.ts',
  'suites/checks/chain.test.ts',
  'load/runLoad.test.ts',
  'load/health/headHealth.nodes.test.ts',
  'load/health/metricsSource.test.ts',
];

const EXCLUDE = ['node_modules/**', 'dist/**'];

/**
 * Files at once in the first group. Most process-level tests wait (on blocks, timeouts, child processes)
 * far more than they compute, so twice the cores keeps the machine busy without starving any of them.
 */
const WORKERS = Math.max(2, 2 * availableParallelism());

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['**/*.test.ts'], exclude: [...EXCLUDE, ...PROCESS, ...TIMING], isolate: false, maxWorkers: WORKERS, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'process', include: PROCESS, exclude: [...EXCLUDE, ...TIMING], isolate: false, maxWorkers: WORKERS, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'timing', include: TIMING, exclude: EXCLUDE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
