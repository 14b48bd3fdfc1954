/**
 * One case sent to one node, as exact bytes, and whatever came back: an HTTP answer (any status, any body,
 * cut at the answer cap) or the failure that stood for one (refused, reset, timed out). Cases go over the
 * client's keep-alive pool; a case that must carry no Content-Length goes on a connection of its own.
 * Nothing here judges: that is fuzz/oracles/.
 */
import { createClient, type RpcClient } from '../../core/client/index.js';
import { TransportError } from '../../core/client/TransportError.js';
import type { Profile } from '../../profile/Profile.js';
import type { FuzzAnswer, FuzzHttp } from '../model.js';

/** Answer bytes kept per case: enough to judge any answer of a well-behaved node, bounded against a hostile one. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** The fuzzer's client for one node: `connections` keep-alive sockets to its endpoint. */
export function fuzzClient(url: string, profile: Profile, connections: number): RpcClient {
  return createClient({ baseUrl: url, rpcPath: profile.rpcPath, connections, maxResponseBytes: MAX_ANSWER_BYTES });
}

/**
 * Sends `http` and returns the answer; a transport failure is an answer of its kind (never thrown). A body
 * over `exactAbove` bytes (the node's stated limit) goes on a connection of its own, written while the answer
 * is read: a node answering 413 early and closing is then seen answering, not as a failed write.
 */
export async function sendCase(client: RpcClient, http: FuzzHttp, timeoutMs: number, exactAbove = Infinity): Promise<FuzzAnswer> {
  const t0 = performance.now();
  const exact = http.omitContentLength === true || http.body.length > exactAbove;
  try {
    const r = await client.raw({
      method: http.method,
      body: http.body.length === 0 && http.method !== 'POST' ? undefined : http.body,
      headers: http.contentType === undefined ? {} : { 'content-type': http.contentType },
      timeoutMs,
      maxBodyBytes: MAX_ANSWER_BYTES,
      ...(exact ? { exact: true, ...(http.omitContentLength === true ? { omitContentLength: true } : {}) } : {}),
    });
    return { status: r.status, headers: { ...r.headers }, text: r.text, ...(r.truncated ? { truncated: true } : {}), ms: performance.now() - t0 };
  } catch (err) {
    if (err instanceof TransportError) return { failure: { code: err.code, message: err.message }, ms: performance.now() - t0 };
    throw err;
  }
}
