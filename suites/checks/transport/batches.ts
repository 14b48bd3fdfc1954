import type { RawResponse } from '../../../core/client/index.js';
import type { JsonValue } from '../../../core/json/index.js';
import { defineCheck } from '../../Check.js';
import type { Check } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { errorCode } from '../../../profile/Profile.js';
import { show } from '../support.js';
import type { JsonObject } from './wire.js';
import { answerText, batchResponses, blockNumberBatch, codeText, expectErrorMember, expectErrorResponse, idText, isObject, refusedAsWhole, requestText, servesBatchOf, singleResponse, UNKNOWN_METHOD } from './wire.js';

const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;

/** A key per id that keeps the type: "1" and 1 differ. */
const idKey = (id: JsonValue | undefined): string => `${id === null ? 'null' : typeof id}:${idText(id)}`;

/**
 * Matches a batch's responses to the request ids, in any order (JSON-RPC 2.0 §6: "The Response objects
 * being returned from a batch call MAY be returned in any order"). Fails on a missing, repeated or
 * unexpected id. Returns the responses by id key.
 */
function matchById(ctx: CheckContext, responses: JsonObject[], expectedIds: JsonValue[], what: string, res: RawResponse): Map<string, JsonObject[]> {
  const byId = new Map<string, JsonObject[]>();
  for (const r of responses) byId.set(idKey(r.id), [...(byId.get(idKey(r.id)) ?? []), r]);
  const wanted = new Map<string, number>();
  for (const id of expectedIds) wanted.set(idKey(id), (wanted.get(idKey(id)) ?? 0) + 1);
  const list = (ids: string[]): string => (ids.length > 8 ? `${ids.slice(0, 8).join(', ')} and ${ids.length - 8} more` : ids.join(', '));
  const name = (key: string): string => key.slice(key.indexOf(':') + 1);
  const expected = `${expectedIds.length} responses, one for each id: ${list(expectedIds.map(idText))}`;
  const missing = [...wanted].filter(([k, n]) => (byId.get(k)?.length ?? 0) < n).map(([k]) => name(k));
  const extra = [...byId].filter(([k, rs]) => rs.length > (wanted.get(k) ?? 0)).map(([k]) => name(k));
  if (missing.length > 0 || extra.length > 0) {
    const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
    const parts = [
      ...(responses.length === expectedIds.length ? [] : [`got ${plural(responses.length, 'response')}, expected ${expectedIds.length}`]),
      ...(missing.length > 0 ? [`no response for id ${list(missing)}`] : []),
      ...(extra.length > 0 ? [`unexpected or repeated responses with id ${list(extra)}`] : []),
    ];
    const actual = `HTTP ${res.status}: ${responses.length} response${responses.length === 1 ? '' : 's'} with id ${list(responses.map((r) => idText(r.id)))}`;
    ctx.fail(`${what}: ${parts.join('; ')}`, expected, actual);
  }
  return byId;
}

/** The profile's body limit when `body` is over it (a batch that size would be refused for its bytes, not its calls). */
function overBodyLimit(ctx: CheckContext, body: string): number | undefined {
  const limit = ctx.profile.maxBodyBytes;
  return limit !== undefined && Buffer.byteLength(body) > limit ? limit : undefined;
}

/** When the body of a batch would be over the profile's body limit, the batch check cannot tell its limit. */
function skipOverBodyLimit(ctx: CheckContext, body: string): void {
  const limit = overBodyLimit(ctx, body);
  if (limit !== undefined) ctx.skip(`a batch of that size (${Buffer.byteLength(body)} bytes) is over the profile's body limit (${limit} bytes)`);
}

/**
 * A batch of `n` elements goes only to a node whose profile allows it: batch limits are the node's choice (the
 * spec leaves them open), so a batch over the profile's maxBatch cannot show a rule of batches. False: leave it out.
 */
const fitsProfile = (ctx: CheckContext, n: number): boolean => ctx.profile.maxBatch === undefined || n <= ctx.profile.maxBatch;

/**
 * A batch of `n` answered by one object rather than an array may be the node's batch limit at work, which the
 * profile did not say (no --profile, or another's): before that is a failure, the same number of plain
 * chain_blockNumber calls is sent. Refused as a whole too, the node's limit is below `n`, and the check cannot be
 * done at that size: skipped, saying so; served, the refusal was of this batch's content, and the check goes on.
 */
