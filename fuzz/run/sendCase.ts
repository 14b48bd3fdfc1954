/**
 * One case sent to one node, as exact bytes, and whatever came back: an HTTP answer (any status, any body,
 * cut at the answer cap) or the failure that stood for one (refused, reset, timed out). Cases go over kept
 * connections that send the bytes as given (core/client/ExactHttpPool.ts: no client library shapes them, none
 * parses the answer on the way); a case that must carry no Content-Length goes on a connection of its own.
 * Nothing here judges: that is fuzz/oracles/.
 */
import { ExactHttpPool } from '../../core/client/ExactHttpPool.js';
import { HttpExchangeFailure } from '../../core/client/HttpExchangeFailure.js';
import { createClient, type RpcClient } from '../../core/client/index.js';
import type { Profile } from '../../profile/Profile.js';
import type { FuzzAnswer, FuzzHttp } from '../model.js';

/** Answer bytes kept per case: enough to judge any answer of a well-behaved node, bounded against a hostile one. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** The fuzzer's client for one node's typed calls (reading the chain): `connections` keep-alive sockets to its endpoint. */
export function fuzzClient(url: string, profile: Profile, connections: number): RpcClient {
  return createClient({ baseUrl: url, rpcPath: profile.rpcPath, connections, maxResponseBytes: MAX_ANSWER_BYTES });
}

/** Where a node's cases go: its JSON-RPC endpoint, over kept connections. */
export class CaseSender {
  readonly url: string;
  readonly path: string;
  readonly pool: ExactHttpPool;

  /** `endpoint`: the full endpoint URL (RpcClient.url: the base URL and the profile's rpcPath). */
  constructor(endpoint: string, connections: number) {
    const u = new URL(endpoint);
    this.url = endpoint;
    this.path = `${u.pathname}${u.search}`;
    this.pool = new ExactHttpPool(u.origin, { maxIdle: connections });
  }

  close(): void {
    this.pool.close();
  }
}

// ignoreBOM: a byte order mark the node sent stays in the text, for the oracles to see.
const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Sends `http` and returns the answer; a transport failure is an answer of its kind (never thrown). A body
 * over `exactAbove` bytes (the node's stated limit) goes on a connection of its own, written while the answer
 * is read: a node answering 413 early and closing is then seen answering, not as a failed write.
 */
export async function sendCase(sender: CaseSender, http: FuzzHttp, timeoutMs: number, exactAbove = Infinity): Promise<FuzzAnswer> {
  const t0 = performance.now();
  try {
    const r = await sender.pool.send({
      method: http.method,
      path: sender.path,
      body: http.body.length === 0 && http.method !== 'POST' ? undefined : http.body,
      headers: http.contentType === undefined ? {} : { 'content-type': http.contentType },
      omitContentLength: http.omitContentLength === true,
      alone: http.body.length > exactAbove,
      timeoutMs,
      maxBodyBytes: MAX_ANSWER_BYTES,
    });
    // Invalid UTF-8 becomes U+FFFD, as the client's text did; the oracles read the bytes' meaning from the text.
    return { status: r.status, headers: r.headers, text: DECODER.decode(r.body), ...(r.truncated ? { truncated: true } : {}), ms: performance.now() - t0 };
  } catch (err) {
    if (err instanceof HttpExchangeFailure) return { failure: { code: err.error.code, message: err.error.message }, ms: performance.now() - t0 };
    throw err;
  }
}
