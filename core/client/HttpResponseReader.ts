/** The final response's status line and header section. */
export interface HttpResponseHead {
  readonly status: number;
  /** Names lower-cased; repeated fields joined with ', ' (RFC 9110 §5.3). */
  readonly headers: Record<string, string>;
  /**
   * Every field line as it came, in order (names lower-cased): what a proxy passes on, where joining would change
   * a field (Set-Cookie cannot be joined: RFC 9110 §5.3).
   */
  readonly fields: readonly (readonly [string, string])[];
}

export interface HttpResponseReaderOptions {
  /** The request's method: a response to HEAD has no body whatever it declares (RFC 9112 §6.3). */
  readonly requestMethod: string;
  /** Body bytes kept; past it the body is cut, `truncated` set, and the reader is done. */
  readonly maxBodyBytes: number;
  /** Largest response head (status line and fields) accepted, and largest chunked trailer section. Default 64 KiB. */
  readonly maxHeadBytes?: number | undefined;
}

type State =
  | 'status-line'
  | 'fields'
  | 'length-body'
  | 'close-body'
  | 'chunk-size'
  | 'chunk-data'
  | 'chunk-end'
  | 'trailers'
  | 'done'
  | 'failed';

const LF = 0x0a;
const CR = 0x0d;
const HTTP_PREFIX = Buffer.from('HTTP/', 'latin1');
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const STATUS_LINE = /^HTTP\/(\d)\.(\d) (\d{3})(?: .*)?$/s;
// Enough for any real chunk-size line; bounds what a peer can make us buffer without a newline.
const MAX_CHUNK_LINE_BYTES = 4096;
// 13 hex digits stay below 2^53: larger sizes cannot be counted exactly, and are absurd anyway.
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,13})[ \t]*(?:;.*)?$/s;
const EMPTY = Buffer.alloc(0);

/**
 * Incremental HTTP/1.1 response parser (RFC 9112): feed it the bytes as they arrive, in pieces of
 * any size. Interim 1xx responses are skipped (RFC 9110 §15.2), except 101, which ends the HTTP
 * exchange. The body is framed as RFC 9112 §6.3 says: none for HEAD, 1xx, 204 and 304; chunked
 * when chunked is the final transfer coding; Content-Length; otherwise until the connection
 * closes (`end()`). Memory is bounded: the head by maxHeadBytes, the body by maxBodyBytes.
 *
 * Lenient where RFC 9112 allows a recipient to be (a bare LF ends a line, §2.2; obs-fold becomes
 * a space, §5.2); strict where a wrong guess would misframe the body (Content-Length, chunk sizes).
 */
export class HttpResponseReader {
  /** The final response head, once complete. */
  head: HttpResponseHead | undefined;
  /** Why the bytes are not a well-formed HTTP/1.x response; set once, and then nothing more is read. */
  problem: string | undefined;
  /** The body went past maxBodyBytes and was cut there. */
  truncated = false;
  /** Bytes taken in until the response was complete (heads and body, interim responses included). */
  received = 0;
  /** Bytes that arrived after the response was complete (none on a connection used one request at a time). */
  extra = 0;

  private readonly requestMethod: string;
  private readonly maxBodyBytes: number;
  private readonly maxHeadBytes: number;
  private state: State = 'status-line';
  /** Bytes received but not consumed yet: a partial line, at most maxHeadBytes. */
  private pending: Buffer = EMPTY;
  private lineBytes = 0;
  private status = 0;
  private fields: [string, string][] = [];
  /** Bytes left in the current Content-Length body or chunk. */
  private remaining = 0;
  private declaredLength = 0;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private closeDelimited = false;

  constructor(options: HttpResponseReaderOptions) {
    this.requestMethod = options.requestMethod.toUpperCase();
    this.maxBodyBytes = options.maxBodyBytes;
    this.maxHeadBytes = options.maxHeadBytes ?? 64 * 1024;
  }

  /** The whole response was read (or its body cut at the cap): nothing more is needed. */
  get done(): boolean {
    return this.state === 'done';
  }

  private reading(): boolean {
    return this.state !== 'done' && this.state !== 'failed';
  }

  /** The body bytes kept so far. */
  body(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }

  push(bytes: Buffer): void {
    if (!this.reading()) return;
    this.received += bytes.length;
    let input = this.pending.length === 0 ? bytes : Buffer.concat([this.pending, bytes]);
    this.pending = EMPTY;
    while (input.length > 0 && this.reading()) input = this.step(input);
    if (this.state === 'done') this.extra += input.length;
  }