async function sizeRefused(ctx: CheckContext, res: RawResponse, n: number, what: string): Promise<string | undefined> {
  if (n < 2 || Array.isArray(res.json) || !refusedAsWhole(res)) return undefined;
  if (await servesBatchOf(ctx, n)) return undefined;
  return `${what} (${n} elements) was refused as a whole (${answerText(res).slice(0, 160)}), and so was a batch of ${n} chain_blockNumber calls: the node's batch limit is below ${n} (the spec leaves batch limits open); give its maxBatch in the profile (chainrpc profile detect finds it)`;
}

/** An element of a mixed batch: a call (its id, its method and params), a notification (no id), or one answered with an error (its code). */
interface MixedElement {
  readonly text: string;
  readonly id?: JsonValue;
  readonly code?: number;
  readonly name?: string;
  readonly call?: { method: string; params: JsonValue[] };
}

/** How one call was answered alone: with a result (valid under its method's schema, or not), or an error code. */
type Alone = { result: true; valid: boolean } | { error: number };

/**
 * Each call of the batch, sent alone first: in a batch it must be answered as it is alone (the spec: "one [response]
 * per request", each "the method's result"). A result alone and an error in the batch, a result that its method's
 * schema takes alone and not in the batch (another call's result: an outside tester's node swapped two results,
 * ids kept), or another error, is the batch answering another request than the one it holds.
 */
async function answeredAlone(ctx: CheckContext, calls: readonly MixedElement[]): Promise<Map<string, Alone>> {
  const alone = new Map<string, Alone>();
  for (const e of calls) {
    if (e.call === undefined || alone.has(idKey(e.id))) continue;
    const r = await ctx.call(e.call.method, e.call.params, ctx.node, { anyId: true });
    alone.set(idKey(e.id), r.ok ? { result: true, valid: ctx.problems(e.call.method, r.result, 'spec').length === 0 } : { error: r.error.code });
  }
  return alone;
}

/** Fails when `r`, the batch's response to call `e`, is not answered as the call was alone. */
function expectAnsweredAsAlone(ctx: CheckContext, e: MixedElement, r: JsonObject, alone: Alone | undefined, what: string, res: RawResponse): void {
  if (alone === undefined || e.call === undefined) return;
  const call = `${e.call.method} ${JSON.stringify(e.call.params)} (id ${idText(e.id)})`;
  if ('error' in alone) {
    const code = isObject(r.error) ? r.error.code : undefined;
    if (code !== alone.error) ctx.fail(`${what}: ${call} was answered ${isObject(r.error) ? `with error ${show(code)}` : 'with a result'}, alone with error ${alone.error}`, `error ${alone.error}, as the call alone`, answerText(res));
    return;
  }
  if (!('result' in r)) ctx.fail(`${what}: ${call} was answered with ${isObject(r.error) ? `error ${show(r.error.code)} (${typeof r.error.message === 'string' ? r.error.message.slice(0, 120) : show(r.error.message)})` : 'no result'}, alone with a result: a batch may mix any calls, each answered as it is alone`, 'the call\'s result, as alone', answerText(res));
  const result = r.result;
  const problems = alone.valid ? ctx.problems(e.call.method, result, 'spec') : [];
  if (problems.length > 0) {
    // Another call's result, or this one's written otherwise than alone (an outside tester's node wrote its blocks'
    // fields otherwise in batches): what breaks the spec says which.
    const breaks = problems.slice(0, 3).map((p) => `${p.pointer || '(result)'} ${p.message}`).join('; ');
    ctx.fail(`${what}: ${call} was answered with a result that breaks ${e.call.method}'s spec schema, which its answer alone keeps (${breaks}): another call's result, or its own written otherwise in a batch`, `${e.call.method}'s result, as alone`, answerText(res));
  }
}

/**
 * Sends the batches of one mixed form and judges each: one response per element that is not a notification,
 * matched by id, the invalid object and the unknown method answered with their errors. A batch the node refuses
 * as a whole for its size gives `refused` (the next, smaller form is tried).
 */
