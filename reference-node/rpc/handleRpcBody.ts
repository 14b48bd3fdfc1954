import { JsonParseError, parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { RPC_ERROR, errorResponse, standardError } from './errorResponse.js';
import type { RpcErrorKind, RpcId } from './errorResponse.js';
import { RpcMethodError } from './RpcMethodError.js';
import { REFERENCE_TRANSPORT_RULES } from './TransportRules.js';
import type { TransportRules } from './TransportRules.js';
import type { CallContext, CallOutcome, MethodHandler, MethodTable, OnCall, OnSettled } from './types.js';

export interface HandleRpcBodyOptions {
  /** Most requests one batch may hold; a longer batch is refused whole with -32013 (profile). */
  readonly maxBatch: number;
  /**
   * Most characters of a batch's answer (default MAX_BATCH_ANSWER_CHARS): once its answers pass it, each call after
   * that expects an answer is not run and gets -32013 instead (notifications, which add nothing, still run).
   */
  readonly maxAnswerChars?: number | undefined;
  /** Called once per dispatched call (a valid request naming a method of the table), notifications included. */
  readonly onCall?: OnCall | undefined;
  /** Called once per request object settled, dispatched or refused (for metrics; see OnSettled). */
  readonly onSettled?: OnSettled | undefined;
  /** Passed to handlers in CallContext. Default: the peer's (handleRpcBody's `peer`), else ''. */
  readonly remoteAddress?: string | undefined;
  /** Where a handler's unexpected failure is logged, one line each. Default: stderr. */
  readonly logError?: ((line: string) => void) | undefined;
  /** The JSON-RPC choices (nullId, notifications, by-name params, the params check). Default: REFERENCE_TRANSPORT_RULES. */
  readonly rules?: TransportRules | undefined;
}

/** A request that passed JSON-RPC 2.0 §4's checks. */
interface ValidRequest {
  readonly method: string;
  readonly params: JsonValue | undefined;
  /** undefined: no id member, so a notification (§4.1). */
  readonly id: RpcId | undefined;
}

type Checked = { ok: true; request: ValidRequest } | { ok: false; id: RpcId; reason: string };

type Outcome = { result: JsonValue } | { error: { code: number; message: string; data?: JsonValue } };

/** data.reason of a -32603 answer: the details stay in the node's log. */
export const INTERNAL_REASON = 'the node failed while handling this call; the details are in its log';
const REASON_VALUE_CHARS = 40;

const defaultLog = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** A value, or a promise of it: the dispatcher stays synchronous unless a handler returns a promise. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * The JSON-RPC 2.0 dispatcher, without HTTP: takes a request body's text and returns the response
 * body's text, or null when nothing is to be sent (a notification, or a batch of notifications only:
 * JSON-RPC 2.0 §4.1 and §6). Never throws (nor rejects) for anything a client can send. The answer is
 * a promise only when a handler returned one; synchronous handlers are answered without a promise turn.
 */
/** Where a body came from (the request's socket): its address is read only if a handler asks for it. */
export interface Peer {
  readonly remoteAddress?: string | undefined;
}

export function handleRpcBody(text: string, methods: MethodTable, options: HandleRpcBodyOptions, peer?: Peer): MaybePromise<string | null> {
  const started = startedAt(options);
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch (error) {
    // §5.1 / §5: "Invalid JSON was received by the server"; the id could not be read, so it is null.
    const reason = error instanceof JsonParseError ? `the body is not valid JSON: ${error.reason} at offset ${error.offset}` : 'the body is not valid JSON';
    settled(options, null, RPC_ERROR.parseError.code, started);
    return parseErrorText(reason);
  }
  if (!Array.isArray(value)) return handleOne(value, methods, options, peer, started);

  // §6: "If the batch rpc call itself fails to be recognized ... as an Array with at least one value,
  // the response from the Server MUST be a single Response object."
  if (value.length === 0) {
    settled(options, null, RPC_ERROR.invalidRequest.code, started);
    return standardError('invalidRequest', null, 'an empty batch ([]) holds no request');
  }
  // Profile: a batch over the limit is refused whole, as one error object, before anything runs.
  if (value.length > options.maxBatch) {
    settled(options, null, RPC_ERROR.batchTooLarge.code, started);
    return standardError('batchTooLarge', null, `the batch holds ${value.length} requests; this node takes at most ${options.maxBatch} per batch`, {
      limit: options.maxBatch,
      size: value.length,
    });
  }
  return handleBatch(value, methods, options, peer);
}

