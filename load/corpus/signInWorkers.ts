import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { CodecSpec, SignedLane, SignJob } from './signLanes.js';
import { laneSigner, signLane } from './signLanes.js';
import { startWorker } from './startWorker.js';

/** Marks this module's own workers (another module's worker that imports this one does nothing). */
const KIND = 'chainrpc-corpus-sign';

interface WorkerInput {
  kind: typeof KIND;
  codec: CodecSpec;
  job: SignJob;
}

type WorkerMessage = { type: 'lane'; lane: SignedLane } | { type: 'done' };

/**
 * Signs a corpus's lanes on `threads` worker threads (thread t takes lanes t, t + threads, ...), handing
 * each signed lane to `onLane` in the main thread as it comes (in any order). Rejects with the first
 * worker's error; the other workers are stopped.
 */
export async function signInWorkers(codec: CodecSpec, job: SignJob, threads: number, onLane: (lane: SignedLane) => void): Promise<void> {
  const count = Math.max(1, Math.min(threads, job.lanes.length));
  const workers = Array.from({ length: count }, (_, t) => {
    const input: WorkerInput = { kind: KIND, codec, job: { ...job, lanes: job.lanes.filter((_, i) => i % count === t) } };
    return startWorker(import.meta.url, input);
  });
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            let done = false;
            worker.on('message', (message: WorkerMessage) => {
              if (message.type === 'lane') onLane(message.lane);
              else done = true;
            });
            worker.on('error', reject);
            worker.on('exit', (code) => (done ? resolve() : reject(new Error(`a corpus signing thread exited with code ${code} before it finished`))));
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** The worker's side: sign the lanes given, post each, then say done. */
async function serve(input: WorkerInput): Promise<void> {
  const signer = await laneSigner(input.codec);
  for (const lane of input.job.lanes) parentPort?.postMessage({ type: 'lane', lane: signLane(signer, input.job, lane) } satisfies WorkerMessage);
  parentPort?.postMessage({ type: 'done' } satisfies WorkerMessage);
}

if (!isMainThread && (workerData as Partial<WorkerInput> | null)?.kind === KIND) {
  // An error here rejects the module's evaluation: the worker's 'error' event carries it to the main thread.
  await serve(workerData as WorkerInput);
}
