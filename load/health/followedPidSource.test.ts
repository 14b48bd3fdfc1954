import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { followedPidSource } from './ResourceSampler.js';

describe('followedPidSource: a node whose process a restart replaces', () => {
  it.runIf(process.platform === 'linux')('keeps its CPU seconds running on across processes and names every pid it read', async () => {
    const child = spawn('sleep', ['5']);
    try {
      let pid: number | undefined = process.pid;
      const source = followedPidSource(() => pid);
      const first = await source.read();
      // Some CPU of this process, so the step at the switch would show if it were lost.
      const until = performance.now() + 30;
      while (performance.now() < until);
      const before = await source.read();
      pid = child.pid;
      const after = await source.read();
      expect(first?.cpuSeconds).toBeGreaterThan(0);
      expect(before?.cpuSeconds).toBeGreaterThanOrEqual(first?.cpuSeconds ?? Infinity);
      // The new process counts from the last reading of the one before: never lower.
      expect(after?.cpuSeconds).toBeGreaterThanOrEqual(before?.cpuSeconds ?? Infinity);
      expect(after?.rssBytes).toBeLessThan(before?.rssBytes ?? 0);
      expect(source.label).toBe(`pid ${process.pid}, then ${child.pid}`);
      pid = undefined;
      expect(await source.read()).toBeUndefined();
    } finally {
      child.kill();
    }
  });
});
