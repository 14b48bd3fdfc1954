/**
 * The fuzzer's case thread (caseSource.ts, WorkerCases): makes the run's cases ahead of it, a window at a time,
 * and judges the answers the run's thread sends it. It loads the profile again from its source (a profile holds
 * its codec's functions, which no message carries). Pure work only: it sends nothing to any node.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadProfileSource, type ProfileSource } from '../../profile/loadProfile.js';
import type { Profile } from '../../profile/Profile.js';
import { caseAt } from '../cases/caseAt.js';
import type { CaseContext } from '../cases/CaseContext.js';
import type { FuzzAnswer, FuzzCase, FuzzHttp, Violation } from '../model.js';
import { judgeAnswer } from './judgeAnswer.js';

/** What the worker is started with (caseSource.ts, WorkerCases). */
export interface CaseWorkerInit {
  seed: number;
  /** Where the thread loads the profile's codec again (profile/loadProfile.ts): a codec's functions cross no thread. */
  profile: ProfileSource;
  /** The run's profile but its codec, as the run has it (with the command line's overrides); `codec` names the codec it must load. */
  plain: Omit<Profile, 'codec'>;
  codec: string;
  ctx: Omit<CaseContext, 'profile'>;
}

/** From the run's thread to the worker. */
export type ToCaseWorker =
  | { type: 'want'; upTo: number }
  | { type: 'chain'; version: number; ctx: Omit<CaseContext, 'profile'> }
  | { type: 'judge'; jobs: { id: number; index: number; answer: FuzzAnswer; slowBoundMs: number }[]; forget: number[] };

/** From the worker to the run's thread. */
export type FromCaseWorker =
  | { type: 'failed'; message: string }
  | { type: 'cases'; version: number; cases: FuzzCase[] }
  | { type: 'case-error'; index: number; message: string }
  | { type: 'verdicts'; verdicts: ({ id: number; violations: Violation[] } | { id: number; error: string })[] };

/** Cases made between two looks at the messages waiting (answers to judge). */
const CHUNK = 32;

const port = parentPort;
if (port === null) throw new Error('caseWorker.ts runs as a worker thread (fuzz/run/caseSource.ts starts it)');
const init = workerData as CaseWorkerInit;
const post = (m: FromCaseWorker): void => port.postMessage(m);

let profile: Profile;
try {
  const { codec } = await loadProfileSource(init.profile);
  if (codec.name !== init.codec) throw new Error(`the profile's source gives the codec ${codec.name}, the run has ${init.codec}`);
  // The run's profile as it has it (the command line's overrides included), with the codec loaded here.
  profile = { ...init.plain, codec };
} catch (err) {
  post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  process.exit(1);
}

let ctx: CaseContext = { ...init.ctx, profile };
let version = 0;
let next = 0;
let upTo = 0;
let making = false;
/** Each case's request until the run says it is done: judged once per node, its readings made once. */
const requests = new Map<number, FuzzHttp>();

function make(): void {
  making = false;
  const cases: FuzzCase[] = [];
  const end = Math.min(upTo, next + CHUNK);
  try {
    for (; next < end; next++) {
      const c = caseAt(init.seed, next, ctx);
      requests.set(c.index, c.http);
      // A value is cloned member by member: only a valid call's (small) crosses, for the differential comparison.
      if (c.family === 'valid' || c.json === undefined) cases.push(c);
      else {
        const { json: _json, ...rest } = c;
        cases.push(rest);
      }
    }
  } catch (err) {
    if (cases.length > 0) post({ type: 'cases', version, cases });
    post({ type: 'case-error', index: next, message: err instanceof Error ? err.message : String(err) });
    upTo = next;
    return;
  }
  post({ type: 'cases', version, cases });
  if (next < upTo) {
    making = true;
    // Answers waiting to be judged come first between chunks: the run's findings and progress depend on them.
    setImmediate(make);
  }
}

port.on('message', (m: ToCaseWorker) => {
  switch (m.type) {
    case 'want':
      upTo = Math.max(upTo, m.upTo);
      if (!making && next < upTo) make();
      return;
    case 'chain':
      ctx = { ...m.ctx, profile };
      version = m.version;
      return;
    case 'judge': {
      const verdicts: Extract<FromCaseWorker, { type: 'verdicts' }>['verdicts'] = [];
      for (const job of m.jobs) {
        const http = requests.get(job.index);
        if (http === undefined) {
          verdicts.push({ id: job.id, error: `case ${job.index} is not known to the case thread` });
          continue;
        }
        try {
          verdicts.push({ id: job.id, violations: judgeAnswer(http, job.answer, { profile, slowBoundMs: job.slowBoundMs }) });
        } catch (err) {
          verdicts.push({ id: job.id, error: err instanceof Error ? err.message : String(err) });
        }
      }
      for (const index of m.forget) requests.delete(index);
      post({ type: 'verdicts', verdicts });
    }
  }
});

