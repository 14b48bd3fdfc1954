import type { RawResponse } from '../../../core/client/index.js';
import { defineCheck } from '../../Check.js';
import type { Check } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { answerText, mediaType, requestText, sameId, singleResponse, UNKNOWN_METHOD } from './wire.js';

const STATUS_POLICY = 'profile: docs/reference-profile.md#transport, docs/transport.md (HTTP status policy)';

/** A plain call, as text. */
const blockNumberCall = (ctx: CheckContext, id: string): string => requestText(ctx.method('chain_blockNumber'), '[]', id);

/** JSON-RPC answers of every kind: a result, errors (single, parse, invalid request), a batch. */
function answers(ctx: CheckContext): [string, string][] {
  return [
    ['a call answered with a result', blockNumberCall(ctx, '21')],
    [`a call of the unknown method ${UNKNOWN_METHOD}`, requestText(UNKNOWN_METHOD, '[]', '22')],
    ['a call with invalid params', requestText(ctx.method('chain_getBlockByHeight'), '["one"]', '23')],
    ['invalid JSON', '{"jsonrpc":'],
    ['an invalid request {"foo":"bar"}', '{"foo":"bar"}'],
    ['a batch with an error in it', `[${blockNumberCall(ctx, '24')},${requestText(UNKNOWN_METHOD, '[]', '25')}]`],
  ];
}

