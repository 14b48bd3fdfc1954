/**
 * Where a fuzz run's cases come from and where their answers are judged: on the run's own thread
 * (InlineCases), or on a worker thread beside it (WorkerCases, caseWorker.ts), so that making cases and
 * judging answers (pure functions of the seed, the bytes and the profile) run on the second core while the
 * run's thread sends, probes and files findings. The two give the same cases and the same verdicts: a case is
 * caseAt(seed, index, ctx) on either thread, and the judge is judgeAnswer on either.
 *
 * The worker makes cases ahead (a window of them), each batch under one view of the chain; it keeps each case's
 * request until the run says the case is done (its readings are made once for all nodes). Cases cross threads
 * without their JSON value unless they are valid calls (the differential comparison reads their params): a value
 * is cloned field by field, and a batch's is large. Where a finding needs it (its signature, shrinking), whole()
 * makes the case again from its seed, index and chain view, on the run's thread.
 *
 * A worker that fails (it should not) is not the end of the run: the cases and answers it held are made and
 * judged again here, the run goes on in one thread, and `problem` says what happened.
 */
import type { ProfileSource } from '../../profile/loadProfile.js';
import { caseAt } from '../cases/caseAt.js';
import type { CaseContext } from '../cases/CaseContext.js';
import type { FuzzAnswer, FuzzCase, Violation } from '../model.js';
import { judgeAnswer } from './judgeAnswer.js';
import { startWorker } from '../../core/process/startWorker.js';
import type { CaseWorkerInit, FromCaseWorker, ToCaseWorker } from './caseWorker.js';
import type { Worker } from 'node:worker_threads';

export interface CaseSource {
  /** The next case of the run (index 0, 1, 2, ...), made under the chain view current when it was made. */
  next(): FuzzCase | Promise<FuzzCase>;
  /** The answer's violations (empty: right). */
  judge(c: FuzzCase, answer: FuzzAnswer, slowBoundMs: number): Violation[] | Promise<Violation[]>;
  /** The case with everything a finding reads (its JSON value). */
  whole(c: FuzzCase): FuzzCase;
  /** Cases made from now on see this chain. */
  chain(ctx: CaseContext): void;
  /** Every node's answer to the case is judged: its request may be forgotten. */
  done(c: FuzzCase): void;
  /** Why the run went on in one thread, if it did. */
  readonly problem: string | undefined;
  close(): Promise<void>;
}

/** Cases made and answers judged on the run's thread. */
export class InlineCases implements CaseSource {
  readonly problem = undefined;
  #index: number;
  #ctx: CaseContext;
  readonly #seed: number;

  constructor(seed: number, ctx: CaseContext, from = 0) {
    this.#seed = seed;
    this.#ctx = ctx;
    this.#index = from;
  }

