/**
 * The log of refused peer messages, bounded: at most `burst` lines per `windowMs`, the rest counted
 * and reported in one line once the window is over (at the next refusal or tick()), so that a peer
 * sending garbage cannot flood the log (or the disk under it).
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
    if (this.suppressed > 0) this.log(`p2p: ${this.suppressed} more refused peer messages not logged (at most ${this.burst} lines per ${this.windowMs / 1000} s)`);
    this.suppressed = 0;
  }
}