async function judgeMixed(ctx: CheckContext, name: string, batches: MixedElement[][], alone: Map<string, Alone>): Promise<{ shown: string; refused?: undefined } | { refused: string }> {
  const orders: string[] = [];
  let total = 0;
  for (const [i, batch] of batches.entries()) {
    const what = batches.length === 1 ? name : `${name}, batch ${i + 1} of ${batches.length}`;
    const res = await ctx.post(`[${batch.map((e) => e.text).join(',')}]`);
    const refused = await sizeRefused(ctx, res, batch.length, what);
    if (refused !== undefined) return { refused };
    const answered = batch.filter((e) => e.id !== undefined);
    const expected = `an array of ${answered.length} responses: ${answered.map((e) => (e.code === undefined ? `${idText(e.id)} (a call)` : `${idText(e.id)} (${e.code})`)).join(', ')}${answered.length < batch.length ? '; none for the notification' : ''}`;
    const responses = batchResponses(ctx, res, what, expected);
    const byId = matchById(ctx, responses, answered.map((e) => e.id ?? null), what, res);
    for (const e of answered) {
      const r = byId.get(idKey(e.id))?.[0];
      if (r === undefined) ctx.fail(`${what}: no response with id ${idText(e.id)}`, expected, answerText(res));
      if (e.code === undefined) expectAnsweredAsAlone(ctx, e, r, alone.get(idKey(e.id)), what, res);
      else expectErrorMember(ctx, r, `${what}, ${e.name ?? ''}`, e.code, [e.id ?? null], expected, res);
    }
    total += responses.length;
    orders.push(responses.map((r) => idText(r.id)).join(', '));
  }
  return { shown: batches.length === 1 ? `${total} responses, in the order ${orders[0] ?? ''}` : `${name}: ${total} responses, in the orders ${orders.map((o) => `(${o})`).join(' and ')}` };
}

/** Batch sizes the every-call check sends: small, beyond the few calls the mixed batch holds, and large. */
export const EVERY_CALL_SIZES = [5, 20, 100] as const;

/**
 * Batches of plain chain_blockNumber calls, EVERY_CALL_SIZES, each answered with one response per call (matched by
 * id); a size over the profile's maxBatch or body limit is left out, and one the node refuses as a whole is its
 * limit. Skips when no size was served.
 */
async function expectEveryCallAnswered(ctx: CheckContext): Promise<string> {
  const judged: number[] = [];
  const leftOut: string[] = [];
  for (const n of EVERY_CALL_SIZES) {
    const { body, ids } = blockNumberBatch(ctx, n);
    if (!fitsProfile(ctx, n)) {
      leftOut.push(`${n}: over the profile's maxBatch (${ctx.profile.maxBatch ?? ''})`);
      continue;
    }
    const limit = overBodyLimit(ctx, body);
    if (limit !== undefined) {
      leftOut.push(`${n}: over the profile's body limit (${limit} bytes)`);
      continue;
    }
    const res = await ctx.post(body);
    // Refused before JSON-RPC (an HTTP error, a body or request limit of the node's own) or by one error object.
    if (refusedAsWhole(res)) {
      leftOut.push(`${n}: refused as a whole (${answerText(res).slice(0, 120)}), the node's limit`);
      continue;
    }
    const what = `a batch of ${n} chain_blockNumber calls`;
    matchById(ctx, batchResponses(ctx, res, what, `an array of ${n} responses, one per call`), ids, what, res);
    judged.push(n);
  }
  if (judged.length === 0) ctx.skip(`no batch to judge: ${leftOut.join('; ')}`);
  return `batches of ${judged.join(', ')} calls: one response per call${leftOut.length === 0 ? '' : `; left out: ${leftOut.join('; ')}`}`;
}