/** The clock's reading when onSettled will want a duration, else 0: without the hook nothing reads the clock. */
function startedAt(options: HandleRpcBodyOptions): number {
  return options.onSettled === undefined ? 0 : performance.now();
}

/** Tells onSettled how a request object ended, `started` being its startedAt. */
function settled(options: HandleRpcBodyOptions, method: string | null, code: number | null, started: number): void {
  const onSettled = options.onSettled;
  if (onSettled === undefined) return;
  try {
    onSettled(method, code, (performance.now() - started) / 1000);
  } catch (error) {
    log(options, `rpc: onSettled hook failed after ${method ?? 'a call to no method of the table'}: ${describe(error)}`);
  }
}

/** Whether a handler's return value (a JsonValue, which is never a function) is a promise. */
function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * The most characters a batch's answer may grow to (8 Mi): a batch of 1,000 calls each answered with a full block, or
 * rpc.discover's document, is 27 to 134 MB, made from a request of 60 to 84 KB; an outside tester's few connections
 * sending such batches and never reading the answers ran the node out of memory in 16 s, and one client reading
 * them held its event loop a second at a time. Past it, the calls that expect an answer are refused, not run.
 */
export const MAX_BATCH_ANSWER_CHARS = 8 * 1024 * 1024;

/** The answers of a batch so far, and their characters. */
interface BatchAnswers {
  readonly texts: string[];
  chars: number;
}

function handleBatch(batch: JsonValue[], methods: MethodTable, options: HandleRpcBodyOptions, peer: Peer | undefined): MaybePromise<string | null> {
  // §6 lets a server process a batch "in any order and with any width of parallelism"; this one runs
  // the calls one after the other, in request order, so consecutive nonces are admitted in order. Handlers
  // that can start work early (MethodHandler.prepare) are told of their calls first.
  for (const element of batch) prepare(element, methods);
  const answers: BatchAnswers = { texts: [], chars: 0 };
  for (let i = 0; i < batch.length; i++) {
    const answer = batchElement(batch[i] as JsonValue, answers, methods, options, peer);
    // From the first handler that returns a promise on, the rest of the batch waits its turn.
    if (isPromise(answer)) return finishBatchAsync(batch, i, answer, answers, methods, options, peer);
    add(answers, answer);
  }
  return batchText(answers.texts);
}

async function finishBatchAsync(batch: JsonValue[], from: number, pending: Promise<string | null>, answers: BatchAnswers, methods: MethodTable, options: HandleRpcBodyOptions, peer: Peer | undefined): Promise<string | null> {
  add(answers, await pending);
  for (let i = from + 1; i < batch.length; i++) add(answers, await batchElement(batch[i] as JsonValue, answers, methods, options, peer));
  return batchText(answers.texts);
}

function add(answers: BatchAnswers, answer: string | null): void {
  if (answer === null) return;
  answers.texts.push(answer);
  answers.chars += answer.length;
}

/** One element of a batch: run, or, once the batch's answer is past its size, refused when it expects an answer. */
function batchElement(element: JsonValue, answers: BatchAnswers, methods: MethodTable, options: HandleRpcBodyOptions, peer: Peer | undefined): MaybePromise<string | null> {
  const max = options.maxAnswerChars ?? MAX_BATCH_ANSWER_CHARS;
  if (answers.chars <= max) return handleOne(element, methods, options, peer);
  const checked = checkRequest(element);
  // An invalid element is answered as ever (a short error); a notification runs (it adds nothing to the answer).
  if (!checked.ok || checked.request.id === undefined) return handleOne(element, methods, options, peer);
  settled(options, null, RPC_ERROR.batchTooLarge.code, startedAt(options));
  return standardError('batchTooLarge', checked.request.id, `the batch's answer passed ${max} characters before this call, which was not run: send it again in a smaller batch`, { limit: max });
}

