/**
 * A wake-up to the microsecond for a thread that waits in its event loop (OpenPump.ts, with requests in flight).
 *
 * libuv's timers count whole milliseconds, so a thread that must both read its answers as they come (it cannot
 * sleep outside its event loop) and send at a time less than 2 ms away had only one way to be on time: polling,
 * a whole core whatever the rate. An Alarm is a small thread of its own that sleeps (Atomics.wait, the kernel's
 * timer to the microsecond) until the time it is set to, then posts a message: the waiting thread's event loop
 * wakes on it as on an answer, and its loop waits in the kernel meanwhile.
 *
 * The two threads share a sequence number and a time (CLOCK_MONOTONIC in ns, as process.hrtime gives it, the
 * same clock in every thread); each `set` or `cancel` moves the sequence on, and a ring carries the sequence it
 * was set for, so a ring for a time since moved or cancelled is ignored.
 */
import { Worker } from 'node:worker_threads';
import { monotonicMs } from '../../core/epochNow.js';

/** The alarm's thread: a loop that sleeps until the shared time, or until the sequence moves (a new time, or the end: -1). */
const ALARM_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const seq = new Int32Array(workerData, 0, 1);
const at = new Float64Array(workerData, 8, 1);
parentPort.postMessage(0);
let seen = 0;
for (;;) {
  const s = Atomics.load(seq, 0);
  if (s === -1) break;
  if (s === seen) { Atomics.wait(seq, 0, s); continue; }
  seen = s;
  const target = at[0];
  if (Number.isNaN(target)) continue;
  for (;;) {
    const left = (target - Number(process.hrtime.bigint())) / 1e6;
    if (left <= 0) { parentPort.postMessage(seen); break; }
    if (Atomics.wait(seq, 0, seen, left) !== 'timed-out') break;
  }
}
`;

export class Alarm {
  readonly #shared = new SharedArrayBuffer(16);
  readonly #seq = new Int32Array(this.#shared, 0, 1);
  readonly #at = new Float64Array(this.#shared, 8, 1);
  readonly #worker: Worker;
  /** The sequence of the time set, 0 when none is. */
  #armed = 0;
  #ready = false;
  #closed = false;

  /** Starts the alarm's thread; `ring` is called (on this thread's event loop) when a time set is reached. */
  constructor(ring: () => void) {
    this.#worker = new Worker(ALARM_THREAD, { eval: true, workerData: this.#shared });
    // The thread never keeps the process (or the thread that made it) alive.
    this.#worker.unref();
    this.#worker.on('message', (s: number) => {
      if (s === 0) {
        this.#ready = true;
        return;
      }
      if (s !== this.#armed || this.#closed) return;
      this.#armed = 0;
      ring();
    });
    // An alarm that cannot run is one that never rings: whoever set it is told by `ready` being false.
    this.#worker.on('error', () => {
      this.#ready = false;
    });
  }

  /** Whether its thread is running: a time set before that would ring late. */
  get ready(): boolean {
    return this.#ready && !this.#closed;
  }

  /** Rings at `atMs` (performance.now() of this thread), in place of any time set before. */
  set(atMs: number): void {
    this.#at[0] = (monotonicMs() + (atMs - performance.now())) * 1e6;
    this.#armed = this.#move();
  }

  /** No ring for the time set, if any. */
  cancel(): void {
    if (this.#armed === 0) return;
    this.#at[0] = Number.NaN;
    this.#armed = 0;
    this.#move();
  }

  /** Ends the alarm's thread. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#armed = 0;
    Atomics.store(this.#seq, 0, -1);
    Atomics.notify(this.#seq, 0);
  }

  /** The next sequence number (never 0 or -1), told to the alarm's thread. */
  #move(): number {
    let next = Atomics.load(this.#seq, 0) + 1;
    if (next >= 0x7fffffff) next = 1;
    Atomics.store(this.#seq, 0, next);
    Atomics.notify(this.#seq, 0);
    return next;
  }
}
