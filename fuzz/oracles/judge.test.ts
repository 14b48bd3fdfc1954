/**
 * The judge on a table of requests and answers: each oracle fires on its wrong answer and stays silent on the
 * right one (JSON-RPC 2.0 §4-§6 as the suite grades it, the profile's codes and statuses, RFC 8259's open points).
 */
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../profile/Profile.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import type { FuzzAnswer, FuzzHttp, OracleName } from '../model.js';
import { judge } from './judge.js';

const REF = referenceProfile();
const ADDRESS = '6488585c505befe4e4f4724815d3e6d0f4516e65f4dc171e3df8d69ff77e577e';

const post = (body: string | Uint8Array, over: Partial<FuzzHttp> = {}): FuzzHttp => ({ method: 'POST', contentType: 'application/json', body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body, ...over });
const call = (method: string, params: string, id?: string): string => `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":${params}${id === undefined ? '' : `,"id":${id}`}}`;
const reply = (text: string, status = 200, ms = 3, headers: Record<string, string> = { 'content-type': 'application/json' }): FuzzAnswer => ({ status, headers, text, ms });
const result = (id: string, value: string): string => `{"jsonrpc":"2.0","id":${id},"result":${value}}`;
const error = (id: string, code: number, message = 'no', data?: string): string => `{"jsonrpc":"2.0","id":${id},"error":{"code":${code},"message":${JSON.stringify(message)}${data === undefined ? '' : `,"data":${data}`}}}`;
const INVALID_PARAMS_DATA = '{"reason":"param 1 (height) must be an unsigned 64-bit integer","errors":[{"pointer":"/0","rule":"minimum","message":"must be at least 0"}]}';

const oracles = (http: FuzzHttp, answer: FuzzAnswer, profile: Profile = REF, slowBoundMs = 1000): OracleName[] => judge({ http }, answer, { profile, slowBoundMs }).map((v) => v.oracle);

interface Row {
  name: string;
  http: FuzzHttp;
  right: FuzzAnswer[];
  wrong: FuzzAnswer;
  fires: OracleName;
  profile?: Profile;
}

const BLOCK_NUMBER = call('chain_blockNumber', '[]', '7');
const BAD_HEIGHT = call('chain_getBlockByHeight', '[-1]', '3');
const PROFILE_NULL_CODE: Profile = { ...REF, errorCodes: { ...REF.errorCodes, InvalidParams: null } };
const PROFILE_OTHER_CODE: Profile = { ...REF, errorCodes: { ...REF.errorCodes, 'InvalidParams/height': -32099 } };
const LENIENT: Profile = { ...REF, params: { extra: 'accepted', byName: 'accepted', hexPrefix: 'accepted', stringIntegers: 'accepted' } };
const SMALL: Profile = { ...REF, maxBatch: 2, maxBodyBytes: 300 };