/** Each method table's handlers by name (own properties only, functions only), made at its first call. */
const HANDLERS = new WeakMap<MethodTable, ReadonlyMap<string, MethodHandler>>();

/** The table's handler of `method`, if it has one: one lookup in a Map (a name is any string a client sent). */
function handlerOf(methods: MethodTable, method: string): MethodHandler | undefined {
  let byName = HANDLERS.get(methods);
  if (byName === undefined) {
    byName = new Map(Object.entries(methods).filter((entry): entry is [string, MethodHandler] => typeof entry[1] === 'function'));
    HANDLERS.set(methods, byName);
  }
  return byName.get(method);
}

/** Tells a batch element's handler of its call ahead of its turn, when it asks to be (MethodHandler.prepare). */
function prepare(element: JsonValue, methods: MethodTable): void {
  if (typeof element !== 'object' || element === null || Array.isArray(element)) return;
  const method = element.method;
  if (typeof method !== 'string') return;
  const early = handlerOf(methods, method)?.prepare;
  if (early === undefined) return;
  try {
    early(element.params);
  } catch {
    // A hint only: the call's own turn reports whatever is wrong with it.
  }
}

function batchText(answers: string[]): string | null {
  // §6: with only notifications there is nothing to return: no array, not even an empty one.
  return answers.length === 0 ? null : `[${answers.join(',')}]`;
}

/** A -32700 answer (§5.1), id null: the id could not be read (§5). */
export function parseErrorText(reason: string): string {
  return standardError('parseError', null, reason);
}

/** One request object (a whole body, or one element of a batch); `started`: its startedAt, the body's for a whole body. */
function handleOne(value: JsonValue, methods: MethodTable, options: HandleRpcBodyOptions, peer: Peer | undefined, started = startedAt(options)): MaybePromise<string | null> {
  const checked = checkRequest(value);
  // §5: an invalid request is answered even without an id (only a *valid* Request without id is a
  // notification), with the id it had when that id was itself valid, else null.
  if (!checked.ok) {
    settled(options, null, RPC_ERROR.invalidRequest.code, started);
    return standardError('invalidRequest', checked.id, checked.reason);
  }
  const { request } = checked;
  const rules = options.rules ?? REFERENCE_TRANSPORT_RULES;
  // §4: "id": null makes a request like any other id; a variant may refuse it, or take it for a notification.
  if (request.id === null && rules.nullId === 'invalid') {
    settled(options, null, RPC_ERROR.invalidRequest.code, started);
    return standardError('invalidRequest', null, 'member "id" must be a string or a number; got null');
  }
  const isNotification = request.id === undefined || (request.id === null && rules.nullId === 'notification');

  const handler = handlerOf(methods, request.method);
  if (handler === undefined) {
    const outcome = standardOutcome('methodNotFound', `this node has no method named ${quote(request.method)}`, { method: request.method });
    return answerOf(request, isNotification, outcome, false, options, started);
  }
  const outcome = dispatch(request, handler, new Call(options.remoteAddress, peer, isNotification), options);
  return isPromise(outcome)
    ? outcome.then((o) => answerOf(request, isNotification, o, true, options, started))
    : answerOf(request, isNotification, outcome, true, options, started);
}

/** A call's context for its handler; the client's address is read from the socket only when asked for (no handler of the reference node does). */
class Call implements CallContext {
  constructor(
    private readonly given: string | undefined,
    private readonly peer: Peer | undefined,
    readonly isNotification: boolean,
  ) {}

  get remoteAddress(): string {
    return this.given ?? this.peer?.remoteAddress ?? '';
  }
}

/**
 * The call's answer text (null for a notification), after telling onCall how a dispatched call ended and
 * onSettled how any call ended (`started`: its startedAt).
 */
