/**
 * Writes a capture (captureFormat.ts): the header, then exchange lines as they come, buffered and written in
 * whole lines at least every FLUSH_MS (a recording killed at any moment is readable up to its last whole line),
 * then the end line, synced to disk on close. Bounded: the first line that would take the file past `maxBytes`
 * is not written; the recording ends there (reason 'max-size') and the writer says so once, through `onFull`.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { stringifyJson } from '../../core/json/index.js';
import type { CaptureEnd, CaptureExchange, CaptureHeader } from './captureFormat.js';

/** Lines are written at least this often, and whenever this many bytes wait. */
const FLUSH_MS = 100;
const FLUSH_BYTES = 256 * 1024;

export class CaptureWriter {
  readonly path: string;
  #fd: number;
  #pending: string[] = [];
  #pendingBytes = 0;
  #written = 0;
  #exchanges = 0;
  #full = false;
  #closed = false;
  readonly #timer: NodeJS.Timeout;
  readonly #maxBytes: number;
  readonly #onFull: () => void;

  /** Creates `path` and writes the header; a file already there is never overwritten (EEXIST, even one made a moment ago). */
  constructor(path: string, header: CaptureHeader, options: { maxBytes: number; onFull?: () => void }) {
    this.path = path;
    this.#maxBytes = options.maxBytes;
    this.#onFull = options.onFull ?? (() => undefined);
    this.#fd = openSync(path, 'wx');
    this.#line(header);
    this.flush();
    this.#timer = setInterval(() => this.flush(), FLUSH_MS);
    this.#timer.unref();
  }

  /** Exchanges written so far. */
  get exchanges(): number {
    return this.#exchanges;
  }

  /** Whether the size bound ended the recording. */
  get full(): boolean {
    return this.#full;
  }

  /** Bytes in the file and waiting for it. */
  get bytes(): number {
    return this.#written + this.#pendingBytes;
  }

  /** Adds an exchange; false once the recording has ended (closed, or full). */
  add(exchange: CaptureExchange): boolean {
    if (this.#closed || this.#full) return false;
    if (!this.#line(exchange, true)) return false;
    this.#exchanges++;
    return true;
  }

  /** Writes the lines waiting. */
  flush(): void {
    if (this.#pending.length === 0 || this.#fd < 0) return;
    const text = this.#pending.join('');
    this.#pending = [];
    this.#pendingBytes = 0;
    const bytes = Buffer.from(text, 'utf8');
    for (let off = 0; off < bytes.length; ) off += writeSync(this.#fd, bytes, off);
    this.#written += bytes.length;
  }

  /** Writes the end line, syncs the file to disk and closes it. */
  close(reason: CaptureEnd['reason']): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    const end: CaptureEnd = { end: true, exchanges: this.#exchanges, reason: this.#full ? 'max-size' : reason, endedAt: new Date().toISOString() };
    // The end line is written even past the bound: it is what says the recording stopped there.
    this.#pending.push(`${stringifyJson(end)}\n`);
    this.flush();
    fsyncSync(this.#fd);
    closeSync(this.#fd);
    this.#fd = -1;
  }

  /** Queues one line; false (and the recording full) when it would take the file past the bound. */
  #line(value: object, bounded = false): boolean {
    // stringifyJson: an id beyond 2^53 (a bigint, as core/json reads it) is written as the integer it is.
    const line = `${stringifyJson(value)}\n`;
    const size = Buffer.byteLength(line, 'utf8');
    if (bounded && this.bytes + size > this.#maxBytes) {
      this.#full = true;
      this.#onFull();
      return false;
    }
    this.#pending.push(line);
    this.#pendingBytes += size;
    if (this.#pendingBytes >= FLUSH_BYTES) this.flush();
    return true;
  }
}
