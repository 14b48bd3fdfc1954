/**
 * Transport faults: the JSON-RPC 2.0 envelope and HTTP. They bend the transport rules (reference-node/rpc/TransportRules.ts): a choice replaced, or the answer's text rewritten. TEST-ONLY: each fault makes a reference node deliberately wrong (docs/faults.md).
 */
import { parseJson, stringifyJson } from '../../core/json/index.js';
import { RPC_ERROR, standardError } from '../rpc/errorResponse.js';
import { INTERNAL_REASON } from '../rpc/handleRpcBody.js';
import { RpcMethodError } from '../rpc/RpcMethodError.js';
import { JSON_TYPE } from '../rpc/TransportRules.js';
import { eachError, eachResponse, isObject, mapResponses, requestValue, rewriteAnswer, rules, wrapEveryMethod, text } from './bends.js';
import { changedId, crossIdsNowAndThen, FAULT_BODY_LIMIT, frameworkErrorPage, holdsNullRequest, isErrorAnswer, leakyError, NULL_DEATH_LINE, serverDies } from './deviations.js';
import type { Fault } from './bends.js';

export const TRANSPORT_FAULTS = [
  {
    name: 'id-type-changed',
    category: 'transport',
    description: 'A numeric id is echoed as a string, and a string id that looks numeric ("7") as a number.',
    rule: 'The response id equals the request id in value and type (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: eachResponse((res) => ('id' in res ? { ...res, id: changedId(res.id) ?? null } : res)) },
  },
  {
    name: 'large-id-rounded',
    category: 'transport',
    description: 'Integer ids beyond 2^53 are echoed rounded to the nearest double (as JSON.parse/JSON.stringify would).',
    rule: 'The response id equals the request id in value (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: eachResponse((res) => (typeof res.id === 'bigint' ? { ...res, id: Number(res.id) } : res)) },
  },
  {
    name: 'id-crossed-now-and-then',
    category: 'transport',
    description: 'One single call in 25 is answered with the id of the single call answered before it (answers crossed now and then, as a response buffer shared by connections does); every other answer is right.',
    rule: 'The response id equals the request id (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
    // A counter of its own per node: the bend runs once for each node that takes the fault.
    bend: { transport: (r) => rewriteAnswer(crossIdsNowAndThen(25))(r) },
  },
  {
    name: 'null-id-dropped',
    category: 'transport',
    description: 'A request with "id": null is treated as a notification: the method runs and nothing is sent (HTTP 204).',
    rule: 'Only a request without an id member is a notification; one with id null is answered (JSON-RPC 2.0 §4, §4.1).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: rules(() => ({ nullId: 'notification' })) },
  },
  {
    name: 'batch-one-unwrapped',
    category: 'transport',
    description: 'A batch of one request is answered with a bare response object instead of an array of one.',
    rule: 'A batch is answered with an array of responses (JSON-RPC 2.0 §6).',
    level: 'MUST',
    scope: 'node',
    bend: {
      transport: rewriteAnswer((answer, request) => {
        const body = requestValue(request);
        if (answer === null || !Array.isArray(body) || body.length !== 1) return answer;
        const list = parseJson(answer);
        return Array.isArray(list) && list.length === 1 ? stringifyJson(list[0] ?? null) : answer;
      }),
    },
  },
  {
    name: 'batch-answered-with-first',
    category: 'transport',
    description: 'A batch of two or more calls, every one answered with a result, is answered with the first response alone, a bare object (as a server that takes a batch for one call does); a batch of one, or one with an error in its answer, is answered right.',
    rule: 'A batch is answered with an array of responses, one per request that is not a notification (JSON-RPC 2.0 §6).',
    level: 'MUST',
    scope: 'node',
    bend: {
      transport: rewriteAnswer((answer) => {
        if (answer === null) return answer;
        const list = parseJson(answer);
        return Array.isArray(list) && list.length >= 2 && list.every((r) => isObject(r) && 'result' in r) ? stringifyJson(list[0] ?? null) : answer;
      }),
    },
  },
  {
    name: 'empty-batch-array',
    category: 'transport',
    description: '[] is answered with [] instead of one Invalid Request (-32600) object.',
    rule: 'An empty array is an invalid batch, answered with a single response object (JSON-RPC 2.0 §6).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: rewriteAnswer((answer, request) => { const body = requestValue(request); return Array.isArray(body) && body.length === 0 ? '[]' : answer; }) },
  },
  {
    name: 'notification-answered',
    category: 'transport',
    description: 'Notifications (single and inside batches) get response objects (with id null); an all-notification batch gets an array.',
    rule: 'Notifications are never answered (JSON-RPC 2.0 §4.1, §6).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: rules(() => ({ answerNotifications: true })) },
  },
  {
    name: 'parse-error-code',
    category: 'transport',
    description: 'Unparsable JSON is answered with -32600 instead of -32700.',
    rule: 'Invalid JSON is -32700 Parse error (JSON-RPC 2.0 §5.1).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: eachError((e) => (e.code === RPC_ERROR.parseError.code ? { ...e, ...RPC_ERROR.invalidRequest } : e)) },
  },
  {
    name: 'parse-error-id',
    category: 'transport',
    description: 'Parse errors carry "id": 0 instead of null.',
    rule: 'When the id could not be detected, the response id is null (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: eachResponse((res) => (isObject(res.error) && res.error.code === RPC_ERROR.parseError.code ? { ...res, id: 0 } : res)) },
  },
  {
    name: 'invalid-request-ignored',
    category: 'transport',
    description: 'A JSON value that is not a valid request object (1, {"foo":1}, the elements of [1,2,3]) gets no answer: a single one gets HTTP 204, batch elements are dropped.',
    rule: 'An invalid Request is answered with -32600 (JSON-RPC 2.0 §5, §5.1, §6).',
    level: 'MUST',
    scope: 'node',
    bend: {
      // Every -32600 but the one an empty batch gets: the answers to values that are not valid requests.
      transport: rewriteAnswer((answer, request) => {
        const body = requestValue(request);
        if (Array.isArray(body) && body.length === 0) return answer;
        return mapResponses(answer, request, (res) => (isObject(res.error) && res.error.code === RPC_ERROR.invalidRequest.code ? null : res));
      }),
    },
  },
  {
    name: 'unknown-method-code',
    category: 'transport',
    description: 'An unknown method is answered with -32600 instead of -32601.',
    rule: 'An unknown method is -32601 Method not found (JSON-RPC 2.0 §5.1).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: eachError((e) => (e.code === RPC_ERROR.methodNotFound.code ? { ...e, ...RPC_ERROR.invalidRequest } : e)) },
  },
  {
    name: 'invalid-params-code',
    category: 'transport',
    description: 'Params that fail validation (wrong type, count, by-name) are answered with -32603 instead of -32602.',
    rule: 'Invalid method parameters are -32602 Invalid params (JSON-RPC 2.0 §5.1).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: eachError((e) => (e.code === RPC_ERROR.invalidParams.code && isObject(e.data) && 'errors' in e.data ? { ...e, ...RPC_ERROR.internalError } : e)) },
  },
  {
    name: 'missing-param-internal',
    category: 'transport',
    description: 'A call whose params are [] where the method needs one (chain_getAccount, chain_getBlockByHeight, ...) is answered with -32603 Internal error instead of -32602; a param of the wrong type or one too many still gets -32602.',
    rule: 'A required param missing is invalid params, -32602 (JSON-RPC 2.0 §5.1), not an internal error.',
    level: 'SHOULD',
    scope: 'node',
    bend: {
      transport: eachError((e, response, requests) => {
        const request = requests.find((r) => isObject(r) && r.id === response.id);
        const empty = isObject(request) && Array.isArray(request.params) && request.params.length === 0;
        return empty && e.code === RPC_ERROR.invalidParams.code ? { ...e, ...RPC_ERROR.internalError } : e;
      }),
    },
  },
  {
    name: 'result-and-error',
    category: 'transport',
    description: 'Error responses also carry "result": null.',
    rule: 'A response has result or error, never both (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: eachResponse((res) => ('error' in res ? { ...res, result: null } : res)) },
  },
  {
    name: 'jsonrpc-missing-on-results',
    category: 'transport',
    description: 'Answers that carry a result lack the "jsonrpc" member (success responses built by hand, without it); error answers keep it.',
    rule: 'Every response carries "jsonrpc": "2.0" (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: eachResponse((res) => ('result' in res ? Object.fromEntries(Object.entries(res).filter(([k]) => k !== 'jsonrpc')) : res)) },
  },
  {
    name: 'jsonrpc-missing',
    category: 'transport',
    description: 'Responses (single and batch) lack the "jsonrpc" member.',
    rule: 'Every response carries "jsonrpc": "2.0" (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: eachResponse(({ jsonrpc: _jsonrpc, ...rest }) => rest) },
  },
  {
    name: 'http-500-on-error',
    category: 'transport',
    description: 'A single call answered with a JSON-RPC error is sent with HTTP 500 (the body is still the error response).',
    rule: 'Every JSON-RPC answer, error or not, is sent with HTTP 200 (profile: Transport).',
    level: 'PROFILE',
    scope: 'node',
    bend: { transport: rules((r) => ({ answerStatus: (text) => (isErrorAnswer(text) ? 500 : r.answerStatus(text)) })) },
  },
  {
    name: 'get-accepted',
    category: 'transport',
    description: 'GET /rpc is answered 200 with a JSON-RPC -32600 error body instead of 405.',
    rule: 'A method other than POST on /rpc is HTTP 405 with Allow: POST (profile: Transport).',
    level: 'PROFILE',
    scope: 'node',
    bend: { transport: rules((r) => ({ httpMethod: (method) => (method === 'GET' ? 'invalid-request' : r.httpMethod(method)) })) },
  },
  {
    name: 'any-content-type',
    category: 'transport',
    description: 'A body sent with any content type (text/plain, none) is processed normally instead of refused with 415.',
    rule: 'A content type other than application/json is HTTP 415 (profile: Transport).',
    level: 'PROFILE',
    scope: 'node',
    bend: { transport: rules(() => ({ acceptsContentType: () => true })) },
  },
  {
    name: 'response-content-type',
    category: 'transport',
    description: 'JSON-RPC answers to POST /rpc are sent with content-type text/plain instead of application/json.',
    rule: 'A JSON body is labelled application/json (sound; RFC 8259 §11).',
    level: 'SHOULD',
    scope: 'node',
    bend: { transport: rules(() => ({ answerContentType: 'text/plain; charset=utf-8' })) },
  },
  {
    name: 'error-code-string',
    category: 'transport',
    description: 'Error objects carry their code as a string ("-32601").',
    rule: 'error.code is an integer (JSON-RPC 2.0 §5.1).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: eachError((e) => (typeof e.code === 'number' ? { ...e, code: text(e.code) } : e)) },
  },
  {
    name: 'content-type-params-refused',
    category: 'transport',
    description: 'application/json with parameters ("; charset=utf-8") or in another case is refused with 415.',
    rule: 'A media type is matched without its parameters, case-insensitively (RFC 9110 §8.3.1); application/json; charset=utf-8 is JSON.',
    level: 'SHOULD',
    scope: 'node',
    bend: { transport: rules(() => ({ acceptsContentType: (value) => value === JSON_TYPE })) },
  },
  {
    name: 'batch-limit-ignored',
    category: 'transport',
    description: 'A batch over the node\'s limit (--max-batch, default 1000) is processed instead of refused with one -32013 error.',
    rule: 'A batch over the limit is refused whole with one -32013 BatchTooLarge object, id null (profile: Transport).',
    level: 'PROFILE',
    scope: 'node',
    bend: { settings: { maxBatch: Number.MAX_SAFE_INTEGER } },
  },
  {
    name: 'batch-cut-at-16',
    category: 'transport',
    description: 'A batch of more than 16 calls is answered with the responses to its first 16 only, the rest dropped without a word (as a fixed pool of 16 workers that takes no more does); batches up to 16 are answered right.',
    rule: 'A batch gets one response per request that is not a notification (spec: Response, batch; JSON-RPC 2.0 §5, §6).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: rewriteAnswer((answer) => { const list = answer === null ? null : parseJson(answer); return Array.isArray(list) && list.length > 16 ? stringifyJson(list.slice(0, 16)) : answer; }) },
  },
  {
    name: 'batch-reversed-and-truncated',
    category: 'transport',
    description: 'A batch that has 3 or more responses is answered in reverse order without the response to its last request (an id is missing).',
    rule: 'A batch gets one response per request that is not a notification (JSON-RPC 2.0 §6).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: rewriteAnswer((answer) => { const list = answer === null ? null : parseJson(answer); return Array.isArray(list) && list.length >= 3 ? stringifyJson(list.slice(0, -1).reverse()) : answer; }) },
  },
  {
    name: 'body-limit-ignored',
    category: 'transport',
    description: 'Bodies over the node\'s limit (--max-body-bytes, default 1 MiB) are read and processed (up to 64 MiB) instead of refused with 413.',
    rule: 'A body over the limit is HTTP 413 (profile: Transport, Limits).',
    level: 'PROFILE',
    scope: 'node',
    bend: { settings: { maxBodyBytes: FAULT_BODY_LIMIT } },
  },
  {
    name: 'by-name-params-accepted',
    category: 'transport',
    description: 'By-name (object) params are accepted: their values are taken in order as positional params.',
    rule: 'By-name (object) params are refused with -32602 (profile: Transport).',
    level: 'PROFILE',
    scope: 'node',
    bend: { transport: rules(() => ({ byNameParams: 'values' })) },
  },
  {
    name: 'dies-on-null',
    category: 'transport',
    description: 'A body that is JSON null, or a batch with a null element ([null]), kills the RPC server: that request gets no answer (the connection is dropped) and every later connection is refused.',
    rule: 'A body that is not a request object is answered with -32600 Invalid Request, and a server survives any request (JSON-RPC 2.0 §4, §5.1).',
    level: 'MUST',
    scope: 'node',
    bend: {
      transport: rules((r) => ({
        takeOver: (text, exchange) => {
          if (!holdsNullRequest(text)) return r.takeOver?.(text, exchange) ?? false;
          serverDies(exchange.server, exchange.res, exchange.log, NULL_DEATH_LINE);
          return true;
        },
      })),
    },
  },
  {
    name: 'scalars-parse-error',
    category: 'transport',
    description: 'A body that is a JSON scalar (null, true, false, a string, a number) is answered with -32700 Parse error (id null) instead of -32600.',
    rule: '-32700 is for invalid JSON only; a valid JSON value that is not a request is -32600 Invalid Request (JSON-RPC 2.0 §5.1).',
    level: 'MUST',
    scope: 'node',
    bend: {
      transport: rewriteAnswer((answer, request) => {
        const body = requestValue(request);
        return body !== undefined && (typeof body !== 'object' || body === null) ? standardError('parseError', null, 'the body is not valid JSON: expected an object or an array at offset 0') : answer;
      }),
    },
  },
  {
    name: 'absent-params-refused',
    category: 'transport',
    description: 'A call without "params" is refused with -32600 Invalid Request (its id kept), as if params were required.',
    rule: 'params MAY be omitted: a call without it is a call with no params (JSON-RPC 2.0 §4).',
    level: 'MUST',
    scope: 'node',
    bend: {
      transport: eachResponse((res, requests) => {
        const id = stringifyJson(res.id ?? null);
        const bare = requests.some((q) => isObject(q) && !('params' in q) && 'id' in q && stringifyJson(q.id ?? null) === id);
        return bare ? { jsonrpc: '2.0', id: res.id ?? null, error: { code: RPC_ERROR.invalidRequest.code, message: 'Invalid Request: params is required' } } : res;
      }),
    },
  },
  {
    name: 'null-id-refused',
    category: 'transport',
    description: 'A request with "id": null is refused with -32600 Invalid Request (id null); the method does not run.',
    rule: 'An id MAY be null; such a request is a call, not a notification, and is served (JSON-RPC 2.0 §4).',
    level: 'MUST',
    scope: 'node',
    bend: { transport: rules(() => ({ nullId: 'invalid' })) },
  },
  {
    name: 'by-name-id-lost',
    category: 'transport',
    description: 'By-name (object) params are still refused with -32602, but the error response carries "id": null instead of the request\'s id.',
    rule: 'The response id is the request\'s id whenever it could be read (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
    bend: {
      // The -32602 refusal of by-name (object) params is sent with id null.
      transport: eachResponse((res, requests) => {
        const error = res.error;
        if (!isObject(error) || error.code !== RPC_ERROR.invalidParams.code || res.id === null) return res;
        const id = stringifyJson(res.id ?? null);
        const byName = requests.some((q) => isObject(q) && stringifyJson(q.id ?? null) === id && isObject(q.params));
        return byName ? { ...res, id: null } : res;
      }),
    },
  },
  {
    name: 'stack-trace-leak',
    category: 'transport',
    description: '-32602 Invalid params and -32603 Internal error objects carry the exception: the message starts with its class ("TypeError: ...") and data.stack holds a JavaScript stack trace with the server\'s file paths.',
    rule: 'Error messages and data are for clients; stack traces, file paths and exception text are internal details that help attackers (sound; CWE-209).',
    level: 'SHOULD',
    scope: 'node',
    bend: {
      // A handler's exception goes to the client whole; other -32602 / -32603 errors get a made-up one.
      methods: wrapEveryMethod((next) => (params, call) => {
        const leak = (err: unknown): never => {
          if (err instanceof RpcMethodError) throw err;
          const leaked = leakyError({ ...RPC_ERROR.internalError, data: { reason: INTERNAL_REASON } }, err);
          throw new RpcMethodError(RPC_ERROR.internalError.code, text(leaked.message), leaked.data);
        };
        try {
          const result = next(params, call);
          return result instanceof Promise ? result.catch(leak) : result;
        } catch (err) {
          return leak(err);
        }
      }),
      transport: eachError((e) => leakyError(e)),
    },
  },
  {
    name: 'put-accepted',
    category: 'transport',
    description: 'PUT and DELETE on /rpc with a JSON body are served like POST (HTTP 200 with the JSON-RPC answer) instead of 405.',
    rule: 'The transport method is POST; another method on /rpc is refused with 405 (spec: Transport; RFC 9110 §15.5.6).',
    level: 'SHOULD',
    scope: 'node',
    bend: { transport: rules((r) => ({ httpMethod: (method) => (method === 'PUT' || method === 'DELETE' ? 'serve' : r.httpMethod(method)) })) },
  },
  {
    name: 'empty-post-500',
    category: 'transport',
    description: 'A POST to /rpc with neither Content-Length nor Transfer-Encoding (an empty body) is answered with HTTP 500 and an HTML error page showing an exception and a stack trace with the server\'s file paths; Content-Length: 0 still gets -32700.',
    rule: 'A POST with no body is answered as an empty body is, with a JSON-RPC parse error (-32700), never a server failure (sound; RFC 9112 §6.3).',
    level: 'SHOULD',
    scope: 'node',
    bend: {
      // No Content-Length nor Transfer-Encoding: an empty body, which a framework's body parser leaves undefined.
      transport: rules((r) => ({
        beforeBody: (req) =>
          req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined
            ? { status: 500, body: frameworkErrorPage(), contentType: 'text/html; charset=utf-8' }
            : r.beforeBody?.(req),
      })),
    },
  },
] as const satisfies readonly Fault[];
