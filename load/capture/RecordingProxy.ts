/**
 * `chainrpc record`'s proxy: an HTTP server that passes every request to the upstream node and its answer back,
 * unchanged (the method, the request target, the body's bytes, the headers but those of one hop: RFC 9110 §7.6.1),
 * and writes each exchange to a capture (CaptureWriter). The request's bytes go out over kept connections that
 * send them as given (core/client/ExactHttpPool.ts), so a malformed body reaches the node as it came; the answer's
 * status, headers and bytes come back as the node sent them. An upstream that gives no answer (refused, reset,
 * timed out) is answered 502 by the proxy, said in its body, and recorded as a failure. What the proxy cannot pass
 * on: a request node:http cannot read as HTTP/1.1 (it answers 400 itself, and nothing is recorded), a body over
 * `maxBodyBytes` (413 from the proxy, recorded as a failure), and the framing of a chunked request (its bytes are
 * sent with a Content-Length).
 *
 * The writer may be given as a function, called once the proxy listens: a proxy that cannot listen (a port in use)
 * then writes nothing at all.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExactHttpPool } from '../../core/client/ExactHttpPool.js';
import { HttpExchangeFailure } from '../../core/client/HttpExchangeFailure.js';
import { captureBody, rpcIndex, type CaptureExchange } from './captureFormat.js';
import type { CaptureWriter } from './CaptureWriter.js';

/** The headers of one hop (RFC 9110 §7.6.1), and those the proxy writes itself: never passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authenticate', 'proxy-authorization', 'host', 'content-length']);
/** Answers read up to this many bytes; a longer one is not passed on (502). */
const ANSWER_CAP = 256 * 1024 * 1024;

export interface RecordingProxyOptions {
  /** The node's base URL: its origin, and a path the client's request targets are put under ("" or "/v1"). */
  upstream: string;
  host: string;
  /** 0: any free port. */
  port: number;
  /** The capture's writer, or what makes it once the proxy listens (nothing is written if it cannot). */
  writer: CaptureWriter | (() => CaptureWriter);
  /** Keep each answer's body in the capture. */
  answers: boolean;
  /** A request body over this is answered 413 by the proxy. */
  maxBodyBytes: number;
  /** An upstream answer not complete after this long is a failure (502). */
  timeoutMs: number;
  /** performance.now() at the recording's start: every `t` counts from it. */
  originMs: number;
}

/** The options an exchange reads: the writer made. */
type LiveOptions = RecordingProxyOptions & { writer: CaptureWriter };

export class RecordingProxy {
  readonly url: string;
  /** The capture's writer (made once the proxy listened, when given as a function). */
  readonly writer: CaptureWriter;
  readonly #server: Server;
  readonly #pool: ExactHttpPool;
  readonly #inFlight: Set<Promise<void>>;
  readonly #counted: { passed: number };

  private constructor(server: Server, pool: ExactHttpPool, url: string, writer: CaptureWriter, inFlight: Set<Promise<void>>, counted: { passed: number }) {
    this.#server = server;
    this.writer = writer;
    this.#pool = pool;
    this.url = url;
    this.#inFlight = inFlight;
    this.#counted = counted;
  }

  /** Exchanges passed on (recorded or not: past the size bound, traffic still flows). */
  get passed(): number {
    return this.#counted.passed;
  }

