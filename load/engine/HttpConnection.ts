/**
 * One HTTP/1.1 keep-alive connection on node:net, one request at a time, built for sending many small
 * requests cheaply: Nagle off, the request's head pre-encoded per body, and a minimal response parser (status
 * line, headers, Content-Length, chunked, a body read to the close, `Connection: close`). When the server
 * closes it, the next request connects again. A request that outlives its timeout is ended by destroying the
 * socket (the engine's sweeper calls `expire`). undici is kept for core/client/: this is the load path, and the
 * measurement in docs/load.md ("The engine") is why.
 *
 * Why a parser of its own beside core/client/HttpResponseReader.ts: that one reads any response a node may
 * send, as evidence for a check (1xx, HEAD, trailers, limits, a truncated body kept and said); this one reads
 * the next answer on the hot path with the fewest copies, and anything outside its few shapes fails the request.
 */
import { connect, type Socket } from 'node:net';
import { socketErrorCause, TRANSPORT_CAUSE, type Exchange } from '../metrics/classifyExchange.js';
import { readTurn, type Delivery } from './ReadTurn.js';

/** Where requests go: from an http: URL. */
export interface HttpTarget {
  host: string;
  port: number;
  /** The request target (path and query). */
  path: string;
  /** The Host header's value. */
  hostHeader: string;
}

/** The target of a full endpoint URL (`http://127.0.0.1:8545/rpc`); http: only. */
export function parseTarget(url: string): HttpTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`"${url}" is not a URL: give the node's endpoint, e.g. http://127.0.0.1:8545/rpc`);
  }
  if (u.protocol !== 'http:') throw new Error(`"${url}": the load engine speaks plain http: only (got ${u.protocol}); put a TLS terminator in front or use an http: endpoint`);
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  return { host, port: u.port === '' ? 80 : Number(u.port), path: `${u.pathname}${u.search}`, hostHeader: u.host };
}

/** Encodes request bodies with their HTTP head; the same body Buffer (a fixed request) is encoded once. */
export class RequestEncoder {
  readonly #prefix: string;
  readonly #cache = new WeakMap<Buffer, Buffer>();

  constructor(target: HttpTarget) {
    this.#prefix = `POST ${target.path} HTTP/1.1\r\nHost: ${target.hostHeader}\r\nContent-Type: application/json\r\nContent-Length: `;
  }

  wire(body: Buffer): Buffer {
    let wire = this.#cache.get(body);
    if (wire === undefined) {
      const head = Buffer.from(`${this.#prefix}${body.length}\r\n\r\n`, 'latin1');
      wire = Buffer.concat([head, body]);
      this.#cache.set(body, wire);
    }
    return wire;
  }
}

/** What the connection tells its owner. */
export interface ConnectionEvents<T> {
  /**
   * The request given with `context` ended; `writtenMs` is when its first byte was written (undefined: never).
   * An answer's `endedMs` is when its last bytes were read, stamped before any work on it or on the answers
   * read after it in the same turn (ReadTurn.ts), and `readLagMs` is how long they may have waited unread in
   * this thread; a failure's `endedMs` is when it was seen, with no `readLagMs`.
   */
  ended(connection: HttpConnection<T>, context: T, exchange: Exchange, writtenMs: number | undefined, endedMs: number, readLagMs?: number): void;
  /** A connection attempt succeeded or failed (for telling an unreachable target). */
  connected?(ok: boolean, error?: Error): void;
  /** The first byte of a request was written. */
  written?(context: T): void;
}

const CRLFCRLF = Buffer.from('\r\n\r\n');
const MAX_HEAD = 64 * 1024;
/**
 * The largest answer body read: 16 MiB (16,777,216 bytes), the limit of chainrpc's JSON-RPC client
 * (core/client's CLIENT_DEFAULTS.maxResponseBytes), so the run's probe and its load refuse the same answers. A
 * larger one ends as a transport failure, the connection closed, as soon as it is known: at a Content-Length or a
 * chunk size over it, before its bytes are read. A node gone wrong must not make the generator buffer without
 * bound (before 2026-11-28 the bound was 64 MiB, and answers of 20 MB counted as ok where the probe refused them).
 */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** The most bytes one answer may take on the wire: its body's limit, and 1 MiB for its head and chunk framing. */
const MAX_WIRE_BYTES = MAX_RESPONSE_BYTES + 1024 * 1024;

