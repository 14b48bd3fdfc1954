/**
 * One node under fuzzing: its client, whether it still answers, the median time of its answers (the slow
 * oracle's bound follows it), and the liveness probe: a known-good call (chain_blockNumber, under the
 * profile's name) that must be answered after every case that could hurt and every `livenessEvery` cases.
 * A node that fails the probe twice, a second apart, has stopped: the run sends it nothing more.
 */
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
}

/** The liveness probe after a case (a run's, and a replay's): each try's bound, and the second try a second after the first. */
export const LIVENESS_PROBE: LivenessOptions = { timeoutMs: 5_000, retryAfterMs: 1_000 };

export class FuzzTarget {
  readonly url: string;
  readonly client: RpcClient;
  /** Cases and liveness probes go here (exact bytes over kept connections); `client` reads the chain. */
  readonly sender: CaseSender;
  state: TargetSummary['state'] = 'answering';
  cases = 0;
  findings = 0;
  livenessChecks = 0;
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

  /** Whether the node answers a known-good call (twice tried, `retryAfterMs` apart, before saying no). */
  async alive(options: LivenessOptions): Promise<boolean> {
    this.livenessChecks++;
    for (let attempt = 0; attempt < 2; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, options.retryAfterMs));
      if ((await this.knownGoodMs(options.timeoutMs)) !== undefined) return true;
    }
    return false;
  }

  /** The time of one known-good call (chain_blockNumber), or undefined when it got no JSON-RPC answer. */
  async knownGoodMs(timeoutMs: number): Promise<number | undefined> {
    const body = `{"jsonrpc":"2.0","method":${JSON.stringify(wireMethod(this.#profile, 'chain_blockNumber'))},"params":[],"id":"liveness-${++this.#probeId}"}`;
    const answer = await sendCase(this.sender, { method: 'POST', contentType: 'application/json', body: encoder.encode(body) }, timeoutMs);
    return answer.failure === undefined && answer.status !== undefined && answer.status < 500 && /"(result|error)"\s*:/.test(answer.text ?? '') ? answer.ms : undefined;
  }

  async close(): Promise<void> {
    this.sender.close();
    await this.client.close().catch(() => undefined);
  }

  summary(): TargetSummary {
    return { url: this.url, cases: this.cases, findings: this.findings, state: this.state, medianMs: round(this.#median), slowBoundMs: round(this.slowBound()), livenessChecks: this.livenessChecks };
  }
}

function median(values: Float64Array): number {
  if (values.length === 0) return 0;
  const sorted = values.slice().sort();
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const round = (ms: number): number => Math.round(ms * 100) / 100;