const TABLE: Row[] = [
  { name: 'id echoed as a string', http: post(BLOCK_NUMBER), right: [reply(result('7', '5'))], wrong: reply(result('"7"', '5')), fires: 'envelope' },
  { name: 'a string id echoed as a number', http: post(call('chain_blockNumber', '[]', '"42"')), right: [reply(result('"42"', '5'))], wrong: reply(result('42', '5')), fires: 'envelope' },
  { name: 'a bigint id rounded to a double', http: post(call('chain_blockNumber', '[]', '9007199254740993')), right: [reply(result('9007199254740993', '5'))], wrong: reply(result('9007199254740992', '5')), fires: 'envelope' },
  { name: 'a fractional id echoed as another number', http: post(call('chain_blockNumber', '[]', '1.5')), right: [reply(result('1.5', '5')), reply(result('1.50', '5'))], wrong: reply(result('1', '5')), fires: 'envelope' },
  {
    name: 'a batch answered in another order is fine; one answer missing is not',
    http: post(`[${call('chain_blockNumber', '[]', '1')},${call('chain_blockNumber', '[]', '2')}]`),
    right: [reply(`[${result('2', '5')},${result('1', '5')}]`), reply(`[${result('1', '5')},${result('2', '5')}]`)],
    wrong: reply(`[${result('2', '5')}]`),
    fires: 'envelope',
  },
  {
    name: 'a batch with an extra answer',
    http: post(`[${call('chain_blockNumber', '[]', '1')},${call('chain_blockNumber', '[]', '2')}]`),
    right: [reply(`[${result('1', '5')},${result('2', '5')}]`)],
    wrong: reply(`[${result('1', '5')},${result('2', '5')},${result('2', '5')}]`),
    fires: 'envelope',
  },
  {
    name: 'a batch element answered to a notification',
    http: post(`[${call('chain_blockNumber', '[]')},${call('chain_blockNumber', '[]', '2')}]`),
    right: [reply(`[${result('2', '5')}]`)],
    wrong: reply(`[${result('null', '5')},${result('2', '5')}]`),
    fires: 'envelope',
  },
  { name: 'a notification answered', http: post(call('chain_blockNumber', '[]')), right: [reply('', 204), reply('', 200), reply('not json', 202)], wrong: reply(result('null', '5')), fires: 'envelope' },
  { name: 'a notification answered with a 5xx', http: post(call('nope_method', '[]')), right: [reply('', 204)], wrong: reply('', 500), fires: 'envelope' },
  { name: 'a batch of notifications answered with []', http: post(`[${call('chain_blockNumber', '[]')}]`), right: [reply('', 204)], wrong: reply('[]'), fires: 'envelope' },
  { name: 'a result to an invalid height', http: post(BAD_HEIGHT), right: [reply(error('3', -32602, 'Invalid params', INVALID_PARAMS_DATA))], wrong: reply(result('3', '{}')), fires: 'error-expected' },
  { name: 'a wrong code where the profile names one', http: post(BAD_HEIGHT), right: [reply(error('3', -32602))], wrong: reply(error('3', -32000)), fires: 'error-code' },
  { name: 'the profile\'s code by condition', http: post(BAD_HEIGHT), right: [reply(error('3', -32099))], wrong: reply(error('3', -32602)), fires: 'error-code', profile: PROFILE_OTHER_CODE },
  { name: 'a code not compared where the profile says null, a result still wrong', http: post(BAD_HEIGHT), right: [reply(error('3', -32000)), reply(error('3', -32602))], wrong: reply(result('3', '1')), fires: 'error-expected', profile: PROFILE_NULL_CODE },
  { name: 'a wrong type gets -32602 (MUST)', http: post(call('chain_getAccount', '[12345]', '7')), right: [reply(error('7', -32602))], wrong: reply(error('7', -32000)), fires: 'error-code' },
  { name: 'a stack trace in an error message, status 500', http: post(BAD_HEIGHT), right: [reply(error('3', -32602, 'Invalid params'), 500)], wrong: reply(error('3', -32602, 'TypeError: x is undefined\n    at handle (/srv/app/server.js:12:7)'), 500), fires: 'leak' },
  { name: 'a file path in a header', http: post(BLOCK_NUMBER), right: [reply(result('7', '5'))], wrong: reply(result('7', '5'), 200, 3, { 'x-debug': 'loaded /home/node/app/config.json' }), fires: 'leak' },
  { name: 'a valid result failing its schema', http: post(BLOCK_NUMBER), right: [reply(result('7', '18446744073709551615'))], wrong: reply(result('7', '"five"')), fires: 'result-schema' },
  { name: 'an account without its nonce', http: post(call('chain_getAccount', `["${ADDRESS}"]`, '1')), right: [reply(result('1', '{"balance":"0","nonce":0}'))], wrong: reply(result('1', '{"balance":"0"}')), fires: 'result-schema' },
  { name: 'a valid call answered with an error of another method', http: post(BLOCK_NUMBER), right: [reply(result('7', '1'))], wrong: reply(error('7', -32001, 'Block not found', '{"reason":"x","height":1,"latest":0}')), fires: 'result-schema' },
  { name: 'valid params refused as invalid', http: post(call('chain_getAccount', `["${ADDRESS}"]`, '1')), right: [reply(result('1', '{"balance":"0","nonce":0}'))], wrong: reply(error('1', -32602, 'Invalid params')), fires: 'result-schema' },
  { name: 'a block not found with another method\'s error', http: post(call('chain_getBlockByHeight', '[99999]', '1')), right: [reply(error('1', -32001, 'Block not found', '{"reason":"no block","height":99999,"latest":3}')), reply(error('1', -32001, 'Block not found'))], wrong: reply(error('1', -32044, 'Account not found')), fires: 'result-schema' },
  { name: 'a valid call answered -32603', http: post(BLOCK_NUMBER), right: [reply(result('7', '0'))], wrong: reply(error('7', -32603, 'Internal error')), fires: 'internal-error' },
  { name: 'a slow answer', http: post(BLOCK_NUMBER), right: [reply(result('7', '0'), 200, 999)], wrong: reply(result('7', '0'), 200, 1001), fires: 'slow' },
  { name: 'no answer', http: post(BLOCK_NUMBER), right: [reply(result('7', '0'))], wrong: { failure: { code: 'REFUSED', message: 'socket hang up' }, ms: 4 }, fires: 'no-answer' },
  { name: 'invalid JSON', http: post('{"jsonrpc":'), right: [reply(error('null', -32700, 'Parse error'))], wrong: reply(error('null', -32600)), fires: 'error-code' },
  { name: 'invalid JSON answered with an id', http: post('{"jsonrpc":'), right: [reply(error('null', -32700))], wrong: reply(error('1', -32700)), fires: 'envelope' },
  { name: 'trailing garbage', http: post(`${BLOCK_NUMBER}x`), right: [reply(error('null', -32700))], wrong: reply(result('7', '5')), fires: 'error-expected' },
  // Two readings: -32700 (RFC 8259 §8.1), or the body with U+FFFD for the bad byte ({"\ufffd":1}: not a request, -32600).
  { name: 'invalid UTF-8', http: post(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])), right: [reply(error('null', -32700)), reply(error('null', -32600))], wrong: reply(result('null', '1')), fires: 'error-expected' },
  { name: 'invalid UTF-8 that is not JSON either way: -32700 only', http: post(new Uint8Array([0x7b, 0xff, 0x7d])), right: [reply(error('null', -32700))], wrong: reply(error('null', -32600)), fires: 'error-code' },
  { name: 'an empty batch', http: post('[]'), right: [reply(error('null', -32600))], wrong: reply(`[${error('null', -32600)}]`), fires: 'envelope' },
  { name: 'a value that is not a request', http: post('1'), right: [reply(error('null', -32600))], wrong: reply(error('null', -32700)), fires: 'error-code' },
  { name: 'a batch of non-requests', http: post('[1,2]'), right: [reply(`[${error('null', -32600)},${error('null', -32600)}]`)], wrong: reply(`[${error('null', -32600)}]`), fires: 'envelope' },
  { name: 'jsonrpc "1.0" with an id: null or the id', http: post('{"jsonrpc":"1.0","method":"chain_blockNumber","params":[],"id":3}'), right: [reply(error('null', -32600)), reply(error('3', -32600))], wrong: reply(result('3', '5')), fires: 'error-expected' },
  { name: 'an invalid request without an id is answered', http: post('{"jsonrpc":"2.0","method":1,"params":"bar"}'), right: [reply(error('null', -32600))], wrong: reply('', 204), fires: 'envelope' },
  { name: 'an object id', http: post('{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":{}}'), right: [reply(error('null', -32600))], wrong: reply('{"jsonrpc":"2.0","id":{},"error":{"code":-32600,"message":"x"}}'), fires: 'envelope' },
  { name: 'an unknown method', http: post(call('chain_noSuchMethod', '[]', '"5"')), right: [reply(error('"5"', -32601))], wrong: reply(error('"5"', -32602)), fires: 'error-code' },
  { name: 'an rpc. method', http: post(call('rpc.noSuch', '[]', '5')), right: [reply(error('5', -32601))], wrong: reply(result('5', '{}')), fires: 'error-expected' },
  { name: 'the spec\'s name under another prefix', http: post(call('chain_blockNumber', '[]', '5')), right: [reply(error('5', -32601))], wrong: reply(result('5', '1')), fires: 'error-expected', profile: { ...REF, methodPrefix: 'acme_' } },
  { name: 'by-name params refused by the profile', http: post(call('chain_getAccount', `{"address":"${ADDRESS}"}`, '10')), right: [reply(error('10', -32602))], wrong: reply(result('10', '{"balance":"0","nonce":0}')), fires: 'error-expected' },
  { name: 'by-name params accepted: either, but the id still echoed', http: post(call('chain_getAccount', `{"address":"${ADDRESS}"}`, '10')), right: [reply(result('10', '{"balance":"0","nonce":0}')), reply(error('10', -32000)), reply(error('10', -32602))], wrong: reply(result('11', '{}')), fires: 'envelope', profile: LENIENT },
  { name: 'a 0x address accepted: either', http: post(call('chain_getAccount', `["0x${ADDRESS}"]`, '1')), right: [reply(result('1', '"anything"')), reply(error('1', -32602))], wrong: reply('{"jsonrpc":"2.0","id":1}'), fires: 'envelope', profile: LENIENT },
  { name: 'a 5xx carrying a JSON-RPC error is no finding; one without JSON is', http: post(BAD_HEIGHT), right: [reply(error('3', -32602), 500), reply(error('3', -32602), 400)], wrong: reply('<html>oops</html>', 502), fires: 'envelope' },
  { name: 'a batch over maxBatch', http: post(`[${[1, 2, 3].map((i) => call('chain_blockNumber', '[]', String(i))).join(',')}]`), right: [reply(error('null', -32013, 'Batch too large', '{"reason":"x","limit":2,"size":3}'))], wrong: reply(`[${[1, 2, 3].map((i) => result(String(i), '5')).join(',')}]`), fires: 'envelope', profile: SMALL },
  { name: 'a batch over maxBatch with another code', http: post(`[${[1, 2, 3].map((i) => call('chain_blockNumber', '[]', String(i))).join(',')}]`), right: [reply(error('null', -32013))], wrong: reply(error('null', -32600)), fires: 'error-code', profile: SMALL },
  { name: 'a body over maxBodyBytes', http: post(`${BLOCK_NUMBER}${' '.repeat(300)}`), right: [reply('too large', 413)], wrong: reply(result('7', '5')), fires: 'envelope', profile: SMALL },
  { name: 'GET (profile: http.wrongMethod)', http: post('', { method: 'GET', contentType: undefined }), right: [reply('', 405)], wrong: reply(result('null', '5')), fires: 'envelope' },
  { name: 'text/plain (profile: http.wrongContentType)', http: post(BLOCK_NUMBER, { contentType: 'text/plain' }), right: [reply(error('null', -32600), 415)], wrong: reply(result('7', '5')), fires: 'envelope' },
  { name: 'text/plain served where the profile says 200', http: post(BLOCK_NUMBER, { contentType: 'text/plain' }), right: [reply(result('7', '5'))], wrong: reply(result('8', '5')), fires: 'envelope', profile: { ...REF, http: { ...REF.http, wrongContentType: 200 } } },
  { name: 'an empty body', http: post(''), right: [reply(error('null', -32700)), reply(error('null', -32600)), reply('', 411)], wrong: reply('', 500), fires: 'envelope' },
  { name: 'no Content-Length', http: post(BLOCK_NUMBER, { omitContentLength: true }), right: [reply(error('null', -32700)), reply('Length Required', 411)], wrong: reply(result('null', '5')), fires: 'error-expected' },
  { name: 'a byte order mark: ignored or refused', http: post(`\uFEFF${BLOCK_NUMBER}`), right: [reply(result('7', '5')), reply(error('null', -32700))], wrong: reply(result('8', '5')), fires: 'envelope' },
  { name: 'a duplicate method: either value, or a refusal', http: post('{"jsonrpc":"2.0","method":"chain_getAccount","method":"chain_blockNumber","params":[],"id":1}'), right: [reply(result('1', '5')), reply(error('1', -32602)), reply(error('null', -32600)), reply(error('null', -32700))], wrong: reply(result('2', '5')), fires: 'envelope' },
  { name: 'a duplicate id: either value', http: post('{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1,"id":2}'), right: [reply(result('1', '5')), reply(result('2', '5'))], wrong: reply(result('3', '5')), fires: 'envelope' },
  { name: 'a duplicate key in one batch element', http: post(`[{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"params":[1],"id":1},${call('chain_blockNumber', '[]', '2')}]`), right: [reply(`[${error('1', -32602)},${result('2', '5')}]`), reply(`[${result('1', '5')},${result('2', '5')}]`)], wrong: reply(`[${result('1', '5')},${result('2', '"x"')}]`), fires: 'result-schema' },
  { name: 'an answer that breaks the envelope', http: post(BLOCK_NUMBER), right: [reply(result('7', '5'))], wrong: reply('{"jsonrpc":"2.0","id":7,"result":5,"error":{"code":1,"message":"x"}}'), fires: 'envelope' },
  { name: 'a fractional error code', http: post(BAD_HEIGHT), right: [reply(error('3', -32602))], wrong: reply('{"jsonrpc":"2.0","id":3,"error":{"code":-32602.5,"message":"x"}}'), fires: 'envelope' },
  { name: 'rpc.discover may be missing', http: post(call('rpc.discover', '[]', '1')), right: [reply(error('1', -32601)), reply(result('1', '{"openrpc":"1.3.2","info":{},"methods":[]}'))], wrong: reply(result('1', '{"openrpc":"1.3.2"}')), fires: 'result-schema' },
  { name: 'absent params on a method without params: either', http: post('{"jsonrpc":"2.0","method":"chain_blockNumber","id":1}'), right: [reply(result('1', '5')), reply(error('1', -32602))], wrong: reply(result('1', '5'), 200, 5000), fires: 'slow' },
  { name: 'a deep body: any JSON answer', http: post(`${'['.repeat(600)}${']'.repeat(600)}`), right: [reply(error('null', -32700)), reply(`[${error('null', -32600)}]`)], wrong: reply('Internal Server Error', 500), fires: 'envelope' },
  { name: 'an id beyond a double: refused or echoed', http: post(call('chain_blockNumber', '[]', '1e400')), right: [reply(error('null', -32600)), reply(result('1e400', '5'))], wrong: reply(result('2', '5')), fires: 'envelope' },
  { name: 'an id echoed as the same number written otherwise (1e+100, 1E100, in full)', http: post(call('chain_blockNumber', '[]', '1e100')), right: [reply(result('1e+100', '5')), reply(result('1E100', '5')), reply(result('10e99', '5'))], wrong: reply(result('1e99', '5')), fires: 'envelope' },
  { name: 'an integer id beyond 2^53 echoed with an exponent', http: post(call('chain_blockNumber', '[]', '100000000000000000000')), right: [reply(result('1e20', '5')), reply(result('100000000000000000000', '5'))], wrong: reply(result('100000000000000000001', '5')), fires: 'envelope' },
  { name: 'an integer id beyond a double\'s precision echoed with an exponent (9e+22 for 90000000000000000000000)', http: post(call('chain_blockNumber', '[]', '90000000000000000000000')), right: [reply(result('9e+22', '5')), reply(result('9.0E22', '5')), reply(result('90000000000000000000000', '5'))], wrong: reply(result('89999999999999991611392', '5')), fires: 'envelope' },
  { name: 'an id written with an exponent, echoed in full or otherwise, exactly', http: post(call('chain_blockNumber', '[]', '2.710505431213761085018632002174854278564453125e+80')), right: [reply(result('271050543121376108501863200217485427856445312500000000000000000000000000000000000', '5')), reply(result('2.710505431213761085018632002174854278564453125e+80', '5'))], wrong: reply(result('2.8e+80', '5')), fires: 'envelope' },
  { name: 'a batch whose ids are echoed written otherwise is matched by exact value', http: post(`[${call('chain_blockNumber', '[]', '90000000000000000000000')},${call('chain_blockNumber', '[]', '900000000000000000000000')}]`), right: [reply(`[${result('9e+23', '5')},${result('9e+22', '5')}]`)], wrong: reply(`[${result('9e+23', '5')},${result('9.1e+22', '5')}]`), fires: 'envelope' },
  { name: '-32603 where either was due', http: post(call('chain_getAccount', `{"address":"${ADDRESS}"}`, '10')), right: [reply(error('10', -32602))], wrong: reply(error('10', -32603, 'Internal error')), fires: 'internal-error', profile: LENIENT },
  { name: '-32603 to an empty body', http: post(''), right: [reply(error('null', -32700))], wrong: reply(error('null', -32603, 'Internal error'), 500), fires: 'internal-error' },
];