/** An answer over MAX_RESPONSE_BYTES (or MAX_WIRE_BYTES): its message is the failure's reason. */
class AnswerTooLarge extends Error {}

const tooLarge = (what: string): AnswerTooLarge => new AnswerTooLarge(`an answer over the load engine's limit of ${MAX_RESPONSE_BYTES} bytes (16 MiB): ${what}`);

/**
 * Every connection of a thread reads into this one buffer (node:net's `onread`: no stream machinery, no new
 * Buffer per read). A read is handled before the next can arrive, so only the bytes kept across reads (a
 * response split over several) are copied out of it.
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
const isShared = (b: Buffer): boolean => b.buffer === READ_BUFFER.buffer;

/** A request's end, handed to its connection's `ended` after the turn's reads (a class: no closure per answer). */
class Ended<T> implements Delivery {
  constructor(
    readonly connection: HttpConnection<T>,
    readonly context: T,
    readonly exchange: Exchange,
    readonly writtenMs: number | undefined,
    readonly endedMs: number,
    readonly readLagMs: number | undefined,
  ) {}

  deliver(): void {
    this.connection.events.ended(this.connection, this.context, this.exchange, this.writtenMs, this.endedMs, this.readLagMs);
  }
}

/** A header's value in a lower-cased head, `key` being "\r\n<name>:"; undefined when absent. */
function headerValue(lower: string, key: string): string | undefined {
  const at = lower.indexOf(key);
  if (at === -1) return undefined;
  const from = at + key.length;
  const to = lower.indexOf('\r\n', from);
  return lower.slice(from, to === -1 ? undefined : to).trim();
}

/**
 * How the answer's body ends. Chunked: `left`, the bytes of the current chunk's data still to come (taken as they
 * come, so a large chunk is never gathered whole in the read buffer), then `crlf`, the bytes of its closing CRLF.
 */
type Framing = { kind: 'length'; remaining: number } | { kind: 'chunked'; left: number; crlf: number } | { kind: 'close' };

/** Heads longer than this are never remembered (copying them would cost more than reading them). */
const REMEMBERED_HEAD_MAX = 512;

/**
 * The last final response head read in this thread, byte for byte, and what it said. A server answers with the
 * same head time after time (it changes with the Date header each second, or with the body's length), so a head
 * equal to it is known by one comparison of bytes, without decoding or searching it.
 */
class RememberedHead {
  #bytes: Buffer | undefined;
  status = 0;
  closeAfter = false;
  /** The framing it gave, as the head said it (a length framing's `remaining` counts down in each answer's copy). */
  #framing: Framing = { kind: 'close' };

  /** Whether `buf`'s first `end` bytes are the remembered head. */
  matches(buf: Buffer, end: number): boolean {
    const bytes = this.#bytes;
    return bytes !== undefined && bytes.length === end && buf.compare(bytes, 0, end, 0, end) === 0;
  }

  remember(buf: Buffer, end: number, status: number, closeAfter: boolean, framing: Framing): void {
    if (end > REMEMBERED_HEAD_MAX) return;
    this.#bytes = Buffer.from(buf.subarray(0, end));
    this.status = status;
    this.closeAfter = closeAfter;
    this.#framing = { ...framing };
  }

  /** The framing for a new answer with this head: a length framing's own copy; the others are never changed. */
  framing(): Framing {
    const f = this.#framing;
    return f.kind === 'length' ? { kind: 'length', remaining: f.remaining } : f.kind === 'chunked' ? { kind: 'chunked', left: 0, crlf: 0 } : f;
  }
}

const rememberedHead = new RememberedHead();

export class HttpConnection<T> {
  #socket: Socket | undefined;
  #connected = false;
  #wire: Buffer | undefined;
  #context: T | undefined;
  #writtenMs: number | undefined;
  /** When the current request was handed over (its timeout runs from here). */
  startedMs = 0;
  // Parsing state of the current response.
  #buf: Buffer | undefined;
  #status = 0;
  #framing: Framing | undefined;
  #bodyParts: Buffer[] = [];
  #closeAfter = false;
  /** Bytes read of the current answer, head and framing included (bounded by MAX_WIRE_BYTES). */
  #received = 0;
  /** Bytes of the current answer's body so far (bounded by MAX_RESPONSE_BYTES). */
  #bodyBytes = 0;
  /** The stamp of the read being parsed (ReadTurn.read); undefined outside one. */
  #readAt: number | undefined;

