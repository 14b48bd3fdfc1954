/**
 * The model of JSON-RPC 2.0 §4-§6 and the profile, request by request: what expectationOf makes of each (the
 * HTTP layer, bodies that are not JSON, the open points of RFC 8259, request objects, params and their forms),
 * and the reading of duplicate member names (readJsonBody.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../profile/Profile.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import type { Expectation, FuzzHttp } from '../model.js';
import { expectationOf, expectationsOf } from './expectationOf.js';
import { readJsonText } from './readJsonBody.js';

const REF = referenceProfile();
const ADDRESS = '6488585c505befe4e4f4724815d3e6d0f4516e65f4dc171e3df8d69ff77e577e';
const post = (body: string | Uint8Array, over: Partial<FuzzHttp> = {}): FuzzHttp => ({ method: 'POST', contentType: 'application/json', body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body, ...over });
const call = (method: string, params: string, id = '1'): string => `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":${params},"id":${id}}`;
const of = (body: string | Uint8Array, profile: Profile = REF, over: Partial<FuzzHttp> = {}): Expectation => expectationOf(post(body, over), profile);

/** The single answer's expectation, failing when the expectation is not a single answer. */
function single(e: Expectation): Extract<Expectation, { kind: 'single' }> {
  if (e.kind !== 'single') throw new Error(`expected a single answer, got ${e.kind}`);
  return e;
}

describe('expectationOf: bodies', () => {
  it('a body that is not JSON: -32700, id null (MUST)', () => {
    for (const body of ['{"jsonrpc":', `${call('chain_blockNumber', '[]')}x`, '{"a":1,}', 'nul']) {
      expect(of(body)).toMatchObject({ kind: 'single', id: null, answer: { kind: 'error', code: -32700, codeFrom: 'JSON-RPC 2.0 §5.1' } });
    }
    expect(of(new Uint8Array([0x7b, 0xff, 0x7d]))).toMatchObject({ kind: 'single', id: null, answer: { kind: 'error', code: -32700 } });
  });

  it('an empty body: an error, id null, no code compared (the suite grades -32700 SHOULD)', () => {
    for (const body of ['', ' \n\t']) {
      const e = single(of(body));
      expect(e.id).toBeNull();
      expect(e.answer).toMatchObject({ kind: 'error' });
      expect(e.answer.kind === 'error' ? e.answer.code : 'x').toBeUndefined();
    }
    expect(single(of(call('chain_blockNumber', '[]'), REF, { omitContentLength: true })).id).toBeNull();
  });

  it('a byte order mark: the request read without it, or -32700: either', () => {
    expect(of(`\uFEFF${call('chain_blockNumber', '[]', '5')}`)).toMatchObject({ kind: 'single', id: 5, answer: { kind: 'either' } });
    const readings = expectationsOf(post(`\uFEFF${call('chain_blockNumber', '[]', '5')}`), REF);
    expect(readings[0]).toEqual({ kind: 'single', id: 5, answer: { kind: 'result', method: 'chain_blockNumber' } });
    expect(readings[1]).toMatchObject({ kind: 'single', id: null, answer: { kind: 'error', code: -32700 } });
    expect(readings).toHaveLength(2);
  });

  it('nesting deeper than 512 levels is unjudged (RFC 8259 §9)', () => {
    expect(of(`${'['.repeat(600)}${']'.repeat(600)}`).kind).toBe('unjudged');
  });

  it('duplicate member names: either for the request that has them', () => {
    expect(of('{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"params":[1],"id":1}')).toMatchObject({ kind: 'single', id: 1, answer: { kind: 'either' } });
    const batch = of(`[{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"params":[1],"id":1},${call('chain_blockNumber', '[1]', '2')}]`);
    expect(batch).toMatchObject({ kind: 'batch', elements: [{ id: 1, answer: { kind: 'either' } }, { id: 2, answer: { kind: 'error', code: -32602 } }] });
  });

  it('reads duplicates both ways, and says where they are', () => {
    const body = readJsonText('[{"a":1,"a":2},{"b":[{"c":1,"c":{"d":2}}]},{"e":1}]');
    if (body.kind !== 'json') throw new Error(body.kind);
    expect(body.value).toEqual([{ a: 2 }, { b: [{ c: { d: 2 } }] }, { e: 1 }]);
    expect(body.duplicates?.firstWins).toEqual([{ a: 1 }, { b: [{ c: 1 }] }, { e: 1 }]);
    expect(body.duplicates?.where).toEqual(new Set([0, 1]));
    const big = readJsonText('{"id":9007199254740993,"id":"x","__proto__":1}');
    const first = big.kind === 'json' ? big.duplicates?.firstWins : undefined;
    expect(typeof first === 'object' && first !== null && !Array.isArray(first) ? [first.id, Object.hasOwn(first, '__proto__')] : []).toEqual([9007199254740993n, true]);
    expect(readJsonText('{"a":1}')).toEqual({ kind: 'json', value: { a: 1 } });
  });
});

