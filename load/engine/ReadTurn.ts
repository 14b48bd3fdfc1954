/**
 * When an answer arrived, taken before the engine does anything with it (issue 27, point 1).
 *
 * libuv hands a thread its readable connections one after another in one turn of the event loop. If each
 * answer were parsed, classified and recorded before the next connection is read, the 40th answer of a burst
 * would be stamped after the engine's work on the 39 before it: the latency would carry the generator's own
 * cost, in exactly the case (a stall ending, a node answering in bursts) a user measures. So a thread's
 * connections stamp each read as it comes (`read`), frame the answer only, and hand the rest (`defer`) to the
 * check phase that follows libuv's poll (setImmediate), in the order the answers came, a few at a time with a
 * poll between (DELIVER_PER_CHECK).
 *
 * What is left between the socket and the stamp is the engine's own, and it is measured, not assumed: an
 * answer's **read lag** is how long it may have waited unread in this thread before its stamp.
 *  - Within the turn: its stamp less the turn's first read (the reads and framing before it in the turn).
 *  - Before the turn: when the loop waited in the kernel for events since the engine last worked (libuv's own
 *    count of that time, performance.nodeTiming.idleTime, grew), the answer woke it: nothing before. When
 *    it did not wait, the answer may have come at any moment of the engine's work since its last wait (or
 *    since libuv last looked for readable connections): that stretch. The engine tells when it works
 *    (`working`: each request written, its tick, its sweeper; each turn is work) and when it runs right
 *    after a poll (`polled`: the check phase, its own and the open model's pump polling for a send).
 * Not counted: the kernel's time to wake a waiting thread (0.6 to 0.9 ms on the 2-core virtual machine this was
 * built on, where an idle core must be woken too; microseconds on bare metal), and pauses outside the engine's
 * callbacks (a collection started by the runtime itself). No clock in the thread can see either.
 * A thread that keeps up shows a read lag of microseconds; one that falls behind its answers shows how far.
 * The engine reports it beside the send lag (ScheduleStats.readLagUs) and judges a run by it.
 */
import { performance } from 'node:perf_hooks';

/** An answer's delivery, run after its turn's reads (the connection's `ended` with the read's stamp and lag). */
export interface Delivery {
  deliver(): void;
}

const now = (): number => performance.now();
const idleMs = (): number => performance.nodeTiming.idleTime;
/** More idle time than this since the engine last worked: the loop waited in the kernel (a poll that finds events at once takes microseconds). */
const WAITED_MS = 0.01;
/** Deliveries between two polls: the most engine work an answer arriving in a burst waits behind before its stamp. */
const DELIVER_PER_CHECK = 8;
/** Delivered entries a queue keeps at most before it is cut down. */
const COMPACT_AT = 1_024;

/** One thread's reads (a module has one per thread: worker threads load modules afresh). */
export class ReadTurn {
  /** The first read of the current turn; undefined between the turn's check and the next read. */
  #turnStart: number | undefined;
  /** How long the current turn's answers may have waited before its first read (ms). */
  #before = 0;
  /** When libuv last looked for readable connections: the previous turn's first read, or the check after a poll that found none. */
  #lastPoll = -Infinity;
  /** Since when the thread has worked without waiting in the kernel, and libuv's idle time when it last said so. */
  #busySince = now();
  #idleSeen = 0;
  /** Deliveries not yet made, in the order their requests ended; `#next` is the first. */
  #queue: Delivery[] = [];
  #next = 0;
  #checkScheduled = false;
  #delivering = false;
  /** Whether `working` has read the idle time in the current run of deliveries (false outside one). */
  #workedInDelivery = false;
  readonly #check = (): void => this.#onCheck();

  /** The engine works now (at `t`): a stretch of work begins here when the loop waited in the kernel since the last one. */
  working(t: number = now()): void {
    // libuv's idle time grows only while the loop polls: within one run of deliveries, the first call said it all.
    if (this.#workedInDelivery) return;
    this.#workedInDelivery = this.#delivering;
    const idle = idleMs();
    if (idle - this.#idleSeen > WAITED_MS) this.#busySince = t;
    this.#idleSeen = idle;
  }

  /**
   * The engine runs in libuv's check phase, right after a poll (an immediate, such as the open model's pump
   * polling for a send due within a millisecond): libuv has just looked for readable connections.
   */
  polled(): void {
    this.#lastPoll = this.#turnStart ?? now();
  }

  /** A read: its stamp (ms, performance.now()). The first read of a turn starts the turn. */
  read(): number {
    const t = now();
    if (this.#turnStart === undefined) {
      const idle = idleMs();
      // Waited in the kernel since the engine last worked: this turn's answers woke the loop.
      if (idle - this.#idleSeen > WAITED_MS) {
        this.#before = 0;
        this.#busySince = t;
      } else {
        this.#before = t - Math.max(this.#busySince, this.#lastPoll);
      }
      this.#idleSeen = idle;
      this.#turnStart = t;
      this.#schedule();
    }
    return t;
  }

  /** The read lag (ms) of an answer stamped `at` in the current turn (after `read`), its request written at `writtenMs`. */
  lagOf(at: number, writtenMs: number | undefined): number {
    const lag = at - (this.#turnStart ?? at) + this.#before;
    // No answer comes before its request was written.
    return writtenMs === undefined ? lag : Math.min(lag, at - writtenMs);
  }

  /** Runs `d` after the turn's reads, in order (at once when nothing waits and no turn is open). */
  defer(d: Delivery): void {
    if (this.#turnStart === undefined && !this.#delivering && this.#next === this.#queue.length) {
      d.deliver();
      return;
    }
    this.#queue.push(d);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#checkScheduled) return;
    this.#checkScheduled = true;
    setImmediate(this.#check);
  }

  /**
   * libuv's check phase, after a poll: the turn is over. At most DELIVER_PER_CHECK deliveries run, then the loop
   * polls again (without waiting: an immediate is pending) before the rest, so answers that arrive while the
   * engine works on a burst are stamped within that many deliveries of their arrival.
   */
  #onCheck(): void {
    this.#checkScheduled = false;
    this.polled();
    this.#turnStart = undefined;
    if (this.#deliver(DELIVER_PER_CHECK)) this.#schedule();
  }

  /** Up to `n` deliveries in order; true when some still wait. */
  #deliver(n: number): boolean {
    if (this.#delivering) return false;
    this.#delivering = true;
    try {
      for (let done = 0; done < n && this.#next < this.#queue.length; done++) (this.#queue[this.#next++] as Delivery).deliver();
    } finally {
      this.#delivering = false;
      this.#workedInDelivery = false;
      if (this.#next === this.#queue.length) {
        this.#queue = [];
        this.#next = 0;
      } else if (this.#next >= COMPACT_AT) {
        // A queue never quite empty (a saturated thread) lets go of what it delivered.
        this.#queue = this.#queue.slice(this.#next);
        this.#next = 0;
      }
    }
    return this.#next < this.#queue.length;
  }
}

/** The thread's reads. */
export const readTurn = new ReadTurn();
