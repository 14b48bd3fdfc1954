/** One holder at a time, FIFO: block production and block import never interleave. */
export class Mutex {
  private last: Promise<void> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.last.then(task);
    // The next task waits for this one whether it succeeds or fails.
    this.last = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
