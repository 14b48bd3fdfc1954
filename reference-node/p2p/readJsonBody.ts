import type { IncomingMessage } from 'node:http';
import { parseJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';

/** Reads a peer message body, refusing more than `limit` bytes without buffering the rest. */
export function readJsonBody(req: IncomingMessage, limit: number): Promise<JsonValue> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > limit) {
      reject(new Error(`peer message of ${declared} bytes is over the ${limit}-byte limit`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.destroy();
        reject(new Error(`peer message is over the ${limit}-byte limit`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks, size).toString('utf8');
      // The server keeps each connection's last request (and these listeners) until the next one.
      chunks.length = 0;
      try {
        resolve(parseJson(text));
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  });
}
