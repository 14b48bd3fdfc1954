// @ts-check
/**
 * The k6 runtime of a chainrpc scenario (issue 12): the same request mix, params and JSON-RPC-aware accounting
 * as the Node engine, in plain ES-module JavaScript for k6 0.48 and later. `chainrpc load k6` copies this file
 * beside the generated script.js and its data.json (and corpus.json when the mix sends transactions); the
 * script is three lines around `chainrpc(data, lanes)`. Type-checked against @types/k6 (tsconfig.k6.json).
 *
 * What it records, for `chainrpc load merge` (load/k6/K6Summary.ts): counts only, so instances add up
 * exactly. Latency goes into counts per logarithmic bucket (70 per octave of µs, each 1% wide), kept by k6 checks
 * named after the bucket (CHECK_LATENCY), with the exact sum, least and greatest value beside them; calls by
 * method, outcome and error code; requests by batch size; failed exchanges by kind. A request and its calls count
 * as sent before it goes, so one that k6 cuts off unanswered is never lost. What it gives k6 to judge: the scenario's
 * thresholds over Trends (`chainrpc_latency`, ms, each request once; `chainrpc_call_latency`, each call, tagged
 * by method), a Rate (`chainrpc_call_failed`, tagged by method) and the measured scenario's
 * `dropped_iterations`, so a broken SLO makes k6 exit 99. Also what k6 actually ran (its scenarios, its run's
 * duration, when the measured window began), so the merge can tell a run that was not the script's.
 *
 * Senders: a VU owns the lane of corpus sender `exec.vu.idInTest - 1` (VU ids are unique across every
 * instance of a distributed run), sends its transactions one at a time in nonce order, and nothing else of
 * that sender is ever sent by another VU. maxVUs never exceeds the corpus's lanes, so every VU has a lane; an
 * iteration that finds none (or finds its lane spent) is counted (chainrpc_no_lane, chainrpc_lane_spent), and the
 * merge says the generator, not the node, left it unsent.
 */
import http from 'k6/http';
import exec from 'k6/execution';
import { check, sleep } from 'k6';
import { Counter, Gauge, Rate, Trend } from 'k6/metrics';

// A call's `draw` names one of paramsOf's draws below: writeK6Script.ts reads it from load/requests/drawParams.ts (K6Draw).
/** @typedef {{ kind: 'call', weight: number, method: number, params: unknown[] | null, draw: 'height' | 'account' | 'none' }} CallEntry */
/** @typedef {{ kind: 'batch', weight: number, size: number, mix: CallEntry[] }} BatchEntry */
/** @typedef {{ kind: 'transactions', weight: number }} TxEntry */
/** @typedef {CallEntry | BatchEntry | TxEntry} MixEntry */
/**
 * @typedef {object} K6Data
 * @property {string} format
 * @property {{ name: string, version: string }} tool
 * @property {{ name: string, definition: unknown }} scenario
 * @property {{ name: string, wire: Record<string, string> }} profile the profile's name and its wire names of the spec's methods
 * @property {string} url the node's base URL
 * @property {string} endpoint where requests go
 * @property {number} timeoutMs
 * @property {number} durationMs
 * @property {number} warmupMs
 * @property {unknown} model the arrival model (load/model.ts ArrivalModel)
 * @property {Record<string, object>} scenarios k6's scenarios option, made by the generator
 * @property {{ scenario: string, afterMs: number }} measured the measured window: the iterations of `scenario` that begin `afterMs` or more after it starts
 * @property {Record<string, string[]>} thresholds k6's thresholds option, made by the generator
 * @property {{ op: string, limit: number }[]} dropLimits limits on the measured window's dropped iterations, for the whole test (each instance judges its share)
 * @property {string[]} methods wire method names; metric names use their index
 * @property {number} sendMethod index of chain_sendRawTransaction's wire name, or -1
 * @property {MixEntry[]} mix
 * @property {{ from: number, to: number } | null} heights
 * @property {string[]} accounts
 * @property {number[]} batchSizes request sizes (1: single calls); metric names use their index
 * @property {number[]} codes JSON-RPC error codes counted by counters made beforehand; any other code counts exactly too, by a check of its own (CHECK_ERROR)
 * @property {number[]} statuses HTTP statuses counted by counters made beforehand; any other status counts exactly too, by a check of its own (CHECK_HTTP)
 * @property {{ perOctave: number, min: number, max: number }} buckets
 * @property {ReplayData} [replay] a capture replayed (load/k6/writeK6Replay.ts): its requests instead of the mix
 */
/** @typedef {{ at: number, body: string, calls: { id: number | string, method: number }[], batch: boolean, head?: number }} ReplayItem */
/**
 * @typedef {object} ReplayData
 * @property {unknown} summary the report's replay section (load/model.ts ReplayReport), passed on to the summary
 * @property {number} leadMs ms from the scenario's start to the first request's time
 * @property {number} periodMs ms between the starts of two passes
 * @property {ReplayItem[]} items
 * @property {{ blockNumber: string, blockByHeight: string, genesisHeight: number } | null} rebase heights moved to the same depth below the node's head
 */

