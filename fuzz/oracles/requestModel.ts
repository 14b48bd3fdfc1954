/**
 * JSON-RPC 2.0 §4-§6 over a parsed body: which answers are due, with which ids, of which kind. The rules
 * and their levels follow the conformance suite (suites/checks/transport/): -32600 with id null for a value
 * that is not an object or array (§4, §5.1, MUST) and for `[]` (§6: ONE error object, not an array, MUST);
 * one -32600 per batch element that is not a request (§6, MUST); an invalid request object (jsonrpc not
 * exactly "2.0", method not a string, params neither array nor object, an id JSON-RPC forbids) answered with
 * -32600 even without an id (§4, §5, MUST), its id when that id was valid, else null; no answer to a
 * notification, a valid request without an id member (§4.1, MUST), nor to a batch of them (§6); -32601 for
 * a method the node does not have under the profile's names (§5.1, MUST), `rpc.` names included (§4 keeps
 * them for rpc-internal methods); params judged by paramsModel.ts; a batch over the profile's maxBatch
 * answered with one BatchTooLarge error, id null (profile: docs/reference-profile.md#transport).
 */
import type { JsonValue } from '../../core/json/index.js';
import { short } from '../../core/client/validateResponse.js';
import { errorCode, wireMethod } from '../../profile/Profile.js';
import type { Profile } from '../../profile/Profile.js';
import { profileValidators } from '../../profile/profileSchemas.js';
import { isObject } from '../../profile/readWire.js';
import type { AnswerExpectation } from '../model.js';
import type { IdLiterals } from './idLiterals.js';
import { paramsVerdict } from './paramsModel.js';
import type { Due, Reading } from './Reading.js';

/** How this reading takes a number id too large for a double (1e400 reads as Infinity): refused as the reference does, or echoed. */
export type NonFiniteIds = 'invalid' | 'echo';

export interface ModelOptions {
  profile: Profile;
  nonFiniteIds: NonFiniteIds;
  /** Elements (or the whole value) holding duplicate member names (RFC 8259 §4). */
  duplicates: 'none' | 'whole' | ReadonlySet<number>;
  /** How this reading takes them: read (one value kept), the answer 'either'; or refused, an error with id null, even to a notification. */
  duplicatesAs: 'either' | 'refused';
  /**
   * A batch over the profile's maxBatch: refused whole, one error object with id null (the reference's choice,
   * the default), or call by call, an error to each call in an array (JSON-RPC 2.0 §6's shape for a batch's
   * answer; another legal choice the profile does not state).
   */
  overLimit?: 'whole' | 'per-call';
  /** The literals of the body's ids as written (idLiterals.ts), for numbers a double may not hold exactly. */
  idLiterals?: () => IdLiterals;
}

/** What the model saw that calls for another reading. */
export interface ModelNotes {
  nonFiniteId: boolean;
}

const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;

const DUPLICATE_KEYS: AnswerExpectation = {
  kind: 'either',
  because: 'the request object repeats a member name: RFC 8259 §4 leaves which value counts (or a refusal) to the node\'s parser',
};

const OTHER_MEMBERS: AnswerExpectation = {
  kind: 'either',
  because: 'the request object has members JSON-RPC 2.0 §4 does not name (the interface: "a JSON object with four members"): a node may ignore them or refuse the request (-32600)',
};

/** The reading of a whole parsed body. */
export function readingOfValue(value: JsonValue, options: ModelOptions, notes: ModelNotes): Reading {
  if (!Array.isArray(value)) {
    const due = dueOf(value, 'the request', options.duplicates === 'whole', options, notes, undefined);
    return due === undefined ? { kind: 'nothing', what: 'a notification', because: 'JSON-RPC 2.0 §4.1: the server MUST NOT reply to a notification' } : { kind: 'single', due };
  }
  if (value.length === 0) {
    return { kind: 'single', due: invalidRequest(null, false, 'the empty batch []', 'an empty batch is not a request: JSON-RPC 2.0 §6 answers it with ONE Invalid Request object, not an array', 'JSON-RPC 2.0 §6') };
  }
  const max = options.profile.maxBatch;
  const over = max !== undefined && value.length > max;
  if (over && options.overLimit !== 'per-call') return { kind: 'single', due: batchTooLarge(value.length, max, options.profile) };
  const elements: Due[] = [];
  let notifications = 0;
  value.forEach((element, i) => {
    const dup = options.duplicates === 'whole' || (options.duplicates !== 'none' && options.duplicates.has(i));
    const due = dueOf(element, `batch element ${i}`, dup, options, notes, i);
    if (due === undefined) notifications++;
    else elements.push(due);
  });
  if (elements.length === 0) return { kind: 'nothing', what: `a batch of ${value.length} notifications`, because: 'JSON-RPC 2.0 §6: for a batch of notifications only the server should return nothing at all (and MUST NOT return an empty array)' };
  if (over) {
    // Refused call by call: an error to each call with its id, as JSON-RPC 2.0 §6 answers a batch (an array).
    const because = `a batch of ${value.length}, over the profile's maxBatch (${max}), refused call by call`;
    for (const due of elements) due.answer = { kind: 'error', because };
  }
  return { kind: 'batch', elements, notifications, wholeRefusal: max === undefined };
}

