import { describe, expect, it } from 'vitest';
import { parseJson } from '../json/index.js';
import { validateResponse } from './validateResponse.js';

const check = (text: string): ReturnType<typeof validateResponse> => validateResponse(parseJson(text));

describe('validateResponse', () => {
  it('accepts a result (null included) and an error with or without data', () => {
    expect(check('{"jsonrpc":"2.0","id":1,"result":null}')).toEqual({ kind: 'result', id: 1, result: null });
    expect(check('{"jsonrpc":"2.0","id":"a","error":{"code":-1,"message":"m"}}')).toEqual({
      kind: 'error',
      id: 'a',
      error: { code: -1, message: 'm' },
    });
    const withData = check('{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":null}}');
    expect(withData).toEqual({ kind: 'error', id: 1, error: { code: 1, message: 'm', data: null } });
  });

  it('tolerates extra members (checks may be stricter)', () => {
    expect(check('{"jsonrpc":"2.0","id":1,"result":2,"extra":true}').kind).toBe('result');
  });

  it.each([
    ['null', /got null/],
    ['"x"', /got string "x"/],
    ['[]', /got an array/],
    ['{"jsonrpc":2.0,"id":1,"result":1}', /"jsonrpc" must be "2.0", got 2/],
    ['{"jsonrpc":"2.0","result":1}', /"id" member is missing/],
    ['{"jsonrpc":"2.0","id":1,"error":null}', /"error" must be an object, got null/],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}', /integer, got 1.5/],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":18446744073709551615,"message":"m"}}', /integer, got 18446744073709551615/],
    ['{"jsonrpc":"2.0","id":1,"error":{"message":"m"}}', /integer, got nothing/],
  ])('rejects %s', (text, problem) => {
    const result = check(text);
    expect(result.kind).toBe('invalid');
    if (result.kind === 'invalid') expect(result.problem).toMatch(problem);
  });

  it('names the member that is wrong, and keeps the id of an invalid response that has one', () => {
    expect(check('[]')).toMatchObject({ kind: 'invalid', member: 'response' });
    expect(check('[]')).not.toHaveProperty('id');
    expect(check('{"id":7,"result":1}')).toMatchObject({ kind: 'invalid', member: 'jsonrpc', id: 7 });
    expect(check('{"jsonrpc":"2.0","result":1}')).toMatchObject({ kind: 'invalid', member: 'id' });
    expect(check('{"jsonrpc":"2.0","id":"a"}')).toMatchObject({ kind: 'invalid', member: 'result', id: 'a' });
    expect(check('{"jsonrpc":"2.0","id":null,"error":{"code":"x","message":"m"}}')).toMatchObject({ kind: 'invalid', member: 'error', id: null });
  });
});

describe("validateResponse(value, 'readable'): what a check reads an answer by", () => {
  const read = (text: string): ReturnType<typeof validateResponse> => validateResponse(parseJson(text), 'readable');

  it('reads answers whose envelope the transport checks judge: no or another jsonrpc, result beside error, a fractional code', () => {
    expect(read('{"id":1,"result":2}')).toEqual({ kind: 'result', id: 1, result: 2 });
    expect(read('{"jsonrpc":"1.0","id":1,"result":2}')).toEqual({ kind: 'result', id: 1, result: 2 });
    expect(read('{"jsonrpc":"2.0","id":1,"result":null,"error":{"code":-32601,"message":"m"}}')).toEqual({ kind: 'error', id: 1, error: { code: -32601, message: 'm' } });
    expect(read('{"id":1,"error":{"code":1.5,"message":"m"}}')).toEqual({ kind: 'error', id: 1, error: { code: 1.5, message: 'm' } });
    // The client is strict about each of them.
    for (const text of ['{"id":1,"result":2}', '{"jsonrpc":"2.0","id":1,"result":null,"error":{"code":-32601,"message":"m"}}', '{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}']) {
      expect(check(text).kind).toBe('invalid');
    }
  });

  it.each([
    ['"x"', 'response'],
    ['{"result":1}', 'id'],
    ['{"id":1}', 'result'],
    ['{"id":1,"error":"boom"}', 'error'],
    ['{"id":1,"error":{"code":"-32601","message":"m"}}', 'error'],
    ['{"id":1,"error":{"code":-32601}}', 'error'],
  ])('still refuses %s (%s)', (text, member) => {
    expect(read(text)).toMatchObject({ kind: 'invalid', member });
  });
});
