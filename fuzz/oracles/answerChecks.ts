/**
 * One JSON-RPC response object against the answer due: its envelope (JSON-RPC 2.0 §5: "jsonrpc" exactly
 * "2.0", an id, exactly one of result and error; §5.1: an error object with an integer code and a string
 * message; extra members are tolerated, as the suite does), its id echoed exactly (§5: "It MUST be the same as
 * the value of the id member in the Request Object": "7" is not 7, 9007199254740993 is not 9007199254740992,
 * compared losslessly), then what it carries: a result where an error was due ('error-expected'), another
 * code than the one a MUST or the profile names ('error-code'), a valid call's result or error
 * (resultOracle.ts: 'result-schema', 'internal-error'). An 'either' answer is judged on its envelope only, and
 * on -32603: the node's word for its own failure is 'internal-error' wherever no code is named (JSON-RPC 2.0 §5.1).
 */
import type { JsonValue } from '../../core/json/index.js';
import { short } from '../../core/client/validateResponse.js';
import { excerpt } from '../../core/excerpt.js';
import type { Profile } from '../../profile/Profile.js';
import { isObject } from '../../profile/readWire.js';
import type { Violation } from '../model.js';
import type { Due } from './Reading.js';
import { errorViolations, optionalMethod, resultViolations } from './resultOracle.js';
import { responseProblems } from '../../core/client/responseProblems.js';
import { isNumeric, numberKey } from './idLiterals.js';

/** JSON-RPC 2.0's names of its codes (§5.1), for messages. */
const CODE_NAMES: Readonly<Record<string, string>> = {
  '-32700': 'Parse error',
  '-32600': 'Invalid Request',
  '-32601': 'Method not found',
  '-32602': 'Invalid params',
  '-32603': 'Internal error',
};

export const codeText = (code: JsonValue | undefined): string => {
  const name = CODE_NAMES[short(code)];
  return name === undefined ? short(code) : `${short(code)} (${name})`;
};

const INTERNAL_ERROR = -32603;
const METHOD_NOT_FOUND = -32601;

const isInteger = (v: JsonValue | undefined): boolean => typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));

export { responseProblems };

/** Where the literals of two numeric ids can be read, when their values alone cannot say (idLiterals.ts). */
export interface IdTexts {
  expected?: () => string | undefined;
  got?: () => string | undefined;
}

/**
 * Whether an answer's id is the request's: the same JSON type and value (JSON-RPC 2.0 §5). Numbers are compared
 * by their exact decimal value, whatever their form (`9e+22` is `90000000000000000000000`, `1e+100` is `1e100`;
 * 9007199254740993 is not 9007199254740992), read from their literals where a double cannot hold them (`texts`).
 * A request's number written with a fraction or an exponent may be read as a double (RFC 8259 §6), so an answer
 * echoing that double is the same id too.
 */
export function sameId(expected: JsonValue, got: JsonValue | undefined, texts: IdTexts = {}): boolean {
  if (got === undefined) return false;
  if (!isNumeric(expected) || !isNumeric(got)) return got === expected;
  // Two safe integers (most ids): their exact values are their values.
  if (typeof expected === 'number' && typeof got === 'number' && Number.isSafeInteger(expected) && Number.isSafeInteger(got)) return got === expected;
  const e = numberKey(expected, texts.expected);
  const g = numberKey(got, texts.got);
  if (e === undefined || g === undefined) return byValue(expected, got);
  if (e === g) return true;
  const written = typeof expected === 'number' && !Number.isSafeInteger(expected) ? texts.expected?.() : undefined;
  return written !== undefined && /[.eE]/.test(written) && Number(expected) === Number(got);
}

/** Two numbers compared by their values only (a literal unknown): a double and an integer are the same when the double is that integer. */
function byValue(expected: number | bigint, got: number | bigint): boolean {
  if (typeof expected === 'number') return typeof got === 'number' ? got === expected : Number.isInteger(expected) && BigInt(expected) === got;
  return typeof got === 'bigint' ? got === expected : Number.isInteger(got) && BigInt(got) === expected;
}

/** A key under which equal ids (sameId) meet: numbers by their exact value (from `literal` where the value cannot say it). */
export function idKey(id: JsonValue | undefined, literal?: () => string | undefined): string {
  if (isNumeric(id)) {
    const key = numberKey(id, literal);
    return key === undefined ? `f:${id}` : `n:${key}`;
  }
  if (typeof id === 'string') return `s:${id}`;
  return id === null ? 'null' : `other:${short(id)}`;
}

const cut = (text: string): string => excerpt(text, 80);

const kindOf = (v: JsonValue | undefined): string => (v === null ? 'null' : typeof v === 'bigint' ? 'number' : Array.isArray(v) ? 'array' : typeof v);

/** Whether the answer's id is right for the due (an Invalid Request's may also be null: Due.idMayBeNull). */
export function idAccepted(due: Due, got: JsonValue | undefined, gotText?: () => string | undefined): boolean {
  return sameId(due.id, got, { ...(due.idText === undefined ? {} : { expected: due.idText }), ...(gotText === undefined ? {} : { got: gotText }) }) || (due.idMayBeNull && got === null);
}