  /**
   * @param timeoutMs A request with no complete answer this long after it was handed over is a timeout, however
   * late the owner's sweep (`expire`) comes: an answer completed after its deadline ends as a timeout too, at the
   * deadline (default: none).
   */
  constructor(
    readonly target: HttpTarget,
    readonly events: ConnectionEvents<T>,
    readonly timeoutMs = Infinity,
  ) {}

  /** Whether a request is under way. */
  get busy(): boolean {
    return this.#context !== undefined;
  }

  /** Sends `wire` (head and body); `events.ended` is called once with `context` when it ends. */
  send(wire: Buffer, context: T): void {
    if (this.#context !== undefined) throw new Error('HttpConnection.send: a request is already under way on this connection');
    this.#context = context;
    this.#wire = wire;
    this.#writtenMs = undefined;
    const t = performance.now();
    this.startedMs = t;
    this.#resetParser();
    if (this.#socket !== undefined && this.#connected) this.#write(t);
    else if (this.#socket === undefined) this.#open();
  }

  /** Opens the connection ahead of its first request (idle until `send`); a no-op when it is open. */
  open(): void {
    if (this.#socket === undefined) this.#open();
  }

  /** Ends the current request as a timeout if it began before `beforeMs` (the socket is destroyed). */
  expire(beforeMs: number): void {
    if (this.#context !== undefined && this.startedMs < beforeMs) this.#fail({ kind: 'timeout' });
  }

  /** Closes the connection; a request under way ends as a transport failure. */
  close(): void {
    if (this.#context !== undefined) this.#fail({ kind: 'transport', cause: TRANSPORT_CAUSE.closedByEngine, reason: 'closed by the load engine' });
    this.#drop();
  }

  #open(): void {
    const socket = connect({
      host: this.target.host,
      port: this.target.port,
      noDelay: true,
      onread: {
        buffer: READ_BUFFER,
        callback: (n: number, buf: Uint8Array): boolean => {
          // The stamp first: nothing of the engine's runs between the read and it.
          const at = readTurn.read();
          if (this.#socket === socket) this.#onData(Buffer.from(buf.buffer, buf.byteOffset, n), at);
          return true; // keep reading
        },
      },
    });
    this.#socket = socket;
    this.#connected = false;
    socket.on('connect', () => {
      if (this.#socket !== socket) return;
      this.#connected = true;
      this.events.connected?.(true);
      if (this.#context !== undefined && this.#writtenMs === undefined) this.#write();
    });
    socket.on('error', (error: Error) => {
      if (this.#socket !== socket) return;
      if (!this.#connected) this.events.connected?.(false, error);
      const code = (error as NodeJS.ErrnoException).code;
      this.#onClosed(socketErrorCause(code), `${code ?? error.name}: ${error.message}`);
    });
    socket.on('close', () => {
      if (this.#socket === socket) this.#onClosed(TRANSPORT_CAUSE.closedByNode, 'the server closed the connection');
    });
  }

  /** Writes the request; `t`: now, when the caller has just read the clock. */
  #write(t = performance.now()): void {
    const socket = this.#socket as Socket;
    this.#writtenMs = t;
    readTurn.working(t);
    socket.write(this.#wire as Buffer);
    this.events.written?.(this.#context as T);
  }

  #onClosed(cause: string, reason: string): void {
    // A body framed by the close ends here.
    if (this.#context !== undefined && this.#framing?.kind === 'close') {
      this.#drop();
      this.#complete();
      return;
    }
    this.#drop();
    if (this.#context !== undefined) this.#fail({ kind: 'transport', cause, reason });
  }

  #drop(): void {
    const socket = this.#socket;
    this.#socket = undefined;
    this.#connected = false;
    if (socket !== undefined) {
      socket.on('error', () => {});
      socket.destroy();
    }
  }

  #fail(exchange: Exchange): void {
    this.#drop();
    this.#end(exchange);
  }

  /**
   * Ends the request: an answer stamped at the read that completed it, anything else now; delivered after the
   * turn's reads. Whatever ends it after its deadline (`startedMs + timeoutMs`: an answer, a failure, the sweep)
   * is a timeout, ended at the deadline: "no complete answer within timeoutMs" does not depend on when the
   * owner's sweep last ran, and a timeout's latency is its timeout.
   */
  #end(exchange: Exchange): void {
    const context = this.#context as T;
    const written = this.#writtenMs;
    this.#context = undefined;
    this.#wire = undefined;
    this.#resetParser();
    const at = this.#readAt;
    const endedMs = at ?? performance.now();
    const deadline = this.startedMs + this.timeoutMs;
    if (exchange.kind === 'timeout' || endedMs > deadline) {
      readTurn.defer(new Ended(this, context, { kind: 'timeout' }, written, Math.min(endedMs, deadline), undefined));
      return;
    }
    readTurn.defer(new Ended(this, context, exchange, written, endedMs, at === undefined ? undefined : readTurn.lagOf(at, written)));
  }

  #resetParser(): void {
    this.#buf = undefined;
    this.#status = 0;
    this.#framing = undefined;
    if (this.#bodyParts.length > 0) this.#bodyParts = [];
    this.#closeAfter = false;
    this.#received = 0;
    this.#bodyBytes = 0;
  }

  #onData(chunk: Buffer, at: number): void {
    if (this.#context === undefined) return; // bytes nobody asked for: ignored
    this.#received += chunk.length;
    if (this.#received > MAX_WIRE_BYTES) {
      this.#fail({ kind: 'transport', cause: TRANSPORT_CAUSE.tooLarge, reason: tooLarge(`more than ${MAX_WIRE_BYTES} bytes read with its head and framing`).message });
      return;
    }
    this.#buf = this.#buf === undefined ? chunk : Buffer.concat([this.#buf, chunk]);
    this.#readAt = at;
    try {
      this.#parse();
    } catch (error) {
      this.#readAt = undefined;
      this.#fail(error instanceof AnswerTooLarge ? { kind: 'transport', cause: TRANSPORT_CAUSE.tooLarge, reason: error.message } : { kind: 'transport', cause: TRANSPORT_CAUSE.unreadable, reason: `unreadable HTTP response: ${(error as Error).message}` });
      return;
    }
    this.#readAt = undefined;
    // What waits for the next read must not stay in the shared read buffer.
    if (this.#buf !== undefined && isShared(this.#buf)) this.#buf = Buffer.from(this.#buf);
    for (let i = 0; i < this.#bodyParts.length; i++) {
      const part = this.#bodyParts[i] as Buffer;
      if (isShared(part)) this.#bodyParts[i] = Buffer.from(part);
    }
  }

  #parse(): void {
    for (;;) {
      const buf = this.#buf;
      if (buf === undefined || this.#context === undefined) return;
      if (this.#framing === undefined) {
        const end = buf.indexOf(CRLFCRLF);
        if (end === -1) {
          if (buf.length > MAX_HEAD) throw new Error(`no end of the response head in ${MAX_HEAD} bytes`);
          return;
        }
        if (rememberedHead.matches(buf, end)) {
          this.#status = rememberedHead.status;
          this.#closeAfter = rememberedHead.closeAfter;
          this.#framing = rememberedHead.framing();
        } else {
          this.#readHead(buf.toString('latin1', 0, end));
          this.#rememberHead(buf, end);
        }
        this.#buf = buf.length > end + 4 ? buf.subarray(end + 4) : undefined;
        if (this.#status >= 100 && this.#status < 200) {
          this.#framing = undefined; // an interim answer (100 Continue): the real one follows
          continue;
        }
      }
      const framing = this.#framing as Framing;
      if (framing.kind === 'length') {
        const rest = this.#buf;
        if (rest === undefined) {
          if (framing.remaining === 0) this.#complete();
          return;
        }
        if (rest.length >= framing.remaining) {
          this.#bodyParts.push(rest.subarray(0, framing.remaining));
          framing.remaining = 0;
          this.#buf = undefined;
          this.#complete();
        } else {
          this.#bodyParts.push(rest);
          framing.remaining -= rest.length;
          this.#buf = undefined;
        }
        return;
      }
      if (framing.kind === 'close') {
        if (this.#buf !== undefined) {
          this.#bodyBytes += this.#buf.length;
          if (this.#bodyBytes > MAX_RESPONSE_BYTES) throw tooLarge(`${this.#bodyBytes} bytes of a body read to the close`);
          this.#bodyParts.push(this.#buf);
        }
        this.#buf = undefined;
        return;
      }
      if (!this.#readChunks(framing)) return;
      this.#complete();
      return;
    }
  }

  /** Remembers the head just read (a final one: an interim 1xx says nothing of the answer's framing). */
  #rememberHead(buf: Buffer, end: number): void {
    if (this.#status >= 200 && this.#framing !== undefined) rememberedHead.remember(buf, end, this.#status, this.#closeAfter, this.#framing);
  }

  #readHead(head: string): void {
    if (!head.startsWith('HTTP/1.')) throw new Error(`not an HTTP/1.x status line: ${JSON.stringify(head.slice(0, 40))}`);
    const status = Number(head.slice(9, 12));
    if (!Number.isInteger(status) || status < 100) throw new Error(`no status code in ${JSON.stringify(head.slice(0, 40))}`);
    this.#status = status;
    // Three headers matter; one lower-cased copy of the head and a search for each (no split into lines).
    const lower = head.toLowerCase();
    const contentLength = headerValue(lower, '\r\ncontent-length:');
    const length = contentLength === undefined ? undefined : contentLength === '' ? NaN : Number(contentLength);
    const chunked = headerValue(lower, '\r\ntransfer-encoding:')?.includes('chunked') === true;
    const connection = headerValue(lower, '\r\nconnection:') ?? '';
    const close = connection.includes('close');
    const keepAlive = connection.includes('keep-alive');
    // HTTP/1.1 keeps the connection unless told to close; HTTP/1.0 closes it unless told to keep it.
    this.#closeAfter = head.startsWith('HTTP/1.0') ? !keepAlive : close;
    if (status >= 100 && status < 200) return;
    // 204 and 304 have no body, whatever they say.
    if (status === 204 || status === 304) this.#framing = { kind: 'length', remaining: 0 };
    else if (chunked) this.#framing = { kind: 'chunked', left: 0, crlf: 0 };
    else if (length !== undefined) {
      if (!Number.isSafeInteger(length) || length < 0) throw new Error('a Content-Length that is not a length');
      if (length > MAX_RESPONSE_BYTES) throw tooLarge(`Content-Length ${length}`);
      this.#framing = { kind: 'length', remaining: length };
    } else {
      this.#framing = { kind: 'close' };
      this.#closeAfter = true;
    }
  }

  /** Reads chunks from the buffer; true once the last chunk and the trailers are in. */
  #readChunks(framing: Extract<Framing, { kind: 'chunked' }>): boolean {
    for (;;) {
      const buf = this.#buf;
      if (buf === undefined) return false;
      if (framing.left > 0 || framing.crlf > 0) {
        // The rest of a chunk's data as it comes (a large chunk over many reads is not gathered whole: that copied
        // the buffer on every read), then its CRLF.
        const data = Math.min(framing.left, buf.length);
        if (data > 0) this.#bodyParts.push(buf.subarray(0, data));
        framing.left -= data;
        const crlf = framing.left === 0 ? Math.min(framing.crlf, buf.length - data) : 0;
        framing.crlf -= crlf;
        this.#buf = buf.length > data + crlf ? buf.subarray(data + crlf) : undefined;
        continue;
      }
      const eol = buf.indexOf('\r\n');
      if (eol === -1) {
        if (buf.length > MAX_HEAD) throw new Error(`no end of a chunk-size line in ${MAX_HEAD} bytes`);
        return false;
      }
      const size = parseInt(buf.toString('latin1', 0, eol).split(';')[0] as string, 16);
      if (!Number.isSafeInteger(size) || size < 0) throw new Error('a chunk size that is not hexadecimal');
      if (this.#bodyBytes + size > MAX_RESPONSE_BYTES) throw tooLarge(`a chunked body of ${this.#bodyBytes + size} bytes or more`);
      if (size === 0) {
        // Trailers (usually none) end with an empty line.
        if (buf.indexOf(CRLFCRLF, eol) === -1) return false;
        this.#buf = undefined;
        return true;
      }
      this.#bodyBytes += size;
      framing.left = size;
      framing.crlf = 2;
      this.#buf = buf.length > eol + 2 ? buf.subarray(eol + 2) : undefined;
    }
  }

  #complete(): void {
    const parts = this.#bodyParts;
    // Delivered after the turn's other reads, which reuse the shared buffer: a body still in it is copied out.
    const one = parts[0] as Buffer;
    const body = parts.length === 1 ? (isShared(one) ? Buffer.from(one) : one) : Buffer.concat(parts);
    const status = this.#status;
    if (this.#closeAfter) this.#drop();
    this.#end({ kind: 'answer', status, body });
  }
}
