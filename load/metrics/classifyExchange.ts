/**
 * JSON-RPC-aware accounting of one HTTP exchange: what became of each call a planned request carried. A call
 * is ok only when answered with a `result` (and, when sampled, a valid one); an `error` in a 200, or in one
 * element of a batch, is a failure with its code; batch answers are matched by id in any order.
 */
import { JsonParseError, parseJson, type JsonValue } from '../../core/json/index.js';
import type { PlannedCall, PlannedRequest, TrackedOutcome } from '../engine/RequestSource.js';

/** How one HTTP exchange ended, as the connection saw it. */
export type Exchange =
  | { kind: 'answer'; status: number; body: Buffer }
  /** No full answer within the timeout. */
  | { kind: 'timeout' }
  /** Connection refused, reset or closed before the full answer: `cause` in a few words, `reason` in full. */
  | { kind: 'transport'; cause: string; reason: string };

/**
 * The cause of a transport failure, in a few words a report counts by: a socket error's code, the node closing
 * the connection, an answer over the engine's limit or not HTTP. A small set, so the counts stay few.
 */
export const TRANSPORT_CAUSE = {
  closedByNode: 'closed by the node before the answer',
  closedByEngine: 'cut off by chainrpc at the run\'s end',
  tooLarge: 'an answer over 16 MiB',
  unreadable: 'an answer that is not HTTP',
} as const;

/** A socket error's cause: its code named in words where it is common (ECONNREFUSED, ECONNRESET, EPIPE), else the code. */
export function socketErrorCause(code: string | undefined): string {
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection reset';
  return `socket error ${code ?? 'without a code'}`;
}

/** One call's outcome; a result's `valid` is set only when it was sampled for validation. */
export type CallOutcome =
  | { kind: 'result'; result: JsonValue; valid?: boolean }
  | Exclude<TrackedOutcome['outcome'], { kind: 'result' }>;

/** Everything one exchange counts for. */
export interface Classification {
  /** One per call of the request, in the request's order. */
  calls: CallOutcome[];
  /** The request-level failure, if any (they exclude each other). */
  failure: null | { kind: 'timeout' } | { kind: 'transport'; cause: string } | { kind: 'httpStatus'; status: number } | { kind: 'malformed' };
  /** A batch answer held an element with an unknown or repeated id. */
  extraElements: boolean;
  /** A batch answer lacked an answer to one or more calls. */
  missingElements: boolean;
}

/** Whether a call outcome counts as ok: a result, valid when it was validated. */
export const isOk = (c: CallOutcome): boolean => c.kind === 'result' && c.valid !== false;

/**
 * Whether the node served the request (the achieved rate's numerator): it answered at least one of its calls as
 * JSON-RPC, with a result (valid or not) or a JSON-RPC error. A timeout, a transport failure, an HTTP status
 * other than 200 or an answer that answers none of its calls is not service, whatever else came back.
 */
export const isServed = (c: Classification): boolean => c.calls.some((call) => call.kind === 'result' || call.kind === 'error');

type Check = ((method: string, result: JsonValue) => boolean) | undefined;

/**
 * Classifies one exchange of `request`. `checkResult` validates the results of calls marked `validate`.
 * The body is parsed losslessly (core/json: ids and numbers beyond 2^53 stay exact).
 */
export function classifyExchange(request: PlannedRequest, exchange: Exchange, checkResult?: Check): Classification {
  if (exchange.kind === 'timeout') return allUnanswered(request, { kind: 'timeout' }, 'timeout');
  if (exchange.kind === 'transport') return allUnanswered(request, { kind: 'transport', cause: exchange.cause }, `transport: ${exchange.reason}`);
  if (exchange.status !== 200) return allUnanswered(request, { kind: 'httpStatus', status: exchange.status }, `HTTP status ${exchange.status}`);
  let body: JsonValue;
  try {
    body = parseJson(exchange.body.toString('utf8'));
  } catch (error) {
    if (error instanceof JsonParseError) return allUnanswered(request, { kind: 'malformed' }, 'the answer is not JSON');
    throw error;
  }
  return request.batch ? classifyBatch(request, body, checkResult) : classifySingle(request, body, checkResult);
}

function classifySingle(request: PlannedRequest, body: JsonValue, checkResult: Check): Classification {
  const call = request.calls[0];
  const answer = asResponse(body);
  // An error answered with a null id is the node's answer to a request it could not read the id of: ours.
  if (call === undefined || answer === undefined || !(sameId(answer.id, call.id) || (answer.id === null && answer.error !== undefined))) {
    return allUnanswered(request, { kind: 'malformed' }, answer === undefined ? 'the answer is not a JSON-RPC response' : 'the answer is to another id');
  }
  return { calls: [outcomeOf(call.method, call.validate === true, answer, checkResult)], failure: null, extraElements: false, missingElements: false };
}

