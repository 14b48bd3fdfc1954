/**
 * A request source of fixed calls: the given calls round-robin, singly or in batches of `batchSize` (ids 1 to
 * the batch's size in each request, so a single call is id 1). Bodies are encoded once and reused, so the
 * source costs nothing per request. Used by the engine's tests and the benchmarks (bench:load, bench:node); not part of the product.
 */
import { stringifyJson, type JsonValue } from '../../core/json/index.js';
import type { CreateSource, PlannedRequest, SourceSpec } from '../../load/engine/RequestSource.js';

export interface FixedCallsOptions {
  calls: { method: string; params?: JsonValue }[];
  /** 1 (the default): single requests; more: batches of that many calls. */
  batchSize?: number;
  /** Every call marked `track` (its outcome and times reach runEngine's onTracked). */
  track?: boolean;
  /** CPU this source spends on each request it gives, µs (a costly source: the generator's CPU figure's truth); 0 by default. */
  cpuPerRequestUs?: number;
}

/** The spec that makes this source in any thread. */
export function fixedCallsSpec(options: FixedCallsOptions): SourceSpec {
  return { module: import.meta.url, options: options as unknown as JsonValue };
}

export const createSource: CreateSource = (options) => {
  const { calls, batchSize, track, cpuPerRequestUs } = readOptions(options);
  // The cycle of distinct requests: after len / gcd(len, batchSize) requests the round-robin starts over.
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const cycle = calls.length / gcd(calls.length, batchSize);
  const requests: PlannedRequest[] = [];
  for (let r = 0; r < cycle; r++) {
    const picked = Array.from({ length: batchSize }, (_, i) => calls[(r * batchSize + i) % calls.length] as { method: string; params?: JsonValue });
    const objects = picked.map((c, i) => ({ jsonrpc: '2.0', id: i + 1, method: c.method, params: c.params ?? [] }));
    const batch = batchSize > 1;
    requests.push({
      body: Buffer.from(stringifyJson(batch ? objects : objects[0]), 'utf8'),
      calls: picked.map((c, i) => ({ id: i + 1, method: c.method, ...(track ? { track: true } : {}) })),
      batch,
    });
  }
  let next = 0;
  return {
    next: () => {
      spendCpu(cpuPerRequestUs);
      const r = requests[next] as PlannedRequest;
      next = next + 1 === requests.length ? 0 : next + 1;
      return r;
    },
  };
};

/** Works until the process has spent `us` more of CPU (user + system): at least that much, whatever else runs. */
function spendCpu(us: number): void {
  if (us <= 0) return;
  const cpu = (): number => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  const until = cpu() + us;
  while (cpu() < until) {
    // CPU is spent
  }
}

function readOptions(options: JsonValue): { calls: { method: string; params?: JsonValue }[]; batchSize: number; track: boolean; cpuPerRequestUs: number } {
  const o = options as { calls?: unknown; batchSize?: unknown; track?: unknown; cpuPerRequestUs?: unknown } | null;
  if (typeof o !== 'object' || o === null || !Array.isArray(o.calls) || o.calls.length === 0) {
    throw new Error('fixedCallsSource: options.calls must be a non-empty array of { method, params? }');
  }
  for (const c of o.calls as unknown[]) {
    if (typeof c !== 'object' || c === null || typeof (c as { method?: unknown }).method !== 'string') throw new Error('fixedCallsSource: each call needs a method name (a string)');
  }
  const batchSize = o.batchSize ?? 1;
  if (typeof batchSize !== 'number' || !Number.isInteger(batchSize) || batchSize < 1) throw new Error('fixedCallsSource: batchSize must be an integer >= 1');
  const cpuPerRequestUs = o.cpuPerRequestUs ?? 0;
  if (typeof cpuPerRequestUs !== 'number' || !(cpuPerRequestUs >= 0)) throw new Error('fixedCallsSource: cpuPerRequestUs must be a number >= 0');
  return { calls: o.calls as { method: string; params?: JsonValue }[], batchSize, track: o.track === true, cpuPerRequestUs };
}
