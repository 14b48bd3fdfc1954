/**
 * One exchange on the RPC server, from node:http's hand-over to the answer: the path, the HTTP status
 * policy of docs/transport.md around handleRpcBody, the body decoded, the answer written. Apart from
 * createRpcServer.ts (the settings, the wiring, the connections and close()): this is the request hot
 * path, one object built once per server, so a request allocates no closure here beyond its two body
 * callbacks (and the two promise callbacks of an asynchronous dispatch).
 */
import { isAscii } from 'node:buffer';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { RPC_ERROR, standardError } from './errorResponse.js';
import { handleRpcBody, parseErrorText } from './handleRpcBody.js';
import type { HandleRpcBodyOptions } from './handleRpcBody.js';
import type { BodySink, RpcIncoming } from './readBody.js';
import { refuse, sendJson } from './sendJson.js';
import { JSON_TYPE } from './TransportRules.js';
import type { TransportRules } from './TransportRules.js';
import type { MethodTable, MetricsSource, OnCall, OnSettled } from './types.js';

const RPC_PATH = '/rpc';
const METRICS_PATH = '/metrics';
// fatal: a body that is not UTF-8 (RFC 8259 §8.1) is refused as a parse error, never decoded with U+FFFD.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The server's options the requests read, defaults applied (createRpcServer.ts). */
export interface RpcRequestSettings {
  readonly rules: TransportRules;
  readonly maxBodyBytes: number;
  readonly maxBatch: number;
  /** Most characters of large answers held unread (MAX_UNREAD_CHARS by default): past it, 503. */
  readonly maxUnreadChars: number;
  readonly logError: (line: string) => void;
  readonly onCall: OnCall | undefined;
  readonly onSettled: OnSettled | undefined;
  readonly metrics: MetricsSource | undefined;
}

/** Serves the requests of one server (`serve`); nothing a client sends can throw out of it. */
export class RpcRequestHandler implements BodySink {
  /** The method table; the server's setMethods replaces it. */
  methods: MethodTable;
  private readonly rules: TransportRules;
  private readonly maxBodyBytes: number;
  private readonly logError: (line: string) => void;
  private readonly onSettled: OnSettled | undefined;
  private readonly metrics: MetricsSource | undefined;
  private readonly rewriteAnswer: TransportRules['rewriteAnswer'];
  /** The dispatcher's options: the same for every request. */
  private readonly dispatchOptions: HandleRpcBodyOptions;
  /** Characters of large answers (UNREAD_TRACKED_CHARS and up) written and not yet handed to their sockets. */
  private unread = 0;
  private readonly maxUnreadChars: number;

  constructor(
    private readonly server: Server,
    methods: MethodTable,
    settings: RpcRequestSettings,
  ) {
    this.methods = methods;
    this.rules = settings.rules;
    this.maxBodyBytes = settings.maxBodyBytes;
    this.maxUnreadChars = settings.maxUnreadChars;
    this.logError = settings.logError;
    this.onSettled = settings.onSettled;
    this.metrics = settings.metrics;
    this.rewriteAnswer = settings.rules.rewriteAnswer;
    this.dispatchOptions = { maxBatch: settings.maxBatch, logError: settings.logError, rules: settings.rules, onCall: settings.onCall, onSettled: settings.onSettled };
  }

  /** One request, `expectsContinue` when it came with `Expect: 100-continue`. */
  serve(req: RpcIncoming, res: ServerResponse, expectsContinue: boolean): void {
    try {
      const path = pathOf(req.url);
      if (path === RPC_PATH) this.serveRpc(req, res, expectsContinue);
      else if (path === METRICS_PATH && this.metrics !== undefined) this.serveMetrics(req, res, this.metrics);
      // Only JSON-RPC (and the metrics) are served here: the peer protocol (/p2p/) has a listener of its own.
      else refuse(req, res, 404, `nothing is served at this path; JSON-RPC is at POST ${RPC_PATH}`);
    } catch (error) {
      this.failed(res, error);
    }
  }

  /** A handler bug, never a client's doing: logged, answered with 500 when still possible. */
  private failed(res: ServerResponse, error: unknown): void {
    const logError = this.logError;
    logError(`rpc: request handling failed: ${error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error'}`.replace(/\s+/g, ' '));
    if (!res.headersSent && !res.destroyed) sendJson(res, 500, standardError('internalError', null, 'the node failed while handling this request'), true);
    else res.destroy();
  }

