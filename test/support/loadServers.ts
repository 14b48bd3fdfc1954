/**
 * Ground-truth servers for the load harness: small, exact JSON-RPC servers on loopback (node:http, port 0)
 * whose behaviour is known in advance, so the harness's figures can be checked against the truth.
 *
 * - startStallServer: answers at once, except that it stalls completely for `stallMs` at the start of every
 *   `periodMs`: a request arriving in a stall is answered when the stall ends.
 * - startCapacityServer: serves requests one at a time at a fixed cost each (capacity = 1/cost requests/s).
 * - startBatchErrorServer: answers known calls inside batches with errors, drops or adds elements, in an
 *   order other than the request's, and counts exactly what it did.
 * - startBurstServer: holds every request until `burst` are held, then answers them all at once, last come
 *   first, over raw sockets (faster than any client reads them); each answer's result is its sequence number,
 *   and the server keeps when each request arrived and when its answer was written (the truth, per request).
 *
 * - startBucketServer: answers at once while a token bucket (`rate` a second, `burst` deep) has a token, and with
 *   HTTP 503 (no JSON-RPC answer) when it has none: a node that serves `rate` requests/s and refuses the rest fast.
 *
 * Every call is answered `{"jsonrpc":"2.0","id":<its id>,"result":"ok"}` unless a server says otherwise.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { epochNow } from '../../core/epochNow.js';

export interface LoadServer {
  /** The base URL (`http://127.0.0.1:<port>`); the servers answer on any path. */
  url: string;
  /** The JSON-RPC endpoint (`<url>/rpc`), as the load engine takes it. */
  endpoint: string;
  /** Requests received so far. */
  requests(): number;
  stop(): Promise<void>;
}

interface Call {
  id: unknown;
  method: string;
}

type Handler = (calls: Call[] | Call | undefined, res: ServerResponse, arrivedMs: number) => void;

/** Listens on a free loopback port; the base URL. */
async function listenOnLoopback(server: NetServer): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function startRpcServer(handler: Handler): Promise<LoadServer> {
  let requests = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      let parsed: Call[] | Call | undefined;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call[] | Call;
      } catch {
        parsed = undefined;
      }
      handler(parsed, res, performance.now());
    });
  });
  // Keep connections for the whole run: the harness's connections must not be closed under it.
  server.keepAliveTimeout = 60_000;
  const url = await listenOnLoopback(server);
  return {
    url,
    endpoint: `${url}/rpc`,
    requests: () => requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ok = (id: unknown): object => ({ jsonrpc: '2.0', id, result: 'ok' });

function send(res: ServerResponse, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function answerAll(parsed: Call[] | Call | undefined): unknown {
  if (Array.isArray(parsed)) return parsed.map((c) => ok(c.id));
  return ok(parsed?.id ?? null);
}

/**
 * Answers every request (single or batch, with a result per call) after exactly `delayMs`: a latency whose true
 * distribution is one value, so two runs measured apart must put their percentiles in the same bucket.
 */
export async function startDelayServer(options: { delayMs: number }): Promise<LoadServer> {
  const timers = new Set<NodeJS.Timeout>();
  const server = await startRpcServer((parsed, res) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      send(res, answerAll(parsed));
    }, options.delayMs);
    timers.add(timer);
  });
  return {
    ...server,
    stop: async () => {
      for (const t of timers) clearTimeout(t);
      await server.stop();
    },
  };
}

export interface StallServer extends LoadServer {
  periodMs: number;
  stallMs: number;
  /** Every answered request by its sequence number (the result it was answered with), from 0. */
  served(): ServedRequest[];
  /** The server's start, epoch ms: its stalls are [start + k·periodMs, start + k·periodMs + stallMs). */
  startedAtMs: number;
}

/**
 * Answers at once, except in the stalls: [k·periodMs, k·periodMs + stallMs) from the server's start, every
 * request that arrives is held and answered when the stall ends (all of them, by one timer). A single call's
 * result is its sequence number, and the server keeps when each request arrived and when its answer was
 * written (its own service time, timer and all, is then known, not assumed).
 */
