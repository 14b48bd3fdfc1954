// The fuzz property shared by runRpcFuzz.test.ts (CI, FUZZ_RUNS cases, default 10,000) and
// fuzzLong.ts (manual long runs): random bytes, random JSON and random JSON-RPC envelopes and
// batches against the real server over HTTP, each answer checked against the status policy and
// against a model of JSON-RPC 2.0 §4-§6 (which ids come back, in which order, how many).
import fc from 'fast-check';
import { Pool } from 'undici';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { validators } from '../../core/schema/validators.js';
import { createRpcServer } from '../../reference-node/rpc/createRpcServer.js';
import { ADDRESS, createTestMethods } from './rpc.js';
import type { MethodTable } from '../../reference-node/rpc/types.js';

/** Small limits, so that random cases reach 413 and -32013 often. */
export const FUZZ_LIMITS = { maxBodyBytes: 64 * 1024, maxBatch: 16 } as const;

/** One HTTP request the fuzzer sends. */
export interface FuzzCase {
  readonly kind: string;
  readonly method: string;
  readonly contentType: string | undefined;
  readonly body: Uint8Array;
}

const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8', { fatal: true });

// ---------------------------------------------------------------- arbitraries

const { methods: testMethods } = createTestMethods();
// test_slow sleeps for its first param: a random one could be days.
const { test_slow: _slow, ...fuzzMethods } = testMethods;
const FUZZ_METHODS: MethodTable = fuzzMethods;
const METHOD_NAMES = [...new Set([...Object.keys(FUZZ_METHODS), ...validators().methods.keys()])];

