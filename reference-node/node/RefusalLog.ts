/**
 * A bounded log of one kind of line (refused peer messages; the node's own pauses): at most `burst` lines per
 * `windowMs`, the rest counted and reported in one line once the window is over (at the next line or tick()), so
 * that a peer sending garbage, or a machine that starves the node, cannot flood the log (or the disk under it).
 */
export class RefusalLog {
  private windowStart = 0;
  private written = 0;
  private suppressed = 0;

  constructor(
    private readonly log: (line: string) => void,
    private readonly burst = 50,
    private readonly windowMs = 10_000,
    private readonly now: () => number = Date.now,
    /** What the lines are about, for the count of those not logged ("p2p: 8 more refused peer messages not logged"). */
    private readonly what = 'p2p: {n} more refused peer messages',
  ) {}

  write(line: string): void {
    const t = this.now();
    if (t - this.windowStart >= this.windowMs) {
      this.flush();
      this.windowStart = t;
      this.written = 0;
    }
    if (this.written < this.burst) {
      this.written++;
      this.log(line);
    } else {
      this.suppressed++;
    }
  }

  /** Called regularly (every heartbeat): reports what a finished window suppressed, even if no refusal followed. */
  tick(): void {
    if (this.suppressed > 0 && this.now() - this.windowStart >= this.windowMs) this.flush();
  }

  /** Reports the refusals counted but not written. */
  flush(): void {
    if (this.suppressed > 0) this.log(`${this.what.replace('{n}', String(this.suppressed))} not logged (at most ${this.burst} lines per ${this.windowMs / 1000} s)`);
    this.suppressed = 0;
  }
}