// Written for the JavaScript k6 0.48 compiles: no `??`, no `?.`, no object spread, no catch without a binding.

const TIMEOUT_ERROR = 1050;

/**
 * k6 0.48 makes metrics only in the init context, yet a node may answer any error code or HTTP status. Those
 * data.json does not list count by k6 checks, which k6 makes when first run, under any name, and whose passes
 * it adds up in handleSummary's root_group: `chainrpc error <method index> <code>`, `chainrpc http <status>`.
 */
const CHECK_ERROR = /^chainrpc error (\d+) (\S+)$/;
const CHECK_HTTP = /^chainrpc http (\d{3})$/;
/**
 * A latency bucket's count, `chainrpc lat <histogram> <bucket>` (histogram r: requests, m<i>: method i, b<i>: batch
 * size i): a check, made when first met, so only the buckets that hold values exist. A k6 Counter per bucket is made
 * in every VU's init context and costs about 2 KB per VU (188 buckets x 8 histograms: 3 MB per VU), which 1%-wide
 * buckets (1,638 of them) would make 30 MB.
 */
const CHECK_LATENCY = /^chainrpc lat (\S+) (\d+)$/;
/** The scenario of an open model's warm-up (writeK6Script.ts K6_WARMUP_SCENARIO), when it has one of its own. */
const WARMUP_SCENARIO = 'warmup';
/** Counts one under a check named `name` (always passing). @param {string} name */
const countByCheck = (name) => {
  check(true, { [name]: () => true });
};

/** @typedef {{ id: unknown, result?: unknown, code?: number }} Response */
/**
 * A JSON-RPC response, as load/metrics/classifyExchange.ts reads one: an object with an `id` and either a
 * `result` or an `error` whose `code` is an integer (not both); undefined for anything else.
 * @param {unknown} v @returns {Response | undefined}
 */
const asResponse = (v) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || !('id' in v)) return undefined;
  const o = /** @type {Record<string, unknown>} */ (v);
  const hasResult = 'result' in o;
  const error = o.error;
  if (error === undefined) return hasResult ? { id: o.id, result: o.result } : undefined;
  if (hasResult || error === null || typeof error !== 'object' || Array.isArray(error)) return undefined;
  const code = /** @type {Record<string, unknown>} */ (error).code;
  return typeof code === 'number' && Number.isInteger(code) ? { id: o.id, code } : undefined;
};

/** One call's outcome: answered with a result, with an error (its code), or unanswered (null). @typedef {{ result: unknown } | { code: number } | null} Outcome */
/**
 * What a 200's body says of each call, exactly as the Node engine classifies it (load/metrics/classifyExchange.ts):
 * `malformed` when the body is not JSON, a single call's answer is not a response to its id (an error with a null
 * id is its answer), or a batch is answered neither by an array nor by a batch-wide error object (an error with a
 * null id, which every call then gets), or by an array holding something that is not a response; `extra` when a
 * batch's array holds a response whose id matches no call or answers one a second time (the first read is the
 * call's); `missing` when it lacks an answer to a call. One of each per answer, however many elements.
 * @param {string} text @param {{ id: number | string }[]} calls @param {boolean} batch
 * @returns {{ outcomes: Outcome[], malformed: boolean, extra: boolean, missing: boolean }}
 */
const classifyBody = (text, calls, batch) => {
  /** @type {Outcome[]} */
  const none = calls.map(() => null);
  const failed = { outcomes: none, malformed: true, extra: false, missing: false };
  let body;
  try {
    body = JSON.parse(text);
  } catch (_error) {
    return failed;
  }
  /** @param {Response} r @returns {Outcome} */
  const outcomeOf = (r) => (r.code !== undefined ? { code: r.code } : { result: r.result });
  if (!batch) {
    const call = calls[0];
    const answer = asResponse(body);
    if (call === undefined || answer === undefined || !(answer.id === call.id || (answer.id === null && answer.code !== undefined))) return failed;
    return { outcomes: [outcomeOf(answer)], malformed: false, extra: false, missing: false };
  }
  if (!Array.isArray(body)) {
    // A batch refused as a whole (an invalid batch, one too large) is answered by one error object with a null id.
    const answer = asResponse(body);
    if (answer !== undefined && answer.code !== undefined && answer.id === null) {
      const code = answer.code;
      return { outcomes: calls.map(() => ({ code })), malformed: false, extra: false, missing: false };
    }
    return failed;
  }
  /** The first call of each id (a replay's plan may repeat one). @type {Map<unknown, number>} */
  const index = new Map();
  calls.forEach((c, i) => {
    if (!index.has(c.id)) index.set(c.id, i);
  });
  /** @type {(Outcome | undefined)[]} */
  const outcomes = calls.map(() => undefined);
  let malformed = false;
  let extra = false;
  for (const element of body) {
    const answer = asResponse(element);
    if (answer === undefined) {
      malformed = true;
      continue;
    }
    // Ids compare as JSON-RPC has them: 1 and "1" differ (a Map's keys do too).
    const at = typeof answer.id === 'number' || typeof answer.id === 'string' ? index.get(answer.id) : undefined;
    if (at === undefined || outcomes[at] !== undefined) {
      extra = true;
      continue;
    }
    outcomes[at] = outcomeOf(answer);
  }
  const missing = outcomes.some((o) => o === undefined);
  return { outcomes: outcomes.map((o) => (o === undefined ? null : o)), malformed, extra, missing };
};

