import type { RawResponse } from '../../../core/client/index.js';
import type { JsonValue } from '../../../core/json/index.js';
import { defineCheck } from '../../Check.js';
import type { Check } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import type { JsonObject } from './wire.js';
import { answerText, idText, isObject, requestText, sameId, singleResponse, UNKNOWN_METHOD } from './wire.js';
import { CheckError } from '../../checkOutcomes.js';

const ECHO = 'JSON-RPC 2.0 §5 (id: "It MUST be the same as the value of the id member in the Request Object")';

/**
 * Sends chain_blockNumber with the id written as `text` and requires a response object whose id is
 * `expected`, the same value of the same JSON type.
 */
async function expectEcho(ctx: CheckContext, text: string, expected: JsonValue): Promise<{ response: JsonObject; res: RawResponse }> {
  const res = await ctx.post(requestText(ctx.method('chain_blockNumber'), '[]', text));
  const what = `a call with id ${text}`;
  const response = singleResponse(ctx, res, what, `a response object with id ${text}`);
  if (!sameId(response.id, expected)) {
    const kind = (v: JsonValue | undefined): string => (v === null ? 'null' : typeof v === 'bigint' ? 'number' : typeof v);
    ctx.fail(`${what} was answered with id ${idText(response.id)} (${kind(response.id)}), not ${text} (${kind(expected)})`, `id ${text}`, answerText(res));
  }
  return { response, res };
}

/** Calls the concurrency check sends, and how many are in flight at once. */
export const CROSSING_CALLS = 128;
export const CROSSING_AT_ONCE = 16;

/**
 * The i-th call's id: an integer, as this interface's requests carry (docs/interface.md: "id (integer)"), each used
 * once in a run (a crossed answer cannot match by chance). A string id's echo is id-string-echoed's: here a node that
 * takes none would fail for a reason not this check's.
 */
function crossingId(i: number): { text: string; value: JsonValue } {
  return { text: String(7_000_000 + i), value: 7_000_000 + i };
}

/**
 * CROSSING_CALLS chain_blockNumber calls, CROSSING_AT_ONCE in flight at a time, each with an id of its own; fails
 * naming the first answer that carries another id (and how many did).
 */
async function expectNoCrossedIds(ctx: CheckContext): Promise<string> {
  const method = ctx.method('chain_blockNumber');
  let next = 0;
  let judged = 0;
  const crossed: { sent: string; got: JsonValue | undefined; res: RawResponse }[] = [];
  // Calls refused for the load with an HTTP error and no response object (503, a proxy's 502): a limit of the
  // node's (the spec shows none), not an answer to judge the id of.
  const refused: number[] = [];
  // A slow node that takes one call at a time: sending stops at half the check's time, and what was seen is judged.
  const stopAt = Date.now() + (ctx.endsAtMs - Date.now()) / 2;
  let stopped = false;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < CROSSING_CALLS; i = next++) {
      if (Date.now() > stopAt) {
        stopped = true;
        return;
      }
      const id = crossingId(i);
      const res = await ctx.post(requestText(method, '[]', id.text));
      if (res.status >= 400 && !isObject(res.json)) {
        refused.push(res.status);
        continue;
      }
      const response = singleResponse(ctx, res, `call ${i + 1} of ${CROSSING_CALLS} (id ${id.text})`, `a response object with id ${id.text}`);
      judged++;
      if (!sameId(response.id, id.value)) crossed.push({ sent: id.text, got: response.id, res });
    }
  };
  await Promise.all(Array.from({ length: CROSSING_AT_ONCE }, worker));
  const statuses = [...new Set(refused)].join(', ');
  if (crossed.length === 0 && judged < CROSSING_CALLS / 4) {
    const why = refused.length > 0 ? `${refused.length} were refused with HTTP ${statuses} (the node's limit on load)` : '';
    const late = stopped ? 'sending stopped at half the check\'s time (a slow node: --timeout gives it longer)' : '';
    throw new CheckError(`only ${judged} of ${CROSSING_CALLS} calls at ${CROSSING_AT_ONCE} in flight were answered with a response object; ${[why, late].filter((t) => t !== '').join('; ')}: too few to judge, no verdict`);
  }
  const first = crossed[0];
  if (first !== undefined) {
    ctx.fail(
      `${crossed.length} of ${CROSSING_CALLS} calls (${CROSSING_AT_ONCE} in flight at a time) were answered with an id not theirs; the first: id ${first.sent} answered with id ${idText(first.got)}`,
      `id ${first.sent}`,
      answerText(first.res),
      ctx.exchangeOf(first.res),
    );
  }
  const notes = [refused.length === 0 ? '' : `${refused.length} more refused with HTTP ${statuses}, not judged`, stopped ? `sending stopped at half the check's time after ${judged + refused.length} calls` : ''].filter((t) => t !== '');
  return `all ${judged} calls answered with their own id, ${CROSSING_AT_ONCE} in flight at a time${notes.length === 0 ? '' : ` (${notes.join('; ')})`}`;
}

