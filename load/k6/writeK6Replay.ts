/**
 * `chainrpc load replay <capture> --k6 <dir>`: a replay (load/replay/replayPlan.ts) as a runnable k6 test, for
 * a replay larger than one machine or run where k6 already runs. The folder holds what `chainrpc load k6` writes
 * (script.js, the runtime chainrpc.k6.js, data.json), data.json carrying the plan: each request's exact body,
 * its calls (ids and methods, for the JSON-RPC-aware accounting), its time in the pass, and for rebasing the
 * recorded head at its time.
 *
 * How k6 keeps the recorded times: a `shared-iterations` scenario of one iteration per request; iteration k
 * (exec.scenario.iterationInTest, unique over every instance of a distributed run) takes request k mod n of
 * pass floor(k / n), sleeps until its time (from the scenario's start, after the lead-in) and sends it. A
 * request no VU was free for at its time goes late, never dropped: its latency counts from its time, as the
 * Node engine's does (no coordinated omission), so lateness shows in the figures instead of hiding.
 *
 * What k6 cannot do is refused before anything is written (K6Unsupported): a diff (k6 sends to one node),
 * thresholds on what only the Node engine measures.
 */
import { rpcEndpoint } from '../../core/client/baseUrl.js';
import type { JsonValue } from '../../core/json/index.js';
import { wireMethod, type Profile } from '../../profile/Profile.js';
import type { ArrivalModel } from '../model.js';
import { dueWithin, headAt, type ReplayPlan, type ReplaySettings } from '../replay/replayPlan.js';
import type { Threshold } from '../scenario/Threshold.js';
import { K6_BUCKET_MAX, K6_BUCKET_MIN, K6_BUCKETS_PER_OCTAVE, k6ReplayJudges } from './K6Summary.js';
import { CODES, K6_DATA_FORMAT, K6_MEASURED_SCENARIO, k6CallThreshold, K6Unsupported, scriptText, startTestFolder, STATUSES, type WrittenK6Script } from './writeK6Script.js';

/** ms from the scenario's start to the first request: VUs start and connect, nothing is sent (the Node engine's lead-in). */
export const K6_REPLAY_LEAD_MS = 1_000;

export interface K6ReplayOptions {
  plan: ReplayPlan;
  settings: ReplaySettings;
  /** The node's base URL. */
  url: string;
  profile: Profile;
  /** The replay's scenario as it is reported (its name, and the definition holding its thresholds' texts). */
  scenario: { name: string; definition: JsonValue };
  thresholds: readonly Threshold[];
  /** The measured window: one pass, or --duration. */
  durationMs: number;
  /** The report's rate, second by second (load replay's recordedStages). */
  model: ArrivalModel;
  timeoutMs: number;
  /** VUs: requests under way at once at most. */
  vus: number;
  genesisHeight: number;
  out: string;
  version: string;
}

/** The iterations of a replay: each request of each pass due within the window (every request once without a loop). */
export function replayIterations(atMs: readonly number[], periodMs: number, durationMs: number, loop: boolean): number {
  // The measured window is [0, duration), as the Node engine's replay (load/replay/replayPlan.ts, dueWithin).
  if (!loop) return atMs.filter((t) => dueWithin(t, durationMs)).length;
  let n = 0;
  for (let pass = 0; dueWithin(pass * periodMs, durationMs); pass++) for (const t of atMs) if (dueWithin(pass * periodMs + t, durationMs)) n++;
  return n;
}

/** The replay's thresholds as k6 thresholds; those a k6 replay does not judge are returned apart. */
export function k6ReplayThresholds(thresholds: readonly Threshold[]): { thresholds: Record<string, string[]>; notJudged: string[] } {
  const out: Record<string, string[]> = {};
  const notJudged: string[] = [];
  for (const t of thresholds) {
    if (t.metric === 'mismatches') throw new K6Unsupported(`threshold "${t.text}": a diff needs a second node, and a k6 test sends to one; run the diff with the Node engine (chainrpc load replay --diff-url)`);
    if (!k6ReplayJudges(t.metric)) {
      notJudged.push(t.text);
      continue;
    }
    // A replay's methods are named as the capture sent them.
    const call = k6CallThreshold(t, t.method);
    if (call !== undefined) (out[call.metric] ??= []).push(call.expr);
    else throw new K6Unsupported(`threshold "${t.text}": k6 has no figure for it in a replay; run it with the Node engine (chainrpc load replay)`);
  }
  return { thresholds: out, notJudged };
}