describe('expectationOf: the HTTP layer', () => {
  it('another method than POST, a content type the profile refuses, a body over its limit: unjudged', () => {
    expect(of('', REF, { method: 'GET', contentType: undefined }).kind).toBe('unjudged');
    expect(of(call('chain_blockNumber', '[]'), REF, { contentType: 'text/plain' }).kind).toBe('unjudged');
    expect(of(call('chain_blockNumber', '[]'), REF, { contentType: undefined }).kind).toBe('unjudged');
    expect(of(`${call('chain_blockNumber', '[]')}${' '.repeat(100)}`, { ...REF, maxBodyBytes: 64 }).kind).toBe('unjudged');
  });

  it('a content type the profile serves (200), or application/json with parameters: judged as JSON-RPC', () => {
    expect(of(call('chain_blockNumber', '[]'), { ...REF, http: { ...REF.http, wrongContentType: 200 } }, { contentType: 'text/plain' }).kind).toBe('single');
    expect(of(call('chain_blockNumber', '[]'), REF, { contentType: 'Application/JSON; charset=utf-8' }).kind).toBe('single');
  });
});

describe('expectationOf: JSON-RPC 2.0 §4-§6', () => {
  it('values that are not requests: -32600, id null; [] one error object', () => {
    for (const body of ['1', '"x"', 'true', 'null', '[]', '{}']) expect(of(body)).toMatchObject({ kind: 'single', id: null, answer: { kind: 'error', code: -32600 } });
    expect(of('[1,[],null]')).toMatchObject({ kind: 'batch', elements: [{ id: null }, { id: null }, { id: null }] });
  });

  it('invalid request objects: -32600 with their id when it was valid, else null; answered even without an id', () => {
    expect(of('{"jsonrpc":"1.0","method":"chain_blockNumber","params":[],"id":3}')).toMatchObject({ kind: 'single', id: 3, answer: { code: -32600 } });
    expect(of('{"jsonrpc":"2.0","method":1,"params":"bar"}')).toMatchObject({ kind: 'single', id: null, answer: { code: -32600 } });
    for (const id of ['{}', '[1]', 'true']) expect(of(call('chain_blockNumber', '[]', id))).toMatchObject({ kind: 'single', id: null, answer: { code: -32600 } });
    expect(of('{"jsonrpc":"2.0","method":"chain_blockNumber","params":null,"id":2}')).toMatchObject({ id: 2, answer: { code: -32600 } });
  });

  it('ids JSON-RPC allows are echoed: null, fractions, bigints; one beyond a double has two readings', () => {
    expect(single(of(call('chain_blockNumber', '[]', 'null'))).id).toBeNull();
    expect(single(of(call('chain_blockNumber', '[]', '1.5'))).id).toBe(1.5);
    expect(single(of(call('chain_blockNumber', '[]', '9007199254740993'))).id).toBe(9007199254740993n);
    // Refused, echoed as the double (Infinity), or read exactly (RFC 8259 §6) and echoed as the integer it writes.
    expect(expectationsOf(post(call('chain_blockNumber', '[]', '1e400')), REF).map((e) => (e.kind === 'single' ? e.id : 'x'))).toEqual([null, Infinity, 10n ** 400n]);
  });

  it('notifications get nothing, whatever they call', () => {
    expect(of('{"jsonrpc":"2.0","method":"nope","params":[]}')).toEqual({ kind: 'nothing' });
    expect(of('{"jsonrpc":"2.0","method":"chain_getBlockByHeight","params":["one"]}')).toEqual({ kind: 'nothing' });
    expect(of('[{"jsonrpc":"2.0","method":"chain_blockNumber","params":[]},{"jsonrpc":"2.0","method":"chain_health"}]')).toEqual({ kind: 'nothing' });
    expect(of(`[{"jsonrpc":"2.0","method":"chain_blockNumber","params":[]},${call('chain_blockNumber', '[]', '"a"')}]`)).toMatchObject({ kind: 'batch', elements: [{ id: 'a' }] });
  });

  it('methods: the profile\'s wire names are known, others -32601 (rpc. names too); rpc.discover is a method', () => {
    expect(of(call('chain_noSuchMethod', '[]'))).toMatchObject({ answer: { kind: 'error', code: -32601 } });
    expect(of(call('rpc.foo', '[]'))).toMatchObject({ answer: { kind: 'error', code: -32601 } });
    expect(of(call('rpc.discover', '[]'))).toMatchObject({ answer: { kind: 'result', method: 'rpc.discover' } });
    const acme: Profile = { ...REF, methodPrefix: 'acme_', methodNames: { chain_getAccount: 'acme_account' } };
    expect(of(call('acme_account', `["${ADDRESS}"]`), acme)).toMatchObject({ answer: { kind: 'result', method: 'chain_getAccount' } });
    expect(of(call('acme_blockNumber', '[]'), acme)).toMatchObject({ answer: { kind: 'result', method: 'chain_blockNumber' } });
    expect(of(call('chain_blockNumber', '[]'), acme)).toMatchObject({ answer: { code: -32601 } });
    expect(of(call('net_peerCount', '[]'), acme)).toMatchObject({ answer: { kind: 'result' } });
  });

  it('a batch over maxBatch: one BatchTooLarge error, id null; no limit stated: judged as a batch', () => {
    const body = `[${[1, 2, 3].map((i) => call('chain_blockNumber', '[]', String(i))).join(',')}]`;
    expect(of(body, { ...REF, maxBatch: 2 })).toMatchObject({ kind: 'single', id: null, answer: { kind: 'error', code: -32013, codeFrom: 'profile: errorCodes.BatchTooLarge' } });
    const { maxBatch: _, ...noLimit } = REF;
    expect(of(body, noLimit).kind).toBe('batch');
    expect(of(body).kind).toBe('batch');
  });
});

