/**
 * What the transport checks share: reading JSON-RPC 2.0 response objects exactly (JSON-RPC 2.0 §5,
 * §5.1), comparing ids by value and type, and bodies built as text so that every byte sent is known.
 */
import type { RawResponse } from '../../../core/client/index.js';
import { errorObjectProblems, responseProblems } from '../../../core/client/responseProblems.js';
import type { JsonValue } from '../../../core/json/index.js';
import type { CheckContext } from '../../CheckContext.js';
import { show } from '../support.js';

import { isObject } from '../../../profile/readWire.js';
import type { JsonObject } from '../../../profile/readWire.js';

export { isObject, errorObjectProblems };
export type { JsonObject };

/** The names JSON-RPC 2.0 §5.1 gives its codes, for messages. */
export const CODE_NAMES: Readonly<Record<number, string>> = {
  [-32700]: 'Parse error',
  [-32600]: 'Invalid Request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
};

export const codeText = (code: number): string => (CODE_NAMES[code] === undefined ? String(code) : `${code} (${CODE_NAMES[code]})`);

/** A method no node has: unknown methods must get -32601. */
export const UNKNOWN_METHOD = 'chainrpc_noSuchMethod';

/**
 * True when a response id is the request id in value and type (JSON-RPC 2.0 §5): "7" is not 7, and
 * 9007199254740993 (a bigint from the lossless parser) is not 9007199254740992.
 */
export function sameId(actual: JsonValue | undefined, expected: JsonValue): boolean {
  return actual !== undefined && typeof actual === typeof expected && actual === expected;
}

/** The request id as JSON text, for messages (bigints digit for digit). */
export const idText = (id: JsonValue | undefined): string => show(id);

/** A request body's text: `{"jsonrpc":"2.0","method":...,"params":...,"id":...}`, id given as JSON text (absent: a notification). */
export function requestText(method: string, params: string = '[]', id?: string): string {
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":${params}${id === undefined ? '' : `,"id":${id}`}}`;
}

/** A batch of `n` chain_blockNumber calls with ids 1..n, as text. */
export function blockNumberBatch(ctx: CheckContext, n: number): { body: string; ids: number[] } {
  const method = ctx.method('chain_blockNumber');
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  return { body: `[${ids.map((id) => requestText(method, '[]', String(id))).join(',')}]`, ids };
}

/**
 * Whether a batch's answer refuses it as a whole, as a node's batch or body limit does (the spec leaves limits
 * open): an HTTP error status with no JSON, one error object, or an array of nothing but errors with id null (the
 * same refusal wrapped in an array). A single object holding a result is no refusal: it answers a batch as if it
 * were one call, which JSON-RPC 2.0 §6 forbids ("the Server should respond with an Array").
 */
export function refusedAsWhole(res: RawResponse): boolean {
  const body = res.json;
  if (body === undefined) return res.status >= 400;
  if (Array.isArray(body)) return body.length > 0 && body.every((r) => isObject(r) && isObject(r.error) && r.id === null);
  return isObject(body) && isObject(body.error) && !('result' in body);
}

/**
 * Whether the node serves a batch of `n` plain chain_blockNumber calls (answers it with an array): after a batch of
 * `n` was refused as a whole, it tells the node's batch limit (not served) from a refusal of that batch's content.
 */
export async function servesBatchOf(ctx: CheckContext, n: number): Promise<boolean> {
  return Array.isArray((await ctx.post(blockNumberBatch(ctx, n).body)).json);
}

/** What came back, in a line for evidence: status and the start of the body. */
export function answerText(res: RawResponse): string {
  const body = res.text.trim() === '' ? '(empty body)' : res.text.length > 300 ? `${res.text.slice(0, 300)}…` : res.text;
  return `HTTP ${res.status}: ${body}`;
}

/** The body as JSON; fails (the node is wrong) when it is not JSON. */
export function bodyJson(ctx: CheckContext, res: RawResponse, what: string, expected: string): JsonValue {
  if (res.json === undefined) {
    ctx.fail(`${what}: the answer is not JSON${res.text.trim() === '' ? ' (nothing was sent back)' : ''}`, expected, answerText(res));
  }
  return res.json;
}

/** The body as one valid response object; fails otherwise (an array, not JSON, a broken envelope). */
export function singleResponse(ctx: CheckContext, res: RawResponse, what: string, expected = 'one JSON-RPC 2.0 response object'): JsonObject {
  const body = bodyJson(ctx, res, what, expected);
  if (Array.isArray(body)) ctx.fail(`${what}: the answer is an array, not a single response object`, expected, answerText(res));
  const problems = responseProblems(body);
  if (problems.length > 0 || !isObject(body)) ctx.fail(`${what}: the answer is not a valid response object: ${problems.join('; ')}`, expected, answerText(res));
  return body;
}

/**
 * The body must be one error response with `code`, and an id among `ids` (JSON-RPC 2.0 §5: null when
 * the request's id could not be detected; a request's own valid id is accepted where it had one).
 */
export function expectErrorResponse(ctx: CheckContext, res: RawResponse, what: string, code: number, ids: JsonValue[] = [null]): JsonObject {
  const expected = `a single error response, code ${codeText(code)}, id ${ids.map(idText).join(' or ')}`;
  const response = singleResponse(ctx, res, what, expected);
  expectErrorMember(ctx, response, what, code, ids, expected, res);
  return response;
}

/** Checks one (already valid) response object's error code and id. */
export function expectErrorMember(ctx: CheckContext, response: JsonObject, what: string, code: number, ids: JsonValue[], expected: string, res?: RawResponse): void {
  const actual = res === undefined ? show(response) : answerText(res);
  if (!isObject(response.error)) ctx.fail(`${what}: answered with a result, not an error`, expected, actual);
  const got = response.error.code;
  if (got !== code) ctx.fail(`${what}: error code ${show(got)}, not ${codeText(code)}`, expected, actual);
  if (!ids.some((id) => sameId(response.id, id))) ctx.fail(`${what}: the error response's id is ${idText(response.id)}, not ${ids.map(idText).join(' or ')}`, expected, actual);
}

/**
 * "Nothing returned" (JSON-RPC 2.0 §4.1, §6): the body holds no JSON value at all (empty, or not JSON).
 * Any status is accepted here; the status is a PROFILE matter.
 */
export function expectNoResponse(ctx: CheckContext, res: RawResponse, what: string): void {
  if (res.json !== undefined) ctx.fail(`${what}: the node answered with a JSON value`, 'nothing: an empty body, no JSON value', answerText(res));
}

/**
 * A batch answer as an array of valid response objects (§6); fails when it is not an array or an
 * element is not a valid response.
 */
export function batchResponses(ctx: CheckContext, res: RawResponse, what: string, expected: string): JsonObject[] {
  const body = bodyJson(ctx, res, what, expected);
  if (!Array.isArray(body)) ctx.fail(`${what}: the answer is not an array`, expected, answerText(res));
  const out: JsonObject[] = [];
  body.forEach((element, i) => {
    const problems = responseProblems(element);
    if (problems.length > 0 || !isObject(element)) ctx.fail(`${what}: response [${i}] is not a valid response object: ${problems.join('; ')}`, expected, answerText(res));
    out.push(element);
  });
  return out;
}

/** Lower-cased media type of a content-type header, without parameters. */
export const mediaType = (header: string | undefined): string | undefined => header?.split(';')[0]?.trim().toLowerCase();
