/**
 * A capture (load/capture/) made into what `chainrpc load replay` sends (docs/replay.md): which exchanges go, each
 * one's time, its exact body and the calls the engine waits for, and every exchange left out with the reason.
 * Pure and deterministic: the main thread makes it once for the report and every engine thread makes the same
 * one for its share (load/replay/replaySource.ts).
 *
 * Times: the recorded offsets (from the first exchange kept) divided by `speed`, or the kept sequence evenly at
 * `rate` requests/s. A loop plays the capture again one period later: its span plus one mean gap. The measured
 * window is [0, duration): a request due at the duration itself is not sent (`dueWithin`).
 *
 * Ids: a number, a string, or an integer beyond 2^53 (a bigint, as the lossless JSON reads it), each matched
 * exactly: 9007199254740993 is not 9007199254740992, and 1 is not "1".
 */
import { parseJson, type JsonValue } from '../../core/json/index.js';
import { asInteger, isObject } from '../../profile/readWire.js';
import type { PlannedCall } from '../engine/RequestSource.js';
import { bodyBytes, type CaptureExchange } from '../capture/captureFormat.js';
import type { Capture } from '../capture/readCapture.js';
import type { LeftOutReason, ReplayPace, ReplayReport } from '../model.js';
import type { ProfileSource } from '../../profile/loadProfile.js';

export interface ReplaySettings {
  /** The capture's path (each thread reads it). */
  capture: string;
  pace: ReplayPace;
  loop: boolean;
  /** Wire method names to replay (a request goes when every call it makes is one of them); null: every method. */
  methods: string[] | null;
  /** Heights asked at the same depth below the target's head as they were below the recorded head. */
  rebaseHeights: boolean;
  /**
   * The answers compared (ReplayDiff.ts) with those of a second node, each request also sent to its `endpoint` at
   * the same instant; or, with no endpoint, with the answers the capture recorded (`url` then names the recording).
   * null: no diff.
   */
  diff: { url: string; endpoint: string | null; profile: ProfileSource } | null;
  /**
   * The run's measured window, ms from the first request's time: a request due at or after it is not sent (the
   * window is [0, windowMs), so --rate r for d sends r·d). Absent: every request of the plan (its passes, in a loop,
   * without end) is given.
   */
  windowMs?: number;
}

/** The wire names of the methods a replay reads or changes (the profile's renames). */
export interface ReplayWire {
  blockNumber: string;
  blockByHeight: string;
  sendRawTransaction: string;
}

/** What the plan needs of the target: its chain (signed transactions for another are left out) and how to read one. */
export interface ReplayTarget {
  wire: ReplayWire;
  /** The target chain's id; null: unknown (every signed transaction is left out). */
  chainId: bigint | null;
  /** The chain id a transaction's wire hex was signed for (the profile codec's chainIdOf); absent: it cannot tell. */
  chainIdOf: ((wire: string) => bigint | undefined) | undefined;
}

export interface ReplayItem {
  /** ms from the start of one pass of the replay. */
  atMs: number;
  /** ms from the start of the recording (for the recorded head at that moment). */
  recordedMs: number;
  body: Buffer;
  calls: PlannedCall[];
  /** Each call's params as recorded (absent: none), in the calls' order. */
  params: (JsonValue | undefined)[];
  batch: boolean;
  /** The answer the capture recorded (absent: none kept, or no answer). */
  answer?: Buffer;
  /** It asks blocks by height: rebased when the replay rebases heights. */
  asksHeights: boolean;
}

export type { LeftOutReason, ReplayPace, ReplayReport as ReplaySummary } from '../model.js';

export interface ReplayPlan {
  items: ReplayItem[];
  /** The recorded head's heights over the recording, when rebasing: [ms from the recording's start, height]. */
  recordedHeads?: [number, number][];
  /** ms between the starts of two passes (loop). */
  periodMs: number;
  summary: ReplayReport;
}

/** Thrown when the capture and the settings leave nothing to replay, or rebasing has no head to go by. */
export class ReplayPlanError extends Error {}

/** An id the engine matches: a string, a number, or an integer beyond 2^53 (a bigint: core/json reads it exactly). */
export type ReplayId = PlannedCall['id'];

/** An id's key: 1 and "1" are different ids; an integer is the same id whether read as a number or a bigint. */
export const idKey = (id: ReplayId): string => (typeof id === 'string' ? `s${id}` : `n${String(id)}`);

export const isId = (id: JsonValue | undefined): id is ReplayId => typeof id === 'string' || typeof id === 'bigint' || (typeof id === 'number' && Number.isFinite(id));

/**
 * Whether a time `atMs` (ms from the first request's time) is within a measured window of `windowMs`: [0, windowMs),
 * with a nanosecond's allowance for the sums of fractional times (a pass's period times its number).
 */
export const dueWithin = (atMs: number, windowMs: number): boolean => atMs < windowMs - 1e-6;