function answerOf(request: ValidRequest, isNotification: boolean, outcome: Outcome, dispatched: boolean, options: HandleRpcBodyOptions, started: number): string | null {
  let answer: string | null = null;
  let code = 'error' in outcome ? outcome.error.code : null;
  if (!isNotification || options.rules?.answerNotifications === true) {
    const id = request.id ?? null;
    const written = responseText(id, outcome, request.method, options);
    if (written === undefined) {
      // A result or error data with no JSON form (a cycle, a function at the top): a handler bug.
      answer = standardError('internalError', id, INTERNAL_REASON);
      code = RPC_ERROR.internalError.code;
    } else answer = written;
  }
  const kind: CallOutcome = code === null ? 'result' : 'error';
  if (options.onSettled !== undefined) settled(options, dispatched ? request.method : null, code, started);
  if (dispatched && options.onCall) {
    try {
      options.onCall(request.method, kind);
    } catch (error) {
      log(options, `rpc: onCall hook failed after ${request.method}: ${describe(error)}`);
    }
  }
  return answer;
}

/** Params, then the handler; every failure becomes an error outcome. */
function dispatch(request: ValidRequest, handler: MethodHandler, ctx: CallContext, options: HandleRpcBodyOptions): MaybePromise<Outcome> {
  // Profile: an absent params counts as [] (§4 lets it be omitted).
  const given = request.params ?? [];
  const rules = options.rules ?? REFERENCE_TRANSPORT_RULES;
  const raw: JsonValue = typeof given === 'object' && given !== null && !Array.isArray(given) && rules.byNameParams === 'values' ? Object.values(given) : given;
  if (!Array.isArray(raw)) {
    // §4.2 allows by-name params; this interface is positional only (profile), so -32602.
    return standardOutcome('invalidParams', 'this interface takes positional params (an array)', {
      errors: [{ pointer: '', rule: 'type', message: 'must be an array' }],
    });
  }
  let returned: MaybePromise<JsonValue>;
  try {
    const verdict = rules.checkParams(request.method, raw);
    if (!verdict.ok) return standardOutcome('invalidParams', verdict.reason, { errors: verdict.errors });
    returned = handler(raw, ctx);
  } catch (error) {
    return failureOutcome(error, request.method, options);
  }
  if (isPromise(returned)) {
    return returned.then(
      (result) => resultOutcome(result, request.method, options),
      (error: unknown) => failureOutcome(error, request.method, options),
    );
  }
  return resultOutcome(returned, request.method, options);
}

function resultOutcome(result: JsonValue, method: string, options: HandleRpcBodyOptions): Outcome {
  // A handler's type promises a JsonValue; at run time undefined would make a response without result.
  if (result === undefined) {
    log(options, `rpc: ${method} returned undefined (a bug in the handler)`);
    return internalOutcome();
  }
  return { result };
}

function failureOutcome(error: unknown, method: string, options: HandleRpcBodyOptions): Outcome {
  if (error instanceof RpcMethodError) {
    return { error: error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data } };
  }
  // Never leak a stack or message to the client; the operator gets one line.
  log(options, `rpc: ${method} failed: ${describe(error)}`);
  return internalOutcome();
}

/**
 * The response object's text (§5): exactly jsonrpc, id and one of result / error; undefined (the failure logged)
 * when the result or the error's data has no JSON form.
 */
function responseText(id: RpcId, outcome: Outcome, method: string, options: HandleRpcBodyOptions): string | undefined {
  try {
    return 'result' in outcome
      ? `{"jsonrpc":"2.0","id":${stringifyJson(id)},"result":${resultText(outcome.result)}}`
      : errorResponse(id, outcome.error.code, outcome.error.message, outcome.error.data);
  } catch (error) {
    log(options, `rpc: ${method} answered with a value that has no JSON form: ${describe(error)}`);
    return undefined;
  }
}

/** The JSON text of results a handler gives as frozen objects (rpc.discover's document: deep-frozen, the same each call). */
const FROZEN_TEXT = new WeakMap<object, string>();

