/**
 * The run's findings: each violation is filed under its signature (node, oracle, method, rule), so one bug
 * seen a thousand times is one finding seen a thousand times. A new signature is re-checked (its case sent
 * again: a violation that does not come back is reported as flaky, not as a finding), shrunk to its minimal
 * reproducing case, and the minimal case re-checked in turn, before it is announced. Two signatures whose cases
 * shrink to one minimal request showing one violation are one cause: the later is folded into the earlier (alsoAs).
 */
import type { Profile } from '../../profile/Profile.js';
import type { Finding, FuzzAnswer, FuzzCase, FuzzHttp, OracleName, Violation } from '../model.js';
import type { JsonValue } from '../../core/json/index.js';
import { isObject } from '../../profile/readWire.js';
import { decodeBody, readJsonText } from '../oracles/readJsonBody.js';
import { knownMethods } from '../oracles/requestModel.js';
import { judgeAnswer } from './judgeAnswer.js';
import { foundCase } from './foundCase.js';
import type { FuzzTarget } from './FuzzTarget.js';
import { sendCase } from './sendCase.js';
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
    const signature = signatureOf(target.url, v.oracle, { method, rule: c.rule });
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
    target.findings++;
    // A death cannot be sent again; a disagreement is between two nodes' answers of one moment, kept side by side.
    if (v.oracle === 'liveness' || v.oracle === 'disagreement' || !target.answering) {
      this.#options.onFinding?.(finding);
      return;
    }
    const settling = this.#settle(target, c, finding, endpoint).finally(() => this.#settling.delete(settling));
    this.#settling.add(settling);
  }

  /** Waits for every re-check and shrink under way. */
  async settled(): Promise<void> {
    while (this.#settling.size > 0) await Promise.all([...this.#settling]);
  }

  /**
   * Re-checks the case, shrinks it, re-checks the minimal one; then announces the finding. The re-check is
   * always made (one request: what tells a finding from a flaky sighting); shrinking ends at the time budget
   * (`shrinkUntil`), said in the minimal case's title, and past it the minimal case is not sent once more (it
   * showed the violation when it was kept).
   */
  async #settle(target: FuzzTarget, c: FuzzCase, finding: Finding, endpoint: string): Promise<void> {
    const same = { oracle: finding.oracle, source: finding.source };
    const again = await this.#shows(target, c.http, same);
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
        const shrunk = small.http.body.length < c.http.body.length;
        const title = `${c.title}${shrunk ? ' (shrunk)' : ''}${cut ? ' (shrinking cut short by the time budget)' : ''}`;
        finding.minimal = foundCase({ ...c, http: small.http, title }, confirm.answer, endpoint);
        finding.message = confirm.violation.message;
        finding.recheck = 'reproduced';
        const twin = this.#findings.find((f) => f !== finding && f.recheck === 'reproduced' && f.url === finding.url && f.oracle === finding.oracle && f.source === finding.source && sameRequest(f.minimal, finding.minimal));
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
  async #shows(target: FuzzTarget, http: FuzzHttp, same: { oracle: OracleName; source: string }): Promise<{ answer: FuzzAnswer; violation: Violation } | undefined | typeof OUT_OF_TIME> {
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
      const answer = await sendCase(target.sender, http, this.#options.timeoutMs, this.#options.profile.maxBodyBytes);
      // Given up on, the request may still hold the node: the node is handed back to the run once it answers again.
      if (alone && answer.failure?.code === 'TIMEOUT') await target.idle(this.#options.timeoutMs, this.#options.shrinkUntil);
      const violation = judgeAnswer(http, answer, { profile: this.#options.profile, slowBoundMs: target.slowBound(this.#options.slowFloorMs) }).find((v) => v.oracle === oracle && v.source === same.source);
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

const sameBytes = (a: FuzzHttp, b: FuzzHttp): boolean => a.body.length === b.body.length && Buffer.from(a.body).equals(Buffer.from(b.body));

/**
 * A finding labelled by its minimal case once shrunk: the method that case calls (a batch's: the call the
 * violation is about, or none), none when it calls none (a body shrunk to a byte order mark is no call of the
 * method its first form called).
 */
export function relabel(finding: Finding, http: FuzzHttp, v: Violation, profile: Profile): void {
  let json: JsonValue | undefined;
  const decoded = decodeBody(http.body);
  if ('text' in decoded) {
    const read = readJsonText(decoded.text);
    if (read.kind === 'json') json = read.value;
  }
  const called = isObject(json) && typeof json.method === 'string' ? knownMethods(profile).get(json.method) : undefined;
  const method = v.method ?? (Array.isArray(json) ? undefined : called);
  if (method === undefined) delete finding.method;
  else finding.method = method;
}

/** Whether two found cases send the same request (method, content type, framing and body bytes). */
function sameRequest(a: Finding['minimal'], b: Finding['minimal']): boolean {
  return a.http.method === b.http.method && a.http.contentType === b.http.contentType && a.http.omitContentLength === b.http.omitContentLength && a.http.bodyBase64 === b.http.bodyBase64;
}

/** One finding per node, oracle, method and rule (the rule's family part and name, as the case generator names it). */
export function signatureOf(url: string, oracle: OracleName, c: { method: string | undefined; rule: string }): string {
  return `${url} ${oracle} ${c.method ?? '-'} ${c.rule}`;
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
