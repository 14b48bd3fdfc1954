/**
 * The run's findings: each violation is filed under its signature (node, oracle, method, rule), so one bug
 * seen a thousand times is one finding seen a thousand times. A new signature is re-checked (its case sent
 * again: a violation that does not come back is reported as flaky, not as a finding), shrunk to its minimal
 * reproducing case, and the minimal case re-checked in turn, before it is announced. Two signatures whose cases
 * shrink to one minimal request showing one violation are one cause: the later is folded into the earlier (alsoAs).
 * A violation of the answer's own envelope (its members, its id echo: envelopeKind) is filed by its kind instead of
 * the case's rule: the same broken answer to any request of one method is one finding, whatever the id or params.
 * A leak whose quoted internals are the same word for word (the same stack trace, status and all) is one cause
 * whatever the method: the first finding holds the others in alsoAs.
 */
import type { Profile } from '../../profile/Profile.js';
import type { Finding, FuzzAnswer, FuzzCase, FuzzHttp, OracleName, Violation } from '../model.js';
import type { JsonValue } from '../../core/json/index.js';
import { isObject } from '../../profile/readWire.js';
import { decodeBody, readJsonText } from '../oracles/readJsonBody.js';
import { knownMethods } from '../oracles/requestModel.js';
import { envelopeKind } from '../oracles/answerChecks.js';
import { judgeAnswer } from './judgeAnswer.js';
import { foundCase, minimalTitle } from './foundCase.js';
import type { FuzzTarget } from './FuzzTarget.js';
import { sendCase } from './sendCase.js';
import { notDelivered } from '../oracles/judge.js';
import { shrink, type ShrinkOptions } from './shrink.js';

export interface FindingBookOptions {
  profile: Profile;
  timeoutMs: number;
  shrink: ShrinkOptions;
  /** The slow oracle's floor (ms), when the command line sets one. */
  slowFloorMs?: number;
  /** performance.now() by which shrinking ends (the run's time budget): a shrink under way is cut to it, 1 s at least. */
  shrinkUntil?: number;
  onFinding?: (finding: Finding) => void;
  /**
   * A case's first re-check, when it is sent alone (a `slow` or `no-answer` sighting: nothing else of the fuzzer's in
   * flight to the node): its answer then, which is the case's own time (`--seek slow` weighs it: CostSeeker).
   */
  onAlone?: (c: FuzzCase, answer: FuzzAnswer, endpoint: string) => void;
}

/** A re-check that could not start within the run's time budget. */
const OUT_OF_TIME = Symbol('out of time');

/** How much slower than a known-good call sent right after a slow answer must be to stand as this input's. */
export const SLOW_CONTROL_FACTOR = 10;

export class FindingBook {
  readonly #options: FindingBookOptions;
  readonly #bySignature = new Map<string, Finding>();
  readonly #findings: Finding[] = [];
  /** The number of the last id handed out: a counter, never the list's length (a fold shortens the list, and an id must never be given twice). */
  #lastId = 0;
  readonly #settling = new Set<Promise<void>>();
  readonly #started = performance.now();
  /** The kind of each finding's violation (Violation.kind), as last shown: what a shrink step keeps, and what folds one cause. */
  readonly #kinds = new WeakMap<Finding, string>();

  constructor(options: FindingBookOptions) {
    this.#options = options;
  }

  /** Every finding so far, in the order found. */
  get findings(): readonly Finding[] {
    return this.#findings;
  }

