/**
 * Reading one request body under a byte limit. Apart from the server because it owns the two
 * listeners (data, end) a request adds, and what they hold: whether an idle keep-alive connection
 * keeps a body in memory is decided here (createRpcServer.dist.test.ts).
 */
import type { IncomingMessage } from 'node:http';

const NO_BYTES = Buffer.alloc(0);

/**
 * Reads the body, at most `limit` bytes: `onBody` gets it whole; as soon as it grows past the limit,
 * reading stops (the rest stays unread) and `onTooLarge` is called instead.
 */
export function readBody(req: IncomingMessage, limit: number, onBody: (bytes: Buffer) => void, onTooLarge: () => void): void {
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  let over = false;
  // The connection keeps its last request (and these listeners) until the next one arrives, so the
  // chunks are let go as soon as they are used: an idle keep-alive connection holds no body.
  req.on('data', (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > limit) {
      over = true;
      first = more = undefined;
      req.pause();
      onTooLarge();
    } else if (first === undefined) {
      first = chunk;
    } else {
      (more ??= [first]).push(chunk);
    }
  });
  req.on('end', () => {
    if (over) return;
    const body = more === undefined ? (first ?? NO_BYTES) : Buffer.concat(more, size);
    first = more = undefined;
    onBody(body);
  });
}
