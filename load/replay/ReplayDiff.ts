/**
 * The diff while replaying (`--diff-url`, docs/replay.md): each request the replay sends to its node goes to a
 * second node at the same instant (when the source hands it to the engine), over kept connections of its own
 * (core/client/ExactHttpPool), and the two answers to each call are compared as two honest nodes of one chain must
 * agree (profile/compareAnswers.ts), each read under its own profile. The second node's answers are not timed:
 * the engine measures the first node; this compares them. With `--diff-recorded` there is no second node: the
 * answers the capture recorded are the other side.
 */
import { ExactHttpPool } from '../../core/client/ExactHttpPool.js';
import { HttpExchangeFailure } from '../../core/client/HttpExchangeFailure.js';
import { parseJson, stringifyJson, type JsonValue } from '../../core/json/index.js';
import { agreementFor, disagreement, type CallAnswer } from '../../profile/compareAnswers.js';
import type { Profile } from '../../profile/Profile.js';
import { asInteger, isObject } from '../../profile/readWire.js';
import type { CallResult, PlannedRequest } from '../engine/RequestSource.js';
import { classifyExchange } from '../metrics/classifyExchange.js';
import type { DiffCounts, ReplayDiff } from '../model.js';
import { DIFF_EXAMPLES, diffOf } from './diffCounts.js';

/** How much of each answer an example keeps. */
const EXAMPLE_CHARS = 2048;

export interface DiffSides {
  /** The second node's base URL (for the report) and its endpoint; null: the recorded answers are the other side. */
  url: string;
  endpoint: string | null;
  /** The first node's profile and the second's. */
  profile: Profile;
  otherProfile: Profile;
  /** A spec method's name from the first node's wire name; the second node's wire name from the spec's. */
  specName: (wire: string) => string;
  otherWire: (spec: string) => string;
  /** The two profiles name some method differently: each body is re-written for the second node. */
  renames: boolean;
  timeoutMs: number;
}

/**
 * The other side's answer to a call: a result or an error, or (`unanswered`) an HTTP answer that holds no JSON-RPC
 * answer to the call (not JSON, no response object, another id, missing from a batch's), with that answer's text.
 */
type OtherAnswer = CallAnswer | { unanswered: string; text: string };

interface Pending {
  /** Each call's params, for how it is compared (a block's height). */
  params: readonly (JsonValue | undefined)[];
  own?: readonly (CallAnswer | undefined)[];
  other?: readonly (OtherAnswer | undefined)[];
}

export class ReplayDiffer {
  readonly #o: DiffSides;
  readonly #pool: ExactHttpPool | undefined;
  readonly #path: string;
  readonly #pending = new Map<PlannedRequest, Pending>();
  readonly #byMethod = new Map<string, DiffCounts>();
  readonly #examples: ReplayDiff['examples'] = [];
  #head: bigint | undefined;
  #inFlight = new Set<Promise<void>>();

  constructor(o: DiffSides, head: number | null) {
    this.#o = o;
    const endpoint = o.endpoint === null ? undefined : new URL(o.endpoint);
    this.#pool = endpoint === undefined ? undefined : new ExactHttpPool(endpoint.origin, { maxIdle: 64 });
    this.#path = endpoint === undefined ? '/' : `${endpoint.pathname}${endpoint.search}` || '/';
    this.#head = head === null ? undefined : BigInt(head);
  }