  static async start(o: RecordingProxyOptions): Promise<RecordingProxy> {
    const upstream = new URL(o.upstream);
    const prefix = upstream.pathname.replace(/\/+$/, '');
    const pool = new ExactHttpPool(upstream.origin, { maxIdle: 64 });
    const inFlight = new Set<Promise<void>>();
    const counted = { passed: 0 };
    // Set once the server listens, before any request can be read (requests come in later turns of the loop).
    let live: LiveOptions | undefined;
    const server = createServer((req, res) => {
      // An exchange never throws (a client gone away mid-request is no error of the recorder's): nothing unhandled.
      const done = exchange(req, res, live as LiveOptions, pool, prefix).catch(() => undefined).finally(() => {
        counted.passed++;
        inFlight.delete(done);
      });
      inFlight.add(done);
    });
    server.keepAliveTimeout = 5_000;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(o.port, o.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      live = { ...o, writer: typeof o.writer === 'function' ? o.writer() : o.writer };
    } catch (err) {
      server.close();
      pool.close();
      throw err;
    }
    const { port } = server.address() as AddressInfo;
    return new RecordingProxy(server, pool, `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${port}`, live.writer, inFlight, counted);
  }

  /** Stops taking connections, waits up to `graceMs` for the exchanges under way, then closes every connection. */
  async close(graceMs = 5_000): Promise<void> {
    this.#server.close();
    this.#server.closeIdleConnections();
    const waiting = Promise.all([...this.#inFlight]);
    await Promise.race([waiting, new Promise((r) => setTimeout(r, graceMs).unref())]);
    this.#server.closeAllConnections();
    this.#pool.close();
  }
}

/**
 * A client's request target under the upstream URL's path: `/x` under `/rpc` is `/rpc/x`, and the root (`/`,
 * `/?q`) is the path itself (`/rpc`, `/rpc?q`), not `/rpc/`: a client pointed at the proxy's bare URL meant the
 * node's endpoint, which a server may not serve with a slash added.
 */
export function underPrefix(prefix: string, path: string): string {
  if (prefix === '') return path;
  return path === '/' || path.startsWith('/?') ? `${prefix}${path.slice(1)}` : `${prefix}${path}`;
}

/** One request passed on and its answer passed back; the exchange recorded (the writer ignores it once full). */
async function exchange(req: IncomingMessage, res: ServerResponse, o: LiveOptions, pool: ExactHttpPool, prefix: string): Promise<void> {
  const arrived = performance.now();
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > o.maxBodyBytes) over = true;
      else chunks.push(chunk);
    }
  } catch {
    // The client closed the connection before its request was whole: nothing reached the node, nothing to record.
    return;
  }
  const body = Buffer.concat(chunks);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const method = req.method ?? 'GET';
  const path = req.url ?? '/';
  const request = captureBody(body);
  const record = (rest: Pick<CaptureExchange, 'status' | 'answer' | 'failure'>): void => {
    o.writer.add({ t: round(arrived - o.originMs), method, path, contentType: headers['content-type'] ?? null, request, rpc: rpcIndex(request), ms: round(performance.now() - arrived), ...rest });
  };
  if (over) {
    const why = `the request body is over the recorder's limit of ${o.maxBodyBytes} bytes (--max-body)`;
    res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8' }).end(`chainrpc record: ${why}\n`);
    return record({ status: null, failure: why });
  }
  try {
    const answer = await pool.send({ method, path: underPrefix(prefix, path), headers, body: body.length === 0 && method !== 'POST' ? undefined : body, timeoutMs: o.timeoutMs, maxBodyBytes: ANSWER_CAP });
    if (answer.truncated) throw new Error(`the answer is over ${ANSWER_CAP} bytes`);
    // Field by field as the upstream sent them (a flat list: node:http's form for repeated fields), so that none is
    // joined on the way (two Set-Cookie lines stay two: RFC 9110 §5.3).
    const back: string[] = [];
    for (const [name, value] of answer.fields ?? Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) back.push(name, value);
    res.writeHead(answer.status, back).end(answer.body);
    record({ status: answer.status, ...(o.answers ? { answer: captureBody(answer.body) } : {}) });
  } catch (err) {
    const why = err instanceof HttpExchangeFailure ? err.error.message : err instanceof Error ? err.message : String(err);
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(`chainrpc record: the upstream gave no answer: ${why}\n`);
    record({ status: null, failure: why });
  }
}

const round = (ms: number): number => Math.round(ms * 1_000) / 1_000;