describe('judge', () => {
  for (const row of TABLE) {
    it(row.name, () => {
      for (const right of row.right) expect(judge({ http: row.http }, right, { profile: row.profile ?? REF, slowBoundMs: 1000 }), `right answer ${right.text ?? ''}`).toEqual([]);
      expect(oracles(row.http, row.wrong, row.profile ?? REF)).toContain(row.fires);
    });
  }

  it('quotes a numeric id as the node wrote it, not as a double reads it', () => {
    const [v] = judge({ http: post(call('chain_blockNumber', '[]', '90000000000000000000000')) }, reply(result('2.710505431213761085018632002174854278564453125e+80', '5')), { profile: REF, slowBoundMs: 1000 });
    expect(v?.message).toContain('with id 2.710505431213761085018632002174854278564453125e+80 (number), not 90000000000000000000000 (number)');
  });

  it('says a body of only a byte order mark is that, not an empty body', () => {
    const [v] = judge({ http: post(new Uint8Array([0xef, 0xbb, 0xbf])) }, reply('<html>oops</html>', 500), { profile: REF, slowBoundMs: 1000 });
    expect(v?.message).toContain('answered a body of only a byte order mark with HTTP 500');
  });

  it('says what the node did, with a source and an excerpt', () => {
    const [v] = judge({ http: post(BLOCK_NUMBER) }, reply(result('"7"', '5')), { profile: REF, slowBoundMs: 1000 });
    expect(v?.message).toBe('answered chain_blockNumber [] (id 7) with id "7" (string), not 7 (number)');
    expect(v?.source).toMatch(/^JSON-RPC 2\.0 §5/);
    expect(v?.excerpt).toContain('"7"');
    const [code] = judge({ http: post(BAD_HEIGHT) }, reply(error('3', -32000)), { profile: REF, slowBoundMs: 1000 });
    expect(code?.source).toBe('profile: errorCodes.InvalidParams');
    const [schema] = judge({ http: post(BLOCK_NUMBER) }, reply(result('7', '"five"')), { profile: REF, slowBoundMs: 1000 });
    expect(schema?.source).toBe('schema: methods/chain_blockNumber.schema.json#/definitions/result');
    const [leak] = judge({ http: post(BAD_HEIGHT) }, reply(error('3', -32602, 'at handle (/srv/app/server.js:12:7)'), 500), { profile: REF, slowBoundMs: 1000 });
    expect(leak?.source).toMatch(/^CWE-209/);
  });

  it('either answers never fire error-expected or error-code', () => {
    const eitherCases = [
      post(call('chain_getAccount', `{"address":"${ADDRESS}"}`, '1')),
      post(call('chain_getBlockByHeight', '["5"]', '1')),
      post(call('chain_blockNumber', '[1]', '1')),
      post('{"jsonrpc":"2.0","method":"chain_blockNumber","id":1}'),
    ];
    for (const http of eitherCases) {
      for (const answer of [reply(result('1', '5')), reply(error('1', -32000)), reply(error('1', -32602)), reply(error('1', -32601))]) {
        const found = judge({ http }, answer, { profile: LENIENT, slowBoundMs: 1000 }).map((v) => v.oracle);
        expect(found.filter((o) => o === 'error-expected' || o === 'error-code')).toEqual([]);
      }
    }
  });

  it('holds other HTTP methods to the profile\'s status only where it is stated (GET, PUT, DELETE)', () => {
    expect(oracles(post('', { method: 'OPTIONS', contentType: undefined }), reply('', 204))).toEqual([]);
    expect(oracles(post('', { method: 'BREW', contentType: undefined }), reply('', 501))).toEqual([]);
    const [v] = judge({ http: post(BLOCK_NUMBER, { method: 'PUT' }) }, reply(result('7', '5')), { profile: REF, slowBoundMs: 1000 });
    expect(v).toMatchObject({ oracle: 'envelope', source: 'profile: http.wrongMethod', message: 'answered an HTTP PUT with HTTP 200, not the profile\'s 405 nor any other 4xx' });
  });

  it('states the profile\'s wrong-method status for GET (what profile detect asks); PUT and DELETE may be refused with any 4xx', () => {
    const health: Profile = { ...REF, http: { ...REF.http, wrongMethod: 200 } };
    expect(oracles(post('', { method: 'GET', contentType: undefined }), reply('ok', 200, 3, {}), health)).toEqual([]);
    expect(oracles(post('', { method: 'GET', contentType: undefined }), reply('', 405, 3, {}), health)).toEqual(['envelope']);
    expect(oracles(post(BLOCK_NUMBER, { method: 'PUT' }), reply('', 405, 3, {}), health)).toEqual([]);
    expect(oracles(post(BLOCK_NUMBER, { method: 'DELETE' }), reply('', 400, 3, {}), health)).toEqual([]);
    expect(oracles(post(BLOCK_NUMBER, { method: 'DELETE' }), reply('', 500, 3, {}), health)).toEqual(['envelope']);
  });

  it('holds text/plain to the profile\'s content-type status; no content type, or another, may be refused with any 4xx or served as JSON', () => {
    expect(oracles(post(BLOCK_NUMBER, { contentType: 'text/plain' }), reply('', 400, 3, {}))).toEqual(['envelope']);
    expect(oracles(post(BLOCK_NUMBER, { contentType: 'text/plain' }), reply('', 415, 3, {}))).toEqual([]);
    for (const contentType of [undefined, 'application/json-rpc']) {
      expect(oracles(post(BLOCK_NUMBER, { contentType }), reply('', 415, 3, {}))).toEqual([]);
      expect(oracles(post(BLOCK_NUMBER, { contentType }), reply('', 400, 3, {}))).toEqual([]);
      expect(oracles(post(BLOCK_NUMBER, { contentType }), reply(result('7', '5')))).toEqual([]);
      expect(oracles(post(BLOCK_NUMBER, { contentType }), reply(result('"7"', '5')))).toEqual(['envelope']);
      expect(oracles(post(BLOCK_NUMBER, { contentType }), reply('oops', 500, 3, {}))).toContain('envelope');
    }
  });

  it('lets a node cut off a body over the profile\'s limit, but not time out on it', () => {
    const big = post(`${BLOCK_NUMBER}${' '.repeat(400)}`);
    expect(oracles(big, { failure: { code: 'REFUSED', message: 'socket hang up' }, ms: 2 }, SMALL)).toEqual([]);
    expect(oracles(big, { failure: { code: 'TIMEOUT', message: 'no answer in 10000 ms' }, ms: 10_000 }, SMALL)).toEqual(['no-answer']);
    expect(oracles(post(BLOCK_NUMBER), { failure: { code: 'REFUSED', message: 'socket hang up' }, ms: 2 }, SMALL)).toEqual(['no-answer']);
  });

  it('files nothing for a request whose connection was refused (never delivered: the node down or restarting), and no-answer for one it closed', () => {
    const refused = { failure: { code: 'REFUSED', message: 'connect ECONNREFUSED 127.0.0.1:8545' }, ms: 1 };
    expect(oracles(post(BLOCK_NUMBER), refused, SMALL)).toEqual([]);
    expect(oracles(post(BLOCK_NUMBER), { failure: { code: 'REFUSED', message: 'http://127.0.0.1:8545/rpc closed the connection without answering' }, ms: 1 }, SMALL)).toEqual(['no-answer']);
  });

  it('in a batch, names the method of the call a violation is about, and none for the batch as a whole', () => {
    const batch = post(`[${call('chain_blockNumber', '[]', '1')},${call('chain_getBlockByHeight', '[-1]', '2')},null]`);
    const opts = { profile: REF, slowBoundMs: 1000 };
    // The invalid height answered with a result: chain_getBlockByHeight's finding, not the batch's first call's.
    const [wrong] = judge({ http: batch }, reply(`[${result('1', '5')},${result('2', '5')},${error('null', -32600)}]`), opts);
    expect(wrong).toMatchObject({ oracle: 'error-expected', method: 'chain_getBlockByHeight' });
    // The null element unanswered: about no method's call.
    const [missing] = judge({ http: batch }, reply(`[${result('1', '5')},${error('2', -32602)}]`), opts);
    expect(missing?.oracle).toBe('envelope');
    expect(missing?.method).toBeUndefined();
    // Only chain_blockNumber's call unanswered: its method.
    const [lost] = judge({ http: batch }, reply(`[${error('2', -32602)},${error('null', -32600)}]`), opts);
    expect(lost).toMatchObject({ oracle: 'envelope', method: 'chain_blockNumber' });
    // A single call's violation carries none: the case names its method.
    expect(judge({ http: post(BAD_HEIGHT) }, reply(result('3', '5')), opts)[0]?.method).toBeUndefined();
  });

  it('in a batch with more answers of id null than elements that may get it, blames no element on a guessed pairing', () => {
    const opts = { profile: REF, slowBoundMs: 1000 };
    // A call, an invalid element ({}: id null) and a notification; the node answers the notification, with id null.
    const batch = post(`[${call('chain_blockNumber', '[]', '1')},{},${call('chain_blockNumber', '[]')}]`);
    // The notification's answer (a result) comes first: paired with {} it would read "answered element 2 with a result".
    const found = judge({ http: batch }, reply(`[${result('1', '5')},${result('null', '5')},${error('null', -32600)}]`), opts);
    expect(found.map((v) => `${v.oracle} ${v.kind ?? ''}`)).toEqual(['envelope batch extra answer']);
    expect(found[0]?.message).toMatch(/with 1 answer\(s\) that match no call \(id null\); its 1 notification\(s\) get none/);
    // A notification answered with id null beside an invalid element with a readable id ("") answered right, by its id
    // (an outside tester's node): the extra answer is the notification's, not a wrong answer to the element.
    const own = post(`[${call('chain_blockNumber', '[]')},{"id":""}]`);
    const ownFound = judge({ http: own }, reply(`[${result('null', '176')},${error('""', -32600)}]`), opts);
    expect(ownFound.map((v) => `${v.oracle} ${v.kind ?? ''}`)).toEqual(['envelope batch extra answer']);
    expect(ownFound[0]?.message).toMatch(/with 1 answer\(s\) that match no call \(id null\); its 1 notification\(s\) get none/);
    // Whoever's they are, an answer's own envelope is still judged (both a result and an error).
    const broken = judge({ http: batch }, reply(`[${result('1', '5')},{"jsonrpc":"2.0","id":null,"result":5,"error":{"code":-32600,"message":"x"}},${error('null', -32600)}]`), opts);
    expect(broken.map((v) => `${v.oracle} ${v.kind ?? ''}`)).toEqual(['envelope response: both "result" and "error" members (exactly one is allowed)', 'envelope batch extra answer']);
    // A call whose answer lost its id (null) beside an invalid element: no wrong code blamed on {}; what is certain is
    // that the call's answer carries id null (one call unanswered, one answer of id null over, no notification).
    const byName = post(`[{"jsonrpc":"2.0","method":"chain_getAccount","params":{"address":"${ADDRESS}"},"id":3},{}]`);
    const lost = judge({ http: byName }, reply(`[${error('null', -32602)},${error('null', -32600)}]`), opts);
    expect(lost.map((v) => `${v.oracle} ${v.kind ?? ''} ${v.method ?? '-'}`)).toEqual(['envelope id null chain_getAccount']);
    expect(lost[0]?.message).toMatch(/with id null \(null\), not 3 \(number\)$/);
    // As many answers of id null as elements that may get it: paired as before, a wrong one still found.
    expect(oracles(post(`[${call('chain_blockNumber', '[]', '1')},{}]`), reply(`[${result('1', '5')},${result('null', '5')}]`))).toEqual(['error-expected']);
  });

  it('says an empty method name as "" in a message, not as a gap', () => {
    const [v] = judge({ http: post('{"jsonrpc":"2.0","method":"","params":{},"id":""}') }, reply(result('""', '5')), { profile: REF, slowBoundMs: 1000 });
    expect(v?.message).toMatch(/^answered "" \{\} \(id ""\) with a result/);
  });

  it('a long answer read again is judged by its own text: the same text as before, or one of the same length that differs', () => {
    const ids = Array.from({ length: 150 }, (_, i) => String(i + 1));
    const http = post(`[${ids.map((id) => call('chain_blockNumber', '[]', id)).join(',')}]`);
    const right = `[${ids.map((id) => result(id, '5')).join(',')}]`;
    const wrong = right.replace('"id":150,', '"id":151,');
    expect(right.length).toBeGreaterThan(4_096);
    expect(wrong.length).toBe(right.length);
    expect(oracles(http, reply(right))).toEqual([]);
    expect(oracles(http, reply(right))).toEqual([]);
    expect(oracles(http, reply(wrong))).toEqual(['envelope', 'envelope']);
    expect(oracles(http, reply(right))).toEqual([]);
  });

  it('a long answer found clean before: a leak in its headers, or in another body of the same length, is still found', () => {
    const ids = Array.from({ length: 150 }, (_, i) => String(i + 1));
    const http = post(`[${ids.map((id) => call('chain_blockNumber', '[]', id)).join(',')}]`);
    const clean = `[${ids.map((id) => result(id, '"0000000000000000"')).join(',')}]`;
    const leaky = clean.replace('"0000000000000000"', '"/srv/app/xy.js:9"');
    expect(leaky.length).toBe(clean.length);
    expect(oracles(http, reply(clean))).not.toContain('leak');
    expect(oracles(http, reply(clean, 200, 3, { 'content-type': 'application/json', 'x-debug': 'at handle (/srv/app/server.js:12:7)' }))).toContain('leak');
    expect(oracles(http, reply(leaky))).toContain('leak');
    expect(oracles(http, reply(clean))).not.toContain('leak');
  });

  it('a number a double reads otherwise than it is written may be read either way (RFC 8259 §6)', () => {
    const codes = REF.errorCodes;
    const invalidHeight = Number(codes['InvalidParams/height'] ?? codes.InvalidParams);
    const blockNotFound = Number(codes.BlockNotFound);
    // 18446744073709551615.0: u64's top exactly (no such block yet), 2^64 as a double (no u64 at all).
    const top = post(call('chain_getBlockByHeight', '[18446744073709551615.0]', '3'));
    expect(oracles(top, reply(error('3', blockNotFound, 'no block', '{"reason":"no block at that height"}')))).toEqual([]);
    expect(oracles(top, reply(error('3', invalidHeight, 'bad height', INVALID_PARAMS_DATA)))).toEqual([]);
    // 1e-400: a fraction written, 0 as a double (the genesis block).
    const tiny = post(call('chain_getBlockByHeight', '[1e-400]', '4'));
    expect(oracles(tiny, reply(error('4', invalidHeight, 'bad height', INVALID_PARAMS_DATA)))).toEqual([]);
    expect(oracles(tiny, reply(error('4', -32000, 'odd')))).not.toEqual([]);
    // A number a double reads exactly has one reading: 1.5e1 is 15, a height, so a refusal as a fraction is wrong.
    expect(oracles(post(call('chain_getBlockByHeight', '[1.5e1]', '5')), reply(error('5', invalidHeight, 'bad height', INVALID_PARAMS_DATA)))).toContain('result-schema');
  });

  it('a batch over the profile\'s maxBatch may be refused whole (one error, id null) or call by call (an error to each call)', () => {
    const ids = Array.from({ length: 3 }, (_, i) => String(i + 1));
    const http = post(`[${ids.map((id) => call('chain_blockNumber', '[]', id)).join(',')}]`);
    expect(oracles(http, reply(error('null', Number(REF.errorCodes.BatchTooLarge), 'too many')), SMALL)).toEqual([]);
    expect(oracles(http, reply(`[${ids.map((id) => error(id, -32050, 'too many')).join(',')}]`), SMALL)).toEqual([]);
    expect(oracles(http, reply(`[${ids.slice(1).map((id) => error(id, -32050, 'too many')).join(',')}]`), SMALL)).toEqual(['envelope']);
    expect(oracles(http, reply(`[${ids.map((id) => result(id, '5')).join(',')}]`), SMALL)).not.toEqual([]);
  });

  it('an optional method the node lacks (rpc.discover) may be answered -32601 whatever its params', () => {
    expect(oracles(post(call('rpc.discover', '[[]]', '""')), reply(error('""', -32601, 'no such method')))).toEqual([]);
    expect(oracles(post(call('chain_blockNumber', '[[]]', '1')), reply(error('1', -32601, 'no such method')))).toEqual(['error-code']);
  });

  it('a body nested deeper than a parser may go can be refused with an error and id null (RFC 8259 §9)', () => {
    const deep = post(call('chain_blockNumber', `${'['.repeat(40)}${']'.repeat(40)}`, '6'));
    expect(oracles(deep, reply(error('null', -32700, 'too deep')))).toEqual([]);
    expect(oracles(deep, reply(error('6', -32602, 'bad params', INVALID_PARAMS_DATA)))).toEqual([]);
    const shallow = post(call('chain_blockNumber', `${'['.repeat(20)}${']'.repeat(20)}`, '6'));
    expect(oracles(shallow, reply(error('null', -32700, 'too deep')))).not.toEqual([]);
  });

  it('error data is left alone: optional in JSON-RPC 2.0 §5.1, its shape a profile matter the suite checks', () => {
    const missing = post(call('chain_getBlockByHeight', '[99999999]', '8'));
    const code = Number(REF.errorCodes.BlockNotFound);
    for (const data of ['{"reason":"no such block"}', '{"height":99999999}', '"no block"', undefined]) {
      expect(oracles(missing, reply(error('8', code, 'no block', data)))).toEqual([]);
    }
    expect(oracles(missing, reply(error('8', -32000, 'no block')))).toEqual(['result-schema']);
  });

  it('a request object with members JSON-RPC does not name may be served or refused (-32600)', () => {
    const extra = post('{"params2":[],"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":0}');
    expect(oracles(extra, reply(result('0', '5')))).toEqual([]);
    expect(oracles(extra, reply(error('0', -32600, 'unknown member')))).toEqual([]);
    expect(oracles(extra, reply(error('0', -32603, 'boom')))).toEqual(['internal-error']);
  });

  it('a node quoting the request back does not leak', () => {
    const http = post(call('at handle (/srv/app/server.js:12:7)', '[]', '1'));
    expect(oracles(http, reply(error('1', -32601, 'Method not found', '{"reason":"no method named \\"at handle (/srv/app/server.js:12:7)\\""}')))).toEqual([]);
    expect(oracles(http, reply(error('1', -32601, 'at x (/home/n/other.js:1:1)')))).toEqual(['leak']);
  });
});