/** Writes the k6 test of a replay plan into `out` (created if needed). */
export function writeK6Replay(o: K6ReplayOptions): WrittenK6Script {
  const { plan, settings } = o;
  if (settings.diff !== null) throw new K6Unsupported('a diff (--diff-url, --diff-recorded): k6 sends each request to one node and keeps no answers to compare; run the diff with the Node engine (chainrpc load replay)');
  const { thresholds, notJudged } = k6ReplayThresholds(o.thresholds);
  const methods: string[] = [];
  const methodIndex = (wire: string): number => {
    const at = methods.indexOf(wire);
    return at === -1 ? methods.push(wire) - 1 : at;
  };
  const heads = plan.recordedHeads;
  const items = plan.items.map((item) => ({
    at: Math.round(item.atMs * 1000) / 1000,
    body: item.body.toString('utf8'),
    calls: item.calls.map((c) => ({ id: c.id, method: methodIndex(c.method) })),
    batch: item.batch,
    // The recorded head at the request's time: its heights keep their depth below it on the target's head.
    ...(heads !== undefined && item.asksHeights ? { head: headAt(heads, item.recordedMs) } : {}),
  }));
  const iterations = replayIterations(plan.items.map((i) => i.atMs), plan.periodMs, o.durationMs, settings.loop);
  if (iterations === 0) throw new K6Unsupported('no request of the capture is due within --duration');
  const lastDueMs = settings.loop ? o.durationMs : (plan.items.at(-1)?.atMs ?? 0);
  const maxDuration = `${Math.ceil((K6_REPLAY_LEAD_MS + lastDueMs + o.timeoutMs) / 1000) + 10}s`;
  const batchSizes = [...new Set(items.map((i) => (i.batch ? i.calls.length : 1)))].sort((a, b) => a - b);
  const data = {
    format: K6_DATA_FORMAT,
    tool: { name: 'chainrpc', version: o.version },
    scenario: o.scenario,
    profile: { name: o.profile.name, wire: {} },
    url: o.url,
    endpoint: rpcEndpoint(o.url, o.profile.rpcPath),
    timeoutMs: o.timeoutMs,
    durationMs: o.durationMs,
    warmupMs: 0,
    model: o.model,
    scenarios: { [K6_MEASURED_SCENARIO]: { executor: 'shared-iterations', vus: Math.max(1, Math.min(o.vus, iterations)), iterations, maxDuration } },
    // Every iteration is measured (a replay has no warm-up; the window begins with the first request's time), and none is ever dropped.
    measured: { scenario: K6_MEASURED_SCENARIO, afterMs: K6_REPLAY_LEAD_MS },
    thresholds,
    dropLimits: [],
    methods,
    sendMethod: -1,
    mix: [],
    heights: null,
    accounts: [],
    batchSizes,
    codes: CODES,
    statuses: STATUSES,
    buckets: { perOctave: K6_BUCKETS_PER_OCTAVE, min: K6_BUCKET_MIN, max: K6_BUCKET_MAX },
    notJudged,
    replay: {
      summary: plan.summary,
      leadMs: K6_REPLAY_LEAD_MS,
      periodMs: plan.periodMs,
      items,
      rebase: heads === undefined ? null : { blockNumber: wireMethod(o.profile, 'chain_blockNumber'), blockByHeight: wireMethod(o.profile, 'chain_getBlockByHeight'), genesisHeight: o.genesisHeight },
    },
  };
  const { files, write } = startTestFolder(o.out, data);
  write('script.js', scriptText(o.scenario.name, false, notJudged, true));
  return { dir: o.out, files, notJudged, maxVUs: o.vus };
}