function batchTooLarge(size: number, max: number, profile: Profile): Due {
  const code = errorCode(profile, 'BatchTooLarge');
  const answer: AnswerExpectation = typeof code === 'number'
    ? { kind: 'error', code, codeFrom: 'profile: errorCodes.BatchTooLarge', because: `a batch of ${size} is over the profile's maxBatch (${max})` }
    : { kind: 'error', because: `a batch of ${size} is over the profile's maxBatch (${max})` };
  return { id: null, idMayBeNull: false, answer, source: 'profile: maxBatch (docs/reference-profile.md#transport: refused whole, one error object, id null)', what: `a batch of ${size}` };
}

/** `what`: the words themselves, or a function that writes them when a message first reads them. */
function invalidRequest(id: JsonValue, idMayBeNull: boolean, what: string | (() => string), because: string, source: string): Due {
  return typeof what === 'string'
    ? { id, idMayBeNull, answer: { kind: 'error', code: INVALID_REQUEST, codeFrom: 'JSON-RPC 2.0 §5.1', because }, source, what }
    : {
        id,
        idMayBeNull,
        answer: { kind: 'error', code: INVALID_REQUEST, codeFrom: 'JSON-RPC 2.0 §5.1', because },
        source,
        get what() {
          return what();
        },
      };
}

/** The id of a request object as JSON-RPC 2.0 §4 takes it: absent (a notification if valid), valid, or one it forbids. */
function idOf(v: { [key: string]: JsonValue }, options: ModelOptions, notes: ModelNotes): { kind: 'absent' } | { kind: 'valid'; id: JsonValue } | { kind: 'invalid'; why: string } {
  if (!Object.hasOwn(v, 'id')) return { kind: 'absent' };
  const id = v.id as JsonValue;
  if (typeof id === 'string' || typeof id === 'bigint' || id === null) return { kind: 'valid', id };
  if (typeof id === 'number') {
    if (Number.isFinite(id)) return { kind: 'valid', id };
    notes.nonFiniteId = true;
    // RFC 8259 §6: a number beyond a double's range; a node may refuse it (the reference) or echo it digit for digit.
    return options.nonFiniteIds === 'echo' ? { kind: 'valid', id } : { kind: 'invalid', why: 'its id is a number too large to be echoed as the same value' };
  }
  return { kind: 'invalid', why: `its id is ${Array.isArray(id) ? 'an array' : typeof id === 'object' ? 'an object' : 'a boolean'} (JSON-RPC 2.0 §4: a String, Number, or Null)` };
}

/** What is wrong with a request object by JSON-RPC 2.0 §4, besides its id. */
function requestProblems(v: { [key: string]: JsonValue }): string[] {
  const problems: string[] = [];
  if (v.jsonrpc !== '2.0') problems.push(Object.hasOwn(v, 'jsonrpc') ? `"jsonrpc" is ${short(v.jsonrpc)}, not exactly "2.0"` : 'it has no "jsonrpc" member');
  if (typeof v.method !== 'string') problems.push(Object.hasOwn(v, 'method') ? `"method" is ${short(v.method)}, not a string` : 'it has no "method" member');
  const params = v.params;
  if (Object.hasOwn(v, 'params') && (typeof params !== 'object' || params === null)) problems.push(`"params" is ${short(params)}, neither an array nor an object`);
  return problems;
}

/** The answer due to one request object (a whole body or a batch element); undefined for a notification. */
function dueOf(v: JsonValue, where: string, duplicates: boolean, options: ModelOptions, notes: ModelNotes, index: number | undefined): Due | undefined {
  const due = dueOfObject(v, where, duplicates, options, notes);
  const literals = options.idLiterals;
  if (due !== undefined && literals !== undefined && typeof due.id === 'number' && !Number.isSafeInteger(due.id)) {
    due.idText = () => (index === undefined ? literals().top : literals().elements[index]);
  }
  return due;
}

