/**
 * What JSON-RPC 2.0 (§4-§6) and the profile make of one HTTP request, derived from the request alone (so a
 * shrunk case is judged as its original was). The HTTP layer first, where the profile decides: another
 * method than POST (profile http.wrongMethod), a content type other than application/json (profile
 * http.wrongContentType; 200 means the node serves it, so it is judged as JSON-RPC), a body over the
 * profile's maxBodyBytes (profile http.bodyTooLarge). Then the body (readJsonBody.ts) and the request
 * model (requestModel.ts, paramsModel.ts). Decisions on the open points, each with its source:
 * - an empty body (or no Content-Length: RFC 9112 §6.3, no body): an error with id null, no code compared
 *   (the suite grades -32700 for it SHOULD), or a 4xx without JSON (transport/empty-post-answered);
 * - not JSON (a syntax error, trailing data, a truncated text): -32700, id null (MUST);
 * - invalid UTF-8: -32700 (RFC 8259 §8.1), or the body read with U+FFFD in place of the bad bytes: either is right;
 * - a byte order mark: two readings, the text without it (RFC 8259 §8.1: a parser MAY ignore it; the
 *   reference does) or -32700 (a sender MUST NOT add one): either is right;
 * - nesting deeper than 512 levels: RFC 8259 §9 lets a parser limit depth, so only "a JSON answer" is due;
 * - duplicate member names (RFC 8259 §4, unpredictable): readings with the last and with the first value,
 *   the affected requests answered 'either', and a reading where the node refuses them (an error, id null);
 * - an id beyond a double's range (1e400): refused with -32600 and id null (the reference) or echoed;
 * - a fractional id (JSON-RPC 2.0 §4: "SHOULD NOT", a client's rule): a valid request, its id echoed as the same number.
 * expectationOf gives one Expectation (readings merged: where they differ the answer is 'either');
 * readingsOf gives them all, for judge.ts.
 */
import type { JsonValue } from '../../core/json/index.js';
import { stringifyJson } from '../../core/json/index.js';
import type { Profile } from '../../profile/Profile.js';
import type { AnswerExpectation, Expectation, FuzzHttp } from '../model.js';
import { lazyIdLiterals } from './idLiterals.js';
import { decodeBody, PARSER_DEPTH_LIMIT, readJsonText, writtenJson } from './readJsonBody.js';
import type { DuplicateSites, JsonBody } from './readJsonBody.js';
import type { Due, Reading, Readings } from './Reading.js';
import { readingOfValue } from './requestModel.js';
import type { ModelNotes, ModelOptions } from './requestModel.js';

const NO_BYTES = new Uint8Array(0);
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The HTTP methods the profile's http.wrongMethod is stated for (docs/profiles.md; the suite's transport/wrong-method-status). */
const PROFILE_WRONG_METHODS: readonly string[] = ['GET', 'PUT', 'DELETE'];

