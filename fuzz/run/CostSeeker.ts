/**
 * `--seek slow`: generation steered toward the inputs that cost a node the most time per request byte, the
 * one-request denial of service. A case's cost is its own: one whose answer time would rank it among the most
 * expensive is first sent again alone (nothing else of the fuzzer's in flight to the node: runFuzz's NodeGate) and
 * weighed by that time, so that an innocent request that only waited behind an expensive one on a single-threaded
 * node is not taken for it. A request left unanswered alone within the timeout costs more than any answered one: it
 * is weighed (ranked first, its time the timeout), not dropped. The most expensive are kept, and every other case
 * is not a fresh one but a kept case grown one step (its batches doubled, its strings doubled, its numbers ten
 * times larger, one level deeper), so generation climbs toward what is slow (a case that timed out is grown no
 * more: it is already past what can be timed). At the end, the top cases with their cost against the node's median
 * answer are reported (`FuzzRun.costly`).
 */
import { stringifyJson, type JsonValue } from '../../core/json/index.js';
import type { FoundCase, FuzzAnswer, FuzzCase } from '../model.js';
import { foundCase } from './foundCase.js';

/** Cases kept as seeds of growth, and reported. */
const KEPT = 10;
const encoder = new TextEncoder();
/** Bytes a request is weighed as at least (see weigh). */
export const BYTES_FLOOR = 1_024;

interface Weighed {
  c: FuzzCase;
  answer: FuzzAnswer;
  endpoint: string;
  /** ms per request byte (a body under BYTES_FLOOR weighed as that many). */
  perByte: number;
  /** Left unanswered within the timeout, alone: costlier than any answered case. */
  timedOut: boolean;
}

const timedOut = (answer: FuzzAnswer): boolean => answer.failure?.code === 'TIMEOUT';

export class CostSeeker {
  readonly #maxBodyBytes: number;
  #kept: Weighed[] = [];
  #turn = 0;

  constructor(maxBodyBytes: number) {
    this.#maxBodyBytes = maxBodyBytes;
  }

  /**
   * Whether a case answered so (among other requests in flight) may rank among the most costly: then it is to be
   * sent again alone and weighed by that time (weigh). One left unanswered is weighed by its no-answer re-check,
   * which is sent alone (FindingBook's onAlone), not by a copy of its own.
   */
  candidate(c: FuzzCase, answer: FuzzAnswer): boolean {
    if (answer.failure !== undefined || c.http.body.length === 0 || this.#kept.some((k) => sameBytes(k.c.http.body, c.http.body))) return false;
    return this.#ranks(perByteOf(c, answer), false);
  }

  /** Weighs a case by an answer it got alone (candidate); the most expensive per byte are kept, timeouts first. */
  weigh(c: FuzzCase, answer: FuzzAnswer, endpoint: string): void {
    if (c.http.body.length === 0 || (answer.failure !== undefined && !timedOut(answer))) return;
    const w: Weighed = { c, answer, endpoint, perByte: perByteOf(c, answer), timedOut: timedOut(answer) };
    if (!this.#ranks(w.perByte, w.timedOut)) return;
    if (this.#kept.some((k) => sameBytes(k.c.http.body, c.http.body))) return;
    this.#kept = [...this.#kept, w].sort(costlier).slice(0, KEPT);
  }

  #ranks(perByte: number, out: boolean): boolean {
    const last = this.#kept.at(-1);
    if (this.#kept.length < KEPT || last === undefined) return true;
    return costlier({ perByte, timedOut: out }, last) < 0;
  }

  /** Case `index`: a kept case grown one step (every other index, once any is kept), else undefined (a fresh case). */
  grown(index: number, fresh: FuzzCase): FuzzCase | undefined {
    const bases = this.#kept.filter((k) => !k.timedOut);
    if (index % 2 === 0 || bases.length === 0) return undefined;
    const base = bases[this.#turn++ % bases.length];
    if (base?.c.json === undefined) return undefined;
    const json = grow(base.c.json);
    const body = encoder.encode(stringifyJson(json));
    if (body.length > this.#maxBodyBytes || body.length <= base.c.http.body.length) return undefined;
    return { ...base.c, seed: fresh.seed, index, json, http: { ...base.c.http, body }, rule: base.c.rule, title: grownTitle(base.c.title), risky: true };
  }

  /** The most costly cases, with their time against the node's median answer (a timed-out one's: the timeout). */
  costly(medianMs: (endpoint: string) => number): { case: FoundCase; costRatio: number }[] {
    return this.#kept.map((k) => ({ case: foundCase(k.c, k.answer, k.endpoint), costRatio: Math.round((k.answer.ms / Math.max(0.01, medianMs(k.endpoint))) * 10) / 10 }));
  }
}

const GROWN = / \(grown(?: (\d+) times)? for --seek slow\)$/;

/** A case's title once grown one step more: "(grown for --seek slow)", then "(grown 2 times …)", never repeated. */
export function grownTitle(title: string): string {
  const m = GROWN.exec(title);
  const steps = m === null ? 1 : Number(m[1] ?? 1) + 1;
  return `${m === null ? title : title.slice(0, m.index)} (grown${steps === 1 ? '' : ` ${steps} times`} for --seek slow)`;
}

/**
 * ms per request byte. Below a kilobyte a node's fixed cost and the moment's noise (a pause) outweigh anything the
 * bytes ask for: a 1-byte body answered in 15 ms is no costly input.
 */
const perByteOf = (c: FuzzCase, answer: FuzzAnswer): number => answer.ms / Math.max(c.http.body.length, BYTES_FLOOR);

/** Timed out first, then by ms per byte. */
const costlier = (a: Pick<Weighed, 'perByte' | 'timedOut'>, b: Pick<Weighed, 'perByte' | 'timedOut'>): number => Number(b.timedOut) - Number(a.timedOut) || b.perByte - a.perByte;

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** One step larger: arrays doubled (a batch of 2n), strings doubled, numbers ten times larger, objects one level deeper in their first member. */
export function grow(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.length === 0 ? [[]] : [...value, ...value];
  if (typeof value === 'string') return value.length === 0 ? 'a' : value + value;
  if (typeof value === 'bigint') return value === 0n ? 1n : value * 10n;
  if (typeof value === 'number') return value === 0 ? 1 : value * 10;
  if (typeof value === 'object' && value !== null) {
    const params = value.params;
    // A request object grows through its params: that is where a node's work is.
    if (params !== undefined) return { ...value, params: grow(params) };
    const [key] = Object.keys(value);
    return key === undefined ? { a: {} } : { ...value, [key]: grow(value[key] as JsonValue) };
  }
  return value;
}
