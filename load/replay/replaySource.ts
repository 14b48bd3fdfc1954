/**
 * The request source of `chainrpc load replay` (the engine's SourceSpec module): the capture's exchanges at their
 * own times (RequestSource.due, the open model's `recorded` distribution), each body sent as recorded, a batch as
 * the batch it was. Thread k of n takes the requests k, k + n, k + 2n, ... of the replay (over every pass when it
 * loops), so the threads together send each request once, at its time, within the measured window [0, windowMs):
 * one due at its end is not sent. Made in whichever thread sends.
 *
 * With `rebaseHeights`, a block asked by height is asked at the same depth below the target's head as it was
 * below the recorded head: the target's head is the one read before the run, raised by every head the replay's
 * own calls see (its chain_blockNumber calls).
 */
import { parseJson, stringifyJson, type JsonValue } from '../../core/json/index.js';
import { loadProfileSource, type ProfileSource } from '../../profile/loadProfile.js';
import { asInteger, isObject } from '../../profile/readWire.js';
import { readCapture } from '../capture/readCapture.js';
import type { CallResult, PlannedCall, PlannedRequest, RequestSource, SourceShare } from '../engine/RequestSource.js';
import { ReplayDiffer } from './ReplayDiff.js';
import { wireMethod, type Profile } from '../../profile/Profile.js';
import { SPEC_METHOD_NAMES } from '../../core/schema/types.generated.js';
import { dueWithin, headAt, replayPlan, type ReplayItem, type ReplaySettings, type ReplayWire } from './replayPlan.js';

/** The JSON options of a replay source. */
export interface ReplaySourceOptions {
  settings: ReplaySettings;
  wire: ReplayWire;
  /** The profile (for its codec: the chain a transaction was signed for). */
  profile: ProfileSource;
  /** The target chain's id, as a decimal string (JSON has no bigint); null: unknown. */
  chainId: string | null;
  /** How long the diff's second node has to answer a call. */
  timeoutMs: number;
  /** ms from the warm-up's start to the first request: the run's lead-in, which sends nothing. */
  leadMs: number;
  /** The target's head before the run, and its first height (rebasing). */
  targetHead: number | null;
  genesisHeight: number;
}

export async function createSource(raw: JsonValue, share: SourceShare): Promise<RequestSource> {
  const options = raw as unknown as ReplaySourceOptions;
  const profile = await loadProfileSource(options.profile);
  const capture = readCapture(options.settings.capture);
  const chainIdOf = profile.codec.chainIdOf?.bind(profile.codec);
  const plan = replayPlan(capture, options.settings, { wire: options.wire, chainId: options.chainId === null ? null : BigInt(options.chainId), chainIdOf });
  const { items, periodMs } = plan;
  const differ = options.settings.diff === null ? undefined : await startDiffer(options, profile);
  const heads = plan.recordedHeads;
  let targetHead = options.targetHead ?? undefined;
  if (heads !== undefined && targetHead === undefined) throw new Error('rebasing heights needs the target\'s head before the run');
  const rebase = heads === undefined || targetHead === undefined ? undefined : (item: ReplayItem): Rebased => rebased(item, options.wire.blockByHeight, headAt(heads, item.recordedMs), targetHead ?? 0, options.genesisHeight);
  const observeHeads = rebase !== undefined;
  // The replay's own head reads raise the target's head the rebasing goes by.
  const calls = items.map((item) => (observeHeads ? item.calls.map((c): PlannedCall => (c.method === options.wire.blockNumber ? { ...c, observe: '' } : c)) : item.calls));
  let index = share.index;
  const { loop, windowMs } = options.settings;
  /** The next request's time in the run (ms from the first request's), or undefined when none is left in it. */
  const nextAt = (): number | undefined => {
    const pass = Math.floor(index / items.length);
    if (pass > 0 && !loop) return undefined;
    const at = pass * periodMs + (items[index % items.length] as ReplayItem).atMs;
    return windowMs === undefined || dueWithin(at, windowMs) ? at : undefined;
  };

  return {
    due(): number | undefined {
      const at = nextAt();
      return at === undefined ? undefined : options.leadMs + at;
    },
    next(): PlannedRequest | undefined {
      if (nextAt() === undefined) return undefined;
      const at = index % items.length;
      const item = items[at] as ReplayItem;
      index += share.count;
      const moved = rebase !== undefined && item.asksHeights ? rebase(item) : undefined;
      const request: PlannedRequest = { body: moved?.body ?? item.body, calls: calls[at] as PlannedCall[], batch: item.batch };
      // The diff judges each call by the params sent (a rebased height against the target's head), not those recorded.
      differ?.send(request, moved?.params ?? item.params, item.answer);
      return request;
    },
    onEnded(request: PlannedRequest, outcomes?: readonly CallResult[]): void {
      differ?.answered(request, outcomes);
    },
    diff: () => differ?.summary(),
    close: () => differ?.close(),
    observe(call: PlannedCall, result: JsonValue): void {
      if (call.method !== options.wire.blockNumber) return;
      const height = asInteger(result);
      if (height !== undefined && height <= BigInt(Number.MAX_SAFE_INTEGER)) targetHead = Math.max(targetHead ?? 0, Number(height));
    },
  };
}

/** The diff's second node, read under its own profile (ReplayDiff.ts). */
async function startDiffer(options: ReplaySourceOptions, profile: Profile): Promise<ReplayDiffer | undefined> {
  const diff = options.settings.diff;
  if (diff === null) return undefined;
  const otherProfile = await loadProfileSource(diff.profile);
  const specByWire = new Map(SPEC_METHOD_NAMES.map((m) => [wireMethod(profile, m), m as string]));
  const renames = SPEC_METHOD_NAMES.some((m) => wireMethod(profile, m) !== wireMethod(otherProfile, m));
  return new ReplayDiffer(
    { url: diff.url, endpoint: diff.endpoint, profile, otherProfile, specName: (wire) => specByWire.get(wire) ?? wire, otherWire: (spec) => ((SPEC_METHOD_NAMES as readonly string[]).includes(spec) ? wireMethod(otherProfile, spec) : spec), renames, timeoutMs: options.timeoutMs },
    options.targetHead,
  );
}

/** A body rebased, and its calls' params as sent (ReplayItem.params' order: the objects with an id). */
export interface Rebased {
  body: Buffer;
  params: (JsonValue | undefined)[];
}

/**
 * The item's body with each height asked of `blockByHeight` moved by the difference between the heads: the same
 * depth below `targetHead` as below `recordedHead`, never below the first height; written as it was (a number, or
 * a hex string). Params that are no height are left as they were.
 */
export function rebased(item: Pick<ReplayItem, 'body'>, blockByHeight: string, recordedHead: number, targetHead: number, genesisHeight: number): Rebased {
  const value = parseJson(item.body.toString('utf8'));
  const shift = BigInt(targetHead) - BigInt(recordedHead);
  const params: (JsonValue | undefined)[] = [];
  for (const o of Array.isArray(value) ? value : [value]) {
    if (!isObject(o)) continue;
    if (o.method === blockByHeight && Array.isArray(o.params)) {
      const old = o.params[0];
      const height = asInteger(old);
      if (height !== undefined) {
        let moved = height + shift;
        if (moved < BigInt(genesisHeight)) moved = BigInt(genesisHeight);
        o.params[0] = typeof old === 'string' ? `0x${moved.toString(16)}` : moved <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(moved) : moved;
      }
    }
    if (Object.hasOwn(o, 'id')) params.push(o.params);
  }
  return { body: Buffer.from(stringifyJson(value)), params };
}
