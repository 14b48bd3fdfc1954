/**
 * The time this process was awake: wall-clock time less the pauses it noticed in itself, an event loop held past
 * `pauseMs` (a stop signal, a machine that starved the process, a long collection, a long synchronous task).
 *
 * A peer's silence is counted in it (PeerSet), so that a node that was paused does not take its peers for dead
 * when it wakes: their hellos and blocks wait unread in its sockets, and its timers run before it reads them. A
 * member that judged the leader dead then would propose the leader's height beside it, and the network would
 * fork (seen in CI: three in-process nodes held 2.5 s by a busy machine, one member split off for good). A peer
 * that really stopped is still found silent once this node has been awake for the liveness window.
 *
 * The loop is probed every `pauseMs / 4` (an unref'd timer), and every question first probes too, so that the
 * pause is known to whichever callback runs first on waking. A gap between probes longer than `pauseMs` is a
 * pause, less the probe's own interval.
 */
export class AwakeClock {
  /** Pauses noticed, in the wall clock's scale (Date.now()), oldest first; a pause is [from, to). */
  private readonly pauses: { from: number; to: number }[] = [];
  private lastProbe: number;
  private readonly probeMs: number;
  private readonly timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly pauseMs: number,
    private readonly clocks: { monotonic(): number; wall(): number } = { monotonic: () => performance.now(), wall: () => Date.now() },
    /** Whether a timer probes the loop (false: only questions do, as in tests that move the clocks themselves). */
    probeOnTimer = true,
    /** Told each pause noticed, its length in ms. */
    private readonly onPause: (ms: number) => void = () => undefined,
  ) {
    this.probeMs = pauseMs / 4;
    this.lastProbe = clocks.monotonic();
    this.timer = probeOnTimer ? setInterval(() => this.probe(), this.probeMs).unref() : undefined;
  }

  /** Notes a pause since the last probe, if there was one; returns the wall clock now. */
  probe(): number {
    const at = this.clocks.monotonic();
    const wall = this.clocks.wall();
    const gap = at - this.lastProbe;
    this.lastProbe = at;
    if (gap > this.pauseMs) {
      this.pauses.push({ from: wall - (gap - this.probeMs), to: wall });
      this.onPause(gap - this.probeMs);
      while (this.pauses.length > MAX_PAUSES || (this.pauses[0] !== undefined && this.pauses[0].to < wall - HORIZON_MS)) this.pauses.shift();
    }
    return wall;
  }

  /**
   * Milliseconds this process was awake from `since` (a Date.now() time) to `now` (by default the wall clock
   * now, after a probe): the time between them less the pauses noticed in it.
   */
  awakeBetween(since: number, now = this.probe()): number {
    let ms = now - since;
    for (const p of this.pauses) ms -= Math.max(0, Math.min(p.to, now) - Math.max(p.from, since));
    return ms;
  }

  /** The latest pause noticed (after a probe), or undefined. */
  latestPause(): { from: number; to: number } | undefined {
    this.probe();
    const p = this.pauses[this.pauses.length - 1];
    return p === undefined ? undefined : { ...p };
  }

  /** Pauses noticed so far (a copy), for logs and tests. */
  noticed(): { from: number; to: number }[] {
    return this.pauses.map((p) => ({ ...p }));
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }
}

/** Pauses kept at most: a peer silent for longer than they span is long dead. */
const MAX_PAUSES = 1_000;
/** Pauses that ended longer ago than this are forgotten (no peer's silence that long is still in question). */
const HORIZON_MS = 10 * 60_000;
