import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../core/json/index.js';
import type { PlannedRequest } from '../engine/RequestSource.js';
import { classifyExchange, isOk, type Exchange } from './classifyExchange.js';

const single = (method = 'chain_blockNumber', id: number | string = 1): PlannedRequest => ({
  body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, params: [] })),
  calls: [{ id, method }],
  batch: false,
});
const batch = (methods: string[]): PlannedRequest => ({
  body: Buffer.from('[]'),
  calls: methods.map((method, i) => ({ id: i + 1, method })),
  batch: true,
});
const answer = (body: string, status = 200): Exchange => ({ kind: 'answer', status, body: Buffer.from(body) });
const kinds = (r: ReturnType<typeof classifyExchange>): string[] => r.calls.map((c) => (c.kind === 'error' ? `error ${c.code}` : c.kind));

describe('classifyExchange: single requests', () => {
  it('is ok only on a result', () => {
    const r = classifyExchange(single(), answer('{"jsonrpc":"2.0","id":1,"result":"0x10"}'));
    expect(r.failure).toBeNull();
    expect(r.calls).toEqual([{ kind: 'result', result: '0x10' }]);
    expect(isOk(r.calls[0] as never)).toBe(true);
  });

  it('counts a JSON-RPC error in a 200 as a failure with its code and message', () => {
    const r = classifyExchange(single(), answer('{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"busy"}}'));
    expect(r.failure).toBeNull();
    expect(r.calls).toEqual([{ kind: 'error', code: -32005, message: 'busy' }]);
  });

  it('takes an error answered with a null id as the answer to the call (the node could not read the id)', () => {
    const r = classifyExchange(single(), answer('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}'));
    expect(kinds(r)).toEqual(['error -32700']);
  });

  it('counts a non-200 status, with every call unanswered', () => {
    const r = classifyExchange(single(), answer('{"jsonrpc":"2.0","id":1,"result":1}', 503));
    expect(r.failure).toEqual({ kind: 'httpStatus', status: 503 });
    expect(kinds(r)).toEqual(['unanswered']);
  });

  it.each([
    ['not JSON', '<html>oops</html>'],
    ['JSON but no response', '{"hello":"world"}'],
    ['a result and an error', '{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":""}}'],
    ['an error without an integer code', '{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":""}}'],
    ['the answer to another id', '{"jsonrpc":"2.0","id":2,"result":1}'],
    ['a string id for a number id', '{"jsonrpc":"2.0","id":"1","result":1}'],
    ['an array for a single request', '[{"jsonrpc":"2.0","id":1,"result":1}]'],
  ])('counts a 200 with %s as malformed', (_, body) => {
    const r = classifyExchange(single(), answer(body));
    expect(r.failure).toEqual({ kind: 'malformed' });
    expect(kinds(r)).toEqual(['unanswered']);
  });

  it('matches ids beyond 2^53 exactly (parsed losslessly)', () => {
    const r = classifyExchange(single('m', '9007199254740993'), answer('{"jsonrpc":"2.0","id":"9007199254740993","result":9007199254740993}'));
    expect(r.calls).toEqual([{ kind: 'result', result: 9007199254740993n }]);
  });

  it('reports timeouts and transport failures as such, every call unanswered', () => {
    expect(classifyExchange(batch(['a', 'b']), { kind: 'timeout' })).toMatchObject({ failure: { kind: 'timeout' }, calls: [{ kind: 'unanswered' }, { kind: 'unanswered' }] });
    expect(classifyExchange(single(), { kind: 'transport', cause: 'connection reset', reason: 'ECONNRESET' }).failure).toEqual({ kind: 'transport', cause: 'connection reset' });
  });

  it('validates sampled results: an invalid result is not ok', () => {
    const request: PlannedRequest = { ...single(), calls: [{ id: 1, method: 'chain_blockNumber', validate: true }] };
    const check = (_: string, result: JsonValue): boolean => typeof result === 'number';
    const good = classifyExchange(request, answer('{"jsonrpc":"2.0","id":1,"result":5}'), check);
    const bad = classifyExchange(request, answer('{"jsonrpc":"2.0","id":1,"result":"5"}'), check);
    expect(good.calls).toEqual([{ kind: 'result', result: 5, valid: true }]);
    expect(bad.calls).toEqual([{ kind: 'result', result: '5', valid: false }]);
    expect(isOk(bad.calls[0] as never)).toBe(false);
    // Not sampled: not validated.
    expect(classifyExchange(single(), answer('{"jsonrpc":"2.0","id":1,"result":"5"}'), check).calls).toEqual([{ kind: 'result', result: '5' }]);
  });
});

describe('classifyExchange: batches', () => {
  it('matches answers by id in any order, errors per element', () => {
    const r = classifyExchange(
      batch(['a', 'b', 'c']),
      answer('[{"jsonrpc":"2.0","id":3,"result":"C"},{"jsonrpc":"2.0","id":1,"result":"A"},{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad"}}]'),
    );
    expect(r).toMatchObject({ failure: null, extraElements: false, missingElements: false });
    expect(r.calls).toEqual([
      { kind: 'result', result: 'A' },
      { kind: 'error', code: -32602, message: 'bad' },
      { kind: 'result', result: 'C' },
    ]);
  });

  it('counts a missing element per call (unanswered) and per request', () => {
    const r = classifyExchange(batch(['a', 'b', 'c']), answer('[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":3,"result":3}]'));
    expect(kinds(r)).toEqual(['result', 'unanswered', 'result']);
    expect(r).toMatchObject({ failure: null, missingElements: true, extraElements: false });
  });

  it('counts an element with an unknown id, or a second answer to one id, as extra', () => {
    const unknown = classifyExchange(batch(['a', 'b']), answer('[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":2},{"jsonrpc":"2.0","id":9,"result":9}]'));
    expect(kinds(unknown)).toEqual(['result', 'result']);
    expect(unknown).toMatchObject({ extraElements: true, missingElements: false });
    const repeated = classifyExchange(batch(['a', 'b']), answer('[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":""}}]'));
    expect(kinds(repeated)).toEqual(['result', 'unanswered']);
    expect(repeated).toMatchObject({ extraElements: true, missingElements: true });
  });

  it('gives every call the error of a batch refused as a whole', () => {
    const r = classifyExchange(batch(['a', 'b']), answer('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch too large"}}'));
    expect(kinds(r)).toEqual(['error -32600', 'error -32600']);
    expect(r.failure).toBeNull();
  });

  it('counts a batch answered by a non-array, or holding non-responses, as malformed', () => {
    expect(classifyExchange(batch(['a']), answer('{"jsonrpc":"2.0","id":1,"result":1}')).failure).toEqual({ kind: 'malformed' });
    const r = classifyExchange(batch(['a', 'b']), answer('[{"jsonrpc":"2.0","id":1,"result":1}, 42]'));
    expect(r.failure).toEqual({ kind: 'malformed' });
    expect(kinds(r)).toEqual(['result', 'unanswered']);
    expect(r.missingElements).toBe(true);
  });
});
