/**
 * A varying test node: a real HTTP server on loopback in front of a reference node that changes, per
 * named mode (./variations.ts), what the interface spec allows nodes to choose differently. The
 * conformance suite is run against it to prove that legal choices are not failed.
 *
 * Modes compose, in a fixed order. Request side: routing, content type (here), then the later method
 * names (./renameMethods.ts: prefix-unlisted, faucet-renamed), then param leniency, param encodings,
 * height shift, method names (./rewriteCalls.ts). Response side: shape changes, height shift, value
 * encodings, key names, error data (./rewriteAnswers.ts), then the later results (./rewriteResults.ts:
 * genesis-parent-empty, hex-peer-count, faucet-renamed's listing), then HTTP statuses (here).
 *
 * Everything is bounded: request bodies (4 MiB, or 64 KiB with small-limits, decided on the declared
 * length before a byte is read), upstream answers (32 MiB), time (30 s per upstream exchange, node:http's
 * request timeouts), sockets (one keep-alive agent). No exception leaves a request handler: an upstream
 * failure is answered 502, a fault of the proxy itself 500.
 */
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';
import { rewriteAnswers } from './rewriteAnswers.js';
import { rewriteCalls } from './rewriteCalls.js';
import type { CallPlan } from './rewriteCalls.js';
import { CallBook } from './callBook.js';
import { LATER_VARIATIONS, renameMethods } from './renameMethods.js';
import { rewriteResults } from './rewriteResults.js';
import { EXCLUSIVE_VARIATIONS, isVariationName, VARIATIONS } from './variations.js';
import type { VariationName } from './variations.js';

export { VARIATIONS };
export type { VariationName };

export interface VaryingNode {
  /** The base URL clients use (its JSON-RPC endpoint is `/rpc` unless a path mode moves it). */
  readonly url: string;
  /** Stops accepting, drops every connection (client and upstream side) and resolves once closed. */
  close(): Promise<void>;
}

