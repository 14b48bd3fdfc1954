import type { IncomingMessage } from 'node:http';
import { parseJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { PeerRefusal } from './PeerRefusal.js';

/** Reads a peer message body; refuses (PeerRefusal) more than `limit` bytes (413, without buffering the rest) and what is not JSON (400). */
export function readJsonBody(req: IncomingMessage, limit: number): Promise<JsonValue> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > limit) {
      reject(new PeerRefusal(413, `peer message of ${declared} bytes is over the ${limit}-byte limit`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.destroy();
        reject(new PeerRefusal(413, `peer message is over the ${limit}-byte limit`));
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
        reject(new PeerRefusal(400, err instanceof Error ? err.message : String(err)));
      }
    });
  });
}
