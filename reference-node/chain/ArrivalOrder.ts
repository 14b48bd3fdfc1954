/**
 * Admission in arrival order while verification answers later (the honest rules verify on the thread pool:
 * ChainRules.verify). Each step runs once what it waits for has settled and every step that arrived before it
 * has run, so transactions enter the mempool in the order they reached the node, however their verifications
 * finish. With nothing in flight and nothing to wait for, a step runs at once (a variant whose rules answer
 * at once, a faucet claim on an idle node): the synchronous path of a node that verifies on its event loop.
 */
export class ArrivalOrder {
  private tail: Promise<void> = Promise.resolve();
  private inFlight = 0;

  /** `step(value)` in arrival order, `value` what `waitFor` gives; its result, or its throw as a rejection. */
  run<V, T>(waitFor: V | Promise<V>, step: (value: V) => T): Promise<T> {
    if (this.inFlight === 0 && !(waitFor instanceof Promise)) return new Promise((resolve) => resolve(step(waitFor)));
    this.inFlight++;
    // The step waits for the steps before it first, then for its own value (already being computed meanwhile).
    const done = this.tail.then(() => waitFor).then(step);
    this.tail = done.then(this.left, this.left);
    return done;
  }

  private readonly left = (): void => {
    this.inFlight--;
  };
}