  /** Files a violation a case showed on a target; a new signature is re-checked and shrunk in the background. */
  file(target: FuzzTarget, c: FuzzCase, answer: FuzzAnswer, v: Violation, endpoint: string, others?: Finding['others'], candidates?: { c: FuzzCase; answer: FuzzAnswer }[]): void {
    const method = findingMethod(c, v);
    const signature = signatureOf(target.url, v.oracle, { method, rule: c.rule, ...(v.kind === undefined ? {} : { kind: v.kind }) });
    const known = this.#bySignature.get(signature);
    if (known !== undefined) {
      known.count++;
      return;
    }
    const first = foundCase(c, answer, endpoint);
    const finding: Finding = {
      id: `F${++this.#lastId}`,
      signature,
      oracle: v.oracle,
      url: target.url,
      ...(method === undefined ? {} : { method }),
      rule: c.rule,
      message: v.message,
      source: v.source,
      ...(v.kind === undefined ? {} : { kind: v.kind }),
      original: first,
      minimal: first,
      count: 1,
      recheck: 'not-rechecked',
      atMs: Math.round(performance.now() - this.#started),
      ...(others === undefined ? {} : { others }),
      ...(candidates === undefined || candidates.length === 0 ? {} : { candidates: candidates.map((k) => foundCase(k.c, k.answer, endpoint)) }),
    };
    this.#bySignature.set(signature, finding);
    this.#findings.push(finding);
    if (v.kind !== undefined) this.#kinds.set(finding, v.kind);
    target.findings++;
    // A death cannot be sent again; a disagreement is between two nodes' answers of one moment, kept side by side.
    if (v.oracle === 'liveness' || v.oracle === 'disagreement' || !target.answering) {
      this.#options.onFinding?.(finding);
      return;
    }
    const settling = this.#settle(target, c, v, finding, endpoint).finally(() => this.#settling.delete(settling));
    this.#settling.add(settling);
  }

  /** Waits for every re-check and shrink under way. */
  async settled(): Promise<void> {
    while (this.#settling.size > 0) await Promise.all([...this.#settling]);
  }

  /**
   * Re-checks the case, shrinks it, re-checks the minimal one; then announces the finding. The re-check is
   * always made (one request: what tells a finding from a flaky sighting); shrinking ends at the time budget
   * (`shrinkUntil`), said in the minimal case's title (which says what the shrunk request is, and what it was shrunk from), and past it the minimal case is not sent once more (it
   * showed the violation when it was kept).
   */
  async #settle(target: FuzzTarget, c: FuzzCase, v: Violation, finding: Finding, endpoint: string): Promise<void> {
    // The whole violation is kept: its oracle, its rule's source, its kind, and the method it is about (a shrink
    // step that trades it for another violation, or for the same complaint about another call, is refused).
    const same: Same = { oracle: finding.oracle, source: finding.source, kind: v.kind, method: labelOf(c.http, v, this.#options.profile, c.json) };
    const again = await this.#shows(target, c.http, same, (answer) => this.#options.onAlone?.(c, answer, endpoint));
    if (again === OUT_OF_TIME) {
      // Its re-check could not start within the time budget: said, not counted (a sighting never re-sent).
      finding.recheck = 'out-of-time';
    } else if (again === undefined) {
      // Not shown again: flaky, unless the node is gone (then nothing could be shown again).
      finding.recheck = target.answering && (await target.knownGoodMs(this.#options.timeoutMs)) !== undefined ? 'flaky' : 'not-rechecked';
    } else {
      const until = this.#options.shrinkUntil;
      const budget = until === undefined ? this.#options.shrink : { ...this.#options.shrink, maxMs: Math.min(this.#options.shrink.maxMs, Math.max(0, until - performance.now())) };
      let shown: { http: FuzzHttp; answer: FuzzAnswer; violation: Violation } = { http: c.http, ...again };
      const small = await shrink(c.http, c.json, async (http) => {
        if (!target.answering || this.#pastBudget()) return false;
        const got = await this.#shows(target, http, same);
        if (got === undefined || got === OUT_OF_TIME) return false;
        shown = { http, ...got };
        return true;
      }, budget);
      const lastShown = sameBytes(shown.http, small.http) ? shown : undefined;
      let confirm = !target.answering ? undefined : this.#pastBudget() ? OUT_OF_TIME : await this.#shows(target, small.http, same);
      const cut = confirm === OUT_OF_TIME;
      // Past the budget the minimal case is not sent once more: it showed the violation when it was kept.
      if (confirm === OUT_OF_TIME) confirm = lastShown;
      if (confirm !== undefined) {
        // Titled by what it now is: the original's title may no longer be true of it ("one param too many", shrunk to none).
        finding.minimal = foundCase({ ...c, http: small.http, title: minimalTitle(c, small.http, cut) }, confirm.answer, endpoint);
        finding.message = confirm.violation.message;
        finding.source = confirm.violation.source;
        finding.recheck = 'reproduced';
        const kind = confirm.violation.kind;
        if (kind !== undefined) this.#kinds.set(finding, kind);
        const label = labelOf(small.http, confirm.violation, this.#options.profile);
        // One cause: the same minimal request showing the same violation, the same broken envelope of one method's
        // answers, or the same internals leaked word for word (one handler's stack trace, whatever the method called).
        const oneCause = (f: Finding): boolean =>
          sameRequest(f.minimal, finding.minimal) || (envelopeKind(kind) && this.#kinds.get(f) === kind && f.method === label) || (finding.oracle === 'leak' && f.message === finding.message);
        const twin = this.#findings.find((f) => f !== finding && f.recheck === 'reproduced' && f.url === finding.url && f.oracle === finding.oracle && f.source === finding.source && oneCause(f));
        // Folded under the label it was filed with (alsoAs); else labelled by its minimal case.
        if (twin !== undefined) return this.#fold(target, finding, twin);
        relabel(finding, small.http, confirm.violation, this.#options.profile);
      } else {
        finding.recheck = target.answering ? 'reproduced' : 'not-rechecked';
      }
    }
    this.#options.onFinding?.(finding);
  }

  #pastBudget(): boolean {
    const until = this.#options.shrinkUntil;
    return until !== undefined && performance.now() >= until;
  }

  /**
   * One cause, two signatures: `finding`'s cases shrank to `twin`'s minimal case with the same violation. It is
   * folded into `twin` (named in its alsoAs, its sightings added, its signature's later sightings counted there)
   * and leaves the list before it is announced. Its id goes with it into alsoAs and is never handed out again.
   */
  #fold(target: FuzzTarget, finding: Finding, twin: Finding): void {
    (twin.alsoAs ??= []).push({ id: finding.id, ...(finding.method === undefined ? {} : { method: finding.method }), rule: finding.rule, count: finding.count });
    twin.count += finding.count;
    this.#bySignature.set(finding.signature, twin);
    this.#findings.splice(this.#findings.indexOf(finding), 1);
    target.findings--;
  }

  /**
   * Sends `http` to the target and returns the violation it shows of the same oracle and rule source (a shrink
   * must not trade one bug for another the same oracle also sees), if it does. A slow answer counts
   * only when this input is slow, not the moment: a known-good call sent right after must be at least
   * SLOW_CONTROL_FACTOR times faster (a machine or node busy with something else slows both alike).
   */
  async #shows(target: FuzzTarget, http: FuzzHttp, same: Same, onAlone?: (answer: FuzzAnswer) => void): Promise<{ answer: FuzzAnswer; violation: Violation } | undefined | typeof OUT_OF_TIME> {
    const oracle = same.oracle;
    // A slow or unanswered request is re-sent with nothing else of the fuzzer's in flight to the node (NodeGate):
    // else a single-threaded node's queue (the culprit's own re-sends among it) would make an innocent request slow.
    const alone = oracle === 'slow' || oracle === 'no-answer';
    return (alone ? target.gate.alone.bind(target.gate) : target.gate.shared.bind(target.gate))(async () => {
      // The time budget is looked at once the node is ours: a re-check queued behind another's must not start past it.
      if (this.#pastBudget()) return OUT_OF_TIME;
      // A node may still be at work on a request the fuzzer gave up on (a timed-out case): a known-good call
      // first, answered once that work is done, so that this request is timed alone.
      if (alone) await target.idle(this.#options.timeoutMs, this.#options.shrinkUntil);
      let answer = await sendCase(target.sender, http, this.#options.timeoutMs, this.#options.profile.maxBodyBytes);
      // Refused: the node is down (a supervisor may be restarting it after a crash); sent once more when it is back,
      // else this re-send says nothing of the request (a shrink candidate landing then had been taken for the bug).
      if (notDelivered(answer)) {
        if (!(await target.back(Math.min(this.#options.shrinkUntil ?? Infinity, performance.now() + BACK_WAIT_MS)))) return undefined;
        answer = await sendCase(target.sender, http, this.#options.timeoutMs, this.#options.profile.maxBodyBytes);
        if (notDelivered(answer)) return undefined;
      }
      if (alone) onAlone?.(answer);
      // Given up on, the request may still hold the node: the node is handed back to the run once it answers again.
      if (alone && answer.failure?.code === 'TIMEOUT') await target.idle(this.#options.timeoutMs, this.#options.shrinkUntil);
      const violation = judgeAnswer(http, answer, { profile: this.#options.profile, slowBoundMs: target.slowBound(this.#options.slowFloorMs) }).find((v) => sameViolation(v, http, same, this.#options.profile));
      if (violation === undefined) return undefined;
      if (oracle === 'slow') {
        const control = await target.knownGoodMs(this.#options.timeoutMs);
        if (control === undefined || answer.ms < SLOW_CONTROL_FACTOR * control) return undefined;
        return { answer, violation: { ...violation, message: `${violation.message}; a known-good call right after took ${control.toFixed(1)} ms` } };
      }
      return { answer, violation };
    });
  }
}

/** How long a re-send refused waits for the node to come back (a supervisor restarting it) before it says nothing. */
const BACK_WAIT_MS = 10_000;

const sameBytes = (a: FuzzHttp, b: FuzzHttp): boolean => a.body.length === b.body.length && Buffer.from(a.body).equals(Buffer.from(b.body));

/** What a re-sent request must show to show the same violation (#shows). */
interface Same {
  oracle: OracleName;
  source: string;
  /** Violation.kind, when the first sighting had one. */
  kind: string | undefined;
  /** The method the violation is about (labelOf), undefined for none. */
  method: string | undefined;
}

/**
 * Whether `v`, shown by a finding's minimal case `http` when replayed, is that finding's violation: its oracle, rule
 * source and kind (when the report has one), about the same method. A fix of one bug must not read as "shows again"
 * because another of the same oracle is still there (an outside tester's node, its id echo fixed, still dropping
 * "jsonrpc").
 */
export function showsFinding(v: Violation, http: FuzzHttp, finding: Pick<Finding, 'oracle' | 'source' | 'kind' | 'method'>, profile: Profile): boolean {
  return sameViolation(v, http, { oracle: finding.oracle, source: finding.source, kind: finding.kind, method: finding.method }, profile);
}

/**
 * Whether `v`, shown by `http`, is the violation `same` describes: the same oracle, rule source and kind, about
 * the same method. A shrink of `{"method":"chain_getAccount","params":{},…}` whose id was lost must not end as
 * `{"method":"",…}` refused with another code: another complaint, which an honest node may well show.
 */
function sameViolation(v: Violation, http: FuzzHttp, same: Same, profile: Profile): boolean {
  if (v.oracle !== same.oracle) return false;
  // A call a batch left unanswered that shows, in a smaller request, as its answer's id lost: the same bug, said exactly.
  const explained = same.kind === MISSING_ANSWER && v.kind?.startsWith('id ') === true;
  if (!explained && (v.source !== same.source || (same.kind !== undefined && v.kind !== same.kind))) return false;
  return labelOf(http, v, profile) === same.method;
}

/** The kind of a batch's call left without an answer (judge.ts). */
const MISSING_ANSWER = 'batch missing answer';

const LENIENT_UTF8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/**
 * The method a violation shown by `http` is about: a batch's, the call it names (Violation.method), none when it is
 * about the batch as a whole; a single request's, the method it calls, when the profile knows it. A body that is not
 * UTF-8 is read as a node reading its bad bytes as U+FFFD would (a call of chain_getBlockByHeight with a bad byte in
 * its id is still that method's). `json`: the body as a value, when known.
 */
export function labelOf(http: FuzzHttp, v: Pick<Violation, 'method'>, profile: Profile, json?: JsonValue): string | undefined {
  if (v.method !== undefined) return v.method;
  let value = json;
  if (value === undefined) {
    const decoded = decodeBody(http.body);
    const text = 'text' in decoded ? decoded.text : LENIENT_UTF8.decode(http.body);
    const read = readJsonText(text);
    if (read.kind === 'json') value = read.value;
  }
  if (Array.isArray(value)) return undefined;
  return isObject(value) && typeof value.method === 'string' ? knownMethods(profile).get(value.method) : undefined;
}

/**
 * A finding labelled by its minimal case once shrunk: the method that case calls (a batch's: the call the
 * violation is about, or none), none when it calls none (a body shrunk to a byte order mark is no call of the
 * method its first form called).
 */
export function relabel(finding: Finding, http: FuzzHttp, v: Violation, profile: Profile): void {
  const method = labelOf(http, v, profile);
  if (method === undefined) delete finding.method;
  else finding.method = method;
}

/** Whether two found cases send the same request (method, content type, framing and body bytes). */
function sameRequest(a: Finding['minimal'], b: Finding['minimal']): boolean {
  return a.http.method === b.http.method && a.http.contentType === b.http.contentType && a.http.omitContentLength === b.http.omitContentLength && a.http.bodyBase64 === b.http.bodyBase64;
}

/**
 * One finding per node, oracle, method and rule (the rule's family part and name, as the case generator names it);
 * for a violation of the answer's own envelope (envelopeKind: its members, its id echo), per node, oracle, method
 * and kind instead: such a bug shows on any request of the method, whatever rule made it, its id or its params.
 */
export function signatureOf(url: string, oracle: OracleName, c: { method: string | undefined; rule: string; kind?: string }): string {
  return `${url} ${oracle} ${c.method ?? '-'} ${envelopeKind(c.kind) ? `[${c.kind ?? ''}]` : c.rule}`;
}

/**
 * The method a finding is labelled with: the case's; for a batch, the method of the call the violation is
 * about, and none when it is about the batch as a whole (a batch's first call is only what `--only` selects by:
 * a batch holding `null` that kills a node is no finding of its first call's method).
 */
export function findingMethod(c: Pick<FuzzCase, 'method' | 'json' | 'rule'>, v: Pick<Violation, 'method'>): string | undefined {
  if (v.method !== undefined) return v.method;
  return Array.isArray(c.json) || c.rule.startsWith('envelope/batch') ? undefined : c.method;
}