  /** GET /metrics: the text as of now. A scrape is not a JSON-RPC call and is not counted as one. */
  private serveMetrics(req: IncomingMessage, res: ServerResponse, metrics: MetricsSource): void {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') {
      refuse(req, res, 405, `use GET for the metrics (got ${method ?? 'no method'})`, { allow: 'GET, HEAD' });
      return;
    }
    // HEAD gets GET's headers, its length included; node:http sends no body for it.
    metrics.text().then(
      (text) => sendJson(res, 200, text, false, metrics.contentType),
      (error: unknown) => this.failed(res, error),
    );
  }

  // The hot path: synchronous up to the dispatcher, with two listeners (data, end) per request.
  private serveRpc(req: RpcIncoming, res: ServerResponse, expectsContinue: boolean): void {
    const rules = this.rules;
    const maxBodyBytes = this.maxBodyBytes;
    const verdict = rules.httpMethod(req.method);
    if (verdict !== 'serve') {
      if (verdict === 'invalid-request') return sendJson(res, 200, standardError('invalidRequest', null, 'use POST for JSON-RPC'));
      refuse(req, res, 405, `use POST for JSON-RPC (got ${req.method ?? 'no method'})`, { allow: 'POST' });
      return;
    }
    if (!rules.acceptsContentType(req.headers['content-type'])) {
      refuse(req, res, 415, `the content type must be ${JSON_TYPE}`);
      return;
    }
    // Decide from Content-Length before reading a byte (node:http has already rejected a malformed one).
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBodyBytes) {
      refuse(req, res, 413, `the body is ${declared} bytes; this node takes at most ${maxBodyBytes}`);
      return;
    }
    const early = rules.beforeBody?.(req);
    if (early !== undefined) return sendJson(res, early.status, early.body, false, early.contentType);
    if (expectsContinue) res.writeContinue();
    // A client that leaves or is timed out mid-body never reaches `body` or `tooLarge`: nobody to answer.
    req.readBody(maxBodyBytes, res, this);
  }

  /** The body read whole (BodySink). */
  body(req: RpcIncoming, res: ServerResponse, bytes: Buffer): void {
    try {
      this.answer(req, res, bytes);
    } catch (error) {
      this.failed(res, error);
    }
  }

  /** The body grew past the limit (BodySink). */
  tooLarge(req: RpcIncoming, res: ServerResponse): void {
    refuse(req, res, 413, `the body is over ${this.maxBodyBytes} bytes, the most this node takes`);
  }

  /** The body read whole: decoded, dispatched (or taken over by the rules), answered. */
  private answer(req: IncomingMessage, res: ServerResponse, bytes: Buffer): void {
    let text: string;
    try {
      // ASCII (nearly every body) is read as it is, without the decoder's validation.
      text = isAscii(bytes) ? bytes.toString('latin1') : UTF8.decode(bytes);
    } catch {
      this.undecoded();
      this.send(res, parseErrorText('the body is not valid UTF-8'), '');
      return;
    }
    const { rules, logError } = this;
    if (rules.takeOver?.(text, { server: this.server, res, log: logError }) === true) return;
    // Clients that do not read their answers hold the node's memory: past the budget, no request is run until they
    // do (an outside tester's connections left 27 MB answers unread until the node ran out of memory).
    if (this.unread > this.maxUnreadChars) {
      res.setHeader('retry-after', '1');
      sendJson(res, 503, standardError('invalidRequest', null, `the node holds ${this.unread} characters of answers its clients have not read yet; it runs no request until they do: try again shortly`), true);
      return;
    }
    const dispatched = handleRpcBody(text, this.methods, this.dispatchOptions, req.socket);
    if (typeof dispatched === 'string' || dispatched === null) this.send(res, dispatched, text);
    else dispatched.then((d) => this.send(res, d, text)).catch((error: unknown) => this.failed(res, error));
  }

  /** Tells onSettled of a body refused before the dispatcher saw it (not UTF-8: a parse error, as the dispatcher's own). */
  private undecoded(): void {
    try {
      this.onSettled?.(null, RPC_ERROR.parseError.code, 0);
    } catch (error) {
      this.logError(`rpc: onSettled hook failed: ${error instanceof Error ? error.message : 'unknown error'}`.replace(/\s+/g, ' '));
    }
  }

  /** Writes the dispatcher's answer (null: nothing to send), after the rules' rewrite; `request` is the body's text. */
  private send(res: ServerResponse, dispatched: string | null, request: string): void {
    const rewriteAnswer = this.rewriteAnswer;
    const text = rewriteAnswer === undefined ? dispatched : rewriteAnswer(dispatched, request);
    if (res.destroyed || res.writableEnded) return;
    if (text === null) {
      // Notifications only: JSON-RPC sends nothing, HTTP says so with 204 and no body (profile).
      res.writeHead(204);
      res.end();
    } else {
      sendJson(res, this.rules.answerStatus(text), text, false, this.rules.answerContentType);
      // Only large answers are counted: the hot path of small ones adds no listener.
      if (text.length >= UNREAD_TRACKED_CHARS && !res.writableFinished) this.holdUntilRead(res, text.length);
    }
  }

  /** Counts an answer's characters as unread until its response is done (handed to the socket) or cut off. */
  private holdUntilRead(res: ServerResponse, chars: number): void {
    this.unread += chars;
    res.once('close', () => {
      this.unread -= chars;
    });
  }
}

/** Answers this long and longer are counted while unread (smaller ones are bounded by the connections and maxBatch). */
const UNREAD_TRACKED_CHARS = 64 * 1024;

/** The most characters of large answers the node holds for clients that have not read them (64 Mi): then 503. */
export const MAX_UNREAD_CHARS = 64 * 1024 * 1024;

/** The path of an origin-form or absolute-form request target; '' when it cannot be read. */
function pathOf(url: string | undefined): string {
  if (url === RPC_PATH || url === undefined) return url ?? '';
  if (url.startsWith('/')) {
    const q = url.search(/[?#]/);
    return q === -1 ? url : url.slice(0, q);
  }
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}