export async function startStallServer(options: { periodMs: number; stallMs: number }): Promise<StallServer> {
  const { periodMs, stallMs } = options;
  const held: { res: ServerResponse; parsed: Call[] | Call | undefined; arrivedAtMs: number }[] = [];
  const served: ServedRequest[] = [];
  let timer: NodeJS.Timeout | undefined;
  let origin = 0;
  const answer = (res: ServerResponse, parsed: Call[] | Call | undefined, arrivedAtMs: number): void => {
    send(res, Array.isArray(parsed) ? answerAll(parsed) : { jsonrpc: '2.0', id: parsed?.id ?? null, result: served.length });
    // node:http has written the answer to the socket by now (nothing is left corked after end()).
    served.push({ arrivedAtMs, writtenAtMs: epochNow() });
  };
  const release = (): void => {
    timer = undefined;
    for (const h of held.splice(0)) answer(h.res, h.parsed, h.arrivedAtMs);
  };
  const server = await startRpcServer((parsed, res, arrived) => {
    const arrivedAtMs = performance.timeOrigin + arrived;
    const phase = (arrived - origin) % periodMs;
    if (phase >= stallMs) {
      answer(res, parsed, arrivedAtMs);
      return;
    }
    held.push({ res, parsed, arrivedAtMs });
    timer ??= setTimeout(release, stallMs - phase);
  });
  origin = performance.now();
  return {
    ...server,
    periodMs,
    stallMs,
    served: () => served,
    startedAtMs: performance.timeOrigin + origin,
    stop: async () => {
      if (timer !== undefined) clearTimeout(timer);
      release();
      await server.stop();
    },
  };
}

export interface CapacityServer extends LoadServer {
  /** Requests/s it serves when busy. */
  capacity: number;
}

/**
 * Serves one request at a time at a fixed cost of 1/capacity s each: a request that arrives at `a` completes at
 * max(a, the previous completion) + cost, and is answered then. The completions are computed in virtual time
 * (a timer answers every request whose completion has come), so a late timer delays an answer by a moment but
 * never shifts the ones after it: the served rate is exactly `capacity` whenever requests wait, however busy
 * the machine. Nothing spins, so it costs the test machine almost nothing.
 */
export async function startCapacityServer(options: { capacity: number }): Promise<CapacityServer> {
  const cost = 1000 / options.capacity;
  const queue: { at: number; res: ServerResponse; answer: unknown }[] = [];
  let head = 0;
  let busyUntil = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    const now = performance.now();
    while (head < queue.length && (queue[head] as { at: number }).at <= now) {
      const q = queue[head] as { res: ServerResponse; answer: unknown };
      queue[head++] = undefined as never;
      send(q.res, q.answer);
    }
    if (head > 1024) {
      queue.splice(0, head);
      head = 0;
    }
    arm();
  };
  const arm = (): void => {
    const next = queue[head];
    if (timer === undefined && next !== undefined) timer = setTimeout(flush, Math.max(0, next.at - performance.now()));
  };
  const server = await startRpcServer((parsed, res, arrived) => {
    busyUntil = Math.max(arrived, busyUntil) + cost;
    queue.push({ at: busyUntil, res, answer: answerAll(parsed) });
    arm();
  });
  return {
    ...server,
    capacity: options.capacity,
    stop: async () => {
      if (timer !== undefined) clearTimeout(timer);
      await server.stop();
    },
  };
}

export interface BatchErrorRules {
  /** A call whose id is a multiple of this is answered with an error (0: none). */
  errorEvery: number;
  /** The error code by method (default -32000). */
  codes?: Record<string, number>;
  /** A call whose id is a multiple of this is left out of the batch answer (before the error rule; 0: none). */
  dropEvery?: number;
  /** Every n-th batch answer gets an element with an id no call has (0: none). */
  unknownEvery?: number;
  /** Every n-th batch answer answers one of its calls twice (0: none). */
  repeatEvery?: number;
}

