import type { JsonValue } from '../../../core/json/index.js';
import { defineCheck } from '../../Check.js';
import type { Check } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { show, unusedAddress } from '../support.js';
import { answerText, bodyJson, codeText, errorObjectProblems, expectErrorResponse, isObject, requestText, UNKNOWN_METHOD } from './wire.js';

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

/** Posts `body` and requires one error response with `code` and an id among `ids`. */
async function expectError(ctx: CheckContext, body: string, what: string, code: number, ids: JsonValue[] = [null]): Promise<void> {
  const res = await ctx.post(body);
  expectErrorResponse(ctx, res, what, code, ids);
}

/** The bodies that must be refused as invalid requests, by rule. */
const notAnObject = ['1', '"x"'];

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
      await expectError(ctx, '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]', 'invalid JSON (§7 "rpc call with invalid JSON")', PARSE_ERROR);
      const m = JSON.stringify(ctx.method('chain_blockNumber'));
      await expectError(ctx, `[\n  {"jsonrpc": "2.0", "method": ${m}, "params": [], "id": "1"},\n  {"jsonrpc": "2.0", "method"\n]`, 'a batch that is not valid JSON (§7 "rpc call Batch, invalid JSON")', PARSE_ERROR);
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
      await expectError(ctx, '', 'an empty body', PARSE_ERROR);
    },
  }),
  defineCheck({
    id: 'transport/invalid-request-not-an-object',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a JSON value that is neither an object nor an array (1, "x") is answered with -32600 Invalid Request and id null',
    spec: 'JSON-RPC 2.0 §4 (a request is an object), §5.1 (-32600), §5 (id null)',
    async run(ctx: CheckContext) {
      for (const body of notAnObject) await expectError(ctx, body, `the body ${body}`, INVALID_REQUEST);
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
      await expectError(ctx, requestText(UNKNOWN_METHOD, '[]', '"1"'), `a call of ${UNKNOWN_METHOD}`, METHOD_NOT_FOUND, ['1']);
    },
  }),
  defineCheck({
    id: 'transport/invalid-params',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a param of the wrong type on a real method (a word as the height, a number as the address) is answered with -32602 Invalid params',
    spec: 'JSON-RPC 2.0 §5.1 (-32602 "Invalid method parameter(s)"); spec: Methods (height: integer, address: 64-hex string)',
    async run(ctx: CheckContext) {
      await expectError(ctx, requestText(ctx.method('chain_getBlockByHeight'), '["one"]', '6'), 'chain_getBlockByHeight ["one"]', INVALID_PARAMS, [6]);
      await expectError(ctx, requestText(ctx.method('chain_getAccount'), '[12345]', '7'), 'chain_getAccount [12345]', INVALID_PARAMS, [7]);
    },
  }),
  defineCheck({
    id: 'transport/error-object-shape',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'every error object has an integer "code" and a string "message" (parse error, invalid request, unknown method, invalid params)',
    spec: 'JSON-RPC 2.0 §5.1 (code "MUST be an integer", message "SHOULD be limited to a concise single sentence" and is a String)',
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
    },
  }),
  defineCheck({
    id: 'transport/by-name-params-refused',
    level: 'PROFILE',
    category: 'transport',
    scope: 'node',
    title: 'by-name (object) params are refused with the profile\'s InvalidParams code',
    spec: 'profile: docs/reference-profile.md#transport ("By-name (object) params are refused with -32602"); JSON-RPC 2.0 §4.2',
    async run(ctx: CheckContext) {
      const code = ctx.profile.errorCodes.InvalidParams;
      if (code === undefined) ctx.skip('the profile names no InvalidParams code');
      const res = await ctx.post(requestText(ctx.method('chain_getAccount'), JSON.stringify({ address: unusedAddress(ctx) }), '10'));
      expectErrorResponse(ctx, res, 'chain_getAccount with by-name params {"address": ...}', code, [10]);
      return `refused with ${codeText(code)}`;
    },
  }),
];
