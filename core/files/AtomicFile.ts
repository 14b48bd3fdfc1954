import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * A file written in pieces and made visible whole: the pieces go to a temporary file beside the target,
 * which replaces the target by one rename after an fsync. A reader (a k6 run, a browser, a node starting
 * again) never sees half a file, and a crash or Ctrl-C leaves the previous file as it was. Every file the
 * project writes for someone else to read goes through here: corpora, reports, node keys, genesis files.
 */
export class AtomicFile {
  private readonly temp: string;
  private fd: number | undefined;

  /** `mode`: the file's permissions (before the umask), e.g. 0o600 for a private key. */
  constructor(
    readonly path: string,
    mode = 0o644,
  ) {
    this.temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    this.fd = openSync(this.temp, 'wx', mode);
  }

  write(text: string): void {
    if (this.fd === undefined) throw new Error(`AtomicFile ${this.path}: write after commit or abort`);
    // One write(2) may take less than it is given: write until every byte is down.
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at);
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

/** Writes `text` to `path` whole or not at all (see AtomicFile). */
export function writeFileAtomically(path: string, text: string, mode = 0o644): void {
  const file = new AtomicFile(path, mode);
  try {
    file.write(text);
    file.commit();
  } catch (error) {
    file.abort();
    throw error;
  }
}
