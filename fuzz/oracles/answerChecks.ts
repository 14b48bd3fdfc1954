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
import type { Profile } from '../../profile/Profile.js';
import { isObject } from '../../profile/readWire.js';
import type { Violation } from '../model.js';
import type { Due } from './Reading.js';
import { errorViolations, optionalMethod, resultViolations } from './resultOracle.js';
import { responseProblems } from '../../core/client/responseProblems.js';

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

/**
 * Whether an answer's id is the request's: the same JSON type and value, compared losslessly. A number the
 * request wrote as a fraction or with an exponent is held as a double; an answer writing that double's
 * integer value in full (1e20 as 100000000000000000000) is the same value.
 */
export function sameId(expected: JsonValue, got: JsonValue | undefined): boolean {
  if (got === undefined) return false;
  if (typeof expected === 'number') {
    if (typeof got === 'number') return got === expected;
    return typeof got === 'bigint' && Number.isInteger(expected) && BigInt(expected) === got;
  }
  if (typeof expected === 'bigint') {
    if (typeof got === 'bigint') return got === expected;
    return typeof got === 'number' && Number.isInteger(got) && BigInt(got) === expected;
  }
  return got === expected;
}

/** A key under which equal ids (sameId) meet: integers by their exact value, whether number or bigint. */
export function idKey(id: JsonValue | undefined): string {
  if (typeof id === 'bigint') return `n:${id}`;
  if (typeof id === 'number') return Number.isInteger(id) ? `n:${BigInt(id)}` : `f:${id}`;
  if (typeof id === 'string') return `s:${id}`;
  return id === null ? 'null' : `other:${short(id)}`;
}

const kindOf = (v: JsonValue | undefined): string => (v === null ? 'null' : typeof v === 'bigint' ? 'number' : Array.isArray(v) ? 'array' : typeof v);

/** Whether the answer's id is right for the due (an Invalid Request's may also be null: Due.idMayBeNull). */
export function idAccepted(due: Due, got: JsonValue | undefined): boolean {
  return sameId(due.id, got) || (due.idMayBeNull && got === null);
}

/** Every violation of one response object, answered to `due`. */
export function dueViolations(due: Due, response: JsonValue, profile: Profile): Violation[] {
  const out: Violation[] = [];
  // Written only for a violation: most answers are right, and a large one costs a walk to write.
  let text: string | undefined;
  const excerpt = (): string => (text ??= short(response));
  const problems = responseProblems(response);
  if (problems.length > 0) {
    out.push({ oracle: 'envelope', message: `answered ${due.what} with a response object that breaks JSON-RPC 2.0: ${problems.join('; ')}`, source: 'JSON-RPC 2.0 §5, §5.1', excerpt: excerpt() });
  }
  if (!isObject(response)) return out;
  if (Object.hasOwn(response, 'id') && !idAccepted(due, response.id)) {
    const got = response.id;
    const also = due.idMayBeNull ? ' or null' : '';
    out.push({ oracle: 'envelope', message: `answered ${due.what} with id ${short(got)} (${kindOf(got)}), not ${short(due.id)} (${kindOf(due.id)})${also}`, source: 'JSON-RPC 2.0 §5 (id: "It MUST be the same as the value of the id member in the Request Object")', excerpt: excerpt() });
  }
  const hasResult = Object.hasOwn(response, 'result');
  const error = response.error;
  if (hasResult && Object.hasOwn(response, 'error')) return out;
  out.push(...carried(due, hasResult ? { result: response.result as JsonValue } : isObject(error) ? { error } : undefined, profile, excerpt));
  return out;
}

/** What the response carries (a result, or an error object), against the answer due. */
function carried(due: Due, what: { result: JsonValue } | { error: { [key: string]: JsonValue } } | undefined, profile: Profile, excerpt: () => string): Violation[] {
  const answer = due.answer;
  if (what === undefined) return [];
  // -32603 is the node's own word for a failure of its own: a finding wherever no other oracle judges the code.
  const unjudgedCode = answer.kind === 'either' || (answer.kind === 'error' && answer.code === undefined);
  if (unjudgedCode && 'error' in what && what.error.code === INTERNAL_ERROR) {
    return [{ oracle: 'internal-error', message: `answered ${due.what} with -32603 Internal error, where ${answer.kind === 'either' ? 'a result or a refusal' : 'a refusal'} was due: ${answer.because}`, source: 'JSON-RPC 2.0 §5.1 (-32603)', excerpt: excerpt() }];
  }
  if (answer.kind === 'either') return [];
  if (answer.kind === 'error') {
    if ('result' in what) return [{ oracle: 'error-expected', message: `answered ${due.what} with a result, not an error: ${answer.because}`, source: due.source, excerpt: excerpt() }];
    const got = what.error.code;
    if (answer.code === undefined || !isInteger(got) || sameId(answer.code, got)) return [];
    // A node may lack an optional method altogether (rpc.discover; chain_faucetClaim without a faucet): -32601 is
    // then its answer to any call of it, whatever the params (JSON-RPC 2.0 §5.1).
    if (sameId(METHOD_NOT_FOUND, got) && due.method !== undefined && optionalMethod(due.method, profile)) return [];
    return [{ oracle: 'error-code', message: `answered ${due.what} with error code ${codeText(got)}, not ${codeText(answer.code)}: ${answer.because}`, source: answer.codeFrom ?? due.source, excerpt: excerpt() }];
  }
  return 'result' in what ? resultViolations(answer.method, what.result, profile, due) : errorViolations(answer.method, what.error, profile, due);
}
