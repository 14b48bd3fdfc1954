/**
 * The load loop of one thread: makes the source, then sends on its own connections, on the open model's
 * schedule or in the closed model's loops, and records everything. runEngine runs one of these in the main
 * thread, or one per worker thread (engineWorker.ts) and merges them. Its parts: the plan and result
 * (ThreadPlan.ts); the thread under way, its answers, figures and stop (EngineThread.ts); when each request
 * goes, the open model's pump (OpenPump.ts) or the closed model's loops (ClosedLoops.ts), seen through
 * Sender.ts. Latency runs from the scheduled time, service time from the first byte written.
 */
import { pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { EngineThread } from './EngineThread.js';
import { parseTarget } from './HttpConnection.js';
import { warmHistograms } from '../metrics/Histogram.js';
import type { CreateSource, RequestSource, SourceShare, SourceSpec } from './RequestSource.js';
import type { PreparedThread, ThreadHooks, ThreadPlan } from './ThreadPlan.js';

/** Makes a source from its spec: `import(spec.module)`, then its `createSource`. */
export async function makeSource(spec: SourceSpec, share: SourceShare): Promise<RequestSource> {
  const url = spec.module.startsWith('/') ? pathToFileURL(spec.module).href : spec.module;
  let mod: { createSource?: unknown };
  try {
    mod = (await import(url)) as { createSource?: unknown };
  } catch (error) {
    throw new Error(`the request source module ${spec.module} could not be loaded: ${(error as Error).message}`, { cause: error });
  }
  if (typeof mod.createSource !== 'function') throw new Error(`the request source module ${spec.module} has no createSource export (see load/engine/RequestSource.ts)`);
  return await (mod.createSource as CreateSource)(spec.options, share);
}

export async function prepareThread(plan: ThreadPlan, hooks: ThreadHooks): Promise<PreparedThread> {
  const target = parseTarget(plan.url);
  const source = await makeSource(plan.source, plan.share);
  // A tick builds and encodes a histogram: cold, that takes milliseconds, done here rather than mid-schedule (in a
  // worker: runEngine warms the main thread's itself).
  if (!isMainThread) warmHistograms();
  return { start: (origin) => new EngineThread(plan, hooks, source, target, origin).run() };
}