/** The request objects of a body, with their ids; undefined when it holds none (not JSON-RPC). */
function requestObjects(exchange: CaptureExchange): { batch: boolean; objects: { [k: string]: JsonValue }[] } | undefined {
  if (exchange.rpc === null || !('text' in exchange.request)) return undefined;
  let value: JsonValue;
  try {
    value = parseJson(exchange.request.text);
  } catch {
    return undefined;
  }
  const elements = Array.isArray(value) ? value : [value];
  const objects = elements.filter((e): e is { [k: string]: JsonValue } => isObject(e) && typeof e.method === 'string');
  return { batch: Array.isArray(value), objects };
}

/** Each exchange replayed or left out, with its calls; the times come after (paced). */
export function replayPlan(capture: Capture, settings: ReplaySettings, target: ReplayTarget): ReplayPlan {
  const leftOut = new Map<LeftOutReason, number>();
  const leave = (reason: LeftOutReason): void => void leftOut.set(reason, (leftOut.get(reason) ?? 0) + 1);
  const chosen = settings.methods === null ? undefined : new Set(settings.methods);
  const kept: Omit<ReplayItem, 'atMs'>[] = [];
  const cut = { answers: 0, calls: 0 };
  // A last line cut short (a recording killed while it wrote) is an exchange the capture lost: said, not hidden.
  if (capture.cutShort) leave('cut short');
  for (const exchange of capture.exchanges) {
    const contentType = exchange.contentType?.split(';')[0]?.trim().toLowerCase();
    if (exchange.method !== 'POST' || (contentType !== undefined && contentType !== 'application/json')) {
      leave('not a JSON-RPC POST');
      continue;
    }
    const parsed = requestObjects(exchange);
    if (parsed === undefined || parsed.objects.length === 0) {
      leave('not JSON-RPC');
      continue;
    }
    const calls: PlannedCall[] = [];
    const params: (JsonValue | undefined)[] = [];
    const ids = new Set<string>();
    let matchable = true;
    let signedElsewhere = false;
    let chainUnknown = false;
    for (const o of parsed.objects) {
      const method = o.method as string;
      if (chosen !== undefined && !chosen.has(method)) {
        matchable = false;
        leave('methods not chosen');
        break;
      }
      if (method === target.wire.sendRawTransaction) {
        const raw = Array.isArray(o.params) ? o.params[0] : undefined;
        const chainId = typeof raw === 'string' ? target.chainIdOf?.(raw) : undefined;
        if (chainId === undefined || target.chainId === null) chainUnknown = true;
        else if (chainId !== target.chainId) signedElsewhere = true;
      }
      if (!Object.hasOwn(o, 'id')) continue; // a notification: no answer to wait for
      const id = o.id ?? null;
      if (!isId(id) || ids.has(idKey(id))) {
        matchable = false;
        leave('ids the engine cannot match');
        break;
      }
      ids.add(idKey(id));
      calls.push({ id, method });
      params.push(o.params);
    }
    if (!matchable) continue;
    if (chainUnknown) {
      leave('chain not known');
      continue;
    }
    if (signedElsewhere) {
      leave('signed for another chain');
      continue;
    }
    if (calls.length === 0) {
      leave('notifications only');
      continue;
    }
    // The node answered (a status) and the capture holds no answer: one a transcript cut (cutAnswers).
    if (exchange.answer === undefined && exchange.status !== null) {
      cut.answers++;
      cut.calls += calls.length;
    }
    kept.push({ recordedMs: exchange.t, body: bodyBytes(exchange.request), calls, params, batch: parsed.batch, asksHeights: calls.some((c) => c.method === target.wire.blockByHeight), ...(exchange.answer === undefined ? {} : { answer: bodyBytes(exchange.answer) }) });
  }
  // The line cut short was an exchange too: counted in the total as in what was left out, so that they add up.
  const exchanges = capture.exchanges.length + (capture.cutShort ? 1 : 0);
  if (kept.length === 0) {
    const why = [...leftOut].map(([reason, count]) => `${count} ${reason}`).join(', ');
    throw new ReplayPlanError(`the capture holds nothing to replay: ${exchanges} exchanges${why === '' ? '' : `, left out: ${why}`}`);
  }

  const first = (kept[0] as Omit<ReplayItem, 'atMs'>).recordedMs;
  const pace = settings.pace;
  const items: ReplayItem[] = kept.map((k, i) => ({ ...k, atMs: 'speed' in pace ? (k.recordedMs - first) / pace.speed : (i * 1000) / pace.rate }));
  const spanMs = (items.at(-1) as ReplayItem).atMs;
  const meanGapMs = items.length > 1 ? spanMs / (items.length - 1) : 'rate' in pace ? 1000 / pace.rate : 1000;
  const periodMs = spanMs + meanGapMs;
  // Every request at one instant (request bodies have no times): a pass takes no time, and a loop would send
  // without end at that instant.
  if (settings.loop && !(periodMs > 0)) throw new ReplayPlanError(`--loop plays the capture again one pass later, and its ${items.length} requests were all recorded at the same instant (request bodies have no times): a pass takes no time; replay it at a --rate`);

  const transformations: string[] = [];
  if ('speed' in pace) transformations.push(pace.speed === 1 ? 'sent at the recorded offsets' : `sent at the recorded offsets divided by ${pace.speed} (${pace.speed}x speed)`);
  else transformations.push(`the recorded order sent evenly at ${pace.rate} requests/s (the recorded offsets set aside)`);
  if (settings.loop) transformations.push(`played again every ${Math.round(periodMs)} ms until the run's duration ends`);
  if (chosen !== undefined) transformations.push(`only requests whose calls are all of ${[...chosen].join(', ')}`);
  if (settings.diff !== null) transformations.push(settings.diff.endpoint === null ? 'the answers compared with those the capture recorded' : `each request also sent to ${settings.diff.url} at the same instant, the answers compared (not timed)`);
  if (settings.diff?.endpoint === null && capture.header.answers && cut.answers > 0) transformations.push(cutAnswers(cut));
  const summary: ReplayReport = {
    capture: settings.capture,
    exchanges,
    replayed: items.length,
    pace,
    loop: settings.loop,
    spanMs,
    rate: periodMs > 0 ? (items.length * 1000) / periodMs : 0,
    leftOut: [...leftOut].map(([reason, count]) => ({ reason, count })),
    transformations,
  };
  if (settings.rebaseHeights) {
    const heads = recordedHeads(capture, target.wire.blockNumber);
    if (heads.length === 0) {
      const why = capture.header.answers ? 'no client asked' : importedBodies(capture) ? 'imported from request bodies: it holds no answers' : 'recorded with --no-answers';
      throw new ReplayPlanError(`--rebase-heights needs the head at the time of the recording, and the capture holds no answered ${target.wire.blockNumber} call to read it from (${why})`);
    }
    transformations.push(`${target.wire.blockByHeight} heights moved to the same depth below the target's head as below the recorded head (the body re-written)`);
    return { items, periodMs, summary, recordedHeads: heads };
  }
  return { items, periodMs, summary };
}

