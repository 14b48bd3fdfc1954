// Property-based fuzzing of the real server (see runRpcFuzz.ts). FUZZ_RUNS sets the number of cases
// (default 5,000, as CI runs it, with a new seed each run); `npm run test:fuzz-long` runs the same property longer.
import { describe, expect, it } from 'vitest';
import { runRpcFuzz } from './runRpcFuzz.js';

const runs = Number(process.env.FUZZ_RUNS ?? 5_000);

describe('fuzz: the server survives and answers by the rules', () => {
  it(`${runs} random cases over HTTP`, async () => {
    const report = await runRpcFuzz({ runs });
    expect(report.cases).toBeGreaterThanOrEqual(runs);
    // Every family of cases was exercised, and every documented status was reached.
    for (const kind of ['envelope', 'batch', 'json', 'fc.json', 'mutated', 'deep', 'huge', 'bytes']) expect(report.byKind[kind] ?? 0).toBeGreaterThan(0);
    if (runs >= 5_000) for (const status of ['200', '204', '405', '413', '415']) expect(report.byStatus[status] ?? 0).toBeGreaterThan(0);
  }, 600_000);
});
