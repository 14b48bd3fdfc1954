/**
 * One node under fuzzing: its client, whether it still answers, the median time of its answers (the slow
 * oracle's bound follows it), and the liveness probe: a known-good call (chain_blockNumber, under the
 * profile's name) that must be answered after every case that could hurt and every `livenessEvery` cases.
 * A node that fails the probe twice, a second apart, has stopped: the run sends it nothing more.
 */
import { excerpt } from '../../core/excerpt.js';
import type { RpcClient } from '../../core/client/index.js';
import { wireMethod, type Profile } from '../../profile/Profile.js';
import type { FuzzAnswer, TargetSummary } from '../model.js';
import { slowBoundMs } from '../oracles/slowBound.js';
import { CaseSender, fuzzClient, sendCase } from './sendCase.js';

const encoder = new TextEncoder();
/** Answer times kept for the median (a ring). */
const TIMES_KEPT = 1_024;

export interface LivenessOptions {
  /** Each probe's time bound. */
  timeoutMs: number;
  /** Between the first failed probe and the second. */
  retryAfterMs: number;
  /** Tries more while the tries time out (the node took the call but is still busy); default none. */
  busyTries?: number;
}

/** The liveness probe after a case (a run's, and a replay's): each try's bound, and the second try a second after the first. */
export const LIVENESS_PROBE: LivenessOptions = { timeoutMs: 5_000, retryAfterMs: 1_000, busyTries: 3 };

/**
 * Who may send to a node at once. Cases, probes and most re-checks share it; a re-check of a `slow` or
 * `no-answer` finding (and each of its shrink candidates) has it alone: nothing else of the fuzzer's is in flight
 * to the node then, so a single-threaded node's queue cannot make an innocent request look slow, nor the
 * culprit's own re-sends block the cases around them.
 */
export class NodeGate {
  #shared = 0;
  #alone = false;
  #waitingAlone = 0;
  #wakers: (() => void)[] = [];

  async shared<T>(fn: () => Promise<T>): Promise<T> {
    while (this.#alone || this.#waitingAlone > 0) await this.#signal();
    this.#shared++;
    try {
      return await fn();
    } finally {
      this.#shared--;
      this.#wake();
    }
  }

  async alone<T>(fn: () => Promise<T>): Promise<T> {
    this.#waitingAlone++;
    try {
      while (this.#alone || this.#shared > 0) await this.#signal();
      this.#alone = true;
    } finally {
      this.#waitingAlone--;
    }
    try {
      return await fn();
    } finally {
      this.#alone = false;
      this.#wake();
    }
  }

  #signal(): Promise<void> {
    return new Promise((resolve) => this.#wakers.push(resolve));
  }

  #wake(): void {
    const wakers = this.#wakers;
    this.#wakers = [];
    for (const wake of wakers) wake();
  }
}

export class FuzzTarget {
  readonly url: string;
  readonly client: RpcClient;
  /** Cases and liveness probes go here (exact bytes over kept connections); `client` reads the chain. */
  readonly sender: CaseSender;
  /** Whether the fuzzer's requests to this node may overlap (NodeGate). */
  readonly gate = new NodeGate();
  state: TargetSummary['state'] = 'answering';
  cases = 0;
  findings = 0;
  livenessChecks = 0;
  /** How the last known-good call failed (its failure code: REFUSED, TIMEOUT, ...); undefined when it got an HTTP answer. */
  lastProbeFailure: string | undefined;
  /** What the last known-good call got instead of a JSON-RPC answer, when it got an HTTP answer ("HTTP 500, text/html: <html>..."). */
  lastProbeAnswer: string | undefined;
  readonly #profile: Profile;
  /** The last TIMES_KEPT answer times (a ring; typed, so that the median's sort is numeric and allocation-light). */
  readonly #times = new Float64Array(TIMES_KEPT);
  #kept = 0;
  #next = 0;
  #answers = 0;
  #median = 0;
  #probeId = 0;

  constructor(url: string, profile: Profile, connections: number) {
    this.url = url;
    this.#profile = profile;
    this.client = fuzzClient(url, profile, 2);
    this.sender = new CaseSender(this.client.url, connections);
  }

  get answering(): boolean {
    return this.state === 'answering';
  }