/** A result as JSON; a frozen one is written once (a handler freezes a result only when nothing in it ever changes). */
function resultText(result: unknown): string {
  if (typeof result !== 'object' || result === null || !Object.isFrozen(result)) return stringifyJson(result);
  let text = FROZEN_TEXT.get(result);
  if (text === undefined) {
    text = stringifyJson(result);
    FROZEN_TEXT.set(result, text);
  }
  return text;
}

/** JSON-RPC 2.0 §4: which members a Request object must have, and of which types. */
function checkRequest(value: JsonValue): Checked {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const reason = Array.isArray(value)
      ? 'a batch element must be a request object, not an array (batches do not nest)'
      : `a request must be a JSON object, not ${kindOf(value)}`;
    return { ok: false, id: null, reason };
  }
  // Allocated only for an invalid request.
  let problems: string[] | undefined;

  // The four members are read directly: a JSON value never holds undefined, and Object.prototype has none of
  // these names, so a member is present exactly when it reads as something other than undefined.

  // §4: id "MUST contain a String, Number, or NULL value if included".
  const rawId = value.id;
  let id: RpcId | undefined;
  if (rawId !== undefined) {
    if (typeof rawId === 'string' || typeof rawId === 'bigint' || rawId === null || (typeof rawId === 'number' && Number.isFinite(rawId))) {
      id = rawId;
    } else if (typeof rawId === 'number') {
      // 1e400 reads as Infinity: it could only be echoed as something else (§5 wants the same value).
      (problems ??= []).push('member "id" is a number too large to be echoed exactly');
    } else {
      (problems ??= []).push(`member "id" must be a string, a number or null; got ${kindOf(rawId)}`);
    }
  }

  // §4: jsonrpc "MUST be exactly "2.0"".
  const jsonrpc = value.jsonrpc;
  if (jsonrpc !== '2.0') (problems ??= []).push(jsonrpc === undefined ? 'member "jsonrpc" is missing; it must be "2.0"' : `member "jsonrpc" must be exactly "2.0"; got ${shortValue(jsonrpc)}`);

  // §4: method is "A String containing the name of the method to be invoked".
  const method = value.method;
  if (typeof method !== 'string') (problems ??= []).push(method === undefined ? 'member "method" is missing; it must be a string' : `member "method" must be a string; got ${kindOf(method)}`);

  // §4: params "MUST be a Structured value" (array or object) and "MAY be omitted".
  const params = value.params;
  if (params !== undefined && (typeof params !== 'object' || params === null)) {
    (problems ??= []).push(`member "params" must be an array or an object when present; got ${kindOf(params)}`);
  }

  // Members beyond these four: JSON-RPC 2.0 neither allows nor forbids them; they are ignored.
  if (problems !== undefined || typeof method !== 'string') return { ok: false, id: id ?? null, reason: problems?.join('; ') ?? '' };
  return { ok: true, request: { method, params, id } };
}

function standardOutcome(kind: RpcErrorKind, reason: string, extra: Record<string, JsonValue> = {}): Outcome {
  const { code, message } = RPC_ERROR[kind];
  return { error: { code, message, data: { reason, ...extra } } };
}

function internalOutcome(): Outcome {
  return standardOutcome('internalError', INTERNAL_REASON);
}

function kindOf(value: JsonValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'boolean':
      return 'a boolean';
    case 'number':
    case 'bigint':
      return 'a number';
    case 'string':
      return 'a string';
    default:
      return 'an object';
  }
}

/** A value for a reason sentence: short strings quoted, anything else by kind (reasons stay small). */
function shortValue(value: JsonValue | undefined): string {
  return typeof value === 'string' ? quote(value) : kindOf(value);
}

function quote(s: string): string {
  return s.length > REASON_VALUE_CHARS ? `${JSON.stringify(s.slice(0, REASON_VALUE_CHARS))}... (${s.length} chars)` : JSON.stringify(s);
}

function describe(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    text = 'an unprintable value';
  }
  return text.replace(/\s+/g, ' ');
}

function log(options: HandleRpcBodyOptions, line: string): void {
  try {
    (options.logError ?? defaultLog)(line);
  } catch {
    // Logging must never turn an answer into a crash.
  }
}