function dueOfObject(v: JsonValue, where: string, duplicates: boolean, options: ModelOptions, notes: ModelNotes): Due | undefined {
  if (duplicates && options.duplicatesAs === 'refused') {
    return { id: null, idMayBeNull: false, answer: { kind: 'error', because: 'a node may refuse an object that repeats a member name' }, source: 'RFC 8259 §4', what: where };
  }
  if (!isObject(v)) {
    const because = `${short(v)} is not a request object`;
    return invalidRequest(null, false, where, because, Array.isArray(v) ? 'JSON-RPC 2.0 §6 (batches do not nest), §5.1' : 'JSON-RPC 2.0 §4, §5.1');
  }
  const id = idOf(v, options, notes);
  const problems = requestProblems(v);
  if (id.kind === 'invalid') problems.push(id.why);
  const validId = id.kind === 'valid' ? id.id : null;
  // The request in words is for messages only, and most answers are right: written when first read.
  let described: string | undefined;
  const what = (): string => (described ??= describeRequest(v, id.kind === 'valid' ? id.id : undefined, where));
  if (problems.length > 0) {
    const due = invalidRequest(validId, validId !== null, what, `an invalid request: ${problems.join('; ')}`, 'JSON-RPC 2.0 §4, §5.1');
    return duplicates ? { ...due, answer: DUPLICATE_KEYS } : due;
  }
  if (id.kind === 'absent') return undefined;
  const method = v.method as string;
  const spec = knownMethods(options.profile).get(method);
  let due: Due;
  if (spec === undefined) {
    const reserved = method.startsWith('rpc.') ? ' (JSON-RPC 2.0 §4 keeps rpc. names for rpc-internal methods)' : '';
    due = {
      id: validId,
      idMayBeNull: false,
      answer: { kind: 'error', code: METHOD_NOT_FOUND, codeFrom: 'JSON-RPC 2.0 §5.1', because: `${short(method)} is no method of the profile${reserved}` },
      source: 'JSON-RPC 2.0 §5.1',
      get what() {
        return what();
      },
    };
  } else {
    const verdict = paramsVerdict(spec, Object.hasOwn(v, 'params') ? v.params : undefined, options.profile);
    due = {
      id: validId,
      idMayBeNull: false,
      answer: verdict.answer,
      source: verdict.source,
      get what() {
        return what();
      },
    };
  }
  if (spec !== undefined) due.method = spec;
  if (duplicates) return { ...due, answer: DUPLICATE_KEYS };
  if (hasOtherMembers(v) && due.answer.kind !== 'either') due.answer = OTHER_MEMBERS;
  return due;
}

/** Whether a request object has members JSON-RPC 2.0 §4 does not name. */
function hasOtherMembers(v: { [key: string]: JsonValue }): boolean {
  for (const key in v) if (key !== 'jsonrpc' && key !== 'method' && key !== 'params' && key !== 'id') return true;
  return false;
}

/** A request in a few words for messages: `chain_getAccount [12345] (id 7)`, or where it was when it has no method name. */
function describeRequest(v: { [key: string]: JsonValue }, id: JsonValue | undefined, where: string): string {
  const idText = id === undefined ? '' : ` (id ${short(id)})`;
  if (typeof v.method !== 'string') return `${where}${idText}`;
  // An empty name said as "" (not a gap: `answered  {} (id 0)` reads as a missing word).
  const name = v.method === '' ? '""' : v.method.length > 60 ? `${v.method.slice(0, 60)}…` : v.method;
  return `${name} ${Object.hasOwn(v, 'params') ? short(v.params) : 'without params'}${idText}`;
}

const methodsCache = new WeakMap<Profile, Map<string, string>>();

/** The profile's wire names of the methods the schemas hold, to the spec's names (a name the profile renames is not known by its old one). */
export function knownMethods(profile: Profile): Map<string, string> {
  let known = methodsCache.get(profile);
  if (known === undefined) {
    known = new Map();
    for (const spec of profileValidators(profile).methods.keys()) {
      const wire = wireMethod(profile, spec);
      if (!known.has(wire)) known.set(wire, spec);
    }
    methodsCache.set(profile, known);
  }
  return known;
}
