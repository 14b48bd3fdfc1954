import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * A file written in pieces and made visible whole: the pieces go to a temporary file beside the target,
 * which replaces the target by one rename after an fsync. A reader (a k6 run, a second chainrpc) never
 * sees half a corpus, and a crash or Ctrl-C leaves the previous file as it was.
 */
export class AtomicFile {
  private readonly temp: string;
  private fd: number | undefined;

  constructor(readonly path: string) {
    this.temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
    this.fd = openSync(this.temp, 'w', 0o644);
  }

  write(text: string): void {
    if (this.fd === undefined) throw new Error(`AtomicFile ${this.path}: write after commit or abort`);
    writeSync(this.fd, text);
  }

  /** Flushes to disk and puts the file in place. */
  commit(): void {
    if (this.fd === undefined) throw new Error(`AtomicFile ${this.path}: already committed or aborted`);
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
    renameSync(this.temp, this.path);
  }

  /** Drops the temporary file; the target is untouched. Safe to call more than once. */
  abort(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.temp, { force: true });
  }
}
