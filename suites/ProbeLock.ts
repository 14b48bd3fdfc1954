/**
 * One per node of a run: the probes that could hurt the node (CheckContext.probe) go one at a time, each with the
 * liveness call that follows it, so a node that one of them kills is blamed on that one request. Without it, the
 * probes running beside the killer saw the node gone and each blamed its own request (an outside tester's node,
 * killed by one body over its size limit, had four MUST checks blame a body of `true`, two small batches and a
 * PUT). The suite's other exchanges do not wait: they are well-formed calls, and one that finds the node gone ends
 * its check in error, never in a failure. (Holding them back too made a slow node's parallel reads wait behind
 * its probes, and `network/heights-close` compared heights read seconds apart.)
 *
 * Probes are served in the order they asked; a probe whose check is stopped while it waits leaves the queue.
 */
import { CheckError } from './checkOutcomes.js';

export class ProbeLock {
  #busy = false;
  readonly #queue: Array<() => void> = [];
  /** How the latest exchange with the node to end, ended: an HTTP answer of any kind, or none. */
  lastEnded: 'answered' | 'failed' | undefined;
  /** The probe after which the node stopped answering, as its check said it ("a body of 20001 bytes (transport/body-limit)"). */
  deadAfter: string | undefined;

  /** Runs `fn` with no other probe of the node under way. */
  async alone<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    await this.#acquire(signal);
    try {
      return await fn();
    } finally {
      const next = this.#queue.shift();
      if (next === undefined) this.#busy = false;
      else next();
    }
  }

  #acquire(signal: AbortSignal): Promise<void> {
    if (!this.#busy) {
      this.#busy = true;
      return Promise.resolve();
    }
    if (signal.aborted) return Promise.reject(stopped());
    return new Promise<void>((resolve, reject) => {
      const go = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const at = this.#queue.indexOf(go);
        if (at >= 0) this.#queue.splice(at, 1);
        reject(stopped());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(go);
    });
  }
}

const stopped = (): CheckError => new CheckError('the check was stopped (timeout or deadline)');