/** Batches (JSON-RPC 2.0 §6). */
export const batches: Check[] = [
  defineCheck({
    id: 'transport/empty-batch',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'an empty batch ([]) is answered with one -32600 Invalid Request object, not an array',
    spec: 'JSON-RPC 2.0 §6 ("If the batch rpc call itself fails to be recognized ... as an Array with at least one value, the response from the Server MUST be a single Response object"), §7 ("rpc call with an empty Array")',
    async run(ctx: CheckContext) {
      const res = await ctx.post('[]');
      expectErrorResponse(ctx, res, 'the empty batch []', INVALID_REQUEST);
    },
  }),
  defineCheck({
    id: 'transport/invalid-batch-elements',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a batch of values that are not requests ([1], [1,2,3], [null]) is answered with an array of one -32600 error per element, and the node lives on',
    spec: 'JSON-RPC 2.0 §6, §7 ("rpc call with an invalid Batch (but not empty)", "rpc call with invalid Batch")',
    async run(ctx: CheckContext) {
      const leftOut: string[] = [];
      for (const [body, n] of [['[1]', 1], ['[1,2,3]', 3], ['[null]', 1]] as const) {
        if (!fitsProfile(ctx, n)) {
          leftOut.push(`${body}: over the profile's maxBatch (${ctx.profile.maxBatch ?? ''})`);
          continue;
        }
        // A probe: real servers have died on [null].
        const res = await ctx.probe({ body }, `the batch ${body}`);
        const expected = `an array of ${n} error response${n === 1 ? '' : 's'}, code ${codeText(INVALID_REQUEST)}, id null`;
        const refused = await sizeRefused(ctx, res, n, `the batch ${body}`);
        if (refused !== undefined) {
          leftOut.push(refused);
          continue;
        }
        const responses = batchResponses(ctx, res, `the batch ${body}`, expected);
        if (responses.length !== n) ctx.fail(`the batch ${body} got ${responses.length} responses, not ${n}`, expected, answerText(res));
        for (const r of responses) expectErrorMember(ctx, r, `the batch ${body}`, INVALID_REQUEST, [null], expected, res);
      }
      return leftOut.length === 0 ? undefined : `left out: ${leftOut.join('; ')}`;
    },
  }),
  defineCheck({
    id: 'transport/batch-of-one',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a batch holding one call is answered with an array of one response, not a bare object',
    spec: 'JSON-RPC 2.0 §6 ("the Server should respond with an Array containing the corresponding Response objects")',
    async run(ctx: CheckContext) {
      const res = await ctx.post(`[${requestText(ctx.method('chain_blockNumber'), '[]', '11')}]`);
      const expected = 'an array of one response object with id 11';
      const responses = batchResponses(ctx, res, 'a batch of one call', expected);
      matchById(ctx, responses, [11], 'a batch of one call', res);
    },
  }),
  defineCheck({
    id: 'transport/mixed-batch',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a mixed batch (calls, a notification, an invalid object, an unknown method) gets one response per non-notification, matched by id, in any order, each call answered as it is alone (under a batch limit below six: batches of four, or of two)',
    spec: 'JSON-RPC 2.0 §6, §7 ("rpc call Batch"); spec: docs/interface.md#response-batch (one response per call, paired by id); docs/interface.md#mixed-batches',
    async run(ctx: CheckContext) {
      // §7's "rpc call Batch", with this interface's methods in place of sum, subtract and get_data, and its ids as the
      // integers this interface's requests carry (docs/interface.md: "id (integer)"): a string id is another check's.
      const call1 = { text: requestText(ctx.method('chain_blockNumber'), '[]', '1'), id: 1 as JsonValue, call: { method: 'chain_blockNumber', params: [] } };
      const notification = { text: requestText(ctx.method('chain_blockNumber'), '[]') };
      const invalid = { text: '{"foo":"boo"}', id: null, code: INVALID_REQUEST, name: 'element {"foo":"boo"}' };
      const unknown = { text: requestText(UNKNOWN_METHOD, '[]', '5'), id: 5 as JsonValue, code: METHOD_NOT_FOUND, name: `the call of ${UNKNOWN_METHOD}` };
      const call2 = { text: requestText(ctx.method('chain_getBlockByHeight'), '[0]', '2'), id: 2 as JsonValue, call: { method: 'chain_getBlockByHeight', params: [0] } };
      const call9 = { text: requestText(ctx.method('chain_health'), '[]', '9'), id: 9 as JsonValue, call: { method: 'chain_health', params: [] } };
      const alone = await answeredAlone(ctx, [call1, call2, call9]);
      // Batch limits are the node's choice (the spec leaves them open): under a limit below §7's six elements, the
      // same rule is shown by batches of four (the kinds of element; three calls and a notification), or of two.
      const forms: { name: string; batches: MixedElement[][] }[] = [
        { name: 'the mixed batch', batches: [[call1, notification, call2, invalid, unknown, call9]] },
        { name: 'the mixed batches of four', batches: [[call1, notification, invalid, unknown], [call1, call2, call9, notification]] },
        { name: 'the mixed batches of two', batches: [[call1, notification], [invalid, unknown], [call2, call9]] },
      ];
      const leftOut: string[] = [];
      for (const form of forms) {
        const over = form.batches.find((batch) => !fitsProfile(ctx, batch.length));
        if (over !== undefined) {
          leftOut.push(`${form.name}: ${over.length} elements, over the profile's maxBatch (${ctx.profile.maxBatch ?? ''})`);
          continue;
        }
        const judged = await judgeMixed(ctx, form.name, form.batches, alone);
        if (judged.refused === undefined) return judged.shown;
        leftOut.push(judged.refused);
      }
      ctx.skip(`no mixed batch fits the node's batch limit: ${leftOut.join('; ')}`);
    },
  }),
  defineCheck({
    id: 'transport/batch-answers-every-call',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: `a batch the node serves, of ${EVERY_CALL_SIZES.join(', ')} calls, is answered with one response for every call in it, none dropped past some count (a batch refused as a whole is the node's limit)`,
    spec: 'spec: docs/interface.md#response-batch ("JSON array of response objects, one per request, matched by id"); JSON-RPC 2.0 §5 (every call but a notification is replied to), §6',
    run: expectEveryCallAnswered,
  }),
  defineCheck({
    id: 'transport/batch-limit',
    level: 'PROFILE',
    category: 'transport',
    scope: 'node',
    title: 'a batch one call over the profile\'s maxBatch is refused with its BatchTooLarge code: whole (one error object, id null), or call by call (an error for each call)',
    spec: 'profile: docs/reference-profile.md#transport ("A batch over the node\'s limit is refused whole with one -32013 BatchTooLarge error (id: null)"); JSON-RPC 2.0 §6 (a batch\'s answer is an array: a refusal call by call is the other legal form)',
    async run(ctx: CheckContext) {
      const max = ctx.profile.maxBatch;
      if (max === undefined) ctx.skip('the profile gives no maxBatch');
      const code = errorCode(ctx.profile, 'BatchTooLarge');
      if (code === undefined) ctx.skip('the profile names no BatchTooLarge code');
      const { body, ids } = blockNumberBatch(ctx, max + 1);
      skipOverBodyLimit(ctx, body);
      const what = `a batch of ${max + 1} calls (maxBatch ${max})`;
      const expected = `one error response, code ${code ?? 'any'} (BatchTooLarge), id null; or an error with that code for each call`;
      const res = await ctx.probe({ body }, what);
      if (Array.isArray(res.json)) {
        // Refused call by call: each call's answer an error with the profile's code, matched by id; results mean it was served.
        const byId = matchById(ctx, batchResponses(ctx, res, what, expected), ids, what, res);
        const served = [...byId.values()].flat().filter((r) => !isObject(r.error));
        if (served.length > 0) ctx.fail(`${what}: the batch was served (${served.length} of its calls answered with a result), not refused`, expected, answerText(res));
        for (const [response] of byId.values()) if (response !== undefined) expectErrorMember(ctx, response, `${what}, call ${idText(response.id)}`, code ?? (isObject(response.error) && typeof response.error.code === 'number' ? response.error.code : INVALID_REQUEST), [response.id ?? null], expected, res);
        return `refused call by call with ${show(code)}`;
      }
      const response = singleResponse(ctx, res, what, expected);
      const got = isObject(response.error) ? response.error.code : undefined;
      expectErrorMember(ctx, response, what, code ?? (typeof got === 'number' ? got : INVALID_REQUEST), [null], expected, res);
      return `refused with ${show(got)}`;
    },
  }),
  defineCheck({
    id: 'transport/batch-at-limit-served',
    level: 'PROFILE',
    category: 'transport',
    scope: 'node',
    title: 'a batch of exactly the profile\'s maxBatch calls is served: one response per call',
    spec: 'profile: docs/reference-profile.md#limits (batch size is a node setting; maxBatch calls are allowed); JSON-RPC 2.0 §6',
    async run(ctx: CheckContext) {
      const max = ctx.profile.maxBatch;
      if (max === undefined) ctx.skip('the profile gives no maxBatch');
      const { body, ids } = blockNumberBatch(ctx, max);
      skipOverBodyLimit(ctx, body);
      const res = await ctx.post(body);
      const what = `a batch of ${max} calls (maxBatch ${max})`;
      const responses = batchResponses(ctx, res, what, `an array of ${max} responses`);
      matchById(ctx, responses, ids, what, res);
      return `${max} responses`;
    },
  }),
];