  /**
   * The response is complete and leaves the connection fit for the next request (RFC 9112 §9.3): framed by
   * length or chunks (not by the close), not cut, nothing after it, no `connection: close`, not a 101.
   */
  get keepsConnection(): boolean {
    const head = this.head;
    if (this.state !== 'done' || head === undefined || this.truncated || this.closeDelimited || this.extra > 0 || head.status === 101) return false;
    return !(head.headers.connection ?? '').toLowerCase().split(',').some((t) => t.trim() === 'close');
  }

  /**
   * The connection closed (or was reset). Completes a body delimited by the close; anything else
   * still unfinished stays unfinished: see `missing()`.
   */
  end(): void {
    if (this.state === 'close-body') this.state = 'done';
  }

  /** What had not arrived when the connection closed, for an error message. */
  missing(): string {
    switch (this.state) {
      case 'status-line':
        return this.received === 0 ? 'before any byte of a response' : 'before the status line was complete';
      case 'fields':
        return 'before the response head was complete';
      case 'length-body':
        return `after ${this.declaredLength - this.remaining} of ${this.declaredLength} body bytes (content-length)`;
      case 'chunk-size':
      case 'chunk-data':
      case 'chunk-end':
      case 'trailers':
        return `before the end of the chunked body (${this.size} body bytes read)`;
      default:
        return 'before the response was complete';
    }
  }

  /** Consumes what it can from `input` and returns the rest. */
  private step(input: Buffer): Buffer {
    switch (this.state) {
      case 'length-body': {
        const take = Math.min(this.remaining, input.length);
        this.remaining -= take;
        this.keep(input.subarray(0, take));
        if (this.remaining === 0 && this.state === 'length-body') this.state = 'done';
        return input.subarray(take);
      }
      case 'close-body':
        this.keep(input);
        return EMPTY;
      case 'chunk-data': {
        const take = Math.min(this.remaining, input.length);
        this.remaining -= take;
        this.keep(input.subarray(0, take));
        if (this.remaining === 0 && this.state === 'chunk-data') this.state = 'chunk-end';
        return input.subarray(take);
      }
      default:
        return this.lines(input);
    }
  }

  /** The line-oriented states: status line, fields, chunk sizes, chunk ends, trailers. */
  private lines(input: Buffer): Buffer {
    if (this.state === 'status-line' && this.lineBytes === 0) {
      // Say "not HTTP" as soon as the first bytes show it, not after waiting for a newline.
      const n = Math.min(input.length, HTTP_PREFIX.length);
      if (!input.subarray(0, n).equals(HTTP_PREFIX.subarray(0, n))) {
        return this.fail(`the response does not start with an HTTP status line: it starts ${show(input)}`);
      }
    }
    const newline = input.indexOf(LF);
    const limit = this.state === 'chunk-size' || this.state === 'chunk-end' ? MAX_CHUNK_LINE_BYTES : this.maxHeadBytes;
    if (newline === -1) {
      if (this.lineBytes + input.length > limit) return this.fail(this.tooLong(limit));
      this.pending = input;
      return EMPTY;
    }
    this.lineBytes += newline + 1;
    if (this.lineBytes > limit) return this.fail(this.tooLong(limit));
    const end = newline > 0 && input[newline - 1] === CR ? newline - 1 : newline;
    // latin1: one character per byte, so obs-text in a field value survives as is (RFC 9110 §5.5).
    const line = input.toString('latin1', 0, end);
    const rest = input.subarray(newline + 1);
    this.line(line);
    return rest;
  }

  private line(line: string): void {
    switch (this.state) {
      case 'status-line':
        return this.statusLine(line);
      case 'fields':
        return this.fieldLine(line);
      case 'chunk-size':
        return this.chunkSize(line);
      case 'chunk-end':
        // RFC 9112 §7.1: chunk-data is followed by CRLF.
        if (line !== '') return void this.fail(`expected CRLF after ${this.size} bytes of chunked body, got ${show(Buffer.from(line, 'latin1'))}`);
        this.lineBytes = 0;
        this.state = 'chunk-size';
        return;
      case 'trailers':
        // Trailer fields (RFC 9112 §7.1.2) are read past, bounded by maxHeadBytes, and not kept.
        if (line === '') this.state = 'done';
        return;
      default:
        return;
    }
  }

  private statusLine(line: string): void {
    const match = STATUS_LINE.exec(line);
    if (match === null) return void this.fail(`malformed status line ${show(Buffer.from(line, 'latin1'))}`);
    if (match[1] !== '1') return void this.fail(`unsupported HTTP version HTTP/${match[1]}.${match[2]} (expected HTTP/1.x)`);
    this.status = Number(match[3]);
    this.fields = [];
    this.state = 'fields';
  }

