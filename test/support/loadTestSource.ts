/**
 * A request source for the engine's tests, made in whichever thread runs it (a SourceSpec names this module).
 * Options, all optional:
 * - methods: the calls' methods, round-robin (default ["m"]); batchSize: calls per request (default 1: single);
 * - stampThread: prefix each method with "t<threadId>:" so a test sees which thread sent what;
 * - busyMs: spin this long in every next() (a generator too slow for its schedule);
 * - limit: requests this source makes before it has no more (undefined after);
 * - busyEvery: every n-th next() returns null (a source whose lanes are all waiting);
 * - track: tag every call with { n, method } for the main thread;
 * - validateEvery: mark every n-th call for validation; invalidMethod: checkResult refuses that method's results;
 * - throwAfter: next() throws (a broken source) once it has made this many requests;
 * - dueEveryMs: the source keeps its own times (the `recorded` distribution): request n is due at n × dueEveryMs,
 *   for ever (a replay in a loop).
 */
import { threadId } from 'node:worker_threads';
import type { JsonValue } from '../../core/json/index.js';
import type { CreateSource, PlannedRequest, SourceSpec } from '../../load/engine/RequestSource.js';

export interface TestSourceOptions {
  methods?: string[];
  batchSize?: number;
  stampThread?: boolean;
  busyMs?: number;
  limit?: number;
  busyEvery?: number;
  track?: boolean;
  validateEvery?: number;
  invalidMethod?: string;
  throwAfter?: number;
  dueEveryMs?: number;
}

export function testSourceSpec(options: TestSourceOptions): SourceSpec {
  return { module: import.meta.url, options: options as JsonValue };
}

/** Every source this module made in this thread, with what it saw (tests that run the engine in-thread read it). */
export const madeSources: { ended: number; closed: boolean }[] = [];

export const createSource: CreateSource = (raw) => {
  const o = raw as TestSourceOptions;
  const methods = (o.methods ?? ['m']).map((m) => (o.stampThread === true ? `t${threadId}:${m}` : m));
  const batchSize = o.batchSize ?? 1;
  let made = 0;
  let asked = 0;
  let call = 0;
  const seen = { ended: 0, closed: false };
  madeSources.push(seen);
  return {
    next(): PlannedRequest | null | undefined {
      asked++;
      if (o.busyMs !== undefined) {
        const until = performance.now() + o.busyMs;
        while (performance.now() < until);
      }
      if (o.busyEvery !== undefined && asked % o.busyEvery === 0) return null;
      if (o.limit !== undefined && made >= o.limit) return undefined;
      if (o.throwAfter !== undefined && made >= o.throwAfter) throw new Error('boom: the test source broke');
      made++;
      const calls = Array.from({ length: batchSize }, (_, i) => {
        const n = call++;
        const method = methods[n % methods.length] as string;
        return {
          id: i + 1,
          method,
          ...(o.validateEvery !== undefined && n % o.validateEvery === 0 ? { validate: true } : {}),
          ...(o.track === true ? { track: { n, method } } : {}),
        };
      });
      const objects = calls.map((c) => ({ jsonrpc: '2.0', id: c.id, method: c.method, params: [] }));
      return { body: Buffer.from(JSON.stringify(batchSize > 1 ? objects : objects[0])), calls, batch: batchSize > 1 };
    },
    ...(o.dueEveryMs === undefined ? {} : { due: () => made * (o.dueEveryMs ?? 0) }),
    onEnded() {
      seen.ended++;
    },
    ...(o.invalidMethod !== undefined ? { checkResult: (method: string) => method !== o.invalidMethod } : {}),
    close() {
      seen.closed = true;
    },
  };
};