/** HTTP around JSON-RPC: methods, content types, statuses, size limits. */
export const http: Check[] = [
  defineCheck({
    id: 'transport/answer-status-200',
    level: 'PROFILE',
    category: 'transport',
    scope: 'node',
    title: 'every JSON-RPC answer, result or error, single or batch, is sent with HTTP 200',
    spec: `${STATUS_POLICY} ("Every JSON-RPC answer, error or not, is sent with HTTP 200")`,
    async run(ctx: CheckContext) {
      for (const [what, body] of answers(ctx)) {
        const res = await ctx.post(body);
        if (res.status !== 200) ctx.fail(`${what} was answered with HTTP ${res.status}, not 200`, 'HTTP 200 with the JSON-RPC answer', answerText(res));
      }
      return `${answers(ctx).length} answers of every kind, all HTTP 200`;
    },
  }),
  defineCheck({
    id: 'transport/response-content-type',
    level: 'SHOULD',
    category: 'transport',
    scope: 'node',
    title: 'JSON-RPC answers to POST /rpc carry Content-Type: application/json',
    spec: 'spec: Endpoints > Transport (Content-Type: application/json); RFC 8259 §11 (the JSON media type)',
    async run(ctx: CheckContext) {
      let judged = 0;
      for (const [what, body] of answers(ctx)) {
        const res = await ctx.post(body);
        // An answer without a body has no content to type (the missing answer is other checks' matter).
        if (res.body.length === 0) continue;
        judged++;
        const type = res.headers['content-type'];
        if (mediaType(type) !== 'application/json') {
          ctx.fail(`${what} was answered with content-type ${type === undefined ? '(none)' : JSON.stringify(type)}`, 'content-type: application/json', `${answerText(res)} (content-type: ${type ?? 'none'})`);
        }
      }
      if (judged === 0) ctx.fail('no answer carried a body', 'JSON-RPC answers with content-type: application/json', 'empty bodies only');
      return `${judged} answers, all application/json`;
    },
  }),
  defineCheck({
    id: 'transport/content-type-parameters-accepted',
    level: 'SHOULD',
    category: 'transport',
    scope: 'node',
    title: 'a request sent as "application/json; charset=utf-8" or "Application/JSON" is served like "application/json"',
    spec: 'spec: Endpoints > Transport (Content-Type: application/json); RFC 9110 §8.3.1 (media types are case-insensitive and may carry parameters)',
    async run(ctx: CheckContext) {
      for (const [type, id] of [['application/json; charset=utf-8', 26], ['Application/JSON', 27]] as const) {
        const res = await ctx.raw({ body: blockNumberCall(ctx, String(id)), headers: { 'content-type': type } });
        const what = `a call sent with content-type ${JSON.stringify(type)}`;
        const response = singleResponse(ctx, res, what, `a response object with id ${id}`);
        if (!sameId(response.id, id)) ctx.fail(`${what} was not answered as the call with id ${id}`, `a response object with id ${id}`, answerText(res));
      }
    },
  }),
  defineCheck({
    id: 'transport/get-refused',
    level: 'SHOULD',
    category: 'transport',
    scope: 'node',
    title: 'GET /rpc is not served as a call: it gets a status that is not 2xx',
    spec: 'spec: Endpoints > Transport (Method: POST); RFC 9110 §15.5.6 (405 for a method the resource does not support)',
    async run(ctx: CheckContext) {
      const res = await ctx.raw({ method: 'GET', headers: {} });
      if (res.status >= 200 && res.status < 300) ctx.fail(`GET /rpc was answered with HTTP ${res.status}`, 'a 4xx status (405)', answerText(res));
      return `HTTP ${res.status}`;
    },
  }),
  defineCheck({
    id: 'transport/wrong-method-status',
    level: 'PROFILE',
    category: 'transport',
    scope: 'node',
    title: 'GET /rpc gets the profile\'s wrong-method status with an Allow header listing POST',
    spec: `${STATUS_POLICY} ("Wrong HTTP method 405"); RFC 9110 §15.5.6 (a 405 carries Allow)`,
    async run(ctx: CheckContext) {
      const want = ctx.profile.http.wrongMethod;
      const res = await ctx.raw({ method: 'GET', headers: {} });
      const allow = res.headers.allow;
      const expected = `HTTP ${want} with Allow: POST`;
      if (res.status !== want) ctx.fail(`GET /rpc was answered with HTTP ${res.status}, not ${want}`, expected, answerText(res));
      const methods = (allow ?? '').split(',').map((m) => m.trim().toUpperCase());
      if (!methods.includes('POST')) ctx.fail(`GET /rpc was answered without an Allow header listing POST (allow: ${allow ?? 'none'})`, expected, `HTTP ${res.status}, allow: ${allow ?? '(none)'}`);
      return `HTTP ${res.status}, Allow: ${allow ?? ''}`;
    },
  }),
  defineCheck({
    id: 'transport/wrong-content-type-status',
    level: 'PROFILE',
    category: 'transport',
    scope: 'node',
    title: 'a call sent as text/plain gets the profile\'s wrong-content-type status',
    spec: `${STATUS_POLICY} ("wrong content type 415"); spec: Endpoints > Transport (Content-Type: application/json)`,
    async run(ctx: CheckContext) {
      const want = ctx.profile.http.wrongContentType;
      const res = await ctx.raw({ body: blockNumberCall(ctx, '28'), headers: { 'content-type': 'text/plain' } });
      if (res.status !== want) ctx.fail(`a call sent as text/plain was answered with HTTP ${res.status}, not ${want}`, `HTTP ${want}`, answerText(res));
      return `HTTP ${res.status}`;
    },
  }),
  defineCheck({
    id: 'transport/body-limit',
    level: 'PROFILE',
    category: 'transport',
    scope: 'node',
    title: 'a body one byte over the profile\'s maxBodyBytes gets the profile\'s body-too-large status',
    spec: `${STATUS_POLICY} ("body over the limit 413"); profile: docs/reference-profile.md#limits`,
    async run(ctx: CheckContext) {
      const limit = ctx.profile.maxBodyBytes;
      if (limit === undefined) ctx.skip('the profile gives no maxBodyBytes');
      const want = ctx.profile.http.bodyTooLarge;
      // A valid call padded with JSON whitespace: a node that ignores its limit serves it.
      const call = blockNumberCall(ctx, '29');
      const res: RawResponse = await ctx.post(call + ' '.repeat(Math.max(0, limit + 1 - Buffer.byteLength(call))));
      if (res.status !== want) ctx.fail(`a body of ${limit + 1} bytes (maxBodyBytes ${limit}) was answered with HTTP ${res.status}, not ${want}`, `HTTP ${want}`, answerText(res));
      return `HTTP ${res.status}`;
    },
  }),
];
