import type { RawResponse } from '../../../core/client/index.js';
import { defineCheck } from '../../Check.js';
import type { Check } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { errorStatus } from '../../../profile/Profile.js';
import { answerText, isObject, mediaType, requestText, sameId, singleResponse, UNKNOWN_METHOD } from './wire.js';

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

/** HTTP methods other than POST that a node must not serve as calls. */
const WRONG_METHODS = ['GET', 'PUT', 'DELETE'] as const;

/** GET without a body; PUT and DELETE carrying a valid call, so that a node that serves them shows it. */
function wrongMethodRequest(ctx: CheckContext, method: (typeof WRONG_METHODS)[number]): { method: string; headers: Record<string, string>; body?: string } {
  return method === 'GET' ? { method, headers: {} } : { method, headers: { 'content-type': 'application/json' }, body: blockNumberCall(ctx, '30') };
}

/** HTTP around JSON-RPC: methods, content types, statuses, size limits. */
export const http: Check[] = [
  defineCheck({
    id: 'transport/answer-status',
    level: 'PROFILE',
    category: 'transport',
    scope: 'node',
    title: 'JSON-RPC answers get the profile\'s HTTP statuses: a result 200, an error the profile\'s error status (200 in the reference profile), a batch 200',
    spec: `${STATUS_POLICY} ("Every JSON-RPC answer, error or not, is sent with HTTP 200"); docs/profiles.md (http.error, http.errorByCode)`,
    async run(ctx: CheckContext) {
      for (const [what, body] of answers(ctx)) {
        const res = await ctx.post(body);
        const json = res.json;
        // A single error response gets the profile's error status for its code; results and batches 200.
        const error = isObject(json) && isObject(json.error) && typeof json.error.code === 'number' ? json.error.code : undefined;
        const want = error === undefined ? 200 : errorStatus(ctx.profile, error);
        if (res.status !== want) ctx.fail(`${what} was answered with HTTP ${res.status}, not ${want}`, `HTTP ${want} with the JSON-RPC answer`, answerText(res));
      }
      return `${answers(ctx).length} answers of every kind, each with the profile's status`;
    },
  }),
  defineCheck({
    id: 'transport/response-content-type',
    level: 'SHOULD',
    category: 'transport',
    scope: 'node',
    title: 'JSON-RPC answers to POST /rpc carry Content-Type: application/json',
    spec: 'spec: docs/interface.md#transport-content-type (Content-Type: application/json); RFC 8259 §11 (the JSON media type)',
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
    spec: 'spec: docs/interface.md#transport-content-type (Content-Type: application/json); RFC 9110 §8.3.1 (media types are case-insensitive and may carry parameters)',
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
    id: 'transport/non-post-refused',
    level: 'SHOULD',
    category: 'transport',
    scope: 'node',
    title: 'a call sent with PUT or DELETE is not served (no result comes back), and the node lives on',
    spec: 'spec: docs/interface.md#transport-method (POST); RFC 9110 §9.3 (methods have their own meaning). What GET gets (405, or a 200 for health checks) is the status policy: transport/wrong-method-status',
    async run(ctx: CheckContext) {
      const seen: string[] = [];
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await ctx.probe(wrongMethodRequest(ctx, method), `${method} ${ctx.profile.rpcPath}`);
        const json = res.json;
        if (isObject(json) && Object.hasOwn(json, 'result')) ctx.fail(`${method} ${ctx.profile.rpcPath} was served as a call: answered with HTTP ${res.status} and a result`, 'a refusal: no result (405, or a JSON-RPC error)', answerText(res));
        seen.push(`${method} ${res.status}`);
      }
      return seen.join(', ');
    },
  }),
  defineCheck({
    id: 'transport/wrong-method-status',
    level: 'PROFILE',
    category: 'transport',
    scope: 'node',
    title: 'GET on the endpoint gets the profile\'s wrong-method status, PUT and DELETE that status or another refusal (4xx); a 405 carries an Allow header listing POST',
    spec: `${STATUS_POLICY} ("Wrong HTTP method 405"); RFC 9110 §15.5.6 (a 405 "MUST generate an Allow header field"; other statuses need none). The profile's status is GET's (a node may serve GET for health checks and refuse PUT and DELETE)`,
    async run(ctx: CheckContext) {
      const want = ctx.profile.http.wrongMethod;
      for (const method of WRONG_METHODS) {
        const res = await ctx.raw(wrongMethodRequest(ctx, method));
        const what = `${method} ${ctx.profile.rpcPath}`;
        const refusedOtherwise = method !== 'GET' && res.status >= 400 && res.status < 500;
        if (res.status !== want && !refusedOtherwise) ctx.fail(`${what} was answered with HTTP ${res.status}, not ${want}${method === 'GET' ? '' : ' nor another 4xx'}`, `HTTP ${want}${want === 405 ? ' with Allow: POST' : ''}${method === 'GET' ? '' : ', or another 4xx'}`, answerText(res));
        if (res.status === 405) {
          const allow = res.headers.allow;
          const methods = (allow ?? '').split(',').map((m) => m.trim().toUpperCase());
          if (!methods.includes('POST')) ctx.fail(`${what} was answered 405 without an Allow header listing POST (allow: ${allow ?? 'none'})`, 'HTTP 405 with Allow: POST', `HTTP ${res.status}, allow: ${allow ?? '(none)'}`);
        }
      }
      return `HTTP ${want} for GET; PUT and DELETE refused`;
    },
  }),
  defineCheck({
    id: 'transport/wrong-content-type-status',
    level: 'PROFILE',
    category: 'transport',
    scope: 'node',
    title: 'a call sent as text/plain gets the profile\'s wrong-content-type status',
    spec: `${STATUS_POLICY} ("wrong content type 415"); spec: docs/interface.md#transport-content-type`,
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
      // Over a socket of its own: a node may answer 413 and close before it has read the body, and that
      // answer is what counts (undici would report the write's EPIPE instead).
      const body = call + ' '.repeat(Math.max(0, limit + 1 - Buffer.byteLength(call)));
      const res: RawResponse = await ctx.probe({ body, exact: true }, `a body of ${limit + 1} bytes`);
      if (res.status !== want) ctx.fail(`a body of ${limit + 1} bytes (maxBodyBytes ${limit}) was answered with HTTP ${res.status}, not ${want}`, `HTTP ${want}`, answerText(res));
      return `HTTP ${res.status}`;
    },
  }),
];
