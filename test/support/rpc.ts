// Test helpers for reference-node/rpc: a small real method table, a server on loopback, and HTTP
// exchanges below any client library (node:http requests, raw bytes over net.Socket).
import { rpcServerWithFaults } from '../../reference-node/faults/applyFaults.js';
import type { FaultSet } from '../../reference-node/faults/faultCatalogue.js';
import { request } from 'node:http';
import type { Agent, IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { parseJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { createRpcServer } from '../../reference-node/rpc/createRpcServer.js';
import type { RpcServer, RpcServerOptions } from '../../reference-node/rpc/createRpcServer.js';
import { RpcMethodError } from '../../reference-node/rpc/RpcMethodError.js';
import type { CallContext, MethodTable } from '../../reference-node/rpc/types.js';

export const ADDRESS = '6488585c505befe4e4f4724815d3e6d0f4516e65f4dc171e3df8d69ff77e577e';

/** What the test methods saw. */
export interface MethodLog {
  /** test_record: the first param of each call, in call order. */
  readonly recorded: JsonValue[];
  /** test_record: the context of each call. */
  readonly contexts: CallContext[];
  /** Most test_record calls running at the same time. */
  maxConcurrent: number;
}

/**
 * A small but real table: two profile methods (their params are checked against schemas/methods),
 * and test methods that refuse, crash, misbehave or record their calls.
 */
export function createTestMethods(): { methods: MethodTable; log: MethodLog } {
  const log: MethodLog = { recorded: [], contexts: [], maxConcurrent: 0 };
  let running = 0;
  const methods: MethodTable = {
    chain_blockNumber: () => 42,
    chain_getAccount: (params) => ({ balance: params[0] === ADDRESS ? '1000000000000000000' : '0', nonce: 3 }),
    chain_getBlockByHeight: (params) => {
      throw new RpcMethodError(-32001, 'Block not found', { reason: 'no block at that height yet', height: params[0] ?? null, latest: 42 });
    },
    test_refuse: () => {
      throw new RpcMethodError(-32010, 'Mempool full', { reason: 'the queue is full', limit: 1 });
    },
    test_refuseBare: () => {
      throw new RpcMethodError(-32099, 'Bare');
    },
    test_crash: () => {
      throw new Error('secret internal detail /home/node/db');
    },
    test_crashAsync: () => Promise.reject(new TypeError('async secret')),
    // A handler bug on purpose: undefined has no place in a response.
    test_undefined: () => undefined as unknown as JsonValue,
    test_echo: (params) => params,
    test_record: async (params, ctx) => {
      running++;
      log.maxConcurrent = Math.max(log.maxConcurrent, running);
      // A random pause: if batch elements ran in parallel, the recorded order would scramble.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 5)));
      log.recorded.push(params[0] ?? null);
      log.contexts.push({ remoteAddress: ctx.remoteAddress, isNotification: ctx.isNotification });
      running--;
      return log.recorded.length;
    },
    test_slow: async (params) => {
      await new Promise((resolve) => setTimeout(resolve, typeof params[0] === 'number' ? params[0] : 200));
      return 'done';
    },
  };
  return { methods, log };
}

export interface TestRpcServer {
  readonly rpc: RpcServer;
  readonly url: string;
  readonly port: number;
  readonly log: MethodLog;
  /** Lines the server logged (instead of stderr). */
  readonly logged: string[];
  close(): Promise<void>;
}

/** A server with the test methods on 127.0.0.1, port 0. */
export async function startRpcServer(options: Partial<RpcServerOptions> & { faults?: FaultSet } = {}): Promise<TestRpcServer> {
  const { methods, log } = createTestMethods();
  const logged: string[] = [];
  const { faults, ...rest } = options;
  const plain: RpcServerOptions = { methods, logError: (line) => logged.push(line), ...rest };
  const rpc = createRpcServer(faults === undefined ? plain : rpcServerWithFaults(plain, faults));
  const { url } = await rpc.listen(0, '127.0.0.1');
  return { rpc, url, port: Number(new URL(url).port), log, logged, close: () => rpc.close() };
}

export interface HttpAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface HttpRequestOptions {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Uint8Array;
  /** Default: a fresh connection (agent false). */
  readonly agent?: Agent | false;
}

/** One exchange through node:http, which lets a test send any method, header and body. */
export function httpRequest(url: string, options: HttpRequestOptions = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url + (options.path ?? '/rpc'),
      { method: options.method ?? 'POST', headers: options.headers ?? {}, agent: options.agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** POST /rpc with `content-type: application/json`. */
export function post(url: string, body: string | Uint8Array, agent?: Agent): Promise<HttpAnswer> {
  return httpRequest(url, { body, headers: { 'content-type': 'application/json' }, ...(agent ? { agent } : {}) });
}

/** POSTs a body and parses the 200 answer losslessly (bigint ids stay exact). */
export async function rpc(url: string, body: string): Promise<JsonValue> {
  const answer = await post(url, body);
  if (answer.status !== 200) throw new Error(`expected 200, got ${answer.status}: ${answer.body}`);
  return parseJson(answer.body);
}

/** A JSON object member, for tests: throws when the value is not an object. */
export function member(value: JsonValue | undefined, key: string): JsonValue | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return value[key];
}

export interface RawAnswer {
  /** Everything the server sent, as latin1 text. */
  readonly text: string;
  /** The server closed (or reset) the connection before `timeoutMs`. */
  readonly closed: boolean;
  readonly elapsedMs: number;
}

/** Sends raw bytes (then, optionally, more from `afterConnect`) and collects the answer until the server closes or `timeoutMs`. */
export function rawExchange(
  port: number,
  bytes: string | Uint8Array,
  timeoutMs = 5_000,
  afterConnect?: (write: (b: string | Uint8Array) => boolean) => () => void,
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let stop: (() => void) | undefined;
    let done = false;
    const finish = (closed: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stop?.();
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => finish(true));
    // A reset after the answer counts as closed; the bytes read so far are kept.
    socket.on('error', () => finish(true));
    socket.on('connect', () => {
      socket.write(bytes);
      if (afterConnect) stop = afterConnect((b) => !socket.destroyed && socket.write(b));
    });
  });
}

/** The status code of a raw HTTP answer (0 when there was none). */
export function rawStatus(text: string): number {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
  return match ? Number(match[1]) : 0;
}