  /** Notes an answer's time (answers only: a failure's time says nothing of the node's speed). */
  answered(answer: FuzzAnswer): void {
    if (answer.failure !== undefined) return;
    this.#times[this.#next] = answer.ms;
    this.#next = (this.#next + 1) % TIMES_KEPT;
    this.#kept = Math.min(TIMES_KEPT, this.#kept + 1);
    // Re-sorting every 64 answers is enough for a bound that moves slowly.
    if (this.#answers++ % 64 === 0) this.#median = median(this.#times.subarray(0, this.#kept));
  }

  get medianMs(): number {
    return this.#median;
  }

  slowBound(floorMs?: number): number {
    return slowBoundMs(this.#median, floorMs === undefined ? {} : { floorMs });
  }

  /**
   * Whether the node answers a known-good call: twice tried, `retryAfterMs` apart, before saying no; and a node
   * that accepts the call but is still busy (its tries time out: a single-threaded node working through an
   * expensive request sent earlier) is given `busyTries` more tries before it is said to have stopped. A node
   * that is gone refuses or resets the connection at once.
   */
  async alive(options: LivenessOptions): Promise<boolean> {
    this.livenessChecks++;
    const busyTries = options.busyTries ?? 0;
    for (let attempt = 0; attempt < 2 + busyTries; attempt++) {
      if (attempt === 1) await new Promise((r) => setTimeout(r, options.retryAfterMs));
      const probe = await this.#probe(options.timeoutMs);
      if (probe.ms !== undefined) return true;
      if (attempt >= 1 && !probe.timedOut) return false;
    }
    return false;
  }

  /**
   * Waits until the node answers a known-good call (a node still at work on a request the fuzzer gave up on
   * answers it once that work is done), `tries` probes at most while they time out, none started past `until`.
   * Whether the node answered one (false: still busy when the tries ran out, or gone).
   */
  async idle(timeoutMs: number, until = Infinity, tries = 4): Promise<boolean> {
    for (let i = 0; i < tries && performance.now() < until; i++) {
      const probe = await this.#probe(timeoutMs);
      if (probe.ms !== undefined) return true;
      if (!probe.timedOut) return false;
    }
    return false;
  }

  /**
   * Waits for a node that refused a connection to answer a known-good call again (a supervisor restarting it),
   * probing every `everyMs` until `until` (performance.now() time). Whether it came back.
   */
  async back(until: number, everyMs = 200): Promise<boolean> {
    while (performance.now() < until) {
      if ((await this.#probe(Math.max(1, Math.min(2_000, until - performance.now())))).ms !== undefined) return true;
      await new Promise((r) => setTimeout(r, everyMs));
    }
    return false;
  }

  /** The time of one known-good call (chain_blockNumber), or undefined when it got no JSON-RPC answer. */
  async knownGoodMs(timeoutMs: number): Promise<number | undefined> {
    return (await this.#probe(timeoutMs)).ms;
  }

  async #probe(timeoutMs: number): Promise<{ ms?: number; timedOut: boolean }> {
    // The spec's own form of a call (an integer id): a known-good call must be one, else a node that mishandles
    // string ids (a bug the cases are there to find) would look dead, or not there at all.
    const body = `{"jsonrpc":"2.0","method":${JSON.stringify(wireMethod(this.#profile, 'chain_blockNumber'))},"params":[],"id":${++this.#probeId}}`;
    const answer = await sendCase(this.sender, { method: 'POST', contentType: 'application/json', body: encoder.encode(body) }, timeoutMs);
    this.lastProbeFailure = answer.failure?.code;
    const ok = answer.failure === undefined && answer.status !== undefined && answersCall(answer.status, answer.text ?? '', this.#probeId);
    this.lastProbeAnswer = ok || answer.status === undefined ? undefined : notAnAnswer(answer.status, answer.headers?.['content-type'], answer.text ?? '');
    return ok ? { ms: answer.ms, timedOut: false } : { timedOut: answer.failure?.code === 'TIMEOUT' };
  }

  async close(): Promise<void> {
    this.sender.close();
    await this.client.close().catch(() => undefined);
  }

  summary(): TargetSummary {
    return { url: this.url, cases: this.cases, findings: this.findings, state: this.state, medianMs: round(this.#median), slowBoundMs: round(this.slowBound()), livenessChecks: this.livenessChecks };
  }
}

/**
 * Whether an answer to the known-good call answers it as a call, as the conformance suite's reachability reads one
 * (suites/runner/findUnreachable.ts): a result or an error, with HTTP 2xx or else the call's own id. An error page in
 * JSON (a 404 with id null, for a path the server does not serve) is not one: fuzzing it filed nine false findings
 * for an outside tester who gave a wrong --rpc-path.
 */
function answersCall(status: number, text: string, id: number): boolean {
  if (!/"(result|error)"\s*:/.test(text)) return false;
  if (status >= 200 && status < 300) return true;
  if (status >= 500) return false;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && (value as { id?: unknown }).id === id;
  } catch {
    return false;
  }
}

/** What came back to a known-good call instead of a JSON-RPC answer, in a line: "HTTP 500, text/html: <html>...". */
function notAnAnswer(status: number, type: string | undefined, body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  return `HTTP ${status}${type === undefined ? '' : `, ${type}`}: ${text === '' ? '(empty body)' : excerpt(text, 80)}`;
}

function median(values: Float64Array): number {
  if (values.length === 0) return 0;
  const sorted = values.slice().sort();
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const round = (ms: number): number => Math.round(ms * 100) / 100;
