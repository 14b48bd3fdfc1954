/**
 * Now, in ms since the epoch, on the monotonic clock the load engine keeps its schedule by (`performance`),
 * not the wall clock (`Date.now()`). The two drift apart while a process runs: on a virtual machine whose
 * clock is being slewed, by a third of a millisecond a second, and tens of ms over a run. Every time compared
 * with an engine run's window (its `startedAt`, warm-up and duration) is read here, or a reading taken at the
 * window's end can fall before it on the other clock.
 */
export const epochNow = (): number => performance.timeOrigin + performance.now();

/**
 * Now on the monotonic clock every thread of the process shares (CLOCK_MONOTONIC), in ms from an arbitrary
 * point. An instant handed from one thread to another goes on this clock: each thread's `performance.timeOrigin`
 * is the wall clock read when that thread started, so two threads' epochs differ by whatever the wall clock did
 * in between (a step of the clock, a virtual machine paused and resumed).
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