describe('expectationOf: params', () => {
  const NO_CODES: Profile = { ...REF, errorCodes: Object.fromEntries(Object.entries(REF.errorCodes).filter(([k]) => k !== 'InvalidParams')) };
  const LENIENT: Profile = { ...REF, params: { extra: 'accepted', byName: 'accepted', hexPrefix: 'accepted', stringIntegers: 'accepted' } };

  it('valid params: a result of the method', () => {
    expect(of(call('chain_getAccount', `["${ADDRESS.toUpperCase()}"]`))).toMatchObject({ answer: { kind: 'result', method: 'chain_getAccount' } });
    expect(of(call('chain_getBlockByHeight', '[18446744073709551615]'))).toMatchObject({ answer: { kind: 'result', method: 'chain_getBlockByHeight' } });
  });

  it('invalid params: the profile\'s InvalidParams code; -32602 as a MUST only for a wrong type where the profile names none', () => {
    expect(of(call('chain_getBlockByHeight', '[-1]'))).toMatchObject({ answer: { kind: 'error', code: -32602, codeFrom: 'profile: errorCodes.InvalidParams' } });
    const wrongType = single(of(call('chain_getBlockByHeight', '["one"]'), NO_CODES));
    expect(wrongType.answer).toMatchObject({ kind: 'error', code: -32602 });
    expect(wrongType.answer.kind === 'error' ? wrongType.answer.codeFrom : '').toMatch(/^JSON-RPC 2\.0 §5\.1/);
    const negative = single(of(call('chain_getBlockByHeight', '[-1]'), NO_CODES));
    expect(negative.answer).toMatchObject({ kind: 'error' });
    expect(negative.answer.kind === 'error' ? negative.answer.code : 'x').toBeUndefined();
    const byCondition: Profile = { ...REF, errorCodes: { ...REF.errorCodes, 'InvalidParams/address': -32050 } };
    expect(of(call('chain_getAccount', '["abc"]'), byCondition)).toMatchObject({ answer: { code: -32050, codeFrom: 'profile: errorCodes.InvalidParams/address' } });
    expect(of(call('chain_getAccount', '[12345]'), byCondition)).toMatchObject({ answer: { code: -32602 } });
    const nullCode = single(of(call('chain_getAccount', '[12345]'), { ...REF, errorCodes: { ...REF.errorCodes, InvalidParams: null } }));
    expect(nullCode.answer.kind === 'error' ? nullCode.answer.code : 'x').toBeUndefined();
  });

  it('forms the profile refuses: an error with its code by condition; forms it accepts: either', () => {
    const forms = [call('chain_getAccount', `{"address":"${ADDRESS}"}`), call('chain_blockNumber', '[1]'), call('chain_getAccount', `["0x${ADDRESS}"]`), call('chain_getBlockByHeight', '["5"]'), call('chain_getBlockByHeight', '["0x5"]')];
    for (const body of forms) {
      expect(of(body)).toMatchObject({ answer: { kind: 'error', code: -32602 } });
      expect(of(body, LENIENT)).toMatchObject({ answer: { kind: 'either' } });
    }
    const byName: Profile = { ...REF, errorCodes: { ...REF.errorCodes, 'InvalidParams/by-name': -32051 } };
    expect(of(forms[0] ?? '', byName)).toMatchObject({ answer: { code: -32051, codeFrom: 'profile: errorCodes.InvalidParams/by-name' } });
    // An accepted form does not make bad params good.
    expect(of(call('chain_getAccount', '{"address":"abc"}'), LENIENT)).toMatchObject({ answer: { kind: 'error', code: -32602 } });
  });

  it('integers as hex quantities are the profile\'s choice for results only: params are judged as the interface writes them', () => {
    const HEX: Profile = { ...LENIENT, integers: 'hex' };
    // A JSON integer height is a valid call (its result is judged); "0x2" is a string integer, a form the profile accepts: either.
    expect(of(call('chain_getBlockByHeight', '[2]'), HEX)).toMatchObject({ answer: { kind: 'result', method: 'chain_getBlockByHeight' } });
    expect(of(call('chain_getBlockByHeight', '["0x2"]'), HEX)).toMatchObject({ answer: { kind: 'either' } });
    expect(of(call('chain_getBlockByHeight', '["0x2"]'), { ...HEX, params: { ...HEX.params, stringIntegers: 'refused' } })).toMatchObject({ answer: { kind: 'error' } });
  });

  it('a string integer in any form ("00", "007") is a form stringIntegers accepts, not a rule a lenient node breaks', () => {
    for (const height of ['"00"', '"007"', '"0x02"']) {
      expect(of(call('chain_getBlockByHeight', `[${height}]`), LENIENT)).toMatchObject({ answer: { kind: 'either' } });
      expect(of(call('chain_getBlockByHeight', `[${height}]`))).toMatchObject({ answer: { kind: 'error', code: -32602 } });
    }
    expect(of(call('chain_getBlockByHeight', '["18446744073709551616"]'), LENIENT)).toMatchObject({ answer: { kind: 'error' } });
  });

  it('an absent params: either where [] is valid, an error where a param is missing', () => {
    expect(of('{"jsonrpc":"2.0","method":"chain_blockNumber","id":1}')).toMatchObject({ answer: { kind: 'either' } });
    expect(of('{"jsonrpc":"2.0","method":"chain_getAccount","id":1}')).toMatchObject({ answer: { kind: 'error', code: -32602 } });
  });
});