/** Response envelope and id echo (JSON-RPC 2.0 §5). */
export const ids: Check[] = [
  defineCheck({
    id: 'transport/single-call-envelope',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a single call is answered with one response object: "jsonrpc": "2.0", the request\'s id, and exactly one of result and error',
    spec: 'JSON-RPC 2.0 §5; spec: docs/interface.md#response-single',
    async run(ctx: CheckContext) {
      const res = await ctx.post(requestText(ctx.method('chain_blockNumber'), '[]', '1'));
      const response = singleResponse(ctx, res, 'chain_blockNumber with id 1', 'a response object: jsonrpc "2.0", id 1, result or error');
      ctx.expect(sameId(response.id, 1), `the response id is ${idText(response.id)}, not 1`, 'id 1', response.id);
      return Object.hasOwn(response, 'result') ? 'answered with a result' : 'answered with an error';
    },
  }),
  defineCheck({
    id: 'transport/error-response-envelope',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'an error answer has "jsonrpc": "2.0", the request\'s id, an error object and no result member',
    spec: 'JSON-RPC 2.0 §5 ("result: This member MUST NOT exist if there was an error invoking the method"), §5.1',
    async run(ctx: CheckContext) {
      const res = await ctx.post(requestText(UNKNOWN_METHOD, '[]', '2'));
      const response = singleResponse(ctx, res, `a call of the unknown method ${UNKNOWN_METHOD}`, 'an error response: jsonrpc "2.0", id 2, error, no result');
      ctx.expect(isObject(response.error), 'a call of an unknown method was answered without an error member', 'an error member', response);
      ctx.expect(sameId(response.id, 2), `the error response's id is ${idText(response.id)}, not 2`, 'id 2', response.id);
    },
  }),
  defineCheck({
    id: 'transport/id-integer-echoed',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'an integer id (42, 0, and past 32 bits up to 2^53 - 1) comes back as the same integer, not as a string',
    spec: `${ECHO}; every integer up to 2^53 - 1 is exact in a double (RFC 8259 §6: "good interoperability")`,
    async run(ctx: CheckContext) {
      await expectEcho(ctx, '42', 42);
      await expectEcho(ctx, '0', 0);
      // Ids a 32-bit integer cannot hold (an outside tester's node echoed 3000000000 as -1294967296): exact in any JSON
      // reader of doubles, so the MUST holds for them (beyond 2^53 is id-large-integer-echoed's SHOULD).
      await expectEcho(ctx, '4294967297', 4294967297);
      await expectEcho(ctx, '9007199254740991', 9007199254740991);
    },
  }),
  defineCheck({
    id: 'transport/id-string-echoed',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a string id comes back as the same string, also one that looks numeric ("42" is not 42)',
    spec: ECHO,
    async run(ctx: CheckContext) {
      await expectEcho(ctx, '"chainrpc-7"', 'chainrpc-7');
      await expectEcho(ctx, '"42"', '42');
    },
  }),
  defineCheck({
    id: 'transport/id-large-integer-echoed',
    // SHOULD, not MUST: RFC 8259 §6 lets implementations limit numbers to double precision, so a node
    // that rounds 2^53+1 breaks no rule it must keep; the evidence shows what came back.
    level: 'SHOULD',
    category: 'transport',
    scope: 'node',
    title: 'an integer id beyond 2^53 (9007199254740993) comes back digit for digit, not rounded to a double',
    spec: `${ECHO}; RFC 8259 §6 (implementations may limit numbers to IEEE 754 doubles, so this is SHOULD: exact echo is what interoperates)`,
    async run(ctx: CheckContext) {
      await expectEcho(ctx, '9007199254740993', 9007199254740993n);
    },
  }),
  defineCheck({
    id: 'transport/id-null-answered',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a request with "id": null is a call, not a notification: it is served (answered with its result) with id null',
    spec: 'JSON-RPC 2.0 §4 (id "MAY be ... Null"), §4.1 (a notification is a request without an "id" member), §5',
    async run(ctx: CheckContext) {
      // Echoing null is not enough: a node that refuses the call with -32600 (id null) echoes it too.
      const served = await ctx.served('chain_blockNumber', () => Promise.resolve([]));
      if (!served.ok) ctx.skip(`the node does not serve ${ctx.method('chain_blockNumber')} (${served.reason}), the call this check sends with id null`);
      const { response, res } = await expectEcho(ctx, 'null', null);
      if (!Object.hasOwn(response, 'result')) {
        ctx.fail('a call with id null was refused, not served', 'the call\'s result, with id null', answerText(res));
      }
      return 'served, with id null';
    },
  }),
  defineCheck({
    id: 'transport/ids-echoed-under-concurrency',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: `${CROSSING_CALLS} calls, ${CROSSING_AT_ONCE} in flight at a time, each with an id of its own: every answer carries its own call's id, none another's`,
    spec: `${ECHO}; one call or two per id form cannot see an answer crossed with another's now and then`,
    run: expectNoCrossedIds,
  }),
  defineCheck({
    id: 'transport/id-fraction-echoed',
    level: 'SHOULD',
    category: 'transport',
    scope: 'node',
    title: 'a fractional id (1.5), discouraged but allowed, comes back as the same number',
    spec: `JSON-RPC 2.0 §4 ("Numbers SHOULD NOT contain fractional parts"), ${ECHO}`,
    async run(ctx: CheckContext) {
      await expectEcho(ctx, '1.5', 1.5);
    },
  }),
];
