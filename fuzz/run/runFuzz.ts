/**
 * A fuzz run: cases made one by one from the seed (fuzz/cases), each sent to every node still answering,
 * judged by the oracles (fuzz/oracles), filed by signature (FindingBook: re-checked, shrunk), the nodes'
 * liveness probed after every case that could hurt, after every case left unanswered and every
 * `livenessEvery` cases; with several nodes, valid cases compared across them (differential.ts).
 * Bounded: a case budget and a time budget (whichever comes first), `concurrency` cases in flight, at most
 * `maxRate` cases a second, the given URLs only.
 */
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
import type { Profile } from '../../profile/Profile.js';
import type { ProfileSource } from '../../profile/loadProfile.js';
import type { CaseContext } from '../cases/CaseContext.js';
import { CASE_FAMILIES, type CaseFamily, type Finding, type FuzzAnswer, type FuzzCase, type FuzzRun, type ToolError, type Violation } from '../model.js';
import { startCaseSource, type CaseSource } from './caseSource.js';
import { readChain, type ChainView } from './chainContext.js';
import { CostSeeker } from './CostSeeker.js';
import { compareAnswers } from './differential.js';
import { FindingBook } from './FindingBook.js';
import { FuzzTarget, LIVENESS_PROBE } from './FuzzTarget.js';
import { sendCase } from './sendCase.js';
import { notDelivered } from '../oracles/judge.js';
import { SHRINK_DEFAULTS, type ShrinkOptions } from './shrink.js';

export interface FuzzOptions {
  urls: readonly string[];
  profile: Profile;
  /** Where a second thread loads the profile's codec again (the command line's --profile): see `threads`. */
  profileSource?: ProfileSource;
  /** The profile's file, as an absolute path, when it came from one: the report keeps it for `--replay` (FuzzRun options.profileFile). */
  profileFile?: string;
  /** --rpc-path and --method-prefix as given over the profile's: the report keeps them for `--replay` (FuzzRun options). */
  overrides?: { rpcPath?: string; methodPrefix?: string };
  /** Profile keys `--profile detect` did not observe, not compared in this run (fuzz/unobserved.ts): the report says so (FuzzRun options.unobserved). */
  unobserved?: readonly string[];
  seed: number;
  /** The case budget; null: only the time budget. */
  cases: number | null;
  /** The time budget, ms; null: only the case budget. */
  durationMs: number | null;
  /** Methods (spec names) and families to fuzz; empty: all. */
  only: readonly string[];
  /** Cases in flight at once. */
  concurrency: number;
  /** Cases a second at most (so a fuzz run never turns into a load test). */
  maxRate: number;
  /** Request bodies stay under this many bytes. */
  maxBodyBytes: number;
  /** A case unanswered after this long is a 'no-answer'. */
  timeoutMs: number;
  /** A liveness probe at least every this many cases per node. */
  livenessEvery: number;
  /** Stop sending once this many findings are filed (their re-checks and shrinking still finish); undefined: no limit. */
  maxFindings?: number;
  /**
   * 2: cases made and answers judged on a second thread (caseSource.ts), given `profileSource`, and without
   * `seek: 'slow'` (it grows cases on this one); default 1.
   */
  threads?: 1 | 2;
  /** 'slow': steer generation toward the most expensive inputs per request byte and report them (CostSeeker.ts). */
  seek?: 'none' | 'slow';
  /** The slow oracle's floor (default 1,000 ms; the bound is max(floor, 50x the median answer)). */
  slowFloorMs?: number;
  shrink?: ShrinkOptions;
  version: string;
  signal?: AbortSignal;
  onProgress?: (p: FuzzProgress) => void;
  onFinding?: (f: Finding) => void;
}

export interface FuzzProgress {
  atMs: number;
  cases: number;
  casesPerSecond: number;
  findings: number;
  liveness: number;
  targets: { url: string; state: FuzzTarget['state'] }[];
}

/** No node could be reached at the start of a run (exit 3). */
export class FuzzUnreachableError extends ChainrpcError {
  readonly kind = 'target';
}

/** Answers waiting for their verdict from the case thread, at most (then the run waits for the judge). */
const JUDGING_AT_MOST = 64;

/** A node stopped answering: how long the second probe waits after the first (the replay probes alike). */
const LIVENESS = LIVENESS_PROBE;

