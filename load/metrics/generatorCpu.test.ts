import { describe, expect, it } from 'vitest';
import { mergeRuns } from '../mergeRuns.js';
import { loadReportFixture } from '../../test/support/loadReportFixture.js';
import type { LoadRun } from '../model.js';
import { cpuShares, sumCpu } from './generatorCpu.js';

describe("the generator's CPU figure", () => {
  it('is the CPU over the wall time, and per request written', () => {
    expect(cpuShares(0.5, 2, 1_000)).toEqual({ seconds: 0.5, wallSeconds: 2, requests: 1_000, percentOfCore: 25, perRequestUs: 500 });
    expect(cpuShares(0.5, 2, 0).perRequestUs).toBeNull();
    expect(cpuShares(0, 0, 0).percentOfCore).toBe(0);
  });

  it('adds rounds up by their CPU, wall time and requests, not by averaging their shares', () => {
    // 1 s of CPU over 4 s (25%, 1,000 µs a request) and 3 s over 2 s (150%, 1,000 µs a request): 4 s over 6 s.
    expect(sumCpu([cpuShares(1, 4, 1_000), cpuShares(3, 2, 3_000)])).toEqual({ seconds: 4, wallSeconds: 6, requests: 4_000, percentOfCore: 66.67, perRequestUs: 1_000 });
  });

  it("is kept when a node's rounds are merged only if every round has it", () => {
    const round = (cpu?: ReturnType<typeof cpuShares>): LoadRun => {
      const run = loadReportFixture('plain').runs[0] as LoadRun;
      return cpu === undefined ? run : { ...run, schedule: { ...run.schedule, generatorCpu: cpu } };
    };
    expect(mergeRuns([round(cpuShares(1, 4, 1_000)), round(cpuShares(3, 2, 3_000))]).schedule.generatorCpu).toMatchObject({ seconds: 4, wallSeconds: 6, requests: 4_000 });
    expect(mergeRuns([round(cpuShares(1, 4, 1_000)), round()]).schedule.generatorCpu).toBeUndefined();
  });
});