  private fieldLine(line: string): void {
    if (line === '') return this.headComplete();
    const last = this.fields[this.fields.length - 1];
    if (line.startsWith(' ') || line.startsWith('\t')) {
      // obs-fold: RFC 9112 §5.2 tells a user agent to replace it with SP.
      if (last === undefined) return void this.fail('the first header field line starts with whitespace');
      last[1] = trimOws(`${last[1]} ${trimOws(line)}`);
      return;
    }
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon);
    // RFC 9112 §5.1: no whitespace between the field name and the colon.
    if (!TOKEN.test(name)) return void this.fail(`malformed header field line ${show(Buffer.from(line, 'latin1'))}`);
    this.fields.push([name.toLowerCase(), trimOws(line.slice(colon + 1))]);
  }

  private headComplete(): void {
    this.lineBytes = 0;
    // RFC 9110 §15.2: a client must accept and skip interim responses it did not ask for;
    // 101 ends HTTP on this connection, so it is the answer.
    if (this.status >= 100 && this.status <= 199 && this.status !== 101) {
      this.state = 'status-line';
      return;
    }
    const joined = new Map<string, string>();
    for (const [name, value] of this.fields) {
      const previous = joined.get(name);
      joined.set(name, previous === undefined ? value : `${previous}, ${value}`);
    }
    // fromEntries defines own properties, so even a field named __proto__ is kept as data.
    const headers: Record<string, string> = Object.fromEntries(joined);
    this.head = { status: this.status, headers, fields: this.fields };
    this.fields = [];
    this.frame(headers);
  }

  /** RFC 9112 §6.3, in its order. */
  private frame(headers: Record<string, string>): void {
    const status = this.status;
    if (this.requestMethod === 'HEAD' || status < 200 || status === 204 || status === 304) {
      this.state = 'done';
      return;
    }
    if (this.requestMethod === 'CONNECT' && status <= 299) {
      this.state = 'done';
      return;
    }
    const transferEncoding = headers['transfer-encoding'];
    if (transferEncoding !== undefined) {
      // Transfer-Encoding overrides Content-Length. Only a final "chunked" frames the body;
      // otherwise the body runs until the server closes the connection.
      const codings = transferEncoding
        .split(',')
        .map((c) => c.trim().toLowerCase())
        .filter((c) => c !== '');
      this.state = codings[codings.length - 1] === 'chunked' ? 'chunk-size' : 'close-body';
      this.closeDelimited = this.state === 'close-body';
      return;
    }
    const contentLength = headers['content-length'];
    if (contentLength !== undefined) {
      // RFC 9110 §8.6: a list of identical values may stand for one; anything else is invalid
      // framing, which a user agent must treat as an unrecoverable error (RFC 9112 §6.3).
      const values = new Set(contentLength.split(',').map((v) => v.trim()));
      const [value] = values;
      if (values.size !== 1 || value === undefined || !/^\d{1,15}$/.test(value))
        return void this.fail(`invalid Content-Length ${JSON.stringify(contentLength)}`);
      this.declaredLength = Number(value);
      this.remaining = this.declaredLength;
      this.state = this.remaining === 0 ? 'done' : 'length-body';
      return;
    }
    this.state = 'close-body';
    this.closeDelimited = true;
  }

  private chunkSize(line: string): void {
    const match = CHUNK_SIZE.exec(line);
    if (match?.[1] === undefined) return void this.fail(`malformed chunk size line ${show(Buffer.from(line, 'latin1'))}`);
    this.lineBytes = 0;
    this.remaining = Number.parseInt(match[1], 16);
    this.state = this.remaining === 0 ? 'trailers' : 'chunk-data';
  }

  private keep(bytes: Buffer): void {
    if (bytes.length === 0) return;
    const room = this.maxBodyBytes - this.size;
    if (bytes.length > room) {
      if (room > 0) this.chunks.push(bytes.subarray(0, room));
      this.size = this.maxBodyBytes;
      this.truncated = true;
      this.state = 'done';
      return;
    }
    this.chunks.push(bytes);
    this.size += bytes.length;
  }

  private tooLong(limit: number): string {
    return this.state === 'chunk-size' || this.state === 'chunk-end'
      ? `a chunk size line longer than ${limit} bytes`
      : this.state === 'trailers'
        ? `a chunked trailer section longer than ${limit} bytes`
        : `a response head longer than ${limit} bytes`;
  }

  private fail(problem: string): Buffer {
    this.problem = problem;
    this.state = 'failed';
    this.pending = EMPTY;
    return EMPTY;
  }
}

/** RFC 9110 §5.5: leading and trailing SP / HTAB are not part of a field value. */
function trimOws(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** The first bytes, quoted, for a message: `"SSH-2.0-OpenSSH_9.6\r\n"`. */
function show(bytes: Buffer): string {
  const text = bytes.toString('latin1', 0, Math.min(bytes.length, 60));
  return `${JSON.stringify(text)}${bytes.length > 60 ? '…' : ''}`;
}