/** A fraction as k6 writes those of execution segments ("1/3", "0.25", "25%"), or NaN. @param {string} t */
const fraction = (t) => {
  const s = t.trim();
  if (/^\d+(\.\d+)?%$/.test(s)) return Number(s.slice(0, -1)) / 100;
  const q = /^(\d+)\/(\d+)$/.exec(s);
  if (q !== null) return Number(q[1]) / Number(q[2]);
  return /^\d+(\.\d+)?$/.test(s) ? Number(s) : NaN;
};

/** The share of the test an execution segment covers ("1/3:2/3"; "1/3" alone is "0:1/3"); 1 for a whole run. @param {string | null} segment */
const segmentShare = (segment) => {
  if (segment === null) return 1;
  const parts = segment.split(':');
  return parts.length === 1 ? fraction(parts[0] || '') : fraction(parts[1] || '') - fraction(parts[0] || '');
};

/**
 * This instance's share of the test, as CHAINRPC_SHARE says (the printed commands and the operator's TestRun set
 * it: 1/n of an n-way split); 1 without it. Read in the init context, where k6 0.48 tells a script nothing of its
 * execution segment, to judge the instance's share of each drop limit; handleSummary checks it against the segment.
 */
const assumedShare = () => {
  const given = __ENV.CHAINRPC_SHARE;
  if (given === undefined || given === '') return 1;
  const share = fraction(given);
  if (!(share > 0 && share <= 1)) throw new Error(`chainrpc: CHAINRPC_SHARE must be this instance's share of the test, a fraction above 0 and at most 1 (1/3, 0.25, 25%); got ${given}`);
  return share;
};

/**
 * k6's thresholds: the generator's, and the measured scenario's drops with this instance's share of each upper
 * limit. `count>=0` names them even without a limit: k6 keeps a submetric (here the measured scenario's drops
 * apart from the warm-up's) only when a threshold names it.
 * @param {K6Data} data @param {string} dropMetric @param {number} share
 */
const thresholdsOf = (data, dropMetric, share) => {
  const limit = (/** @type {{ op: string, limit: number }} */ l) => {
    if (l.op === '<=') return Math.floor(l.limit * share + 1e-9);
    if (l.op === '<') return Math.ceil(l.limit * share - 1e-9);
    return l.limit;
  };
  // No object spread: k6 0.48's compiler refuses it.
  return Object.assign({}, data.thresholds, { [dropMetric]: ['count>=0', ...data.dropLimits.map((l) => `count${l.op}${limit(l)}`)] });
};

/** Adds 1 to a counter that may be absent (an index out of range). @param {Counter | undefined} c */
const add = (c) => {
  if (c !== undefined) c.add(1);
};

/**
 * @param {K6Data} data
 * @param {{ address: string, txs: string[] }[]} lanes the corpus's lanes, or one segment's share of them
 * @param {{ index: number, of: number }} [share] which share `lanes` is (corpus-<index>-of-<of>.json): lanes
 *   k with k % of = index, in order. k6 stripes VU ids over equal segments, so segment i's VUs are exactly
 *   those whose idInTest - 1 is i modulo the segments.
 */