  /**
   * Sends the request to the second node now (or takes the answer the capture recorded for it); its answers wait
   * for the first node's (`answered`).
   */
  send(request: PlannedRequest, params: readonly (JsonValue | undefined)[], recorded: Uint8Array | undefined): void {
    const pending: Pending = { params };
    this.#pending.set(request, pending);
    const pool = this.#pool;
    if (pool === undefined) {
      pending.other = answersFor(request, recorded);
      return;
    }
    // Sent once the engine has written the request to the first node (a microtask after it takes it from the
    // source): the diff never delays the send it measures.
    const sent = Promise.resolve()
      .then(() => pool.send({ method: 'POST', path: this.#path, headers: { 'content-type': 'application/json' }, body: this.#o.renames ? this.#renamed(request.body) : request.body, timeoutMs: this.#o.timeoutMs, maxBodyBytes: 64 * 1024 * 1024 }))
      .then(
        // Whatever the HTTP status (a profile may give errors another one): the JSON-RPC answers in the body count.
        (answer) => (pending.other = answersFor(request, answer.body)),
        (error: unknown) => {
          if (!(error instanceof HttpExchangeFailure)) throw error;
          pending.other = request.calls.map(() => undefined);
        },
      )
      .then(() => this.#settle(request, pending));
    this.#inFlight.add(sent);
    void sent.finally(() => this.#inFlight.delete(sent));
  }

  /** The first node's outcomes of a request sent (absent: abandoned at the end of the run). */
  answered(request: PlannedRequest, outcomes: readonly CallResult[] | undefined): void {
    const pending = this.#pending.get(request);
    if (pending === undefined) return;
    pending.own = request.calls.map((_, i) => callAnswer(outcomes?.[i]));
    this.#settle(request, pending);
  }

  /** A head the replay saw (its own chain_blockNumber calls): blocks near it are not compared. */
  head(height: bigint): void {
    if (this.#head === undefined || height > this.#head) this.#head = height;
  }

  /** Waits for the second node's answers still under way (at most their timeout), then closes its connections. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
    this.#pool?.close();
  }

  /** What was compared, by method, with the first mismatches. */
  summary(): ReplayDiff {
    // A request whose second answer never settled (the run ended first) is not compared.
    for (const request of this.#pending.keys()) for (const call of request.calls) this.#count(this.#o.specName(call.method)).notCompared++;
    this.#pending.clear();
    return diffOf(this.#o.url, [...this.#byMethod.values()], this.#examples);
  }

  #count(method: string): DiffCounts {
    let c = this.#byMethod.get(method);
    if (c === undefined) this.#byMethod.set(method, (c = { method, compared: 0, mismatches: 0, setAside: 0, notCompared: 0 }));
    return c;
  }

  #settle(request: PlannedRequest, pending: Pending): void {
    const { own, other } = pending;
    if (own === undefined || other === undefined) return;
    this.#pending.delete(request);
    request.calls.forEach((call, i) => {
      const method = this.#o.specName(call.method);
      const count = this.#count(method);
      const a = own[i];
      const b = other[i];
      if (a === undefined || b === undefined) {
        count.notCompared++;
        return;
      }
      if (method === 'chain_blockNumber') for (const x of [a, b]) if ('result' in x) this.#seen(x.result);
      const agreement = agreementFor(method, pending.params[i], this.#head);
      if (agreement === 'none') {
        count.setAside++;
        return;
      }
      count.compared++;
      // The other side answered, and not this call: a difference whatever the method (an outside tester's second node,
      // answering every call with an id-null error or with string ids, was "not compared" and the diff passed).
      const why =
        'unanswered' in b
          ? `${this.#pool === undefined ? 'the recorded answer holds' : 'the second node answered with'} no JSON-RPC answer to this call (${b.unanswered})`
          : disagreement(agreement, method, { profile: this.#o.profile, answer: a }, { profile: this.#o.otherProfile, answer: b });
      if (why === undefined) return;
      count.mismatches++;
      if (this.#examples.length < DIFF_EXAMPLES) this.#examples.push({ method, request: clip(request.body.toString('utf8')), answer: clip(show(a)), other: clip('unanswered' in b ? b.text : show(b)), why });
    });
  }

  #seen(result: JsonValue): void {
    const h = asInteger(result);
    if (h !== undefined) this.head(h);
  }

  /** The body with each call's method under the second node's name. */
  #renamed(body: Buffer): Buffer {
    const value = parseJson(body.toString('utf8'));
    for (const o of Array.isArray(value) ? value : [value]) if (isObject(o) && typeof o.method === 'string') o.method = this.#o.otherWire(this.#o.specName(o.method));
    return Buffer.from(stringifyJson(value));
  }
}

/** A call's outcome at the first node as an answer; undefined when it got none. */
function callAnswer(outcome: CallResult | undefined): CallAnswer | undefined {
  if (outcome === undefined || outcome.kind === 'unanswered') return undefined;
  return outcome.kind === 'result' ? { result: outcome.result } : { error: outcome.code };
}

/**
 * Each call's answer in the second node's HTTP body (or the recorded one; none: undefined), read as the engine reads
 * the first node's (load/metrics/classifyExchange): matched by id exactly, an integer beyond 2^53 too, a batch's
 * elements in any order, an error of id null to a single call or a whole batch its answer. Whatever the HTTP status:
 * a profile may give errors another one, and the JSON-RPC answers in the body count.
 */
function answersFor(request: PlannedRequest, body: Uint8Array | undefined): (OtherAnswer | undefined)[] {
  if (body === undefined) return request.calls.map(() => undefined);
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.length);
  const { calls } = classifyExchange(request, { kind: 'answer', status: 200, body: bytes });
  let text: string | undefined;
  return calls.map((c): OtherAnswer => {
    if (c.kind === 'result') return { result: c.result };
    if (c.kind === 'error') return { error: c.code };
    text ??= bytes.toString('utf8');
    return { unanswered: c.reason, text };
  });
}

const show = (a: CallAnswer): string => ('result' in a ? stringifyJson({ result: a.result }) : stringifyJson({ error: { code: a.error } }));
const clip = (text: string): string => (text.length > EXAMPLE_CHARS ? `${text.slice(0, EXAMPLE_CHARS)}…` : text);