/**
 * What is wrong with a response object as JSON-RPC 2.0 (§5, §5.1), whatever it answers: `what` names the request
 * in the message (a function: called only when there is one). Its kind is the problems themselves: the same for
 * every request the bug shows on.
 */
export function envelopeViolations(response: JsonValue, what: string | (() => string)): Violation[] {
  const problems = responseProblems(response);
  if (problems.length === 0) return [];
  return [{ oracle: 'envelope', message: `answered ${typeof what === 'string' ? what : what()} with a response object that breaks JSON-RPC 2.0: ${problems.join('; ')}`, source: 'JSON-RPC 2.0 §5, §5.1', excerpt: short(response), kind: `response: ${problems.join('; ')}` }];
}

/**
 * The kinds of violation that are about the answer's own envelope (its members, its id echo), not about what the
 * request asked: one bug shows the same kind on every request, whatever its id or params (FindingBook.signatureOf).
 */
export const envelopeKind = (kind: string | undefined): boolean => kind !== undefined && (kind.startsWith('response: ') || kind.startsWith('id '));

/** Every violation of one response object, answered to `due`. */
export function dueViolations(due: Due, response: JsonValue, profile: Profile, gotIdText?: () => string | undefined): Violation[] {
  // Written only for a violation: most answers are right, and a large one costs a walk to write.
  let text: string | undefined;
  const excerpt = (): string => (text ??= short(response));
  // The request in words (due.what) is written only for a message: most answers are right.
  const out: Violation[] = envelopeViolations(response, () => due.what);
  if (!isObject(response)) return out;
  if (Object.hasOwn(response, 'id') && !idAccepted(due, response.id, gotIdText)) out.push(idViolation(due, response.id, excerpt(), gotIdText));
  const hasResult = Object.hasOwn(response, 'result');
  const error = response.error;
  if (hasResult && Object.hasOwn(response, 'error')) return out;
  out.push(...carried(due, hasResult ? { result: response.result as JsonValue } : isObject(error) ? { error } : undefined, profile, excerpt));
  return out;
}

/** An answer to `due` whose id is `got`, not the request's (idAccepted said no). */
export function idViolation(due: Due, got: JsonValue | undefined, excerpt: string, gotIdText?: () => string | undefined): Violation {
  const also = due.idMayBeNull ? ' or null' : '';
  // Numbers quoted as written: the node's bytes, not a double's reading of them.
  const gotText = (isNumeric(got) ? gotIdText?.() : undefined) ?? short(got);
  const dueText = (isNumeric(due.id) ? due.idText?.() : undefined) ?? short(due.id);
  return { oracle: 'envelope', message: `answered ${due.what} with id ${cut(gotText)} (${kindOf(got)}), not ${cut(dueText)} (${kindOf(due.id)})${also}`, source: 'JSON-RPC 2.0 §5 (id: "It MUST be the same as the value of the id member in the Request Object")', excerpt, kind: `id ${got === null ? 'null' : kindOf(got) === kindOf(due.id) ? 'changed' : 'of another type'}` };
}

/** What the response carries (a result, or an error object), against the answer due. */
function carried(due: Due, what: { result: JsonValue } | { error: { [key: string]: JsonValue } } | undefined, profile: Profile, excerpt: () => string): Violation[] {
  const answer = due.answer;
  if (what === undefined) return [];
  // -32603 is the node's own word for a failure of its own: a finding wherever no other oracle judges the code.
  const unjudgedCode = answer.kind === 'either' || (answer.kind === 'error' && answer.code === undefined);
  if (unjudgedCode && 'error' in what && what.error.code === INTERNAL_ERROR) {
    return [{ oracle: 'internal-error', message: `answered ${due.what} with -32603 Internal error, where ${answer.kind === 'either' ? 'a result or a refusal' : 'a refusal'} was due: ${answer.because}`, source: 'JSON-RPC 2.0 §5.1 (-32603)', excerpt: excerpt(), kind: 'internal-error' }];
  }
  if (answer.kind === 'either') return [];
  if (answer.kind === 'error') {
    if ('result' in what) return [{ oracle: 'error-expected', message: `answered ${due.what} with a result, not an error: ${answer.because}`, source: due.source, excerpt: excerpt(), kind: 'result for an error' }];
    const got = what.error.code;
    if (answer.code === undefined || !isInteger(got) || sameId(answer.code, got)) return [];
    // A node may lack an optional method altogether (rpc.discover; chain_faucetClaim without a faucet): -32601 is
    // then its answer to any call of it, whatever the params (JSON-RPC 2.0 §5.1).
    if (sameId(METHOD_NOT_FOUND, got) && due.method !== undefined && optionalMethod(due.method, profile)) return [];
    return [{ oracle: 'error-code', message: `answered ${due.what} with error code ${codeText(got)}, not ${codeText(answer.code)}: ${answer.because}`, source: answer.codeFrom ?? due.source, excerpt: excerpt(), kind: `error-code ${short(got)} for ${short(answer.code)}` }];
  }
  return 'result' in what ? resultViolations(answer.method, what.result, profile, due) : errorViolations(answer.method, what.error, profile, due);
}