  next(): FuzzCase {
    return caseAt(this.#seed, this.#index++, this.#ctx);
  }

  judge(c: FuzzCase, answer: FuzzAnswer, slowBoundMs: number): Violation[] {
    return judgeAnswer(c.http, answer, { profile: this.#ctx.profile, slowBoundMs });
  }

  whole(c: FuzzCase): FuzzCase {
    return c;
  }

  chain(ctx: CaseContext): void {
    this.#ctx = ctx;
  }

  done(): void {}

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Cases asked of the worker ahead of the run; more are asked when fewer than half are left. */
const WINDOW = 256;
/** Answers are sent to the worker in batches: at this many at once, else this long after the first of a batch. */
const FLUSH_JOBS = 32;
const FLUSH_MS = 2;

interface Pending {
  c: FuzzCase;
  answer: FuzzAnswer;
  slowBoundMs: number;
  resolve: (v: Violation[]) => void;
  reject: (e: Error) => void;
}

/** Cases made and answers judged on a worker thread (caseWorker.ts). */
export class WorkerCases implements CaseSource {
  readonly #worker: Worker;
  readonly #seed: number;
  readonly #limit: number;
  #problem: string | undefined;
  /** The run's thread from here on, once the worker failed. */
  #inline: InlineCases | undefined;
  #ctx: CaseContext;
  #version = 0;
  /** Chain views by version: a stripped case is made again under its own. */
  readonly #contexts = new Map<number, CaseContext>();
  /** Cases sent without their JSON value, with the version they were made under. */
  readonly #stripped = new WeakMap<FuzzCase, number>();
  readonly #queue: FuzzCase[] = [];
  #head = 0;
  /** Indexes taken by the run, and asked of the worker. */
  #taken = 0;
  #asked = 0;
  #waiting: { resolve: (c: FuzzCase) => void; reject: (e: Error) => void }[] = [];
  #caseError: Error | undefined;
  readonly #pending = new Map<number, Pending>();
  #jobs: { id: number; index: number; answer: FuzzAnswer; slowBoundMs: number }[] = [];
  #forget: number[] = [];
  #flushTimer: NodeJS.Timeout | undefined;
  #nextId = 0;
  #closed = false;

  /** `limit`: the run's case budget (null: none); no case past it is made. */
  constructor(moduleUrl: string, init: { seed: number; profile: ProfileSource; ctx: CaseContext; limit: number | null }) {
    this.#seed = init.seed;
    this.#ctx = init.ctx;
    this.#limit = init.limit ?? Number.POSITIVE_INFINITY;
    this.#contexts.set(0, init.ctx);
    const { codec, ...plain } = init.ctx.profile;
    const workerData: CaseWorkerInit = { seed: init.seed, profile: init.profile, plain, codec: codec.name, ctx: withoutProfile(init.ctx) };
    this.#worker = startWorker(moduleUrl, { workerData });
    this.#worker.on('message', (m: FromCaseWorker) => this.#message(m));
    this.#worker.on('error', (e: Error) => this.#fail(`the case worker thread failed: ${e.message}`));
    this.#worker.on('exit', (code) => this.#fail(`the case worker thread exited (code ${code})`));
    this.#ask();
  }

  get problem(): string | undefined {
    return this.#problem;
  }

  next(): FuzzCase | Promise<FuzzCase> {
    if (this.#inline !== undefined && this.#head >= this.#queue.length) {
      this.#taken++;
      return this.#inline.next();
    }
    if (this.#caseError !== undefined) return Promise.reject(this.#caseError);
    if (this.#head < this.#queue.length) return this.#take();
    return new Promise<FuzzCase>((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  judge(c: FuzzCase, answer: FuzzAnswer, slowBoundMs: number): Violation[] | Promise<Violation[]> {
    if (this.#inline !== undefined) return this.#inline.judge(c, answer, slowBoundMs);
    const id = ++this.#nextId;
    this.#jobs.push({ id, index: c.index, answer, slowBoundMs });
    this.#flushSoon();
    return new Promise<Violation[]>((resolve, reject) => this.#pending.set(id, { c, answer, slowBoundMs, resolve, reject }));
  }

  whole(c: FuzzCase): FuzzCase {
    const version = this.#stripped.get(c);
    const ctx = version === undefined ? undefined : this.#contexts.get(version);
    if (ctx === undefined) return c;
    const again = caseAt(this.#seed, c.index, ctx);
    // The bytes sent are the finding's, whatever happens; the value is taken only when it is theirs.
    return again.json !== undefined && sameBytes(again.http.body, c.http.body) ? { ...c, json: again.json } : c;
  }

  chain(ctx: CaseContext): void {
    this.#ctx = ctx;
    this.#inline?.chain(ctx);
    if (this.#inline !== undefined) return;
    this.#version++;
    this.#contexts.set(this.#version, ctx);
    // Cases are made at most a window ahead: views older than a few refreshes are no case's.
    this.#contexts.delete(this.#version - 8);
    this.#post({ type: 'chain', version: this.#version, ctx: withoutProfile(ctx) });
  }

  done(c: FuzzCase): void {
    if (this.#inline !== undefined) return;
    this.#forget.push(c.index);
    if (this.#forget.length >= 64) this.#flushSoon();
  }

  async close(): Promise<void> {
    clearTimeout(this.#flushTimer);
    this.#closed = true;
    await this.#worker.terminate();
  }

  #take(): FuzzCase {
    const c = this.#queue[this.#head++] as FuzzCase;
    if (this.#head > 1_024) {
      this.#queue.splice(0, this.#head);
      this.#head = 0;
    }
    this.#taken++;
    this.#ask();
    return c;
  }

  #ask(): void {
    if (this.#inline !== undefined || this.#asked >= this.#limit || this.#asked - this.#taken > WINDOW / 2) return;
    this.#asked = Math.min(this.#limit, this.#taken + WINDOW);
    this.#post({ type: 'want', upTo: this.#asked });
  }

  /**
   * Answers go to the worker together, a batch at most FLUSH_MS after the first: each message wakes the other
   * thread (a system call on each side), which costs more than the judging of a small answer. A verdict is not
   * waited for by the case's slot (runFuzz.ts), so the delay costs no speed.
   */
  #flushSoon(): void {
    if (this.#jobs.length >= FLUSH_JOBS) return this.#flush();
    if (this.#flushTimer !== undefined) return;
    this.#flushTimer = setTimeout(() => this.#flush(), FLUSH_MS);
  }

  #flush(): void {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (this.#inline !== undefined || (this.#jobs.length === 0 && this.#forget.length === 0)) return;
    this.#post({ type: 'judge', jobs: this.#jobs, forget: this.#forget });
    this.#jobs = [];
    this.#forget = [];
  }

  #post(m: ToCaseWorker): void {
    if (!this.#closed) this.#worker.postMessage(m);
  }

  #message(m: FromCaseWorker): void {
    if (this.#inline !== undefined) return;
    switch (m.type) {
      case 'failed':
        return this.#fail(`the case worker thread could not start: ${m.message}`);
      case 'case-error': {
        this.#caseError = new Error(m.message);
        for (const w of this.#waiting.splice(0)) w.reject(this.#caseError);
        return;
      }
      case 'cases': {
        for (const c of m.cases) {
          if (c.json === undefined && c.family !== 'valid') this.#stripped.set(c, m.version);
          this.#queue.push(c);
        }
        while (this.#waiting.length > 0 && this.#head < this.#queue.length) this.#waiting.shift()?.resolve(this.#take());
        return;
      }
      case 'verdicts':
        for (const v of m.verdicts) {
          const p = this.#pending.get(v.id);
          if (p === undefined) continue;
          this.#pending.delete(v.id);
          if ('error' in v) p.reject(new Error(v.error));
          else p.resolve(v.violations);
        }
    }
  }

  /** The worker is gone: what it held is made and judged here, and the run goes on in one thread. */
  #fail(problem: string): void {
    if (this.#closed || this.#inline !== undefined) return;
    this.#problem = problem;
    // The next index the run has not been given: the worker's cases already here are still given first.
    this.#inline = new InlineCases(this.#seed, this.#ctx, this.#taken + (this.#queue.length - this.#head));
    void this.#worker.terminate();
    for (const [id, p] of this.#pending) {
      this.#pending.delete(id);
      try {
        p.resolve(this.#inline.judge(p.c, p.answer, p.slowBoundMs));
      } catch (err) {
        p.reject(err instanceof Error ? err : new Error(String(err)));
      }
    }
    this.#jobs = [];
    for (const w of this.#waiting.splice(0)) {
      try {
        w.resolve(this.next() as FuzzCase);
      } catch (err) {
        w.reject(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }
}

const withoutProfile = (ctx: CaseContext): Omit<CaseContext, 'profile'> => {
  const { profile: _profile, ...rest } = ctx;
  return rest;
};

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

/** The worker's entry: compiled JavaScript beside this file, or the TypeScript source (run through tsx). */
const caseWorkerEntry = (): string => new URL(`./caseWorker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href;

/**
 * The run's cases: on a worker thread when the profile can be loaded there again (`profile` given), else on
 * the run's thread. `limit`: the run's case budget (null: none).
 */
export function startCaseSource(seed: number, ctx: CaseContext, options: { profile?: ProfileSource | undefined; limit: number | null }): CaseSource {
  if (options.profile === undefined) return new InlineCases(seed, ctx);
  try {
    return new WorkerCases(caseWorkerEntry(), { seed, profile: options.profile, ctx, limit: options.limit });
  } catch {
    // A profile that cannot cross to a thread (it should): the run's own thread does the work.
    return new InlineCases(seed, ctx);
  }
}
