/** A FIFO of requests waiting for a connection (the open model with fewer connections than its in-flight cap). */
export class RequestQueue<T> {
  #items: (T | undefined)[] = [];
  #head = 0;
  get length(): number {
    return this.#items.length - this.#head;
  }
  push(item: T): void {
    this.#items.push(item);
  }
  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined;
    // Compact once the consumed head is most of the array.
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
  /** Empties the queue; how many were in it. */
  clear(): number {
    const n = this.length;
    this.#items = [];
    this.#head = 0;
    return n;
  }
}
