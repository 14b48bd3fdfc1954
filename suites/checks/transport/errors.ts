import type { RawResponse } from '../../../core/client/index.js';
import type { JsonValue } from '../../../core/json/index.js';
import { defineCheck } from '../../Check.js';
import type { Check } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { expectParamForm, requireServed, show, unusedAddress } from '../support.js';
import { internalDetail } from '../../../core/client/internalDetail.js';
import { answerText, bodyJson, errorObjectProblems, expectErrorResponse, idText, isObject, requestText, sameId, singleResponse, UNKNOWN_METHOD } from './wire.js';

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

/** Posts `body` and requires one error response with `code` and an id among `ids`. */
async function expectError(ctx: CheckContext, body: string, what: string, code: number, ids: JsonValue[] = [null]): Promise<void> {
  const res = await ctx.post(body);
  expectErrorResponse(ctx, res, what, code, ids);
}

/**
 * As expectError, for a body that could hurt a server (real servers have died on `null`): the node
 * must still answer afterwards (CheckContext.probe).
 */
async function expectErrorAndAlive(ctx: CheckContext, body: string, what: string, code: number, ids: JsonValue[] = [null]): Promise<void> {
  const res = await ctx.probe({ body }, what);
  expectErrorResponse(ctx, res, what, code, ids);
}

/** JSON values that are neither an object nor an array: each is one Invalid Request (§4, §5.1). */
const notAnObject = ['1', '"x"', 'true', 'null'];

/** A by-name call of chain_getAccount, as text (JSON-RPC 2.0 §4.2 allows by-name params; the spec's params are positional). */
const byNameCall = (ctx: CheckContext, id: string): string => requestText(ctx.method('chain_getAccount'), JSON.stringify({ address: unusedAddress(ctx) }), id);

