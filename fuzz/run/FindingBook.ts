/**
 * The run's findings: each violation is filed under its signature (node, oracle, method, rule), so one bug
 * seen a thousand times is one finding seen a thousand times. A new signature is re-checked (its case sent
 * again: a violation that does not come back is reported as flaky, not as a finding), shrunk to its minimal
 * reproducing case, and the minimal case re-checked in turn, before it is announced. Two signatures whose cases
 * shrink to one minimal request showing one violation are one cause: the later is folded into the earlier (alsoAs).
 */
import type { Profile } from '../../profile/Profile.js';
import type { Finding, FuzzAnswer, FuzzCase, FuzzHttp, OracleName, Violation } from '../model.js';
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
  file(target: FuzzTarget, c: FuzzCase, answer: FuzzAnswer, v: Violation, endpoint: string, others?: Finding['others']): void {
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

  /** Re-checks the case, shrinks it, re-checks the minimal one; then announces the finding. */
  async #settle(target: FuzzTarget, c: FuzzCase, finding: Finding, endpoint: string): Promise<void> {
    const same = { oracle: finding.oracle, source: finding.source };
    const again = await this.#shows(target, c.http, same);
    if (again === undefined) {
      // Not shown again: flaky, unless the node is gone (then nothing could be shown again).
      finding.recheck = target.answering && (await target.knownGoodMs(this.#options.timeoutMs)) !== undefined ? 'flaky' : 'not-rechecked';
    } else {
      const until = this.#options.shrinkUntil;
      const budget = until === undefined ? this.#options.shrink : { ...this.#options.shrink, maxMs: Math.min(this.#options.shrink.maxMs, Math.max(1_000, until - performance.now())) };
      const small = await shrink(c.http, c.json, async (http) => target.answering && (await this.#shows(target, http, same)) !== undefined, budget);
      const confirm = target.answering ? await this.#shows(target, small.http, same) : undefined;
      if (confirm !== undefined) {
        finding.minimal = foundCase({ ...c, http: small.http, title: small.http.body.length < c.http.body.length ? `${c.title} (shrunk)` : c.title }, confirm.answer, endpoint);
        finding.message = confirm.violation.message;
        finding.recheck = 'reproduced';
        const twin = this.#findings.find((f) => f !== finding && f.recheck === 'reproduced' && f.url === finding.url && f.oracle === finding.oracle && f.source === finding.source && sameRequest(f.minimal, finding.minimal));
        if (twin !== undefined) return this.#fold(target, finding, twin);
      } else {
        finding.recheck = target.answering ? 'reproduced' : 'not-rechecked';
      }
    }
    this.#options.onFinding?.(finding);
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
  async #shows(target: FuzzTarget, http: FuzzHttp, same: { oracle: OracleName; source: string }): Promise<{ answer: FuzzAnswer; violation: Violation } | undefined> {
    const oracle = same.oracle;
    const answer = await sendCase(target.sender, http, this.#options.timeoutMs, this.#options.profile.maxBodyBytes);
    const violation = judgeAnswer(http, answer, { profile: this.#options.profile, slowBoundMs: target.slowBound(this.#options.slowFloorMs) }).find((v) => v.oracle === oracle && v.source === same.source);
    if (violation === undefined) return undefined;
    if (oracle === 'slow') {
      const control = await target.knownGoodMs(this.#options.timeoutMs);
      if (control === undefined || answer.ms < SLOW_CONTROL_FACTOR * control) return undefined;
      return { answer, violation: { ...violation, message: `${violation.message}; a known-good call right after took ${control.toFixed(1)} ms` } };
    }
    return { answer, violation };
  }
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