const hex = (length: number): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{${length}}$`));

const hugeNumberText = fc.oneof(
  fc.stringMatching(/^-?(0|[1-9][0-9]{0,60})$/),
  fc.stringMatching(/^-?[1-9][0-9]{300,1200}$/),
  fc.stringMatching(/^-?(0|[1-9][0-9]{0,30})\.[0-9]{1,40}([eE][+-]?[0-9]{1,4})?$/),
  fc.constantFrom('1e400', '-1e400', '1e-400', '18446744073709551615', '18446744073709551616', '340282366920938463463374607431768211456', '-0', '0.0', '1E2'),
);

/** A JSON value as text: bigints and odd number spellings included, which a JsonValue cannot carry. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('null', 'true', 'false'),
    hugeNumberText,
    fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => JSON.stringify(s)),
    fc.array(tie('value'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
    fc.array(fc.tuple(fc.string({ maxLength: 8 }), tie('value')), { maxLength: 5 }).map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value;

const paramValue: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>,
  hex(64),
  hex(63),
  hex(65),
  hex(64).map((h) => `0x${h}`),
  fc.constant(ADDRESS),
  fc.bigInt({ min: -(2n ** 140n), max: 2n ** 140n }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, 0, 1.5, 2 ** 53, '', 'latest', '0'),
);

/** An id as text: every kind JSON-RPC allows, and some it does not. */
const idText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s)),
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => stringifyJson(d)),
  hugeNumberText,
  fc.constantFrom('null', 'true', '{}', '[]', '[1]', '{"id":1}'),
);

const methodName: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...METHOD_NAMES) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'rpc.discover', '') },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

/** A request object as text: mostly well formed, with wrong param types, sometimes a broken member. */
const envelopeText: fc.Arbitrary<string> = fc
  .record(
    {
      jsonrpc: fc.oneof({ weight: 10, arbitrary: fc.constant('"2.0"') }, { weight: 1, arbitrary: fc.constantFrom('"1.0"', '2.0', '2', 'null', '"2.0 "') }),
      method: fc.oneof({ weight: 10, arbitrary: methodName.map((m) => JSON.stringify(m)) }, { weight: 1, arbitrary: jsonText }),
      params: fc.oneof(
        { weight: 8, arbitrary: fc.array(paramValue, { maxLength: 3 }).map(stringifyJson) },
        { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), paramValue, { maxKeys: 3 }).map(stringifyJson) },
        { weight: 1, arbitrary: jsonText },
      ),
      id: idText,
      extra: jsonText,
    },
    { requiredKeys: ['jsonrpc', 'method'] },
  )
  .chain((members) =>
    // Member order is free in JSON; shuffle it, and drop jsonrpc/method now and then.
    fc.shuffledSubarray(Object.entries(members), { minLength: Math.max(0, Object.keys(members).length - 1) }).map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  );

const batchText: fc.Arbitrary<string> = fc
  .array(fc.oneof({ weight: 5, arbitrary: envelopeText }, { weight: 1, arbitrary: jsonText }), { maxLength: FUZZ_LIMITS.maxBatch + 6 })
  .map((items) => `[${items.join(',')}]`);

const deepText: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1, max: 1500 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));

const hugeStringText: fc.Arbitrary<string> = fc
  .tuple(fc.string({ minLength: 1, maxLength: 4, unit: 'binary' }), fc.integer({ min: 1, max: 40_000 }), fc.boolean())
  .map(([unit, times, asId]) => {
    const s = JSON.stringify(unit.repeat(times));
    return asId ? `{"jsonrpc":"2.0","method":"test_echo","params":[${s}],"id":${s}}` : s;
  });

/** A valid text with a few bytes cut, repeated or replaced. */
const mutatedText: fc.Arbitrary<string> = fc
  .tuple(fc.oneof(envelopeText, batchText), fc.nat(), fc.nat({ max: 8 }), fc.string({ maxLength: 3 }))
  .map(([text, at, cut, insert]) => {
    const i = at % (text.length + 1);
    return text.slice(0, i) + insert + text.slice(i + cut);
  });

const body: fc.Arbitrary<{ kind: string; bytes: Uint8Array }> = fc.oneof(
  { weight: 6, arbitrary: envelopeText.map((t) => ({ kind: 'envelope', bytes: encoder.encode(t) })) },
  { weight: 4, arbitrary: batchText.map((t) => ({ kind: 'batch', bytes: encoder.encode(t) })) },
  { weight: 2, arbitrary: jsonText.map((t) => ({ kind: 'json', bytes: encoder.encode(t) })) },
  { weight: 1, arbitrary: fc.json({ depthSize: 'medium' }).map((t) => ({ kind: 'fc.json', bytes: encoder.encode(t) })) },
  { weight: 2, arbitrary: mutatedText.map((t) => ({ kind: 'mutated', bytes: encoder.encode(t) })) },
  { weight: 1, arbitrary: deepText.map((t) => ({ kind: 'deep', bytes: encoder.encode(t) })) },
  { weight: 1, arbitrary: hugeStringText.map((t) => ({ kind: 'huge', bytes: encoder.encode(t) })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2048 }).map((b) => ({ kind: 'bytes', bytes: b })) },
);

/** Mostly POST application/json; now and then another method or content type. */
export const fuzzCase: fc.Arbitrary<FuzzCase> = fc
  .record({
    body,
    method: fc.oneof({ weight: 30, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') }),
    contentType: fc.oneof(
      { weight: 30, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON') },
      { weight: 1, arbitrary: fc.constantFrom(undefined, 'text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', '') },
    ),
  })
  .map(({ body: b, method, contentType }) => ({ kind: b.kind, method, contentType, body: b.bytes }));

// ---------------------------------------------------------------- the model

const isObject = (v: JsonValue | undefined): v is { [key: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** §4.1: a valid Request object without an id member. */
function isNotification(v: JsonValue): boolean {
  if (!isObject(v) || Object.hasOwn(v, 'id')) return false;
  const params = Object.hasOwn(v, 'params') ? v.params : undefined;
  return v.jsonrpc === '2.0' && typeof v.method === 'string' && (params === undefined || (typeof params === 'object' && params !== null));
}

/** §5: the id an answer to this element must carry (null when it had none that could be read). */
function expectedId(v: JsonValue): JsonValue {
  if (!isObject(v) || !Object.hasOwn(v, 'id')) return null;
  const id = v.id;
  const echoable = typeof id === 'string' || typeof id === 'bigint' || id === null || (typeof id === 'number' && Number.isFinite(id));
  return echoable && id !== undefined ? id : null;
}

/** What the answer to one case must be, in outline. */
type Expected =
  | { status: 405 | 413 | 415 }
  | { status: 204 }
  | { status: 200; single: { id: JsonValue; code?: number } }
  | { status: 200; batch: JsonValue[] };

export function expectedAnswer(c: FuzzCase): Expected {
  if (c.method !== 'POST') return { status: 405 };
  const type = c.contentType?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return { status: 415 };
  if (c.body.length > FUZZ_LIMITS.maxBodyBytes) return { status: 413 };
  let value: JsonValue;
  try {
    value = parseJson(utf8.decode(c.body));
  } catch {
    return { status: 200, single: { id: null, code: -32700 } };
  }
  if (!Array.isArray(value)) return isNotification(value) ? { status: 204 } : { status: 200, single: { id: expectedId(value) } };
  if (value.length === 0) return { status: 200, single: { id: null, code: -32600 } };
  if (value.length > FUZZ_LIMITS.maxBatch) return { status: 200, single: { id: null, code: -32013 } };
  const ids = value.filter((v) => !isNotification(v)).map(expectedId);
  return ids.length === 0 ? { status: 204 } : { status: 200, batch: ids };
}

/** §5: exactly jsonrpc "2.0", an id, and one of result / error (§5.1: integer code, string message). */
function checkResponseObject(v: JsonValue | undefined): string | undefined {
  if (!isObject(v)) return 'a response is not an object';
  const keys = Object.keys(v).sort().join(',');
  if (keys !== 'error,id,jsonrpc' && keys !== 'id,jsonrpc,result') return `response members are ${keys}`;
  if (v.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  const id = v.id;
  if (!(typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint' || id === null)) return 'id is not a string, number or null';
  if (keys.startsWith('error')) {
    const error = v.error;
    if (!isObject(error)) return 'error is not an object';
    if (!Object.keys(error).every((k) => k === 'code' || k === 'message' || k === 'data')) return `error members are ${Object.keys(error).join(',')}`;
    if (!(typeof error.code === 'number' && Number.isInteger(error.code))) return 'error.code is not an integer';
    if (typeof error.message !== 'string') return 'error.message is not a string';
  }
  return undefined;
}

/**
 * Same value and same JSON type. A number and a bigint are both JSON numbers: an id sent as
 * 100000000.000001E9 is held as the nearest double and written back as its shortest form,
 * 100000000000001000, which the lossless parser reads as a bigint. The two agree when the bigint
 * rounds to the same double.
 */
function sameId(a: JsonValue | undefined, b: JsonValue): boolean {
  if (typeof a === 'bigint' && typeof b === 'number') return Number(a) === b;
  if (typeof a === 'number' && typeof b === 'bigint') return a === Number(b);
  return a !== undefined && typeof a === typeof b && stringifyJson(a) === stringifyJson(b);
}

/** Why the answer breaks the policy or the model; undefined when it is right. */
export function checkAnswer(c: FuzzCase, status: number, headers: Record<string, string | string[] | undefined>, text: string): string | undefined {
  const expected = expectedAnswer(c);
  if (status !== expected.status) return `status ${status}, expected ${expected.status}`;
  if (status === 204) return text === '' ? undefined : '204 with a body';
  if (headers['content-type'] !== 'application/json') return `content-type ${String(headers['content-type'])}`;
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch {
    return 'the answer is not JSON';
  }
  if (status !== 200) {
    if (status === 405 && headers.allow !== 'POST') return '405 without Allow: POST';
    const problem = checkResponseObject(value);
    if (problem) return problem;
    return isObject(value) && isObject(value.error) && value.error.code === -32600 && value.id === null ? undefined : `${status} without a -32600 body`;
  }
  if ('single' in expected) {
    const problem = checkResponseObject(value);
    if (problem) return problem;
    if (!isObject(value) || !sameId(value.id, expected.single.id)) return `id ${isObject(value) ? stringifyJson(value.id ?? null) : '?'}, expected ${stringifyJson(expected.single.id)}`;
    if (expected.single.code !== undefined && (!isObject(value.error) || value.error.code !== expected.single.code)) return `expected error ${expected.single.code}`;
    return undefined;
  }
  if (!('batch' in expected)) return `status ${status} where the model expects no answer`;
  if (!Array.isArray(value)) return 'a batch answered with a non-array';
  if (value.length !== expected.batch.length) return `batch of ${value.length} answers, expected ${expected.batch.length}`;
  for (let i = 0; i < value.length; i++) {
    const problem = checkResponseObject(value[i]);
    if (problem) return `answer ${i}: ${problem}`;
    const id = (value[i] as { id?: JsonValue }).id;
    if (!sameId(id, expected.batch[i] ?? null)) return `answer ${i}: id ${stringifyJson(id ?? null)}, expected ${stringifyJson(expected.batch[i] ?? null)}`;
  }
  return undefined;
}

// ---------------------------------------------------------------- the run

export interface RpcFuzzOptions {
  /** Cases to send (rounded up to whole groups). */
  readonly runs: number;
  /** Cases sent at the same time, followed by one normal call. Default 8. */
  readonly groupSize?: number;
  readonly seed?: number;
  /** Called after each group with the cases sent so far. */
  readonly onProgress?: (cases: number) => void;
  /**
   * Fuzz a running server instead of a fresh one with the test methods (the whole reference node,
   * in reference-node/node/fuzzNode.test.ts). It must use FUZZ_LIMITS and serve chain_blockNumber.
   */
  readonly url?: string;
}

export interface RpcFuzzReport {
  readonly cases: number;
  readonly byKind: Record<string, number>;
  readonly byStatus: Record<string, number>;
  readonly ms: number;
}

// The spec's own form of a call (an integer id): the known-good call must not lean on what the cases try.
const NORMAL_CALL = '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":4242}';
const NORMAL_ANSWER = '{"jsonrpc":"2.0","id":4242,"result":42}';

/**
 * Starts a server on loopback, sends `runs` random cases in concurrent groups over keep-alive
 * connections, checks every answer, and after each group checks that a normal call still works.
 * Throws fast-check's report (with seed and shrunk counterexample) on the first failure.
 */
export async function runRpcFuzz(options: RpcFuzzOptions): Promise<RpcFuzzReport> {
  const groupSize = options.groupSize ?? 8;
  const numRuns = Math.ceil(options.runs / groupSize);
  const logged = { lines: 0 };
  const rpc = options.url === undefined ? createRpcServer({ methods: FUZZ_METHODS, ...FUZZ_LIMITS, logError: () => void logged.lines++ }) : undefined;
  const url = rpc ? (await rpc.listen(0, '127.0.0.1')).url : (options.url as string);
  // Our own test server answers the normal call with 42; another server answers with its real height.
  const aliveOk = (text: string): boolean => {
    if (rpc) return text === NORMAL_ANSWER;
    const v = parseJson(text);
    return isObject(v) && (v.id === 4242 || v.id === 4242n) && 'result' in v;
  };
  const pool = new Pool(url, { connections: groupSize + 1, pipelining: 1 });
  const byKind: Record<string, number> = {};
  const byStatus: Record<string, number> = {};
  let cases = 0;
  const started = Date.now();

  const send = async (c: FuzzCase): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> => {
    const headers: Record<string, string> = c.contentType === undefined ? {} : { 'content-type': c.contentType };
    const answer = await pool.request({ path: '/rpc', method: c.method, headers, body: c.body });
    return { status: answer.statusCode, headers: answer.headers, text: await answer.body.text() };
  };

  try {
    await fc.assert(
      fc.asyncProperty(fc.array(fuzzCase, { minLength: groupSize, maxLength: groupSize }), async (group) => {
        const answers = await Promise.all(group.map(send));
        answers.forEach((answer, i) => {
          const c = group[i] as FuzzCase;
          const problem = checkAnswer(c, answer.status, answer.headers, answer.text);
          if (problem !== undefined) throw new Error(`${c.kind} case: ${problem}\nanswer: ${answer.status} ${answer.text.slice(0, 500)}`);
          byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;
          byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
        });
        if (rpc && !rpc.server.listening) throw new Error('the server stopped listening');
        const alive = await send({ kind: 'normal', method: 'POST', contentType: 'application/json', body: encoder.encode(NORMAL_CALL) });
        if (alive.status !== 200 || !aliveOk(alive.text)) throw new Error(`a normal call after the group got ${alive.status} ${alive.text}`);
        cases += group.length;
        options.onProgress?.(cases);
      }),
      { numRuns, ...(options.seed === undefined ? {} : { seed: options.seed }), endOnFailure: false },
    );
  } finally {
    await pool.close();
    await rpc?.close();
  }
  return { cases, byKind, byStatus, ms: Date.now() - started };
}