/** What the batch error server did, exactly. */
export interface BatchTruth {
  /** Calls received, by method. */
  calls: Record<string, number>;
  /** Errors answered, by method and code. */
  errors: Record<string, Record<string, number>>;
  /** Calls left out of answers, by method; and batch answers missing at least one call. */
  dropped: Record<string, number>;
  batchesMissing: number;
  /** Batch answers holding an element with an unknown or repeated id. */
  batchesExtra: number;
}

export interface BatchErrorServer extends LoadServer {
  truth: BatchTruth;
}

/** Answers batches by the rules, answer elements in reverse order (so matching must be by id). */
export async function startBatchErrorServer(rules: BatchErrorRules): Promise<BatchErrorServer> {
  const truth: BatchTruth = { calls: {}, errors: {}, dropped: {}, batchesMissing: 0, batchesExtra: 0 };
  let batches = 0;
  const inc = (r: Record<string, number>, k: string): void => {
    r[k] = (r[k] ?? 0) + 1;
  };
  const every = (n: number | undefined, v: number): boolean => n !== undefined && n > 0 && v % n === 0;
  const answerCall = (c: Call): object | undefined => {
    inc(truth.calls, c.method);
    const id = Number(c.id);
    if (every(rules.dropEvery, id)) {
      inc(truth.dropped, c.method);
      return undefined;
    }
    if (every(rules.errorEvery, id)) {
      const code = rules.codes?.[c.method] ?? -32000;
      inc((truth.errors[c.method] ??= {}), String(code));
      return { jsonrpc: '2.0', id: c.id, error: { code, message: `ground truth: id ${id} fails` } };
    }
    return ok(c.id);
  };
  const server = await startRpcServer((parsed, res) => {
    if (!Array.isArray(parsed)) {
      send(res, parsed === undefined ? { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } } : (answerCall(parsed) ?? ok(parsed.id)));
      return;
    }
    batches++;
    const answers = parsed.map(answerCall).filter((a): a is object => a !== undefined);
    if (answers.length < parsed.length) truth.batchesMissing++;
    let extra = false;
    // A second answer to a call: an exact copy of one it got (whichever the harness reads first, the outcome is the same).
    const repeated = answers[0];
    if (every(rules.repeatEvery, batches) && repeated !== undefined) {
      answers.push({ ...repeated });
      extra = true;
    }
    if (every(rules.unknownEvery, batches)) {
      answers.push({ jsonrpc: '2.0', id: 987_654_321, result: 'nobody asked' });
      extra = true;
    }
    if (extra) truth.batchesExtra++;
    send(res, answers.reverse());
  });
  return { ...server, truth };
}

/** A port on loopback that nothing listens on (connections are refused). */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** When one request reached the server and when its answer was handed to the kernel, epoch ms (fractional). */
export interface ServedRequest {
  arrivedAtMs: number;
  writtenAtMs: number;
}

export interface BurstServer extends LoadServer {
  burst: number;
  /** Every answered request by its sequence number (the result it was answered with), from 0. */
  served(): ServedRequest[];
}


/**
 * Holds every request until `burst` are held (or the first of them waited `maxHoldMs`), then writes all their
 * answers at once, the last to come first:
 * the answers the client waited longest for reach it last, so a client that stamps an answer only after its
 * work on the answers before it shows that delay in its top percentiles. HTTP/1.1 keep-alive over node:net
 * with a request parser for what a load generator sends (a head, Content-Length, a body), so a burst of 100
 * leaves in well under a millisecond. The answer to request n is `{"jsonrpc":"2.0","id":<id>,"result":n}`.
 */