function classifyBatch(request: PlannedRequest, body: JsonValue, checkResult: Check): Classification {
  const { calls } = request;
  if (!Array.isArray(body)) {
    // A batch refused as a whole (an invalid batch, a batch too large) is answered by one error object.
    const answer = asResponse(body);
    if (answer?.error !== undefined && answer.id === null) {
      const outcome: CallOutcome = { kind: 'error', code: answer.error.code, message: answer.error.message };
      return { calls: calls.map(() => outcome), failure: null, extraElements: false, missingElements: false };
    }
    return allUnanswered(request, { kind: 'malformed' }, 'a batch answered by something other than an array');
  }
  const outcomes: (CallOutcome | undefined)[] = new Array<CallOutcome | undefined>(calls.length);
  let malformed = false;
  let extra = false;
  let index: Map<string, number> | undefined;
  for (let i = 0; i < body.length; i++) {
    const answer = asResponse(body[i] as JsonValue);
    if (answer === undefined) {
      malformed = true;
      continue;
    }
    // Answers usually come in the calls' order: try the same position before the index by id.
    const same = calls[i];
    let at: number;
    if (same !== undefined && sameId(answer.id, same.id)) at = i;
    else {
      index ??= indexById(request);
      at = index.get(keyOf(answer.id)) ?? -1;
    }
    const call = calls[at];
    if (call === undefined || outcomes[at] !== undefined) {
      extra = true;
      continue;
    }
    outcomes[at] = outcomeOf(call.method, call.validate === true, answer, checkResult);
  }
  let missing = false;
  for (let i = 0; i < calls.length; i++) {
    if (outcomes[i] === undefined) {
      missing = true;
      outcomes[i] = { kind: 'unanswered', reason: 'missing from the batch answer' };
    }
  }
  return { calls: outcomes as CallOutcome[], failure: malformed ? { kind: 'malformed' } : null, extraElements: extra, missingElements: missing };
}

interface Response {
  id: JsonValue;
  result?: JsonValue;
  error?: { code: number; message: string };
}

/** A JSON-RPC response object: an id, and a result or an error with an integer code (not both). */
function asResponse(value: JsonValue): Response | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('id' in value)) return undefined;
  const id = value.id;
  const hasResult = 'result' in value;
  const error = value.error;
  if (error === undefined) return hasResult ? { id, result: value.result as JsonValue } : undefined;
  if (hasResult || typeof error !== 'object' || error === null || Array.isArray(error)) return undefined;
  const code = error.code;
  if (!(typeof code === 'number' && Number.isInteger(code)) && typeof code !== 'bigint') return undefined;
  const message = error.message;
  return { id, error: { code: Number(code), message: typeof message === 'string' ? message : '' } };
}

function outcomeOf(method: string, validate: boolean, answer: Response, checkResult: Check): CallOutcome {
  if (answer.error !== undefined) return { kind: 'error', code: answer.error.code, message: answer.error.message };
  const result = answer.result as JsonValue;
  if (validate && checkResult !== undefined) {
    let valid: boolean;
    try {
      valid = checkResult(method, result);
    } catch {
      valid = false; // a check that cannot read the result does not pass it
    }
    return { kind: 'result', result, valid };
  }
  return { kind: 'result', result };
}

/** Ids compare as JSON-RPC has them: 1 and "1" differ; a number and a bigint of the same integer are equal. */
function keyOf(id: JsonValue): string {
  return typeof id === 'string' ? `s${id}` : typeof id === 'number' || typeof id === 'bigint' ? `n${String(id)}` : `x${typeof id}`;
}

function sameId(answer: JsonValue, planned: PlannedCall['id']): boolean {
  if (typeof planned === 'string') return answer === planned;
  return answer === planned || (typeof answer === 'bigint' && String(answer) === String(planned));
}

function indexById(request: PlannedRequest): Map<string, number> {
  const map = new Map<string, number>();
  // With repeated ids in a plan (a source's mistake), the first call takes the answer.
  request.calls.forEach((c, i) => {
    const key = keyOf(c.id);
    if (!map.has(key)) map.set(key, i);
  });
  return map;
}

function allUnanswered(request: PlannedRequest, failure: NonNullable<Classification['failure']>, reason: string): Classification {
  const outcome: CallOutcome = { kind: 'unanswered', reason };
  return { calls: request.calls.map(() => outcome), failure, extraElements: false, missingElements: false };
}