export async function runFuzz(o: FuzzOptions): Promise<FuzzRun> {
  const startedAt = new Date();
  const t0 = performance.now();
  // Connections beyond the cases in flight: liveness probes and re-checks never queue behind a slow case (its wait would count as the node's).
  const targets = o.urls.map((url) => new FuzzTarget(url, o.profile, 2 * o.concurrency + 4));
  try {
    await reachTargets(targets);
    const run = new FuzzLoop(o, targets, await readChain(targets[0]!.client, o.profile), t0);
    let stop: FuzzRun['stop'];
    try {
      stop = await run.loop();
      await run.book.settled();
    } finally {
      await run.cases.close();
    }
    if (run.cases.problem !== undefined) run.toolErrors.push({ message: `${run.cases.problem}; the run went on in one thread`, atMs: Math.round(performance.now() - t0) });
    return {
      tool: { name: 'chainrpc', version: o.version },
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - t0),
      seed: o.seed,
      options: { cases: o.cases, durationMs: o.durationMs, only: [...o.only], maxRate: o.maxRate, maxBodyBytes: o.maxBodyBytes, seek: o.seek ?? 'none', profile: o.profile.name, ...(o.profileFile === undefined ? {} : { profileFile: o.profileFile }), ...o.overrides, ...(o.maxFindings === undefined ? {} : { maxFindings: o.maxFindings }), ...(o.unobserved === undefined || o.unobserved.length === 0 ? {} : { unobserved: [...o.unobserved] }) },
      targets: targets.map((t) => t.summary()),
      cases: run.sent,
      byFamily: run.byFamily,
      findings: [...run.book.findings],
      toolErrors: run.toolErrors,
      timeline: run.timeline,
      ...(run.seeker === undefined ? {} : { costly: run.seeker.costly((url) => targets.find((t) => t.client.url === url)?.medianMs ?? 0) }),
      stop,
    };
  } finally {
    await Promise.all(targets.map((t) => t.close()));
  }
}

/** Every node must answer a known-good call before the run; none answering is exit 3, some is said per node. */
async function reachTargets(targets: FuzzTarget[]): Promise<void> {
  const alive = await Promise.all(targets.map((t) => t.alive({ timeoutMs: LIVENESS.timeoutMs, retryAfterMs: 200 })));
  targets.forEach((t, i) => {
    if (alive[i] !== true) t.state = 'unreachable';
  });
  if (!alive.some(Boolean)) throw new FuzzUnreachableError(unreachableMessage(targets));
  // The first target is the one the chain is read from.
  targets.sort((a, b) => Number(b.answering) - Number(a.answering));
}

/** Why no node could be fuzzed: nothing listening (every connection refused), or something answering but not the call. */
export function unreachableMessage(targets: readonly (Pick<FuzzTarget, 'client' | 'lastProbeFailure'> & { lastProbeAnswer?: string | undefined })[]): string {
  const where = targets.map((t) => t.client.url).join(', ');
  if (targets.every((t) => t.lastProbeFailure === 'REFUSED')) return `no node answered at ${where}: the connection was refused (nothing listens there); is the node running, at that address and port?`;
  // Something answers HTTP there, but not the call: say what it sent (an outside tester's node answered HTML 500 pages).
  const got = targets.flatMap((t) => (t.lastProbeAnswer === undefined ? [] : [`${t.client.url} answered ${t.lastProbeAnswer}`]));
  if (got.length > 0) return `no node answered a JSON-RPC call (chain_blockNumber) at ${where}: ${got.join('; ')}; is its endpoint path right (--rpc-path), and does the node serve chain_blockNumber?`;
  return `no node answered a JSON-RPC call (chain_blockNumber) at ${where}; is the node running there, and is its endpoint path right (--rpc-path)?`;
}

class FuzzLoop {
  readonly book: FindingBook;
  readonly toolErrors: ToolError[] = [];
  readonly timeline: FuzzRun['timeline'] = [];
  readonly byFamily = Object.fromEntries(CASE_FAMILIES.map((f) => [f, 0])) as Record<CaseFamily, number>;
  sent = 0;
  readonly seeker: CostSeeker | undefined;
  /** Where cases are made and answers judged (this thread or a second one). */
  readonly cases: CaseSource;
  readonly #o: FuzzOptions;
  readonly #targets: FuzzTarget[];
  readonly #t0: number;
  #chain: ChainView;
  readonly #inFlight = new Set<Promise<void>>();
  /** Verdicts still coming from the case thread, filed when they come. */
  readonly #judging = new Set<Promise<void>>();
  /** Cases per node since its last good liveness probe that got no answer: who may have killed it. */
  readonly #suspects = new Map<FuzzTarget, Suspect[]>();
  /** The cases each node was sent last (RECENT_KEPT), with when: candidates too for a node that died a while after one. */
  readonly #recent = new Map<FuzzTarget, { s: Suspect; at: number }[]>();