/** Upstream's endpoint, whatever path this node serves JSON-RPC at. */
const UPSTREAM_PATH = '/rpc';
const ROOT_PATH = '/';
const V1_PATH = '/v1/jsonrpc';
/** Well above the reference node's 1 MiB, so that upstream's own 413 is what clients see below it. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const SMALL_MAX_BODY_BYTES = 65_536;
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
const UPSTREAM_TIMEOUT_MS = 30_000;
const MAX_UPSTREAM_SOCKETS = 256;
const JSON_TYPE = 'application/json';
// Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection; node:http writes its own.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
// Not passed on with a request: the host is upstream's, and Expect: 100-continue was answered here.
const REQUEST_ONLY = new Set(['host', 'expect']);
// fatal: a body that is not UTF-8 goes on as bytes, so upstream refuses it exactly as it would.
const UTF8 = new TextDecoder('utf-8', { fatal: true });
// The upstream answers error-statuses replaces: JSON-RPC code -> HTTP status.
const ERROR_STATUS: ReadonlyMap<number, number> = new Map([
  [-32700, 400],
  [-32600, 400],
  [-32601, 404],
  [-32603, 500],
]);

interface UpstreamAnswer {
  status: number;
  headers: OutgoingHttpHeaders;
  body: string;
}

class UpstreamError extends Error {}

export async function startVaryingNode(upstream: string, modes: VariationName[]): Promise<VaryingNode> {
  for (const mode of modes) if (!isVariationName(mode)) throw new Error(`startVaryingNode: unknown variation ${JSON.stringify(mode)}; known: ${Object.keys(VARIATIONS).join(', ')}`);
  const active: ReadonlySet<VariationName> = new Set(modes);
  for (const group of EXCLUSIVE_VARIATIONS) if (group.every((m) => active.has(m))) throw new Error(`startVaryingNode: ${group.join(' and ')} cannot be made at once (each names the methods its own way)`);
  // The later variations' response side (rewriteResults.ts) runs only where one of them is on: the other modes pay nothing.
  const laterResults = LATER_VARIATIONS.some((m) => active.has(m));
  // Paths are appended as text: new URL(path, base) would let '//host/x' or an absolute-form target leave upstream.
  const base = upstream.replace(/\/+$/, '');
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_UPSTREAM_SOCKETS });
  const inFlight = new Set<ClientRequest>();
  const endpoints = endpointPaths(active);
  const bodyLimit = active.has('small-limits') ? SMALL_MAX_BODY_BYTES : MAX_BODY_BYTES;

  /** One exchange with upstream, its answer buffered (bounded); rejects with UpstreamError. */
  const exchange = (path: string, method: string, headers: OutgoingHttpHeaders, body: Buffer | string | undefined): Promise<UpstreamAnswer> =>
    new Promise((resolve, reject) => {
      const up = httpRequest(`${base}${path}`, { method, headers, agent });
      inFlight.add(up);
      up.setTimeout(UPSTREAM_TIMEOUT_MS, () => up.destroy(new UpstreamError('upstream did not answer in time')));
      // Settling twice is a no-op, so every way an exchange can end simply settles it.
      up.on('close', () => {
        inFlight.delete(up);
        reject(new UpstreamError('the upstream connection closed before its answer'));
      });
      up.on('error', (error) => reject(new UpstreamError(error.message)));
      up.on('response', (upRes) => {
        const chunks: Buffer[] = [];
        let size = 0;
        upRes.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) up.destroy(new UpstreamError(`upstream answer over ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(chunk);
        });
        upRes.on('error', (error) => reject(new UpstreamError(error.message)));
        upRes.on('end', () => resolve({ status: upRes.statusCode ?? 502, headers: passedHeaders(upRes.headers, HOP_BY_HOP), body: Buffer.concat(chunks).toString('utf8') }));
      });
      up.end(body);
    });

  const serve = async (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): Promise<void> => {
    const path = pathOf(req.url);
    // Routing: a moved endpoint leaves nothing at /rpc.
    if (path === UPSTREAM_PATH && !endpoints.has(UPSTREAM_PATH)) return sendEmpty(req, res, 404);
    if (!endpoints.has(path)) return passThrough(req, res, expectsContinue);
    // The endpoint, but not a JSON-RPC POST: upstream refuses it (405, 415) from the method and headers alone, so no body goes on.
    if (req.method !== 'POST' || !servedContentType(req.headers['content-type'], active)) {
      const headers: OutgoingHttpHeaders = { 'content-length': '0' };
      if (req.headers['content-type'] !== undefined) headers['content-type'] = req.headers['content-type'];
      return answerWith(req, res, await exchange(UPSTREAM_PATH, req.method ?? 'GET', headers, undefined), emptyPlan());
    }
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > bodyLimit) return sendEmpty(req, res, 413);
    if (expectsContinue) res.writeContinue();
    const bytes = await readBody(req, bodyLimit);
    if (bytes === undefined) return sendEmpty(req, res, 413);
    let text: string;
    try {
      text = UTF8.decode(bytes);
    } catch {
      return answerWith(req, res, await exchange(UPSTREAM_PATH, 'POST', jsonHeaders(bytes), bytes), emptyPlan());
    }
    // Method names of the later variations first (renameMethods.ts), then rewriteCalls' steps.
    const renamed = renameMethods(text, active);
    const planned: CallPlan = renamed.text === undefined ? { ...emptyPlan(), batch: renamed.batch } : rewriteCalls(renamed.text, active);
    const plan: CallPlan = renamed.own.length === 0 ? planned : { ...planned, ownAnswers: [...planned.ownAnswers, ...renamed.own], batch: planned.batch || renamed.batch };
    if (plan.upstreamBody === undefined) return answerWith(req, res, { status: 204, headers: {}, body: '' }, plan, renamed.book);
    return answerWith(req, res, await exchange(UPSTREAM_PATH, 'POST', jsonHeaders(plan.upstreamBody), plan.upstreamBody), plan, renamed.book);
  };

  /** The response side: the body rewritten (rewriteAnswers, then rewriteResults by `book`), then the HTTP status policy. */
  const answerWith = (req: IncomingMessage, res: ServerResponse, answer: UpstreamAnswer, plan: CallPlan, book?: CallBook): void => {
    const { status } = answer;
    // 204: nothing from upstream (notifications only), which the varying node's own answers may fill.
    const rpcAnswer = status === 200 || status === 204;
    const rewritten = rewriteAnswers(status === 204 ? null : answer.body, rpcAnswer ? plan : { ...plan, ownAnswers: [] }, active);
    let body = (laterResults && rpcAnswer && book !== undefined ? rewriteResults(rewritten.body, book, active) : rewritten.body) ?? '';
    let outStatus = status === 204 && rewritten.body !== null ? 200 : status;
    const headers: OutgoingHttpHeaders = { ...answer.headers };
    if (outStatus === 204 && active.has('notifications-200')) outStatus = 200;
    if (outStatus === 200 && active.has('error-statuses') && rewritten.singleErrorCode !== undefined) outStatus = ERROR_STATUS.get(rewritten.singleErrorCode) ?? 200;
    if (outStatus === 204) body = '';
    else if (body !== '' && headers['content-type'] === undefined) headers['content-type'] = JSON_TYPE;
    headers['content-length'] = Buffer.byteLength(body);
    send(req, res, outStatus, headers, body);
  };

  /** Any other path: streamed both ways to the same path upstream, unchanged. */
  const passThrough = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): Promise<void> =>
    new Promise<void>((resolve) => {
      const up = httpRequest(`${base}${targetOf(req.url)}`, { method: req.method ?? 'GET', headers: passedHeaders(req.headers, new Set([...HOP_BY_HOP, ...REQUEST_ONLY])), agent });
      inFlight.add(up);
      up.setTimeout(UPSTREAM_TIMEOUT_MS, () => up.destroy(new UpstreamError('upstream did not answer in time')));
      up.on('close', () => {
        inFlight.delete(up);
        resolve();
      });
      up.on('response', (upRes) => {
        if (res.destroyed || res.headersSent) return void upRes.resume();
        res.writeHead(upRes.statusCode ?? 502, passedHeaders(upRes.headers, HOP_BY_HOP));
        pipeline(upRes, res, () => undefined);
      });
      // pipeline destroys both sides on failure; an upstream failure before any answer is a 502.
      if (expectsContinue) res.writeContinue();
      pipeline(req, up, (error) => {
        if (error && !res.headersSent) sendEmpty(req, res, 502);
      });
    });

  const onRequest = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void => {
    // A client that goes away mid-request must not become an unhandled 'error' event.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    serve(req, res, expectsContinue).catch((error: unknown) => sendEmpty(req, res, error instanceof UpstreamError ? 502 : 500));
  };

  const server = createServer({ requestTimeout: UPSTREAM_TIMEOUT_MS, headersTimeout: 10_000, keepAliveTimeout: 5_000 });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => onRequest(req, res, false));
  // Expect: 100-continue is answered here, so a body over the limit is refused before it is sent.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => onRequest(req, res, true));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const up of inFlight) up.destroy();
        agent.destroy();
      });
      return closing;
    },
  };
}

function endpointPaths(modes: ReadonlySet<VariationName>): ReadonlySet<string> {
  const paths = new Set<string>();
  // Both path modes at once: JSON-RPC is served at both paths.
  if (modes.has('path-root')) paths.add(ROOT_PATH);
  if (modes.has('path-v1')) paths.add(V1_PATH);
  if (paths.size === 0) paths.add(UPSTREAM_PATH);
  return paths;
}

const emptyPlan = (): CallPlan => ({ upstreamBody: undefined, ownAnswers: [], batch: false, book: new CallBook() });

const jsonHeaders = (body: Buffer | string): OutgoingHttpHeaders => ({ 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) });

/** Whether a POST with this content type is JSON-RPC here: application/json (any case, any parameters), and with text-plain-served text/plain or none. */
function servedContentType(value: string | undefined, modes: ReadonlySet<VariationName>): boolean {
  const type = value === undefined ? undefined : (value.split(';')[0] ?? '').trim().toLowerCase();
  if (type === JSON_TYPE) return true;
  return modes.has('text-plain-served') && (type === undefined || type === 'text/plain');
}

/** Headers to pass on, without the ones named in `dropped`. */
function passedHeaders(headers: IncomingHttpHeaders, dropped: ReadonlySet<string>): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !dropped.has(name)) out[name] = value;
  return out;
}

/** The body, or undefined once it grows past `limit` (reading stops there: nothing more is buffered). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      chunks.length = 0;
      resolve(undefined);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client left mid-body'));
    });
  });
}

/** A status with an empty body; the connection closes when a body may still be on its way (it is never read). */
function sendEmpty(req: IncomingMessage, res: ServerResponse, status: number): void {
  send(req, res, status, { 'content-length': 0 }, '');
}

function send(req: IncomingMessage, res: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: string): void {
  if (res.destroyed || res.headersSent) return;
  if (mayHaveBody(req)) {
    headers.connection = 'close';
    res.shouldKeepAlive = false;
  }
  res.writeHead(status, headers);
  res.end(body);
}

/** Whether part of the request's body may still be unread (node:http would have to read it before the next request). */
function mayHaveBody(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The request target as a path and query (an absolute-form target is cut down to them). */
function targetOf(url: string | undefined): string {
  if (url === undefined) return '/';
  if (url.startsWith('/')) return url;
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return '/';
  }
}

/** The path of the request target, without the query. */
function pathOf(url: string | undefined): string {
  if (url === undefined) return '';
  if (url.startsWith('/')) return url.replace(/[?#].*$/s, '');
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}