/** Whether the capture is an import of request bodies (`chainrpc record import`): no times, no answers. */
export const importedBodies = (capture: Capture): boolean => !capture.header.answers && capture.end?.reason === 'imported';

/**
 * What a diff against the recorded answers cannot compare, said: the exchanges kept whose node answered (a status)
 * while the capture holds no answer, though it keeps answers. Only an import of a chainrpc test transcript makes
 * those (a transcript keeps 4 KiB of each answer; the import leaves a cut one out, the exchange kept): their calls
 * are counted as not compared.
 */
function cutAnswers(cut: { answers: number; calls: number }): string {
  return `${cut.answers} recorded answer${cut.answers === 1 ? '' : 's'} cut at the 4 KiB a chainrpc test transcript keeps: ${cut.calls === 1 ? 'its call' : `their ${cut.calls} calls`} cannot be compared (counted as not compared)`;
}

/** The heights the recorded node answered to the head method, over the recording: [ms, height], in time order. */
export function recordedHeads(capture: Capture, blockNumber: string): [number, number][] {
  const heads: [number, number][] = [];
  for (const exchange of capture.exchanges) {
    if (exchange.rpc?.methods[blockNumber] === undefined || exchange.answer === undefined || !('text' in exchange.answer) || !('text' in exchange.request)) continue;
    let request: JsonValue;
    let answer: JsonValue;
    try {
      request = parseJson(exchange.request.text);
      answer = parseJson(exchange.answer.text);
    } catch {
      continue;
    }
    const ids = new Set((Array.isArray(request) ? request : [request]).flatMap((o) => (isObject(o) && o.method === blockNumber && isId(o.id) ? [idKey(o.id)] : [])));
    for (const a of Array.isArray(answer) ? answer : [answer]) {
      if (!isObject(a) || !isId(a.id) || !ids.has(idKey(a.id)) || !Object.hasOwn(a, 'result')) continue;
      const height = asInteger(a.result);
      // Taken at the middle of the exchange: the node answered somewhere between the request and its answer.
      if (height !== undefined && height <= BigInt(Number.MAX_SAFE_INTEGER)) heads.push([exchange.t + exchange.ms / 2, Number(height)]);
    }
  }
  return heads.sort((a, b) => a[0] - b[0]);
}

/** The recorded head at `ms` from the recording's start: the last known at or before it, else the first known. */
export function headAt(heads: readonly [number, number][], ms: number): number {
  let lo = 0;
  let hi = heads.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((heads[mid] as [number, number])[0] <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return (heads[Math.max(0, found)] as [number, number])[1];
}
