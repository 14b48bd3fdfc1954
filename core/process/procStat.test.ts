import { describe, expect, it } from 'vitest';
import { cpuSeconds } from './procStat.js';

describe.runIf(process.platform === 'linux')('cpuSeconds (/proc/<pid>/stat)', () => {
  it('grows with the CPU this process spends, and is undefined for a process that does not exist', () => {
    const before = cpuSeconds('self') ?? Number.NaN;
    expect(before).toBeGreaterThan(0);
    // Spin until 50 ms of CPU show (5 ticks), however busy the machine; 5 s of wall time at most.
    const giveUp = performance.now() + 5_000;
    let grown = 0;
    while (grown < 0.05 && performance.now() < giveUp) {
      const until = performance.now() + 10;
      while (performance.now() < until);
      grown = (cpuSeconds(process.pid) ?? before) - before;
    }
    expect(grown).toBeGreaterThanOrEqual(0.05);
    expect(cpuSeconds(2 ** 22 + 7)).toBeUndefined();
  });
});
