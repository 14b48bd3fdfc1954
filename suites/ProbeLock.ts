/**
 * One per node of a run: the suite's exchanges with the node share it, except a probe that could hurt it
 * (CheckContext.probe), which goes alone. It waits for the exchanges in flight to end and holds new ones
 * back until it has asked whether the node still answers, so a node that dies is blamed on the one request
 * that killed it. Without it, the checks running beside the killer saw the node gone and each blamed its own
 * request (an outside tester's node, killed by one body over its size limit, had four MUST checks blame a body
 * of `true`, two small batches and a PUT).
 *
 * Waiters are served in order: a probe waiting holds back the exchanges asked for after it, so probes are not
 * starved by a busy run. Every exchange is bounded by the client's timeout, so every wait is bounded too.
 */
import { CheckError } from './checkOutcomes.js';

interface Waiter {
  readonly alone: boolean;
  readonly go: () => void;
}

export class ProbeLock {
  #inFlight = 0;
  #alone = false;
  readonly #queue: Waiter[] = [];
  /** How the latest exchange with the node to end, ended: an HTTP answer of any kind, or none. */
  lastEnded: 'answered' | 'failed' | undefined;
  /** The probe after which the node stopped answering, as its check said it ("a body of 20001 bytes (transport/body-limit)"). */
  deadAfter: string | undefined;

  /** Runs `fn` beside the node's other exchanges (not beside a probe). */
  shared<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    return this.#run(false, signal, fn);
  }

  /** Runs `fn` with no other exchange with the node in flight. */
  alone<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    return this.#run(true, signal, fn);
  }

  async #run<T>(alone: boolean, signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    await this.#acquire(alone, signal);
    try {
      return await fn();
    } finally {
      if (alone) this.#alone = false;
      else this.#inFlight--;
      this.#grant();
    }
  }

  #free(alone: boolean): boolean {
    return alone ? !this.#alone && this.#inFlight === 0 : !this.#alone;
  }

  #take(alone: boolean): void {
    if (alone) this.#alone = true;
    else this.#inFlight++;
  }

  #acquire(alone: boolean, signal: AbortSignal): Promise<void> {
    if (this.#queue.length === 0 && this.#free(alone)) {
      this.#take(alone);
      return Promise.resolve();
    }
    if (signal.aborted) return Promise.reject(stopped());
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.#queue.indexOf(waiter);
        if (at >= 0) this.#queue.splice(at, 1);
        reject(stopped());
        // A probe that stops waiting may have been what held the others back.
        this.#grant();
      };
      const waiter: Waiter = {
        alone,
        go: () => {
          signal.removeEventListener('abort', onAbort);
          this.#take(alone);
          resolve();
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  /** Lets the waiters at the head of the queue go, in order, as far as they can. */
  #grant(): void {
    for (let first = this.#queue[0]; first !== undefined && this.#free(first.alone); first = this.#queue[0]) {
      this.#queue.shift();
      first.go();
    }
  }
}

const stopped = (): CheckError => new CheckError('the check was stopped (timeout or deadline)');