/** Parse errors, invalid requests, unknown methods and invalid params: JSON-RPC 2.0's own codes (§5.1). */
export const errors: Check[] = [
  defineCheck({
    id: 'transport/parse-error',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a body that is not valid JSON is answered with -32700 Parse error and id null',
    spec: 'JSON-RPC 2.0 §5.1 (-32700), §5 (id null when it could not be detected), §7 ("rpc call with invalid JSON", "rpc call Batch, invalid JSON")',
    async run(ctx: CheckContext) {
      // The two examples of §7, word for word: a broken object, and a broken batch whose first id is readable.
      await expectErrorAndAlive(ctx, '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]', 'invalid JSON (§7 "rpc call with invalid JSON")', PARSE_ERROR);
      const m = JSON.stringify(ctx.method('chain_blockNumber'));
      await expectErrorAndAlive(ctx, `[\n  {"jsonrpc": "2.0", "method": ${m}, "params": [], "id": "1"},\n  {"jsonrpc": "2.0", "method"\n]`, 'a batch that is not valid JSON (§7 "rpc call Batch, invalid JSON")', PARSE_ERROR);
    },
  }),
  defineCheck({
    id: 'transport/parse-error-empty-body',
    level: 'SHOULD',
    category: 'transport',
    scope: 'node',
    title: 'an empty body is answered with -32700 Parse error and id null',
    spec: 'JSON-RPC 2.0 §5.1 (-32700: "Invalid JSON was received"); RFC 8259 §2 (an empty text is not JSON)',
    async run(ctx: CheckContext) {
      await expectErrorAndAlive(ctx, '', 'an empty body', PARSE_ERROR);
    },
  }),
  defineCheck({
    id: 'transport/empty-post-answered',
    level: 'SHOULD',
    category: 'transport',
    scope: 'node',
    title: 'a POST with no body and no Content-Length is refused as bad input (a JSON-RPC error -32700 or -32600 with id null, or a 4xx such as 411), never with a server failure',
    spec: 'RFC 9112 §6.3 (a request with neither Content-Length nor Transfer-Encoding has an empty body); RFC 9110 §15.5.12 (411 Length Required), §15.6 (5xx: the server failed); JSON-RPC 2.0 §5.1 (-32700, -32600)',
    async run(ctx: CheckContext) {
      const what = 'a POST with no body and no Content-Length';
      const res = await ctx.probe({ bodyless: true }, what);
      const expected = 'a single error response, code -32700 (Parse error) or -32600 (Invalid Request), id null; or a 4xx refusal';
      // A 4xx without JSON is a refusal HTTP allows (411 Length Required, 400): the client is told it sent bad input.
      if (res.json === undefined && res.status >= 400 && res.status < 500) return `HTTP ${res.status}`;
      // A 5xx is a server failure unless it carries the JSON-RPC refusal (some nodes send -32700 with 500: the status is the profile's matter).
      if (res.json === undefined && res.status >= 500) ctx.fail(`${what} was answered with HTTP ${res.status}: a server failure, not a refusal of bad input`, expected, answerText(res));
      const response = singleResponse(ctx, res, what, expected);
      const code = isObject(response.error) ? response.error.code : undefined;
      if (code !== PARSE_ERROR && code !== INVALID_REQUEST) ctx.fail(`${what}: answered ${isObject(response.error) ? `with error code ${show(code)}` : 'with a result'}`, expected, answerText(res));
      if (!sameId(response.id, null)) ctx.fail(`${what}: the error response's id is ${idText(response.id)}, not null`, expected, answerText(res));
      return `HTTP ${res.status}, error ${show(code)}`;
    },
  }),
  defineCheck({
    id: 'transport/invalid-request-not-an-object',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a JSON value that is neither an object nor an array (1, "x", true, null) is answered with -32600 Invalid Request and id null, and the node lives on',
    spec: 'JSON-RPC 2.0 §4 (a request is an object), §5.1 (-32600), §5 (id null)',
    async run(ctx: CheckContext) {
      for (const body of notAnObject) await expectErrorAndAlive(ctx, body, `the body ${body}`, INVALID_REQUEST);
    },
  }),
  defineCheck({
    id: 'transport/invalid-request-no-method',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'an object that is not a request ({"foo":"bar"}) is answered with -32600 Invalid Request and id null',
    spec: 'JSON-RPC 2.0 §4 (jsonrpc and method are REQUIRED), §5.1 (-32600), §7 ({"foo": "boo"} in "rpc call Batch")',
    async run(ctx: CheckContext) {
      await expectError(ctx, '{"foo":"bar"}', 'the body {"foo":"bar"}', INVALID_REQUEST);
    },
  }),
  defineCheck({
    id: 'transport/invalid-request-wrong-version',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a request whose "jsonrpc" is "1.0", or missing, is answered with -32600 Invalid Request',
    spec: 'JSON-RPC 2.0 §4 (jsonrpc "MUST be exactly "2.0""), §5.1 (-32600)',
    async run(ctx: CheckContext) {
      const m = JSON.stringify(ctx.method('chain_blockNumber'));
      await expectError(ctx, `{"jsonrpc":"1.0","method":${m},"params":[],"id":3}`, 'a request with "jsonrpc": "1.0"', INVALID_REQUEST, [null, 3]);
      await expectError(ctx, `{"method":${m},"params":[],"id":4}`, 'a request without "jsonrpc"', INVALID_REQUEST, [null, 4]);
    },
  }),
  defineCheck({
    id: 'transport/invalid-request-method-not-string',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a request whose "method" is not a string is answered with -32600 Invalid Request',
    spec: 'JSON-RPC 2.0 §4 (method: "A String"), §5.1 (-32600), §7 ("rpc call with invalid Request object")',
    async run(ctx: CheckContext) {
      // §7's example (no id), then the same fault with a valid id.
      await expectError(ctx, '{"jsonrpc": "2.0", "method": 1, "params": "bar"}', 'the request {"jsonrpc": "2.0", "method": 1, "params": "bar"} (§7)', INVALID_REQUEST);
      await expectError(ctx, '{"jsonrpc":"2.0","method":1,"params":[],"id":5}', 'a request with "method": 1', INVALID_REQUEST, [null, 5]);
    },
  }),
  defineCheck({
    id: 'transport/method-not-found',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a call of a method the node does not have is answered with -32601 Method not found and the request\'s id',
    spec: 'JSON-RPC 2.0 §5.1 (-32601), §7 ("rpc call of non-existent method")',
    async run(ctx: CheckContext) {
      // An integer id, as this interface's requests carry (a node that takes no string id fails id-string-echoed only).
      await expectError(ctx, requestText(UNKNOWN_METHOD, '[]', '1'), `a call of ${UNKNOWN_METHOD}`, METHOD_NOT_FOUND, [1]);
    },
  }),
  defineCheck({
    id: 'transport/invalid-params',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a param of the wrong type on a real method (a word as the height, a number as the address) is answered with -32602 Invalid params',
    spec: 'JSON-RPC 2.0 §5.1 (-32602 "Invalid method parameter(s)"); spec: docs/interface.md#methods (height: integer, address: 64-hex string)',
    async run(ctx: CheckContext) {
      // The methods are the vehicle: one the node does not serve cannot show how it refuses params.
      await requireServed(ctx, 'chain_getBlockByHeight');
      await requireServed(ctx, 'chain_getAccount');
      await expectError(ctx, requestText(ctx.method('chain_getBlockByHeight'), '["one"]', '6'), 'chain_getBlockByHeight ["one"]', INVALID_PARAMS, [6]);
      await expectError(ctx, requestText(ctx.method('chain_getAccount'), '[12345]', '7'), 'chain_getAccount [12345]', INVALID_PARAMS, [7]);
    },
  }),
  defineCheck({
    id: 'transport/missing-param-refused',
    level: 'SHOULD',
    category: 'transport',
    scope: 'node',
    title: 'a call without the param its method needs (chain_getAccount [], chain_getBlockByHeight []) is refused with -32602 Invalid params, not answered as an internal error',
    spec: 'JSON-RPC 2.0 §5.1 (-32602 "Invalid method parameter(s)"; -32603 is an "Internal JSON-RPC error"); spec: docs/interface.md#methods (params: [address], [height])',
    async run(ctx: CheckContext) {
      // SHOULD: a code of the node's own range for it breaks no rule it must keep; -32603 says the node failed, not the
      // client (an outside tester's node answered every missing param so, and was certified).
      await requireServed(ctx, 'chain_getAccount');
      await requireServed(ctx, 'chain_getBlockByHeight');
      const said: string[] = [];
      for (const [method, id] of [['chain_getAccount', 14], ['chain_getBlockByHeight', 15]] as const) {
        const what = `${method} [] (its param missing)`;
        const response = singleResponse(ctx, await ctx.post(requestText(ctx.method(method), '[]', String(id))), what, 'an error response with -32602');
        if (!isObject(response.error)) ctx.fail(`${what} was answered with a result, not refused`, 'error -32602 (Invalid params)', show(response.result));
        const code = response.error.code;
        if (code !== INVALID_PARAMS) ctx.fail(`${what} was refused with ${show(code)}${code === -32603 ? ' (Internal error)' : ''}, not -32602 (Invalid params)`, 'error -32602 (Invalid params)', show(response.error));
        said.push(`${method} -32602`);
      }
      return said.join(', ');
    },
  }),
  defineCheck({
    id: 'transport/error-object-shape',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'every error object has an integer "code" and a string "message", in a response of "jsonrpc": "2.0" and the request\'s id: JSON-RPC\'s own errors and the node\'s (a transaction it cannot read, a block it does not have)',
    spec: 'JSON-RPC 2.0 §5 (jsonrpc "MUST be exactly 2.0"; id "MUST be the same as the value of the id member in the Request Object"), §5.1 (code "MUST be an integer", message a String; the codes outside the reserved range are the application\'s, under the same rules)',
    async run(ctx: CheckContext) {
      const cases: [string, string][] = [
        ['invalid JSON', '{"jsonrpc":'],
        ['{"foo":"bar"}', '{"foo":"bar"}'],
        [`a call of ${UNKNOWN_METHOD}`, requestText(UNKNOWN_METHOD, '[]', '8')],
        ['chain_getBlockByHeight ["one"]', requestText(ctx.method('chain_getBlockByHeight'), '["one"]', '9')],
      ];
      for (const [what, body] of cases) {
        const res = await ctx.post(body);
        const json = bodyJson(ctx, res, what, 'an error response');
        const error = isObject(json) ? json.error : undefined;
        if (error === undefined) ctx.fail(`${what}: the answer has no error object`, 'an error response', answerText(res));
        const problems = errorObjectProblems(error);
        if (problems.length > 0) ctx.fail(`${what}: malformed error object: ${problems.join('; ')}`, '{"code": integer, "message": string, "data"?: any}', show(error));
      }
      // The node's own errors (an outside tester's node wrote its -32001..-32099 errors without a message, with a string
      // or fractional code, without "jsonrpc" and with id null, and was certified): calls a node refuses in a code of
      // its choosing. Only refusals are judged here: whether each must be refused is another check's.
      const own: [string, string, number][] = [
        ['chain_sendRawTransaction ["00"] (bytes no transaction is)', requestText(ctx.method('chain_sendRawTransaction'), '["00"]', '12'), 12],
        ['chain_getBlockByHeight at 2^53 - 1 (a height no chain has)', requestText(ctx.method('chain_getBlockByHeight'), '[9007199254740991]', '13'), 13],
      ];
      let seen = 0;
      for (const [what, body, id] of own) {
        const res = await ctx.post(body);
        const json = bodyJson(ctx, res, what, 'a response object');
        if (!isObject(json) || !Object.hasOwn(json, 'error')) continue;
        seen++;
        const problems = errorObjectProblems(json.error);
        if (problems.length > 0) ctx.fail(`${what}: malformed error object: ${problems.join('; ')}`, '{"code": integer, "message": string, "data"?: any}', show(json.error));
        if (json.jsonrpc !== '2.0') ctx.fail(`${what}: the error response's "jsonrpc" is ${show(json.jsonrpc)}, not "2.0"`, '"jsonrpc": "2.0"', answerText(res));
        if (!sameId(json.id, id)) ctx.fail(`${what}: the error response's id is ${idText(json.id)}, not ${id}`, `id ${id}`, answerText(res));
      }
      return `JSON-RPC's four errors well formed, and ${seen} of the node's own refusal${seen === 1 ? '' : 's'} (${own.length} asked)`;
    },
  }),
  defineCheck({
    id: 'transport/by-name-params-id-echoed',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a call with by-name params is answered with the request\'s id, whether the node serves it or refuses it',
    spec: 'JSON-RPC 2.0 §4.2 (params by-name are a valid Request), §5 (id: "It MUST be the same as the value of the id member in the Request Object"; null only when it could not be detected)',
    async run(ctx: CheckContext) {
      const what = 'chain_getAccount with by-name params {"address": ...} and id 10';
      const res = await ctx.probe({ body: byNameCall(ctx, '10') }, what);
      const response = singleResponse(ctx, res, what, 'a response object with id 10');
      if (!sameId(response.id, 10)) ctx.fail(`${what} was answered with id ${idText(response.id)}, not 10`, 'id 10 (the id is readable; by-name params are a valid request)', answerText(res));
      return Object.hasOwn(response, 'result') ? 'served, id 10' : `refused with ${show(isObject(response.error) ? response.error.code : undefined)}, id 10`;
    },
  }),
  defineCheck({
    id: 'transport/by-name-params',
    level: 'PROFILE',
    category: 'transport',
    scope: 'node',
    title: 'by-name (object) params are handled as the profile says: refused with its InvalidParams code (reference), or served',
    spec: 'profile: docs/reference-profile.md#transport ("By-name (object) params are refused with -32602"), docs/profiles.md (params.byName); JSON-RPC 2.0 §4.2',
    async run(ctx: CheckContext) {
      return expectParamForm(ctx, 'chain_getAccount', { address: unusedAddress(ctx) }, 'byName', 'by-name params {"address": ...}');
    },
  }),
  defineCheck({
    id: 'transport/params-omitted',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a call without "params" (which MAY be omitted) of a method that takes none is served: chain_blockNumber answered with its result, not refused',
    spec: 'JSON-RPC 2.0 §4 (params: "This member MAY be omitted"); spec: docs/interface.md#methods (chain_blockNumber takes [])',
    async run(ctx: CheckContext) {
      // An outside tester's node refused such a call with -32600 and was certified: the suite never sent one.
      await requireServed(ctx, 'chain_blockNumber');
      const what = 'a call of chain_blockNumber without params';
      const expected = 'the call\'s result';
      const res = await ctx.post(`{"jsonrpc":"2.0","method":${JSON.stringify(ctx.method('chain_blockNumber'))},"id":41}`);
      // Served or refused is this check's subject; the answer's envelope (jsonrpc, the id's echo) is other checks'.
      const response = bodyJson(ctx, res, what, expected);
      if (!isObject(response)) ctx.fail(`${what}: the answer is not a response object`, expected, answerText(res));
      if (!('result' in response)) ctx.fail(`${what} was refused${isObject(response.error) ? ` with ${show(response.error.code)} (${show(response.error.message)})` : ''}: params may be omitted`, expected, answerText(res));
      return `served without params: ${show(response.result)}`;
    },
  }),
  defineCheck({
    id: 'transport/no-internal-details',
    level: 'SHOULD',
    category: 'transport',
    scope: 'node',
    title: 'error answers carry no stack traces, server file paths or internal exception text (bad JSON, bad requests, bad params, no body, a deeply nested body)',
    spec: 'JSON-RPC 2.0 §5.1 (message: "a short description of the error"); CWE-209 (error messages that expose sensitive information); OWASP error handling',
    async run(ctx: CheckContext) {
      const probes: [string, { body?: string; bodyless?: boolean }][] = [
        ['invalid JSON', { body: '{"jsonrpc":' }],
        ['an invalid request {"foo":"bar"}', { body: '{"foo":"bar"}' }],
        [`a call of ${UNKNOWN_METHOD}`, { body: requestText(UNKNOWN_METHOD, '[]', '31') }],
        ['chain_getBlockByHeight ["one"]', { body: requestText(ctx.method('chain_getBlockByHeight'), '["one"]', '32') }],
        ['chain_getAccount [12345]', { body: requestText(ctx.method('chain_getAccount'), '[12345]', '33') }],
        ['chain_getAccount [{}]', { body: requestText(ctx.method('chain_getAccount'), '[{}]', '34') }],
        ['chain_sendRawTransaction ["zz"]', { body: requestText(ctx.method('chain_sendRawTransaction'), '["zz"]', '35') }],
        ['chain_faucetClaim [null]', { body: requestText(ctx.method('chain_faucetClaim'), '[null]', '36') }],
        ['a body nested 100,000 arrays deep', { body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }],
        ['a POST with no body and no Content-Length', { bodyless: true }],
      ];
      for (const [what, request] of probes) {
        const res: RawResponse = await ctx.probe(request, what);
        const json = res.json;
        // What a client is shown: each error's message and data; a body that is not JSON, whole.
        const shown = json === undefined ? [res.text] : (Array.isArray(json) ? json : [json]).flatMap((r) => (isObject(r) && isObject(r.error) ? [show(r.error.message), show(r.error.data)] : []));
        for (const text of shown) {
          const leak = internalDetail(text);
          if (leak !== undefined) ctx.fail(`${what}: the answer shows ${leak.kind}: ${JSON.stringify(leak.excerpt)}`, 'error messages and data for clients, with no stack trace, file path or exception text', answerText(res));
        }
      }
      return `${probes.length} bad requests, no internal details in the answers`;
    },
  }),
];
