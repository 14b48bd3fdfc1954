/**
 * The generator's CPU figure of a run (`schedule.generatorCpu`, load/model.ts): made from a run's CPU seconds, wall
 * time and requests written, and added up over the rounds of one node's run (mergeRuns.ts) from the same three.
 */
import type { GeneratorCpu } from '../model.js';

/** The figure of `seconds` of CPU over `wallSeconds`, in which `requests` were written. */
export function cpuShares(seconds: number, wallSeconds: number, requests: number): GeneratorCpu {
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
  return cpuShares(Math.round(sum((p) => p.seconds) * 1e6) / 1e6, Math.round(sum((p) => p.wallSeconds) * 1e6) / 1e6, sum((p) => p.requests));
}
