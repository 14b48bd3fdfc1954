/**
 * The writing half of one sendExactHttp exchange: the request's head and body, written in chunks
 * while the response is read, stopping once the node has answered or a write has failed. Apart
 * from sendExactHttp so that the exchange there reads as connect, read and settle; the socket
 * stays the exchange's, which alone destroys it.
 */
import type { Socket } from 'node:net';

// Writes of this size let the reader get a turn between them and keep at most this much queued
// past the point where the node's answer arrives.
const CHUNK_BYTES = 64 * 1024;

export class RequestWriter {
  private firstError: Error | undefined;
  private wakeWriter: (() => void) | undefined;

  /** `answered`: the exchange has settled, or a final response head has arrived; writing then stops. */
  constructor(
    private readonly socket: Socket,
    private readonly answered: () => boolean,
  ) {
    keepReadingAfterWriteErrors(socket, (error) => {
      this.firstError ??= error;
      this.wake();
    });
  }

  /** The first write that failed (EPIPE, ECONNRESET, ...), if one did: writing stopped there. */
  get writeError(): Error | undefined {
    return this.firstError;
  }

  /** Lets a write waiting for the socket to drain look again whether to go on. */
  wake(): void {
    this.wakeWriter?.();
  }

  /** The head with the body's first chunk, then the rest chunk by chunk, until all is written or writing stops. */
  async write(head: Buffer, body: Uint8Array): Promise<void> {
    let offset = Math.min(body.length, CHUNK_BYTES);
    let flowing = this.socket.write(Buffer.concat([head, body.subarray(0, offset)]));
    while (offset < body.length && !this.stopped()) {
      if (!flowing) {
        await this.drained();
        if (this.stopped()) break;
      }
      const end = Math.min(body.length, offset + CHUNK_BYTES);
      flowing = this.socket.write(body.subarray(offset, end));
      offset = end;
    }
  }

  private stopped(): boolean {
    return this.answered() || this.firstError !== undefined;
  }

  private drained(): Promise<void> {
    return new Promise<void>((resume) => {
      const wake = (): void => {
        this.socket.off('drain', wake);
        this.wakeWriter = undefined;
        resume();
      };
      this.wakeWriter = wake;
      this.socket.once('drain', wake);
    });
  }
}

/**
 * RFC 9112 §9.6 warns that a reset can cost a client the response it was about to read. The kernel
 * keeps the bytes that arrived before the RST, but node:net destroys a socket as soon as a write
 * fails, closing the descriptor with the node's answer still unread in the receive queue: the 413
 * would be lost to an EPIPE. So a failed write is reported to `onError` and to the stream as a
 * success: the socket stays open, the answer is read, and the end of the stream follows it.
 * `_write` / `_writev` are the stream's implementation hooks, wrapped here for this socket only.
 */
function keepReadingAfterWriteErrors(socket: Socket, onError: (error: Error) => void): void {
  const absorb =
    (callback: (error?: Error | null) => void) =>
    (error?: Error | null): void => {
      if (error !== undefined && error !== null) onError(error);
      callback(null);
    };
  const write = socket._write.bind(socket);
  socket._write = (chunk, encoding, callback) => write(chunk, encoding, absorb(callback));
  const writev = socket._writev?.bind(socket);
  if (writev !== undefined) socket._writev = (chunks, callback) => writev(chunks, absorb(callback));
}