export async function startBurstServer(options: { burst: number; maxHoldMs?: number }): Promise<BurstServer> {
  const { burst, maxHoldMs } = options;
  const served: ServedRequest[] = [];
  const held: { socket: Socket; id: string; arrivedAtMs: number }[] = [];
  const sockets = new Set<Socket>();
  let requests = 0;
  let timer: NodeJS.Timeout | undefined;
  const release = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    for (const h of held.splice(0).reverse()) {
      const seq = served.length;
      const body = `{"jsonrpc":"2.0","id":${h.id},"result":${seq}}`;
      h.socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      served.push({ arrivedAtMs: h.arrivedAtMs, writtenAtMs: epochNow() });
    }
  };
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    let buf: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end === -1) return;
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(buf.toString('latin1', 0, end))?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const body = buf.toString('utf8', end + 4, end + 4 + length);
        buf = buf.subarray(end + 4 + length);
        requests++;
        const id = /"id"\s*:\s*("[^"]*"|-?\d+|null)/.exec(body)?.[1] ?? 'null';
        held.push({ socket, id, arrivedAtMs: epochNow() });
        if (held.length >= burst) release();
        // A burst that never fills (the run's last requests) is answered after maxHoldMs.
        else if (maxHoldMs !== undefined) timer ??= setTimeout(release, maxHoldMs);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  const url = await listenOnLoopback(server);
  return {
    url,
    endpoint: `${url}/rpc`,
    burst,
    requests: () => requests,
    served: () => served,
    stop: () =>
      new Promise<void>((resolve) => {
        if (timer !== undefined) clearTimeout(timer);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface BucketServer extends LoadServer {
  /** Requests answered with a result, and refused with HTTP 503, so far. */
  served(): number;
  refused(): number;
}

/**
 * Answers every request at once while its token bucket holds a token (`rate` tokens a second, at most `burst`), and
 * with HTTP 503 and a plain-text body when it is empty: a node whose capacity is `rate` requests/s that refuses the
 * excess quickly instead of queueing it. Tokens are counted in time as it passes, not by a timer.
 */
export async function startBucketServer(options: { rate: number; burst: number }): Promise<BucketServer> {
  let tokens = options.burst;
  let last = performance.now();
  let served = 0;
  let refused = 0;
  const server = await startRpcServer((parsed, res, arrived) => {
    tokens = Math.min(options.burst, tokens + ((arrived - last) * options.rate) / 1000);
    last = arrived;
    if (tokens >= 1) {
      tokens -= 1;
      served++;
      send(res, answerAll(parsed));
      return;
    }
    refused++;
    res.writeHead(503, { 'content-type': 'text/plain', 'content-length': 4 });
    res.end('busy');
  });
  return { ...server, served: () => served, refused: () => refused };
}

export interface ScriptedServer {
  url: string;
  /** From now on, answers follow the script, and requests are counted (the setup's before it are answered at once). */
  arm(): void;
  /** Requests that arrived since arm(), and those of them never answered. */
  arrived(): number;
  hung(): number;
  stop(): Promise<void>;
}

/**
 * A JSON-RPC server that answers every call "ok" after what `delayOf` says (ms, or never), given whether the
 * request is a batch and how long after the first armed request it came: the truth k6's figures are held to.
 */
export async function startScriptedServer(delayOf: (r: { batch: boolean; sinceFirstMs: number }) => number | 'never'): Promise<ScriptedServer> {
  let [armed, first, arrived, hung] = [false, -1, 0, 0];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        parsed = undefined;
      }
      const ok = (c: unknown): object => ({ jsonrpc: '2.0', id: (c as { id?: unknown } | undefined)?.id ?? null, result: 'ok' });
      const body = JSON.stringify(Array.isArray(parsed) ? parsed.map(ok) : ok(parsed));
      const answer = (): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      if (!armed) return answer();
      const now = performance.now();
      if (first < 0) first = now;
      arrived++;
      const delay = delayOf({ batch: Array.isArray(parsed), sinceFirstMs: now - first });
      if (delay === 'never') hung++;
      else if (delay === 0) answer();
      else timers.add(setTimeout(answer, delay));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arm: () => void (armed = true),
    arrived: () => arrived,
    hung: () => hung,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
