import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { Worker } from 'node:worker_threads';
import type { CodecSpec, SignedLane, SignJob } from './signLanes.js';
import { laneSigner, signLane } from './signLanes.js';
import { startWorker } from '../../core/process/startWorker.js';

/** Marks this module's own workers (another module's worker that imports this one does nothing). */
const KIND = 'chainrpc-corpus-sign';

interface WorkerInput {
  kind: typeof KIND;
  codec: CodecSpec;
}

type ToWorker = { type: 'job'; job: SignJob };
type FromWorker = { type: 'ready' } | { type: 'lane'; lane: SignedLane } | { type: 'done' };

interface Thread {
  worker: Worker;
  ready: Promise<void>;
  /** The job in progress: its lane handler and how it ends. */
  current: { onLane: (lane: SignedLane) => void; resolve: () => void; reject: (err: Error) => void } | undefined;
  failure?: Error;
}

/**
 * Signing threads for corpora. They start (load their modules, prepare the codec) as soon as the pool is
 * made, so `chainrpc load corpus` starts them before it funds the senders and they are ready when signing
 * begins. Thread t of n signs lanes t, t + n, ... of each job.
 */
export class SigningPool {
  private readonly threads: Thread[];

  private constructor(codec: CodecSpec, count: number) {
    this.threads = Array.from({ length: count }, () => {
      const worker = startWorker(import.meta.url, { workerData: { kind: KIND, codec } satisfies WorkerInput });
      const thread: Thread = { worker, ready: Promise.resolve(), current: undefined };
      thread.ready = new Promise<void>((resolve, reject) => {
        const fail = (err: Error): void => {
          thread.failure ??= err;
          reject(err);
          thread.current?.reject(err);
        };
        worker.on('message', (message: FromWorker) => {
          if (message.type === 'ready') resolve();
          else if (message.type === 'lane') thread.current?.onLane(message.lane);
          else {
            const current = thread.current;
            thread.current = undefined;
            current?.resolve();
          }
        });
        worker.on('error', fail);
        worker.on('exit', (code) => fail(new Error(`a corpus signing thread exited (code ${code})`)));
      });
      thread.ready.catch(() => undefined); // seen by ready() or sign()
      return thread;
    });
  }

  /** Starts `threads` signing threads (at least 1). */
  static start(codec: CodecSpec, threads: number): SigningPool {
    return new SigningPool(codec, Math.max(1, threads));
  }

  get size(): number {
    return this.threads.length;
  }

  /** Resolves when every thread has loaded and can sign. */
  async ready(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.ready));
  }

  /** Signs the job's lanes across the threads; each signed lane goes to `onLane` as it comes (in any order). */
  async sign(job: SignJob, onLane: (lane: SignedLane) => void): Promise<void> {
    const n = this.threads.length;
    await Promise.all(
      this.threads.map(async (thread, t) => {
        await thread.ready;
        if (thread.failure !== undefined) throw thread.failure;
        if (thread.current !== undefined) throw new Error('SigningPool.sign: a job is already running');
        const lanes = job.lanes.filter((_, i) => i % n === t);
        if (lanes.length === 0) return;
        await new Promise<void>((resolve, reject) => {
          thread.current = { onLane, resolve, reject };
          thread.worker.postMessage({ type: 'job', job: { ...job, lanes } } satisfies ToWorker);
        });
      }),
    );
  }

  /** Stops every thread. */
  async close(): Promise<void> {
    for (const t of this.threads) t.worker.removeAllListeners('exit');
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}

/** The worker's side: prepare the codec, say ready, then sign each job's lanes and post them. */
async function serve(input: WorkerInput): Promise<void> {
  const signer = await laneSigner(input.codec);
  const port = parentPort;
  if (port === null) return;
  port.on('message', (message: ToWorker) => {
    for (const lane of message.job.lanes) port.postMessage({ type: 'lane', lane: signLane(signer, message.job, lane) } satisfies FromWorker);
    port.postMessage({ type: 'done' } satisfies FromWorker);
  });
  port.postMessage({ type: 'ready' } satisfies FromWorker);
}

if (!isMainThread && (workerData as Partial<WorkerInput> | null)?.kind === KIND) {
  // A failure here (a codec module that does not load) rejects the module's evaluation: the worker's
  // 'error' event carries it to the pool.
  await serve(workerData as WorkerInput);
}