export function chainrpc(data, lanes, share = { index: 0, of: 1 }) {
  const { perOctave, min, max } = data.buckets;
  /** @param {string} name */
  const counter = (name) => new Counter(name);
  const bucketOf = (/** @type {number} */ us) => Math.min(max, Math.max(min, Math.floor(Math.log2(Math.max(us, 1)) * perOctave)));
  /**
   * A latency histogram: its buckets counted by checks (CHECK_LATENCY), and its exact sum (a Counter) and least and
   * greatest value (a Gauge's min and max), in µs, so the merged mean, min and max are exact, not bucket middles.
   * @param {string} key
   */
  const histogram = (key) => ({ key, sum: counter(`chainrpc_sum_${key}`), extremes: new Gauge(`chainrpc_ext_${key}`) });
  /** @param {{ key: string, sum: Counter, extremes: Gauge }} h @param {number} bucket @param {number} us */
  const record = (h, bucket, us) => {
    countByCheck(`chainrpc lat ${h.key} ${bucket}`);
    h.sum.add(us);
    h.extremes.add(us);
  };

  // Every metric is made here, in the init context, as k6 requires.
  const started = counter('chainrpc_started');
  const sent = counter('chainrpc_sent');
  const requests = counter('chainrpc_requests');
  const requestLatency = histogram('r');
  const methods = data.methods.map((_, m) => ({
    calls: counter(`chainrpc_calls_${m}`),
    ok: counter(`chainrpc_ok_${m}`),
    unanswered: counter(`chainrpc_unanswered_${m}`),
    errors: data.codes.map((_c, k) => counter(`chainrpc_err_${m}_${k}`)),
    latency: histogram(`m${m}`),
  }));
  const sizes = data.batchSizes.map((_, b) => ({ requests: counter(`chainrpc_size_${b}`), latency: histogram(`b${b}`) }));
  const failures = {
    timeouts: counter('chainrpc_f_timeouts'),
    transport: counter('chainrpc_f_transport'),
    malformed: counter('chainrpc_f_malformed'),
    extra: counter('chainrpc_f_extra'),
    missing: counter('chainrpc_f_missing'),
    http: data.statuses.map((s) => counter(`chainrpc_f_http_${s}`)),
  };
  // Requests the node served (at least one call answered with a result or an error) that ended inside the measured
  // window: the achieved rate's, as the Node engine counts it (load/engine/EngineThread.ts `ended`). `served`: the
  // window's own; `servedBefore`: those begun before it (the warm-up's), which stand for the window's own still in
  // flight at its end. Without them the rate fell short by latency / window (an outside tester's node answering
  // every request in 200 ms got 98.0% over 10 s and failed achieved >= 99%).
  const served = counter('chainrpc_served');
  const servedBefore = counter('chainrpc_served_before');
  // Iterations of the window that sent nothing: the VU had no sender's lane, or its lane was spent (the generator's doing, not the node's).
  const noLane = counter('chainrpc_no_lane');
  const laneSpent = counter('chainrpc_lane_spent');
  const latencyTrend = new Trend('chainrpc_latency', true);
  // Each call's latency, for a method's thresholds; only when one reads it (a Trend keeps every value).
  const callLatency = Object.keys(data.thresholds).some((k) => k.startsWith('chainrpc_call_latency')) ? new Trend('chainrpc_call_latency', true) : undefined;
  const callFailed = new Rate('chainrpc_call_failed');
  // When the measured window began (ms since the epoch): the summary is written after the graceful stop, an unknown time later.
  const windowStart = new Gauge('chainrpc_window_start');
  const dropMetric = `dropped_iterations{scenario:${data.measured.scenario}}`;
  const testShare = assumedShare();
  // A replay's requests: how late each was sent after its time (k6's own output; its latency already counts from its time).
  const sendLag = data.replay === undefined ? undefined : new Trend('chainrpc_send_lag', true);

  let nextId = 1;
  /** This VU's lane (its next transaction's index lives in this VU's memory). */
  let laneNext = 0;
  /** Whether this VU has told windowStart when the measured window began (once is enough). */
  let windowTold = false;

  /**
   * When the measured window begins (ms since the epoch), as this scenario's iterations see it: the measured
   * scenario's start plus its own warm-up (a closed model's, a transaction scenario's); the warm-up scenario's start
   * plus the warm-up (the measured scenario starts then). Undefined in a scenario the script did not make.
   */
  const windowStartOf = () => {
    if (exec.scenario.name === data.measured.scenario) return exec.scenario.startTime + data.measured.afterMs;
    if (exec.scenario.name === WARMUP_SCENARIO) return exec.scenario.startTime + data.warmupMs;
    return undefined;
  };
  /** Whether a request that ends now ends inside the measured window, [start, start + duration), as the Node engine judges it. */
  const endsInWindow = () => {
    const start = windowStartOf();
    const now = Date.now();
    return start !== undefined && now >= start && now < start + data.durationMs;
  };

  /** Whether an iteration beginning now is measured; the first one of this VU says when the window began. */
  const measuredNow = () => {
    if (exec.scenario.name !== data.measured.scenario || Date.now() - exec.scenario.startTime < data.measured.afterMs) return false;
    if (!windowTold) windowStart.add(exec.scenario.startTime + data.measured.afterMs);
    windowTold = true;
    return true;
  };

  /** @template {{ weight: number }} T @param {T[]} items @returns {T} */
  const weighted = (items) => {
    const total = items.reduce((n, i) => n + i.weight, 0);
    let x = Math.random() * total;
    for (const item of items) {
      x -= item.weight;
      if (x < 0) return item;
    }
    return /** @type {T} */ (items[items.length - 1]);
  };

  /** @param {CallEntry} c @returns {unknown[]} */
  const paramsOf = (c) => {
    if (c.params !== null) return c.params;
    if (c.draw === 'height') return data.heights === null ? [0] : [data.heights.from + Math.floor(Math.random() * (data.heights.to - data.heights.from + 1))];
    if (c.draw === 'account') return [data.accounts.length === 0 ? '0'.repeat(64) : data.accounts[Math.floor(Math.random() * data.accounts.length)]];
    return [];
  };

  /**
   * One request of `calls` (method indexes, ids), measured when `measuring`; its latency counts `lateMs` more (a
   * replayed request sent after its time). Returns the results by id (none for a failed exchange).
   * @param {string} body @param {{ id: number | string, method: number }[]} calls @param {boolean} batch @param {boolean} measuring @param {number} [lateMs]
   * @returns {Map<number | string, { result: unknown }>}
   */
  const send = (body, calls, batch, measuring, lateMs = 0) => {
    // Counted before it goes: a request k6 cuts off (its graceful stop, an interrupted run) never ends here.
    if (measuring) {
      sent.add(1);
      for (const c of calls) {
        const m = methods[c.method];
        if (m !== undefined) m.calls.add(1);
      }
    }
    const res = http.post(data.endpoint, body, { headers: { 'content-type': 'application/json' }, timeout: `${data.timeoutMs}ms`, tags: { name: 'chainrpc' } });
    const inWindow = endsInWindow();
    /** @type {Map<number | string, { result: unknown }>} */
    const answers = new Map();
    if (!measuring) {
      // A warm-up request the node served that ends inside the window counts toward the achieved rate, as the Node engine counts it.
      if (inWindow && res.status === 200 && classifyBody(typeof res.body === 'string' ? res.body : '', calls, batch).outcomes.some((o) => o !== null)) servedBefore.add(1);
      return answers;
    }
    const ms = res.timings.duration + lateMs;
    const us = ms * 1000;
    const bucket = bucketOf(us);
    requests.add(1);
    record(requestLatency, bucket, us);
    // Once per request (a batch is one): k6's latency thresholds judge requests, as the merged figures do.
    latencyTrend.add(ms);
    const size = sizes[data.batchSizes.indexOf(batch ? calls.length : 1)];
    if (size !== undefined) {
      size.requests.add(1);
      record(size.latency, bucket, us);
    }
    /** @type {Outcome[]} */
    let outcomes = calls.map(() => null);
    if (res.status === 0) {
      (res.error_code === TIMEOUT_ERROR ? failures.timeouts : failures.transport).add(1);
    } else if (res.status !== 200) {
      const at = data.statuses.indexOf(res.status);
      if (at === -1) countByCheck(`chainrpc http ${res.status}`);
      else add(failures.http[at]);
    } else {
      const read = classifyBody(typeof res.body === 'string' ? res.body : '', calls, batch);
      outcomes = read.outcomes;
      if (read.malformed) failures.malformed.add(1);
      if (read.extra) failures.extra.add(1);
      if (read.missing) failures.missing.add(1);
    }
    // Served within the window, as the Node engine counts the achieved rate: an answer that comes after the window's
    // end (in k6's graceful stop) was not served at the rate measured (an outside tester's node at 200/s of 210 passed
    // achieved >= 99% for its late answers).
    if (inWindow && outcomes.some((o) => o !== null)) served.add(1);
    calls.forEach((c, i) => {
      const outcome = outcomes[i] || null;
      if (outcome !== null && 'result' in outcome) answers.set(c.id, { result: outcome.result });
      const m = methods[c.method];
      if (m === undefined) return;
      record(m.latency, bucket, us);
      const methodTag = { method: data.methods[c.method] || '' };
      if (callLatency !== undefined) callLatency.add(ms, methodTag);
      if (outcome !== null && 'result' in outcome) {
        m.ok.add(1);
        callFailed.add(false, methodTag);
      } else if (outcome !== null) {
        const at = data.codes.indexOf(outcome.code);
        if (at === -1) countByCheck(`chainrpc error ${c.method} ${outcome.code}`);
        else add(m.errors[at]);
        callFailed.add(true, methodTag);
      } else {
        m.unanswered.add(1);
        callFailed.add(true, methodTag);
      }
    });
    // The results by id (none for a failed exchange).
    return answers;
  };

  const replay = data.replay;
  /** A height as the node writes one (a number, or a hex string), if it is one. @param {unknown} v */
  const heightOf = (v) => {
    if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
    if (typeof v === 'string' && /^0x0*[0-9a-fA-F]{1,13}$/.test(v)) return parseInt(v.slice(2), 16);
    return undefined;
  };
  /** This VU's idea of the node's head: read in setup, raised by every head the replay's own calls see. */
  let head = -1;

  /** The node's head before the replay starts (k6's setup), for rebasing; {} when the replay does not rebase. */
  const setup = () => {
    if (replay === undefined || replay.rebase === null) return {};
    const res = http.post(data.endpoint, JSON.stringify({ jsonrpc: '2.0', id: 1, method: replay.rebase.blockNumber, params: [] }), { headers: { 'content-type': 'application/json' }, timeout: `${data.timeoutMs}ms` });
    let parsed;
    try {
      parsed = JSON.parse(typeof res.body === 'string' ? res.body : '');
    } catch (_error) {
      parsed = undefined;
    }
    const h = parsed !== null && typeof parsed === 'object' ? heightOf(parsed.result) : undefined;
    if (h === undefined) throw new Error(`chainrpc replay: rebasing heights needs the node's head, and ${data.endpoint} answered ${replay.rebase.blockNumber} with HTTP ${res.status}: ${String(res.body).slice(0, 200)}`);
    return { head: h };
  };

  /**
   * The body of a replayed request whose blocks asked by height keep their depth below the head: the recorded
   * head at its time (`recordedHead`) becomes the node's, never below the chain's first height; a height stays
   * written as it was (a number, or a hex string). As load/replay/replaySource.ts rebases for the Node engine.
   * @param {string} body @param {number} recordedHead @param {{ blockByHeight: string, genesisHeight: number }} rebase @param {number} to
   */
  const rebased = (body, recordedHead, rebase, to) => {
    const value = JSON.parse(body);
    const shift = to - recordedHead;
    for (const o of Array.isArray(value) ? value : [value]) {
      if (o === null || typeof o !== 'object' || o.method !== rebase.blockByHeight || !Array.isArray(o.params)) continue;
      const old = o.params[0];
      const h = heightOf(old);
      if (h === undefined) continue;
      const moved = Math.max(rebase.genesisHeight, h + shift);
      o.params[0] = typeof old === 'string' ? `0x${moved.toString(16)}` : moved;
    }
    return JSON.stringify(value);
  };

  /**
   * One replayed request: iteration k of the test is request k mod n of pass floor(k / n), sent at its time
   * (or as soon as a VU is free after it: latency then counts from its time).
   * @param {ReplayData} r @param {{ head?: number }} start
   */
  const replayIteration = (r, start) => {
    const k = exec.scenario.iterationInTest;
    const item = r.items[k % r.items.length];
    if (item === undefined) return;
    const pass = Math.floor(k / r.items.length);
    const due = exec.scenario.startTime + r.leadMs + pass * r.periodMs + item.at;
    const wait = due - Date.now();
    if (wait > 0) sleep(wait / 1000);
    const lateMs = Math.max(0, Date.now() - due);
    if (sendLag !== undefined) sendLag.add(lateMs);
    // Every iteration of a replay is measured.
    measuredNow();
    started.add(1);
    if (head < 0 && start !== undefined && typeof start.head === 'number') head = start.head;
    const body = r.rebase !== null && item.head !== undefined && head >= 0 ? rebased(item.body, item.head, r.rebase, head) : item.body;
    const answers = send(body, item.calls, item.batch, true, lateMs);
    if (r.rebase === null) return;
    for (const c of item.calls) {
      if (data.methods[c.method] !== r.rebase.blockNumber) continue;
      const answer = answers.get(c.id);
      const h = answer === undefined ? undefined : heightOf(answer.result);
      if (h !== undefined && h > head) head = h;
    }
  };

  /**
   * One iteration: one request of the mix, as the Node engine draws it; or of a replay, at its time.
   * @param {{ head?: number }} [start] what setup returned
   */
  const iteration = (start) => {
    if (replay !== undefined) return replayIteration(replay, start === undefined ? {} : start);
    const measuring = measuredNow();
    if (measuring) started.add(1);
    const entry = weighted(data.mix);
    if (entry.kind === 'transactions') {
      const k = exec.vu.idInTest - 1;
      const lane = k % share.of === share.index ? lanes[Math.floor(k / share.of)] : undefined;
      const tx = lane === undefined ? undefined : lane.txs[laneNext];
      // A VU without a lane, or whose lane is spent, sends nothing: counted as started, never as sent, and as why.
      if (lane === undefined || tx === undefined) {
        if (measuring) (lane === undefined ? noLane : laneSpent).add(1);
        return;
      }
      laneNext++;
      const id = nextId++;
      send(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(data.methods[data.sendMethod])},"params":[${JSON.stringify(tx)}]}`, [{ id, method: data.sendMethod }], false, measuring);
      return;
    }
    const picked = entry.kind === 'call' ? [entry] : Array.from({ length: entry.size }, () => weighted(entry.mix));
    const calls = picked.map((c) => ({ id: nextId++, method: c.method, params: paramsOf(c) }));
    const texts = calls.map((c) => `{"jsonrpc":"2.0","id":${c.id},"method":${JSON.stringify(data.methods[c.method])},"params":${JSON.stringify(c.params)}}`);
    const batch = entry.kind === 'batch';
    send(batch ? `[${texts.join(',')}]` : texts[0] || '', calls, batch, measuring);
  };

  /**
   * The instance's K6Summary (load/k6/K6Summary.ts) from k6's end-of-test data, written to
   * $CHAINRPC_SUMMARY_DIR (default: the working directory) as chainrpc-summary[-<segment>].json.
   * @param {{ metrics: Record<string, { values: Record<string, number> }>, root_group?: unknown, state?: unknown }} end
   */
  const summary = (end) => {
    /** @param {string} name */
    const count = (name) => {
      const m = end.metrics[name];
      return m === undefined || typeof m.values.count !== 'number' ? 0 : m.values.count;
    };
    // What the checks counted (codes and statuses data.json does not list; latency buckets), from every group's checks.
    /** @type {Map<string, Record<string, number>>} */
    const latencyBuckets = new Map();
    /** @param {string} key */
    const buckets = (key) => latencyBuckets.get(key) || {};
    /** The exact sum, least and greatest value of a histogram (µs); undefined when it holds none. @param {string} key */
    const exact = (key) => {
      const sum = end.metrics[`chainrpc_sum_${key}`];
      const extremes = end.metrics[`chainrpc_ext_${key}`];
      if (sum === undefined || extremes === undefined) return undefined;
      return { sumUs: Math.round(sum.values.count * 1000) / 1000, minUs: extremes.values.min, maxUs: extremes.values.max };
    };
    /** @type {Map<number, Record<string, number>>} */
    const otherErrors = new Map();
    /** @type {Record<string, number>} */
    const otherStatuses = {};
    /** @param {unknown} group */
    const readChecks = (group) => {
      if (group === null || typeof group !== 'object') return;
      const g = /** @type {{ checks?: unknown, groups?: unknown }} */ (group);
      for (const c of Array.isArray(g.checks) ? g.checks : []) {
        const name = c !== null && typeof c === 'object' && typeof c.name === 'string' ? c.name : '';
        const passes = c !== null && typeof c === 'object' && typeof c.passes === 'number' ? c.passes : 0;
        const e = CHECK_ERROR.exec(name);
        const h = CHECK_HTTP.exec(name);
        const l = CHECK_LATENCY.exec(name);
        if (l !== null && passes > 0) {
          const into = latencyBuckets.get(String(l[1])) || {};
          into[String(l[2])] = (into[String(l[2])] || 0) + passes;
          latencyBuckets.set(String(l[1]), into);
        } else if (e !== null && passes > 0) {
          const m = Number(e[1]);
          const codes = otherErrors.get(m) || {};
          codes[String(e[2])] = (codes[String(e[2])] || 0) + passes;
          otherErrors.set(m, codes);
        } else if (h !== null && passes > 0) otherStatuses[String(h[1])] = (otherStatuses[String(h[1])] || 0) + passes;
      }
      if (Array.isArray(g.groups)) for (const child of g.groups) readChecks(child);
    };
    readChecks(end.root_group);
    /** @type {Record<string, unknown>} */
    const methodCounts = {};
    data.methods.forEach((name, m) => {
      const calls = count(`chainrpc_calls_${m}`);
      if (calls === 0) return;
      /** @type {Record<string, number>} */
      const errors = {};
      data.codes.forEach((code, k) => {
        const n = count(`chainrpc_err_${m}_${k}`);
        if (n > 0) errors[String(code)] = n;
      });
      const others = otherErrors.get(m) || {};
      for (const code of Object.keys(others)) errors[code] = (errors[code] || 0) + (others[code] || 0);
      methodCounts[name] = { calls, ok: count(`chainrpc_ok_${m}`), errors, unanswered: count(`chainrpc_unanswered_${m}`), latency: buckets(`m${m}`), latencyExact: exact(`m${m}`) };
    });
    /** @type {Record<string, unknown>} */
    const sizeCounts = {};
    data.batchSizes.forEach((size, b) => {
      const n = count(`chainrpc_size_${b}`);
      if (n > 0) sizeCounts[String(size)] = { requests: n, latency: buckets(`b${b}`), latencyExact: exact(`b${b}`) };
    });
    /** @type {Record<string, number>} */
    const httpStatus = {};
    data.statuses.forEach((s) => {
      const n = count(`chainrpc_f_http_${s}`);
      if (n > 0) httpStatus[String(s)] = n;
    });
    for (const status of Object.keys(otherStatuses)) httpStatus[status] = (httpStatus[status] || 0) + (otherStatuses[status] || 0);
    /** @type {Record<string, boolean>} */
    const thresholds = {};
    for (const [name, m] of Object.entries(end.metrics)) {
      const t = /** @type {{ thresholds?: Record<string, { ok: boolean }> }} */ (m).thresholds;
      if (t !== undefined) for (const [expr, r] of Object.entries(t)) thresholds[`${name}: ${expr}`] = r.ok;
    }
    // k6's --execution-segment of this instance (set by k6-operator on each runner too; null for a whole run),
    // and the scenarios k6 ran: the script's own, unless a command-line option (--vus, --duration, ...) replaced them.
    /** @type {string | null} */
    let segment = null;
    /** @type {unknown} */
    let ran = null;
    // A command-line --rps caps the requests k6 sends, whatever the schedule: the run is not the scenario's.
    /** @type {number | null} */
    let rps = null;
    try {
      const given = /** @type {unknown} */ (exec.test.options.executionSegment);
      if (given !== undefined && given !== null && String(given) !== '') segment = String(given);
      ran = /** @type {unknown} */ (exec.test.options.scenarios);
      const capped = /** @type {unknown} */ (exec.test.options.rps);
      if (typeof capped === 'number') rps = capped;
    } catch (_error) {
      segment = null;
    }
    const window = end.metrics.chainrpc_window_start;
    const windowMs = window === undefined ? undefined : window.values.min;
    const state = /** @type {{ testRunDurationMs?: unknown } | undefined} */ (end.state);
    const testRunMs = state !== undefined && typeof state.testRunDurationMs === 'number' ? Math.round(state.testRunDurationMs) : null;
    // Without thresholds (--no-thresholds) k6 keeps no submetric: only the whole test's drops, warm-up included, are known.
    const windowDrops = end.metrics[dropMetric] !== undefined;
    /** @type {Record<string, unknown>} */
    const result = {
      format: 'chainrpc-k6-summary/2',
      tool: data.tool,
      scenario: data.scenario,
      profile: data.profile,
      url: data.url,
      segment,
      endedAt: new Date().toISOString(),
      durationMs: data.durationMs,
      warmupMs: data.warmupMs,
      model: data.model,
      schedule: { started: count('chainrpc_started'), dropped: count(windowDrops ? dropMetric : 'dropped_iterations'), sent: count('chainrpc_sent'), noLane: count('chainrpc_no_lane'), laneSpent: count('chainrpc_lane_spent') },
      requests: { count: count('chainrpc_requests'), served: count('chainrpc_served'), servedBefore: count('chainrpc_served_before'), latency: buckets('r'), latencyExact: exact('r') },
      methods: methodCounts,
      batchSizes: sizeCounts,
      failures: {
        timeouts: count('chainrpc_f_timeouts'),
        transport: count('chainrpc_f_transport'),
        httpStatus,
        malformed: count('chainrpc_f_malformed'),
        extraElements: count('chainrpc_f_extra'),
        missingElements: count('chainrpc_f_missing'),
      },
      thresholds,
      k6: {
        testRunDurationMs: testRunMs,
        planned: data.scenarios,
        ran,
        windowStartedAt: typeof windowMs === 'number' ? new Date(windowMs).toISOString() : null,
        droppedInTest: count('dropped_iterations'),
        windowDrops,
        rps,
      },
    };
    if (replay !== undefined) result.replay = replay.summary;
    const dir = __ENV.CHAINRPC_SUMMARY_DIR || '.';
    const file = `${dir}/chainrpc-summary${segment === null ? '' : `-${segment.replace(/[^0-9a-zA-Z.]+/g, '_')}`}.json`;
    const broken = Object.entries(thresholds).filter(([, ok]) => !ok).map(([name]) => name);
    const ranShare = segmentShare(segment);
    // As a fraction where one of a small denominator is it (what CHAINRPC_SHARE should say: 1/3 rather than 0.333...).
    const denominator = Array.from({ length: 1000 }, (_, i) => i + 1).find((q) => Math.abs(ranShare * q - Math.round(ranShare * q)) < 1e-9);
    const shareText = denominator === undefined ? String(ranShare) : `${Math.round(ranShare * denominator)}/${denominator}`;
    const shareNote =
      data.dropLimits.length > 0 && Math.abs(ranShare - testShare) > 1e-9
        ? `; k6 judged the drop limits for ${testShare === 1 ? 'the whole test' : `a share of ${testShare} of the test`}, but this instance ran ${segment === null ? 'the whole test' : `segment ${segment}`}: give it -e CHAINRPC_SHARE=${shareText} (chainrpc load merge judges the merged figures whatever k6 said)`
        : '';
    const line = `chainrpc: ${count('chainrpc_requests')} requests measured; ${broken.length === 0 ? 'every threshold kept' : `thresholds broken: ${broken.join(', ')}`}${shareNote}; summary: ${file}\n`;
    return { [file]: JSON.stringify(result, null, 1), stdout: line };
  };

  return { options: { scenarios: data.scenarios, thresholds: thresholdsOf(data, dropMetric, testShare), summaryTrendStats: ['p(50)', 'p(99)', 'max'], discardResponseBodies: false }, iteration, setup, summary };
}
