/**
 * Sends a corpus to a node without the load engine: a small loop over a corpus source (createSource) that
 * posts each planned request with fetch, matches answers by id, reports tracked outcomes as the engine
 * would (TrackedOutcome), and tells the source when each request ended. For tests of the source and the
 * inclusion tracker; the engine's own scheduling is tested with the engine.
 */
import type { JsonValue } from '../../core/json/index.js';
import { createSource } from '../../load/corpus/corpusSource.js';
import type { PlannedRequest, SourceShare, TrackedOutcome } from '../../load/engine/RequestSource.js';
import { epochNow } from '../../core/epochNow.js';

export interface DriveOptions {
  /** The node's JSON-RPC endpoint (base URL + /rpc). */
  endpoint: string;
  corpus: string;
  batchSize?: number;
  share?: SourceShare;
  /** Requests in flight at most. */
  inFlight?: number;
  /** Requests per second on a fixed schedule (t_i = t0 + i / rate); default as fast as the source allows. */
  rate?: number;
  onTracked?: (outcome: TrackedOutcome) => void;
  /** Called with each request as it is handed out, before it is sent. */
  onPlanned?: (request: PlannedRequest) => void;
  /** Called after a request ended, before the source hears of it. */
  onEnded?: (request: PlannedRequest) => void;
}

export interface DriveResult {
  requests: number;
  calls: number;
  /** next() answered null (every ready lane busy) this many times. */
  busy: number;
}

const now = epochNow;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type Answer = { id?: JsonValue; result?: JsonValue; error?: { code: number; message: string } };

/** Sends the whole share of the corpus, then resolves once every request has ended. */
export async function driveCorpus(options: DriveOptions): Promise<DriveResult> {
  const source = await createSource({ corpus: options.corpus, batchSize: options.batchSize ?? 1 }, options.share ?? { index: 0, count: 1 });
  const inFlight = new Set<Promise<void>>();
  const limit = options.inFlight ?? 16;
  const t0 = now();
  let requests = 0;
  let calls = 0;
  let busy = 0;
  for (;;) {
    const scheduledAtMs = options.rate === undefined ? now() : t0 + (requests * 1000) / options.rate;
    const wait = scheduledAtMs - now();
    if (wait > 1) await sleep(wait);
    if (inFlight.size >= limit) {
      await Promise.race(inFlight);
      continue;
    }
    const request = source.next();
    if (request === undefined) break;
    if (request === null) {
      busy++;
      if (inFlight.size > 0) await Promise.race(inFlight);
      else throw new Error('corpus source is busy with nothing in flight');
      continue;
    }
    options.onPlanned?.(request);
    requests++;
    calls += request.calls.length;
    const done = send(options, request, scheduledAtMs).finally(() => {
      options.onEnded?.(request);
      source.onEnded?.(request);
      inFlight.delete(done);
    });
    inFlight.add(done);
  }
  await Promise.all(inFlight);
  await source.close?.();
  return { requests, calls, busy };
}

async function send(options: DriveOptions, request: PlannedRequest, scheduledAtMs: number): Promise<void> {
  let answers: Answer[] | undefined;
  let failure = 'no answer';
  try {
    const res = await fetch(options.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request.body });
    const body = (await res.json()) as Answer | Answer[];
    answers = Array.isArray(body) ? body : [body];
  } catch (err) {
    failure = err instanceof Error ? err.message : String(err);
  }
  const endedAtMs = now();
  for (const call of request.calls) {
    if (call.track === undefined) continue;
    const answer = answers?.find((a) => a.id === call.id);
    const outcome: TrackedOutcome['outcome'] =
      answer === undefined
        ? { kind: 'unanswered', reason: failure }
        : answer.error !== undefined
          ? { kind: 'error', code: answer.error.code, message: answer.error.message }
          : { kind: 'result', result: answer.result ?? null };
    options.onTracked?.({ tag: call.track, scheduledAtMs, endedAtMs, outcome });
  }
}
