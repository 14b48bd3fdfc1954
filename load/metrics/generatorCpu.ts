/**
 * The generator's CPU figure of a run (`schedule.generatorCpu`, load/model.ts): made from a run's CPU seconds, wall
 * time and requests written, and added up over the rounds of one node's run (mergeRuns.ts) from the same three.
 */
import type { GeneratorCpu } from '../model.js';

/** To the microsecond: what the report keeps of a time in seconds. */
const toUs = (s: number): number => Math.round(s * 1e6) / 1e6;

/** The figure of `cpuSeconds` of CPU over `wallTime` (s), in which `requests` were written (times kept to the µs). */
export function cpuShares(cpuSeconds: number, wallTime: number, requests: number): GeneratorCpu {
  const seconds = toUs(cpuSeconds);
  const wallSeconds = toUs(wallTime);
  return {
    seconds,
    wallSeconds,
    requests,
    percentOfCore: wallSeconds > 0 ? Math.round((seconds / wallSeconds) * 1e4) / 100 : 0,
    perRequestUs: requests > 0 ? Math.round((seconds * 1e7) / requests) / 10 : null,
  };
}

/** Several runs' figures as one: their CPU, wall time and requests added up. */
export function sumCpu(parts: readonly GeneratorCpu[]): GeneratorCpu {
  const sum = (f: (p: GeneratorCpu) => number): number => parts.reduce((n, p) => n + f(p), 0);
  return cpuShares(sum((p) => p.seconds), sum((p) => p.wallSeconds), sum((p) => p.requests));
}
