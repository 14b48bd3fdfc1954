/**
 * Writing a JSON answer, and a refusal before the body was read, on a node:http response. Apart from
 * the request handling (RpcRequestHandler.ts) so that it reads as the status policy alone, and the
 * headers and connection handling of every JSON answer are in one place.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { standardError } from './errorResponse.js';
import { JSON_TYPE } from './TransportRules.js';

/**
 * A refusal before the body was read. A body that may still be on its way makes the connection
 * close after the answer, so a refused (possibly huge) body is never read or buffered.
 */
export function refuse(req: IncomingMessage, res: ServerResponse, status: number, reason: string, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.headersSent) return;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  sendJson(res, status, standardError('invalidRequest', null, reason), mayHaveBody(req));
}

export function sendJson(res: ServerResponse, status: number, body: string, close = false, contentType = JSON_TYPE): void {
  if (res.destroyed || res.headersSent) return;
  const headers: Record<string, string | number> = { 'content-type': contentType, 'content-length': Buffer.byteLength(body) };
  if (close) {
    headers.connection = 'close';
    res.shouldKeepAlive = false;
  }
  res.writeHead(status, headers);
  res.end(body);
}

function mayHaveBody(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