  constructor(o: FuzzOptions, targets: FuzzTarget[], chain: ChainView, t0: number) {
    this.#o = o;
    this.#targets = targets;
    this.#chain = chain;
    this.#t0 = t0;
    this.seeker = o.seek === 'slow' ? new CostSeeker(o.maxBodyBytes) : undefined;
    // Growing a costly case makes a request the case thread never saw: seeking stays on this thread.
    this.cases = startCaseSource(o.seed, this.#context(), { profile: this.seeker === undefined && o.threads === 2 ? o.profileSource : undefined, limit: o.cases });
    this.book = new FindingBook({
      profile: o.profile,
      timeoutMs: o.timeoutMs,
      shrink: o.shrink ?? SHRINK_DEFAULTS,
      // A time budget is the run's: shrinking under way ends with it (a re-check or two past it at most).
      ...(o.durationMs === null ? {} : { shrinkUntil: t0 + o.durationMs }),
      ...(o.slowFloorMs === undefined ? {} : { slowFloorMs: o.slowFloorMs }),
      ...(o.onFinding === undefined ? {} : { onFinding: o.onFinding }),
      // A slow or unanswered case's re-check is sent alone: its time is the case's own, weighed as such.
      ...(this.seeker === undefined ? {} : { onAlone: (c: FuzzCase, answer: FuzzAnswer, endpoint: string) => this.seeker?.weigh(c, answer, endpoint) }),
    });
  }

  #context(): CaseContext {
    const p = this.#o.profile;
    return { profile: p, chain: this.#chain, only: this.#o.only, maxBodyBytes: this.#o.maxBodyBytes, ...(p.maxBatch === undefined ? {} : { maxBatch: p.maxBatch }) };
  }

  /** Sends cases until a budget runs out, every node has stopped, or the signal aborts; says which. */
  async loop(): Promise<FuzzRun['stop']> {
    const o = this.#o;
    let lastTick = this.#t0;
    let sentAtTick = 0;
    let lastChainRead = this.#t0;
    for (let index = 0; ; index++) {
      const now = performance.now();
      if (o.signal?.aborted === true) return this.#drain('interrupted');
      if (o.cases !== null && index >= o.cases) return this.#drain('cases');
      if (o.durationMs !== null && now - this.#t0 >= o.durationMs) return this.#drain('duration');
      if (!this.#targets.some((t) => t.answering)) return this.#drain('all-targets-stopped');
      if (o.maxFindings !== undefined && this.book.findings.length >= o.maxFindings) return this.#drain('findings');
      if (now - lastTick >= 1_000) {
        this.#tick(now, this.sent - sentAtTick, now - lastTick);
        sentAtTick = this.sent;
        lastTick = now;
      }
      if (now - lastChainRead >= 2_000) {
        lastChainRead = now;
        const reader = this.#targets.find((t) => t.answering);
        if (reader !== undefined) this.#chain = await readChain(reader.client, o.profile, this.#chain);
        this.cases.chain(this.#context());
      }
      await this.#slot(index);
      // A case made while it waited for its slot may find every node stopped (a case in flight killed the last): not
      // made, so the run's count is of cases sent to some node.
      if (!this.#targets.some((t) => t.answering)) return this.#drain('all-targets-stopped');
      const fresh = await this.cases.next();
      const c = this.seeker?.grown(index, fresh) ?? fresh;
      this.byFamily[c.family]++;
      this.sent++;
      const task = this.#runCase(c).catch((err: unknown) => void this.toolErrors.push({ message: `case ${c.index} (${c.rule}): ${err instanceof Error ? err.message : String(err)}`, atMs: Math.round(performance.now() - this.#t0) }));
      const tracked = task.finally(() => this.#inFlight.delete(tracked));
      this.#inFlight.add(tracked);
    }
  }

  /** Waits for a free slot (concurrency) and for the case's turn under the rate cap. */
  async #slot(index: number): Promise<void> {
    while (this.#inFlight.size >= this.#o.concurrency) await Promise.race(this.#inFlight);
    while (this.#judging.size >= JUDGING_AT_MOST) await Promise.race(this.#judging);
    const due = this.#t0 + (index / this.#o.maxRate) * 1_000;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  }

  async #drain(stop: FuzzRun['stop']): Promise<FuzzRun['stop']> {
    while (this.#inFlight.size > 0 || this.#judging.size > 0) await Promise.all([...this.#inFlight, ...this.#judging]);
    const now = performance.now();
    // The last status line gives the whole run's rate (its last second may have held no case at all).
    this.#tick(now, this.sent, now - this.#t0, false);
    return stop;
  }

  #tick(now: number, cases: number, ms: number, onTimeline = true): void {
    const atMs = Math.round(now - this.#t0);
    const perSecond = ms > 0 ? (cases * 1_000) / ms : 0;
    if (ms > 0 && onTimeline) this.timeline.push({ atMs, cases: Math.round(perSecond), findings: this.book.findings.length });
    this.#o.onProgress?.({
      atMs,
      cases: this.sent,
      casesPerSecond: Math.round(perSecond),
      findings: this.book.findings.length,
      liveness: this.#targets.reduce((n, t) => n + t.livenessChecks, 0),
      targets: this.#targets.map((t) => ({ url: t.url, state: t.state })),
    });
  }

  /** One case to every node still answering; then the comparison across them, for a valid case. */
  async #runCase(c: FuzzCase): Promise<void> {
    const live = this.#targets.filter((t) => t.answering);
    const sent = await Promise.all(live.map((t) => this.#against(t, c)));
    const judged = sent.flatMap((s) => (s.judged === undefined ? [] : [s.judged]));
    if (judged.length === 0) this.cases.done(c);
    else this.#later(c, Promise.all(judged).finally(() => this.cases.done(c)));
    const answers = sent.map((s) => s.answer);
    if (c.family !== 'valid' || live.length < 2) return;
    const pairs = live.map((t, i) => ({ target: t, answer: answers[i] })).filter((p): p is { target: FuzzTarget; answer: FuzzAnswer } => p.answer !== undefined && p.target.answering);
    const [first, ...rest] = pairs;
    if (first === undefined) return;
    for (const other of rest) {
      const v = compareAnswers(c, first.answer, other.answer, this.#o.profile, this.#chain);
      if (v !== undefined) this.book.file(other.target, c, other.answer, v, other.target.client.url, [{ url: first.target.url, answer: first.answer }]);
    }
  }

  /** A verdict from the case thread, filed when it comes; the run waits for it only at its end (and past JUDGING_AT_MOST). */
  #later(c: FuzzCase, judged: Promise<unknown>): void {
    const tracked: Promise<void> = judged
      .then(() => undefined, (err: unknown) => void this.toolErrors.push({ message: `case ${c.index} (${c.rule}): ${err instanceof Error ? err.message : String(err)}`, atMs: Math.round(performance.now() - this.#t0) }))
      .finally(() => this.#judging.delete(tracked));
    this.#judging.add(tracked);
  }

  /**
   * One case to one node: judged, its violations filed, the node's liveness probed when due. `answer`
   * undefined: the node died. `judged`: the verdict still coming from the case thread (filed when it comes).
   */
  async #against(t: FuzzTarget, c: FuzzCase): Promise<{ answer: FuzzAnswer | undefined; judged?: Promise<void> }> {
    let sent = 0;
    const answer = await t.gate.shared(() => {
      // Its place in what this node was sent: the order the node received (and so processed) its requests in.
      sent = ++t.cases;
      return sendCase(t.sender, c.http, this.#o.timeoutMs, this.#o.profile.maxBodyBytes);
    });
    t.answered(answer);
    if (this.seeker?.candidate(c, answer) === true) await this.#weighAlone(t, c, this.seeker);
    const verdict = this.cases.judge(c, answer, t.slowBound(this.#o.slowFloorMs));
    noteSuspect(this.#suspects.get(t) ?? this.#suspects.set(t, []).get(t)!, { c, answer, sent });
    const recent = this.#recent.get(t) ?? this.#recent.set(t, []).get(t)!;
    recent.push({ s: { c, answer, sent }, at: performance.now() });
    if (recent.length > RECENT_KEPT) recent.shift();
    // One case at a time (--concurrency 1): a probe after every case, so that a node that dies just after
    // answering is found dead before the next case, and the request named is the one it died of.
    if (answer.failure !== undefined || c.risky || t.cases % this.#o.livenessEvery === 0 || this.#o.concurrency === 1) {
      if (!t.answering) return { answer: undefined };
      // Past the time budget, a node still busy is not waited for beyond the probe's two tries.
      const pastBudget = this.#o.durationMs !== null && performance.now() - this.#t0 >= this.#o.durationMs;
      if (!(await t.gate.shared(() => t.alive(pastBudget ? { ...LIVENESS, busyTries: 0 } : LIVENESS)))) {
        this.#died(t, { c, answer, sent });
        return { answer: undefined };
      }
      this.#suspects.delete(t);
    }
    // A node that died meanwhile: its death is the finding, not what it answered on the way.
    if (!t.answering) return { answer: undefined };
    const file = (violations: Violation[]): void => {
      const whole = violations.length === 0 ? c : this.cases.whole(c);
      for (const v of violations) this.book.file(t, whole, answer, v, t.client.url);
    };
    if (Array.isArray(verdict)) {
      file(verdict);
      return { answer };
    }
    return { answer, judged: verdict.then(file) };
  }

  /**
   * `--seek slow`: a case whose answer time may rank it among the most costly is sent again with nothing else of the
   * fuzzer's in flight to the node (NodeGate), once the node is done with what it was given before (idle), and
   * weighed by that time: its own cost, not the queue it waited in on a single-threaded node. Not past the time budget.
   * A case left unanswered is not sent again here: its no-answer re-check is sent alone already (FindingBook, onAlone),
   * and a second copy of a request that holds a single-threaded node for seconds would hold it twice as long.
   */
  async #weighAlone(t: FuzzTarget, c: FuzzCase, seeker: CostSeeker): Promise<void> {
    const o = this.#o;
    const until = o.durationMs === null ? Infinity : this.#t0 + o.durationMs;
    if (performance.now() >= until || !t.answering) return;
    const alone = await t.gate.alone(async () => {
      // A node still at work on what it was given before (a request given up on) cannot time this one alone: not weighed.
      if (!(await t.idle(o.timeoutMs, until))) return undefined;
      const answer = await sendCase(t.sender, c.http, o.timeoutMs, o.profile.maxBodyBytes);
      // Given up on, the request may still hold the node: handed back to the run once it answers again.
      if (answer.failure?.code === 'TIMEOUT') await t.idle(o.timeoutMs, until);
      return answer;
    });
    if (alone !== undefined) seeker.weigh(c, alone, t.client.url);
  }

  /**
   * The node stopped answering: its liveness finding names the request that killed it (culpritOf), the case
   * after which the probe failed when none was left unanswered.
   */
  #died(t: FuzzTarget, last: Suspect): void {
    if (!t.answering) return;
    t.state = 'stopped';
    const { culprit, others } = culpritOf(this.#suspects.get(t) ?? [], last);
    // A node can die a while after the request that killed it (a timer, a queue worked through later): the cases sent
    // in the RECENT_MS before are candidates too, the latest first, though a probe passed after them (an outside
    // tester's node died 400 ms after its killer, at --concurrency 1 the named case was 100 later and --replay had none).
    const named = new Set([culprit, ...others].map((s) => s.c.index));
    const since = performance.now() - RECENT_MS;
    const earlier = (this.#recent.get(t) ?? []).filter((r) => r.at >= since && !named.has(r.s.c.index)).map((r) => r.s).reverse();
    const candidates = [...others.slice(0, 8), ...earlier].map((s) => ({ c: this.cases.whole(s.c), answer: s.answer }));
    this.book.file(t, this.cases.whole(culprit.c), culprit.answer, { oracle: 'liveness', message: diedMessage(culprit, others, earlier), source: 'liveness: a node must survive any request a client can send' }, t.client.url, undefined, candidates);
  }
}

/** Cases kept per node with their times, and how far back before a death they are candidates. */
const RECENT_KEPT = 512;
const RECENT_MS = 2_000;

/** A case a node was sent since its last good liveness probe: one that may have killed it. */
export interface Suspect {
  c: FuzzCase;
  answer: FuzzAnswer;
  /** Its place in what the node was sent (1 for the first case): the order the node received them in. */
  sent: number;
}

/** Cases answered kept as suspects since the last good probe, at most (the latest: a node dies of what it read last). */
const ANSWERED_KEPT = 4;

/** Notes a case sent to a node since its last good probe: every one left unanswered, and the last few answered. */
export function noteSuspect(suspects: Suspect[], s: Suspect): void {
  suspects.push(s);
  if (s.answer.failure !== undefined) return;
  let answered = 0;
  for (let i = suspects.length - 1; i >= 0; i--) {
    if (suspects[i]?.answer.failure !== undefined) continue;
    if (++answered > ANSWERED_KEPT) {
      suspects.splice(i, 1);
      return;
    }
  }
}

/**
 * A case whose connection was refused (ECONNREFUSED, judge.ts notDelivered): it never reached the node, gone already. (A
 * request on a kept connection the node closed, sent once more and refused, is said as that close: ExactHttpPool.)
 */
const refusedAtLast = (s: Suspect): boolean => notDelivered(s.answer);

/**
 * The request that killed a node, among the cases sent to it since its last good probe. First those it left
 * unanswered that surely reached it (reset, closed without an answer, timed out): the first risky one (what could
 * hurt: fuzz/cases marks it), else the first to reach it. A node that reads its requests in order dies on the first
 * left unanswered, but one that works on several at once (most do, and the reference node verifies signatures on
 * other threads) can die on a later one while earlier ones are still under way. Against the reference node's
 * dies-on-huge-height, seeds 1 to 16 (2026-11-28), the first risky one was the killer 15 times in 16 at
 * concurrency 4 and at 8, the first sent 15 and 10 times. The order they reached it in is the order they were
 * sent in, but that a case sent on a connection of its own (no Content-Length) waits for a TCP handshake first.
 * Then the risky ones among those whose connection was refused (refusedAtLast: they may have reached it); then
 * the last case it answered: a node can die just after answering (an exception thrown once the answer went out),
 * and the cases sent after it are refused; then the first refused. The others (unanswered, and the last answered)
 * are the other candidates, which `--replay` tries in turn; with none at all, `last`.
 */
export function culpritOf(suspects: readonly Suspect[], last: Suspect): { culprit: Suspect; others: Suspect[] } {
  const inOrder = [...suspects].sort((a, b) => ownConnection(a) - ownConnection(b) || a.sent - b.sent);
  const unanswered = inOrder.filter((s) => s.answer.failure !== undefined);
  const reached = unanswered.filter((s) => !refusedAtLast(s));
  const refused = unanswered.filter(refusedAtLast);
  const answered = inOrder.filter((s) => s.answer.failure === undefined).reverse();
  const culprit = reached.find((s) => s.c.risky) ?? reached[0] ?? refused.find((s) => s.c.risky) ?? answered[0] ?? refused[0] ?? last;
  return { culprit, others: [...unanswered, ...answered].filter((s) => s !== culprit) };
}

/** 1 for a case sent on a connection of its own (it reaches the node a TCP handshake later than its place in the sending order), else 0. */
const ownConnection = (s: Suspect): number => (s.c.http.omitContentLength === true ? 1 : 0);

/** The liveness finding's message: what happened, and when the culprit is a guess, that it is one and the other candidates. */
export function diedMessage(culprit: Suspect, others: readonly Suspect[], earlier: readonly Suspect[] = []): string {
  const named = others.map((s) => `#${s.c.index}${s.answer.failure === undefined ? ' (answered)' : ''}`);
  const unanswered = 1 + others.filter((s) => s.answer.failure !== undefined).length;
  const how = culprit.answer.failure === undefined ? 'the last case it answered: a node can die just after answering' : `the first ${culprit.c.risky ? 'risky one' : 'sent'} of ${unanswered} cases left unanswered as it died`;
  const guess = named.length === 0 ? (culprit.answer.failure === undefined ? ` (${how})` : '') : ` (a guess: ${how}; also ${named.slice(0, 8).join(', ')}${named.length > 8 ? ', …' : ''}, which --replay tries in turn)`;
  const before = earlier.length === 0 ? '' : `; --replay also tries ${earlier.length === 1 ? 'the case' : `the ${earlier.length} cases`} sent in the ${RECENT_MS / 1000} s before (${earlier.slice(0, 8).map((s) => `#${s.c.index}`).join(', ')}${earlier.length > 8 ? ', …' : ''}): a node can die a while after the request that killed it`;
  return `the node stopped answering after this request${guess}: a known-good chain_blockNumber went unanswered twice, ${LIVENESS.retryAfterMs} ms apart${before}. The run sent it nothing more; restart it to go on`;
}