/** `application/json`, any case, with or without parameters (RFC 9110 §8.3.1). */
export function isJsonContentType(value: string | undefined): boolean {
  return value?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** The Expectation of a request: its readings merged (see the file's comment). */
export function expectationOf(http: FuzzHttp, profile: Profile): Expectation {
  const [primary, ...others] = expectationsOf(http, profile);
  if (primary === undefined) throw new Error('a request has at least one reading');
  return others.reduce(merge, primary);
}

/** Every legal reading of a request as an Expectation, the primary first. */
export function expectationsOf(http: FuzzHttp, profile: Profile): Expectation[] {
  return readingsOf(http, profile).readings.map(toExpectation);
}

/** Every legal reading of a request, with the HTTP refusals it may get instead (judge.ts). */
export function readingsOf(http: FuzzHttp, profile: Profile): Readings {
  if (http.method !== 'POST') {
    // The profile's status is for the methods it was stated and detected with (GET, PUT, DELETE: docs/profiles.md);
    // others (OPTIONS for CORS, a method the server does not know: 501, RFC 9110 §15.6.2) are left open.
    // The profile's status is GET's when detected (profile detect asks GET only): PUT and DELETE may be refused otherwise.
    const stated = PROFILE_WRONG_METHODS.includes(http.method) ? { status: { status: profile.http.wrongMethod, source: 'profile: http.wrongMethod', ...(http.method === 'GET' ? {} : { orAnyRefusal: true }) } } : {};
    return { readings: [{ kind: 'unjudged', what: `an HTTP ${http.method}`, because: `an HTTP ${http.method}: JSON-RPC goes by POST (docs/interface.md#transport-method); the answer is the profile's matter`, ...stated, mustBeJson: false }] };
  }
  const bytes = http.omitContentLength === true ? NO_BYTES : http.body;
  if (!isJsonContentType(http.contentType) && profile.http.wrongContentType !== 200) {
    // The profile's status is text/plain's (the suite and profile detect ask with it): another type, or none, may be
    // refused otherwise, or served as JSON (many servers read no content type as JSON, some take application/json-rpc).
    const type = http.contentType === undefined ? 'no content type' : `content type ${JSON.stringify(http.contentType)}`;
    const plain = http.contentType?.split(';')[0]?.trim().toLowerCase() === 'text/plain';
    const refused: Reading = { kind: 'unjudged', what: `a POST with ${type}`, because: `a POST with ${type}: the profile does not serve it (docs/interface.md#transport-content-type)`, status: { status: profile.http.wrongContentType, source: 'profile: http.wrongContentType', ...(plain ? {} : { orAnyRefusal: true }) }, mustBeJson: false };
    if (plain) return { readings: [refused] };
    const served = readingsOf({ ...http, contentType: 'application/json' }, profile);
    return { ...served, readings: [refused, ...served.readings] };
  }
  const limit = profile.maxBodyBytes;
  if (limit !== undefined && bytes.length > limit) {
    return {
      readings: [{ kind: 'unjudged', what: `a body of ${bytes.length} bytes`, because: `a body of ${bytes.length} bytes, over the profile's maxBodyBytes (${limit})`, status: { status: profile.http.bodyTooLarge, source: `profile: http.bodyTooLarge (maxBodyBytes ${limit})` }, mustBeJson: false }],
      mayClose: 'a server that refuses a body may close the connection before reading it all (RFC 9112 §9.6; docs/transport.md: 413, then connection: close)',
    };
  }
  const readings = bodyReadings(bytes, profile);
  if (bytes.length === 0) {
    return { readings, refusal: { accepts: (s) => s >= 400 && s < 500, because: 'a POST without a body may be refused with a 4xx (RFC 9110 §15.5; the suite, transport/empty-post-answered)' } };
  }
  if (limit === undefined) {
    const tooLarge = profile.http.bodyTooLarge;
    return { readings, refusal: { accepts: (s) => s === 413 || s === tooLarge, because: 'the profile states no body limit, so the node may refuse a body as too large (RFC 9110 §15.5.14)' } };
  }
  return { readings };
}

function bodyReadings(bytes: Uint8Array, profile: Profile): Reading[] {
  if (bytes.length === 0) return [emptyBody()];
  const written = writtenJson(bytes);
  // Bytes a generator wrote from a value (readJsonBody.ts, rememberWrittenJson): valid UTF-8 without a BOM, read as that value.
  if (written !== undefined) return jsonReadings(() => UTF8.decode(bytes), { kind: 'json', value: written }, profile);
  const decoded = decodeBody(bytes);
  if ('reason' in decoded) {
    // RFC 8259 §8.1 puts UTF-8 on the sender; a parser that reads bad bytes as U+FFFD (Go's encoding/json does,
    // on purpose) makes another legal reading of the body, as a byte order mark does.
    const lossy = decodeBody(new TextEncoder().encode(new TextDecoder('utf-8').decode(bytes)));
    const second = 'text' in lossy && readJsonText(lossy.text).kind === 'json' ? textReadings(lossy.text, profile) : [];
    return [parseError(decoded.reason, 'RFC 8259 §8.1 (JSON text is UTF-8)'), ...second];
  }
  // A byte order mark with nothing after it is not an empty body: said as what it is.
  const readings = decoded.bom && readJsonText(decoded.text).kind === 'empty' ? [emptyBody('a body of only a byte order mark')] : textReadings(decoded.text, profile);
  if (!decoded.bom) return readings;
  return [...readings, parseError('the body opens with a byte order mark', 'RFC 8259 §8.1 (a sender MUST NOT add a BOM; a parser MAY ignore it)')];
}

function textReadings(text: string, profile: Profile): Reading[] {
  return jsonReadings(() => text, readJsonText(text), profile);
}

/** The readings of a body read as JSON; `textOf` (the body as text) is called only for ids beyond a double. */
function jsonReadings(textOf: () => string, body: JsonBody, profile: Profile): Reading[] {
  switch (body.kind) {
    case 'empty':
      return [emptyBody()];
    case 'not-json':
      return [parseError(body.reason, body.source)];
    case 'too-deep':
      return [{ kind: 'unjudged', what: 'a body nested deeper than 512 levels', because: `${body.reason}: RFC 8259 §9 lets a parser limit nesting, so a parse error and a reading of the body are both right`, mustBeJson: true }];
    case 'json': {
      const idLiterals = lazyIdLiterals(textOf);
      // Numbers a double reads otherwise than they are written (RFC 8259 §6), and nesting a parser may refuse (§9): more legal readings.
      const exact = body.exact === undefined ? [] : valueReadings(body.exact, { profile, duplicates: body.duplicates?.where ?? 'none', duplicatesAs: 'either', idLiterals });
      const deep = body.deep === true ? [tooDeepRefused()] : [];
      if (body.duplicates === undefined) return [...valueReadings(body.value, { profile, duplicates: 'none', duplicatesAs: 'either', idLiterals }), ...exact, ...deep];
      const where: DuplicateSites = body.duplicates.where;
      return [
        ...valueReadings(body.value, { profile, duplicates: where, duplicatesAs: 'either', idLiterals }),
        ...valueReadings(body.duplicates.firstWins, { profile, duplicates: where, duplicatesAs: 'either', idLiterals }),
        ...valueReadings(body.value, { profile, duplicates: where, duplicatesAs: 'refused', idLiterals }),
        parseError('the body repeats a member name', 'RFC 8259 §4 (names SHOULD be unique; a parser may refuse the text)'),
        ...exact,
        ...deep,
      ];
    }
  }
}

/** The readings of a parsed body: one, two where an id is beyond a double (refused, or echoed), and a batch over the limit refused call by call. */
function valueReadings(value: JsonValue, options: Omit<ModelOptions, 'nonFiniteIds'>): Reading[] {
  const notes: ModelNotes = { nonFiniteId: false };
  const first = readingOfValue(value, { ...options, nonFiniteIds: 'invalid' }, notes);
  const readings = notes.nonFiniteId ? [first, readingOfValue(value, { ...options, nonFiniteIds: 'echo' }, { nonFiniteId: false })] : [first];
  const max = options.profile.maxBatch;
  if (!Array.isArray(value) || max === undefined || value.length <= max) return readings;
  // A batch over the profile's limit may also be refused call by call (requestModel.ts, overLimit).
  return [...readings, readingOfValue(value, { ...options, nonFiniteIds: 'invalid', overLimit: 'per-call' }, { nonFiniteId: false })];
}

function emptyBody(what = 'an empty body'): Reading {
  const because = 'an empty body is not JSON (RFC 8259 §2): -32700 is due, which the suite grades SHOULD (transport/parse-error-empty-body), so no code is compared';
  return { kind: 'single', due: { id: null, idMayBeNull: false, answer: { kind: 'error', because }, source: 'JSON-RPC 2.0 §5.1, §5 (id null)', what } };
}

/** A body nested deeper than PARSER_DEPTH_LIMIT refused by a parser's depth limit: an error with id null, no code compared. */
function tooDeepRefused(): Reading {
  const because = `the body nests deeper than ${PARSER_DEPTH_LIMIT} levels: a parser may limit nesting (RFC 8259 §9) and refuse it`;
  return { kind: 'single', due: { id: null, idMayBeNull: false, answer: { kind: 'error', because }, source: 'RFC 8259 §9; JSON-RPC 2.0 §5 (id null)', what: 'the body' } };
}

function parseError(reason: string, source: string): Reading {
  const due: Due = { id: null, idMayBeNull: false, answer: { kind: 'error', code: -32700, codeFrom: 'JSON-RPC 2.0 §5.1', because: reason }, source: `JSON-RPC 2.0 §5.1, §5 (id null); ${source}`, what: 'the body' };
  return { kind: 'single', due };
}

/** A reading as the model's Expectation (what judging needs besides is dropped). */
export function toExpectation(reading: Reading): Expectation {
  switch (reading.kind) {
    case 'single':
      return { kind: 'single', id: reading.due.id, answer: reading.due.answer };
    case 'batch':
      return { kind: 'batch', elements: reading.elements.map((d) => ({ id: d.id, answer: d.answer })) };
    case 'nothing':
      return { kind: 'nothing' };
    case 'unjudged':
      return { kind: 'unjudged', because: reading.because };
  }
}

const SEVERAL_READINGS = 'the request has more than one legal reading (a byte order mark a node may ignore, bytes that are not UTF-8, repeated member names, an id beyond a double): an answer right for any of them is right';

const same = (a: JsonValue | AnswerExpectation, b: JsonValue | AnswerExpectation): boolean => stringifyJson(a) === stringifyJson(b);

/** Two readings as one: the first's shape and ids, and 'either' where their answers differ. */
function merge(a: Expectation, b: Expectation): Expectation {
  const answer = (x: { id: JsonValue; answer: AnswerExpectation }, y: { id: JsonValue; answer: AnswerExpectation }): AnswerExpectation =>
    same(x.id, y.id) && same(x.answer, y.answer) ? x.answer : { kind: 'either', because: SEVERAL_READINGS };
  if (a.kind === 'single' && b.kind === 'single') return { kind: 'single', id: a.id, answer: answer(a, b) };
  if (a.kind === 'batch' && b.kind === 'batch' && a.elements.length === b.elements.length) {
    return { kind: 'batch', elements: a.elements.map((e, i) => { const other = b.elements[i]; return other === undefined ? e : { id: e.id, answer: answer(e, other) }; }) };
  }
  return a;
}
