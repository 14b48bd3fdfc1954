/**
 * A load worker thread: runs one thread's plan (runThread.ts) and talks to runEngine through messages: ready
 * (its source is made), ticks (histograms as their counts), tracked outcomes, an early stop, and the result.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { TickReport } from '../metrics/LoadRecorder.js';
import type { TrackedOutcome } from './RequestSource.js';
import { prepareThread } from './runThread.js';
import type { ThreadPlan, ThreadResult, ThreadRun, ThreadStop } from './ThreadPlan.js';

/** A tick as it crosses threads: the latency histogram as its counts (Histogram.toCounts: no deflate on the sending thread). */
export type EncodedTick = Omit<TickReport, 'latency'> & { latency: Int32Array | string };

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'tick'; report: EncodedTick }
  | { type: 'tracked'; outcomes: TrackedOutcome[] }
  | { type: 'stopping'; stop: ThreadStop }
  | { type: 'done'; result: ThreadResult }
  | { type: 'error'; message: string };

export type WorkerCommand = { type: 'start'; originMonoMs: number } | { type: 'stop'; stop: ThreadStop; graceMs: number };

const port = parentPort;
if (port !== null) {
  const post = (m: WorkerMessage): void => port.postMessage(m);
  let run: ThreadRun | undefined;
  try {
    const prepared = await prepareThread(workerData as ThreadPlan, {
      tick: (r) => post({ type: 'tick', report: { ...r, latency: r.latency.toCounts() } }),
      tracked: (outcomes) => post({ type: 'tracked', outcomes }),
      stopping: (stop) => post({ type: 'stopping', stop }),
    });
    port.on('message', (c: WorkerCommand) => {
      if (c.type === 'start') {
        run = prepared.start(c.originMonoMs);
        run.result.then(
          (result) => {
            post({ type: 'done', result });
            port.close();
          },
          (error: unknown) => post({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
        );
      } else run?.stop(c.stop, c.graceMs);
    });
    post({ type: 'ready' });
  } catch (error) {
    post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
}
