// The dispatcher's rules (JSON-RPC 2.0 §4-§6 and the reference profile), each through real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../core/json/index.js';
import { handleRpcBody } from './handleRpcBody.js';
import { ADDRESS, createTestMethods, member, post, rpc, startRpcServer } from '../../test/support/rpc.js';
import type { TestRpcServer } from '../../test/support/rpc.js';

let server: TestRpcServer;
let url: string;

beforeAll(async () => {
  server = await startRpcServer({ maxBatch: 10 });
  url = server.url;
});
afterAll(async () => {
  await server.close();
});

/** Every response object: exactly jsonrpc, id and one of result / error (§5). */
function expectEnvelope(value: JsonValue | undefined): void {
  expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
  const keys = Object.keys(value as object).sort();
  expect([['error', 'id', 'jsonrpc'], ['id', 'jsonrpc', 'result']]).toContainEqual(keys);
  expect(member(value, 'jsonrpc')).toBe('2.0');
}

function errorOf(value: JsonValue | undefined): { code: JsonValue | undefined; message: JsonValue | undefined; data: JsonValue | undefined } {
  expectEnvelope(value);
  const error = member(value, 'error');
  return { code: member(error, 'code'), message: member(error, 'message'), data: member(error, 'data') };
}

const call = (method: string, params?: JsonValue, id: JsonValue = 1): string =>
  JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }), id });

describe('parse errors (§5.1 -32700, id null)', () => {
  it.each([
    ['truncated JSON', '{"jsonrpc":"2.0",'],
    ['empty body', ''],
    ['only whitespace', '  \n'],
    ['trailing garbage', '{"jsonrpc":"2.0","method":"chain_blockNumber","id":1} x'],
    ['single quotes', "{'a':1}"],
    ['nesting deeper than the parser takes', '['.repeat(600) + ']'.repeat(600)],
  ])('%s', async (_name, body) => {
    const answer = await rpc(url, body);
    const error = errorOf(answer);
    expect(member(answer, 'id')).toBeNull();
    expect(error.code).toBe(-32700);
    expect(error.message).toBe('Parse error');
    expect(typeof member(error.data, 'reason')).toBe('string');
  });

  it('a body that is not UTF-8 is a parse error', async () => {
    const answer = await post(url, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":{"reason":"the body is not valid UTF-8"}}}');
  });
});

describe('invalid requests (§4, §5.1 -32600)', () => {
  it.each([['1'], ['"x"'], ['null'], ['true'], ['-2.5']])('a non-object, non-array value %s gets one -32600 with id null', async (body) => {
    const answer = await rpc(url, body);
    expect(Array.isArray(answer)).toBe(false);
    expect(errorOf(answer).code).toBe(-32600);
    expect(member(answer, 'id')).toBeNull();
  });

  it('[] gets ONE error object, not an array (§6)', async () => {
    const answer = await rpc(url, '[]');
    expect(Array.isArray(answer)).toBe(false);
    expect(errorOf(answer).code).toBe(-32600);
    expect(member(answer, 'id')).toBeNull();
  });

  it('[1] gets an array of one -32600; [1,2,3] an array of three (§6)', async () => {
    const one = await rpc(url, '[1]');
    expect(Array.isArray(one) && one.length).toBe(1);
    const three = await rpc(url, '[1,2,3]');
    expect(Array.isArray(three)).toBe(true);
    expect((three as JsonValue[]).map((r) => [errorOf(r).code, member(r, 'id')])).toEqual([
      [-32600, null],
      [-32600, null],
      [-32600, null],
    ]);
  });

  it.each([
    ['jsonrpc missing', { method: 'chain_blockNumber', id: 5 }, 5, /"jsonrpc" is missing/],
    ['jsonrpc "1.0"', { jsonrpc: '1.0', method: 'chain_blockNumber', id: 5 }, 5, /exactly "2.0"/],
    ['jsonrpc 2.0 as a number', { jsonrpc: 2.0, method: 'chain_blockNumber', id: 'a' }, 'a', /exactly "2.0"/],
    ['method missing', { jsonrpc: '2.0', id: 5 }, 5, /"method" is missing/],
    ['method a number', { jsonrpc: '2.0', method: 7, id: 5 }, 5, /"method" must be a string/],
    ['params a string', { jsonrpc: '2.0', method: 'chain_blockNumber', params: 'x', id: 5 }, 5, /"params" must be an array or an object/],
    ['params null', { jsonrpc: '2.0', method: 'chain_blockNumber', params: null, id: 5 }, 5, /"params" must be an array or an object/],
    ['id an object (answered with id null)', { jsonrpc: '2.0', method: 'chain_blockNumber', id: {} }, null, /"id" must be a string, a number or null/],
    ['id a boolean (answered with id null)', { jsonrpc: '2.0', method: 'chain_blockNumber', id: true }, null, /"id" must be/],
    ['no id at all: still answered, not a notification', { jsonrpc: '1.0', method: 'chain_blockNumber' }, null, /exactly "2.0"/],
  ])('%s', async (_name, request, id, reason) => {
    const answer = await rpc(url, JSON.stringify(request));
    const error = errorOf(answer);
    expect(error.code).toBe(-32600);
    expect(error.message).toBe('Invalid Request');
    expect(member(answer, 'id')).toBe(id);
    expect(member(error.data, 'reason')).toMatch(reason);
  });

  it('an id too large to be a double (1e400) is refused, not echoed as something else', async () => {
    const answer = await rpc(url, '{"jsonrpc":"2.0","method":"chain_blockNumber","id":1e400}');
    expect(errorOf(answer).code).toBe(-32600);
    expect(member(answer, 'id')).toBeNull();
  });

  it('extra members are ignored (JSON-RPC 2.0 does not forbid them)', async () => {
    const answer = await rpc(url, '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1,"extra":{"x":1}}');
    expect(answer).toEqual({ jsonrpc: '2.0', id: 1, result: 42 });
  });
});

describe('methods and params', () => {
  it('a result: exactly jsonrpc, id, result', async () => {
    const answer = await post(url, call('chain_blockNumber', []));
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.body).toBe('{"jsonrpc":"2.0","id":1,"result":42}');
  });

  it('absent params count as []', async () => {
    expect(await rpc(url, '{"jsonrpc":"2.0","method":"chain_blockNumber","id":2}')).toEqual({ jsonrpc: '2.0', id: 2, result: 42 });
  });

  it('a valid address reaches the handler', async () => {
    expect(await rpc(url, call('chain_getAccount', [ADDRESS]))).toEqual({ jsonrpc: '2.0', id: 1, result: { balance: '1000000000000000000', nonce: 3 } });
  });

  it.each(['no_such_method', 'toString', '__proto__', 'constructor', 'hasOwnProperty', ''])('unknown method %j: -32601 with data.method', async (name) => {
    const answer = await rpc(url, call(name, []));
    const error = errorOf(answer);
    expect(error.code).toBe(-32601);
    expect(error.message).toBe('Method not found');
    expect(member(error.data, 'method')).toBe(name);
    expect(typeof member(error.data, 'reason')).toBe('string');
  });

  it.each([
    ['too many params', 'chain_blockNumber', [1], 'chain_blockNumber takes no params; got 1', [{ pointer: '', rule: 'maxItems', message: 'must have at most 0 item(s)' }]],
    ['too few params', 'chain_getAccount', [], 'chain_getAccount takes 1 param (address); got 0', [{ pointer: '', rule: 'minItems', message: 'must have at least 1 item(s)' }]],
    ['wrong type', 'chain_getAccount', [5], 'param 1 (address) must be a string', [{ pointer: '/0', rule: 'type', message: 'must be a string; got 5' }]],
    [
      '63-character address',
      'chain_getAccount',
      [ADDRESS.slice(1)],
      'param 1 (address) must be 64 hexadecimal characters without a 0x prefix',
      [{ pointer: '/0', rule: 'pattern', message: `must be 64 hexadecimal characters without a 0x prefix; got "${ADDRESS.slice(1, 41)}..." (63 chars)` }],
    ],
    ['negative height', 'chain_getBlockByHeight', [-1], 'param 1 (height) must be at least 0', [{ pointer: '/0', rule: 'minimum', message: 'must be at least 0; got -1' }]],
    ['fractional height', 'chain_getBlockByHeight', [1.5], 'param 1 (height) must be an integer', [{ pointer: '/0', rule: 'type', message: 'must be an integer; got 1.5' }]],
  ])('%s: -32602 with a sentence and data.errors', async (_name, method, params, reason, errors) => {
    const answer = await rpc(url, call(method, params));
    const error = errorOf(answer);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Invalid params');
    expect(error.data).toEqual({ reason, errors });
  });

  it('by-name (object) params: -32602, this interface is positional', async () => {
    const answer = await rpc(url, call('chain_getAccount', { address: ADDRESS }));
    const error = errorOf(answer);
    expect(error.code).toBe(-32602);
    expect(member(error.data, 'reason')).toBe('this interface takes positional params (an array)');
    expect(member(error.data, 'errors')).toEqual([{ pointer: '', rule: 'type', message: 'must be an array' }]);
  });

  it('methods without a schema get their params unchecked', async () => {
    expect(await rpc(url, call('test_echo', [1, 'a', null]))).toEqual({ jsonrpc: '2.0', id: 1, result: [1, 'a', null] });
  });

  it('RpcMethodError becomes the error object, data included or omitted', async () => {
    expect(await rpc(url, call('test_refuse', []))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32010, message: 'Mempool full', data: { reason: 'the queue is full', limit: 1 } },
    });
    expect((await post(url, call('test_refuseBare', [], 'b'))).body).toBe('{"jsonrpc":"2.0","id":"b","error":{"code":-32099,"message":"Bare"}}');
    const block = errorOf(await rpc(url, call('chain_getBlockByHeight', [99])));
    expect(block.code).toBe(-32001);
    expect(block.data).toEqual({ reason: 'no block at that height yet', height: 99, latest: 42 });
  });

  it.each(['test_crash', 'test_crashAsync', 'test_undefined'])('%s: -32603 without details, one log line, and the server still serves', async (method) => {
    const before = server.logged.length;
    const answer = await post(url, call(method, [], 9));
    expect(answer.status).toBe(200);
    const parsed = await rpc(url, call(method, [], 9));
    const error = errorOf(parsed);
    expect(error.code).toBe(-32603);
    expect(error.message).toBe('Internal error');
    expect(member(parsed, 'id')).toBe(9);
    expect(answer.body).not.toMatch(/secret|home|at /);
    expect(server.logged.length - before).toBe(2); // two calls, one line each
    expect(server.logged.at(-1)).toMatch(new RegExp(method));
    expect(server.logged.at(-1)).not.toMatch(/\n/);
    expect(await rpc(url, call('chain_blockNumber', []))).toEqual({ jsonrpc: '2.0', id: 1, result: 42 });
  });
});

describe('id echo (§5: same value and type)', () => {
  it.each([
    ['a string', '"abc"'],
    ['an empty string', '""'],
    ['a string that looks like a number', '"7"'],
    ['an integer', '7'],
    ['zero', '0'],
    ['a negative integer', '-12'],
    ['2^53 + 1', '9007199254740993'],
    ['2^64 + 1', '18446744073709551617'],
    ['a huge negative integer', '-123456789012345678901234567890'],
    ['a fraction', '1.5'],
    ['null', 'null'],
  ])('%s (%s)', async (_name, idText) => {
    const answer = await post(url, `{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":${idText}}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(`{"jsonrpc":"2.0","id":${idText},"result":42}`);
  });

  it('2^64 + 1 reads back as the exact bigint', async () => {
    const answer = await rpc(url, '{"jsonrpc":"2.0","method":"chain_blockNumber","id":18446744073709551617}');
    expect(member(answer, 'id')).toBe(2n ** 64n + 1n);
  });

  it('the id is echoed on errors too', async () => {
    const answer = await post(url, '{"jsonrpc":"2.0","method":"nope","id":18446744073709551617}');
    expect(answer.body.startsWith('{"jsonrpc":"2.0","id":18446744073709551617,"error":')).toBe(true);
  });
});

describe('notifications (§4.1)', () => {
  it('run the method and get 204 with an empty body', async () => {
    const before = server.log.recorded.length;
    const answer = await post(url, '{"jsonrpc":"2.0","method":"test_record","params":["note-1"]}');
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
    expect(server.log.recorded.slice(before)).toEqual(['note-1']);
    expect(server.log.contexts.at(-1)).toEqual({ remoteAddress: '127.0.0.1', isNotification: true });
  });

  it.each([
    ['an unknown method', '{"jsonrpc":"2.0","method":"nope"}'],
    ['bad params', '{"jsonrpc":"2.0","method":"chain_getAccount","params":[1]}'],
    ['object params', '{"jsonrpc":"2.0","method":"chain_getAccount","params":{}}'],
    ['a handler that throws', '{"jsonrpc":"2.0","method":"test_crash"}'],
    ['a refusal', '{"jsonrpc":"2.0","method":"test_refuse"}'],
  ])('get nothing back, not even an error: %s', async (_name, body) => {
    const answer = await post(url, body);
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
  });
});

describe('batches (§6)', () => {
  it('mixed: answered in request order, one per non-notification', async () => {
    const before = server.log.recorded.length;
    const body = `[
      {"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":"first"},
      {"jsonrpc":"1.0","method":"chain_blockNumber","id":2},
      {"jsonrpc":"2.0","method":"test_record","params":["in-batch"]},
      7,
      {"jsonrpc":"2.0","method":"nope","id":3},
      {"jsonrpc":"2.0","method":"chain_getAccount","params":[1],"id":4},
      {"jsonrpc":"2.0","method":"test_record","params":["in-batch-2"],"id":5}
    ]`;
    const answer = await rpc(url, body);
    expect(Array.isArray(answer)).toBe(true);
    const list = answer as JsonValue[];
    list.forEach(expectEnvelope);
    expect(list.map((r) => member(r, 'id'))).toEqual(['first', 2, null, 3, 4, 5]);
    expect(list.map((r) => member(member(r, 'error') ?? {}, 'code') ?? 'result')).toEqual(['result', -32600, -32600, -32601, -32602, 'result']);
    expect(server.log.recorded.slice(before)).toEqual(['in-batch', 'in-batch-2']);
  });

  it('a batch of one gets an array of one', async () => {
    expect(await rpc(url, `[${call('chain_blockNumber', [])}]`)).toEqual([{ jsonrpc: '2.0', id: 1, result: 42 }]);
  });

  it('a batch of notifications only gets 204 and an empty body, and every call ran', async () => {
    const before = server.log.recorded.length;
    const answer = await post(url, '[{"jsonrpc":"2.0","method":"test_record","params":["n1"]},{"jsonrpc":"2.0","method":"test_record","params":["n2"]}]');
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
    expect(server.log.recorded.slice(before)).toEqual(['n1', 'n2']);
  });

  it('over the limit: ONE -32013 error object, id null, and nothing runs', async () => {
    const before = server.log.recorded.length;
    const calls = Array.from({ length: 11 }, (_, i) => `{"jsonrpc":"2.0","method":"test_record","params":[${i}],"id":${i}}`);
    const answer = await rpc(url, `[${calls.join(',')}]`);
    expect(Array.isArray(answer)).toBe(false);
    expect(member(answer, 'id')).toBeNull();
    const error = errorOf(answer);
    expect(error.code).toBe(-32013);
    expect(error.message).toBe('Batch too large');
    expect(member(error.data, 'limit')).toBe(10);
    expect(member(error.data, 'size')).toBe(11);
    expect(typeof member(error.data, 'reason')).toBe('string');
    expect(server.log.recorded.length).toBe(before);
    // At the limit exactly, it runs.
    expect(await rpc(url, `[${calls.slice(0, 10).join(',')}]`)).toHaveLength(10);
  });

  it('elements run one after the other, in order', async () => {
    server.log.maxConcurrent = 0;
    const before = server.log.recorded.length;
    const calls = Array.from({ length: 10 }, (_, i) => `{"jsonrpc":"2.0","method":"test_record","params":["seq-${i}"]${i % 2 === 0 ? `,"id":${i}` : ''}}`);
    const answer = await rpc(url, `[${calls.join(',')}]`);
    expect((answer as JsonValue[]).map((r) => member(r, 'id'))).toEqual([0, 2, 4, 6, 8]);
    expect(server.log.recorded.slice(before)).toEqual(Array.from({ length: 10 }, (_, i) => `seq-${i}`));
    expect(server.log.maxConcurrent).toBe(1);
  });

  it('a nested array inside a batch is an invalid element', async () => {
    const answer = await rpc(url, `[[${call('chain_blockNumber', [])}]]`);
    expect((answer as JsonValue[]).map((r) => errorOf(r).code)).toEqual([-32600]);
  });
});

describe('onCall', () => {
  it('is called once per dispatched call, notifications included, with its outcome', async () => {
    const { methods } = createTestMethods();
    const calls: string[] = [];
    const body = `[
      ${call('chain_blockNumber', [])},
      {"jsonrpc":"2.0","method":"test_record","params":["x"]},
      ${call('test_refuse', [])},
      ${call('chain_getAccount', [1])},
      ${call('nope', [])},
      {"jsonrpc":"1.0","method":"chain_blockNumber","id":1}
    ]`;
    const answer = await handleRpcBody(body, methods, { maxBatch: 10, onCall: (m, outcome) => calls.push(`${m}:${outcome}`), logError: () => undefined });
    expect(answer).not.toBeNull();
    expect(calls).toEqual(['chain_blockNumber:result', 'test_record:result', 'test_refuse:error', 'chain_getAccount:error']);
  });

  it('a failing onCall hook does not change the answer', async () => {
    const { methods } = createTestMethods();
    const lines: string[] = [];
    const answer = await handleRpcBody(call('chain_blockNumber', []), methods, {
      maxBatch: 1,
      onCall: () => {
        throw new Error('meter broken');
      },
      logError: (line) => lines.push(line),
    });
    expect(answer).toBe('{"jsonrpc":"2.0","id":1,"result":42}');
    expect(lines).toHaveLength(1);
  });
});

describe('onSettled', () => {
  /** Each request object of a body as onSettled was told of it: `method code`, 'ok' for a result. */
  async function settledOf(body: string, maxBatch = 10): Promise<string[]> {
    const { methods } = createTestMethods();
    const told: string[] = [];
    await handleRpcBody(body, methods, {
      maxBatch,
      logError: () => undefined,
      onSettled: (method, code, seconds) => {
        expect(seconds).toBeGreaterThanOrEqual(0);
        expect(seconds).toBeLessThan(5);
        told.push(`${method ?? '-'} ${code ?? 'ok'}`);
      },
    });
    return told;
  }

  it('is told of every request object: results, errors, notifications, and requests of no method of the table (as null)', async () => {
    const body = `[
      ${call('chain_blockNumber', [])},
      {"jsonrpc":"2.0","method":"test_record","params":["x"]},
      ${call('test_refuse', [])},
      ${call('chain_getAccount', [1])},
      ${call('test_crashAsync', [])},
      ${call('test_undefined', [])},
      ${call('nope', [])},
      {"jsonrpc":"2.0","method":"nope"},
      {"jsonrpc":"1.0","method":"chain_blockNumber","id":1},
      7
    ]`;
    expect(await settledOf(body)).toEqual([
      'chain_blockNumber ok',
      'test_record ok',
      'test_refuse -32010',
      'chain_getAccount -32602',
      'test_crashAsync -32603',
      'test_undefined -32603',
      '- -32601',
      '- -32601',
      '- -32600',
      '- -32600',
    ]);
  });

  it('is told once of a body refused whole: not JSON, an empty batch, a batch over the limit', async () => {
    expect(await settledOf('{"jsonrpc":')).toEqual(['- -32700']);
    expect(await settledOf('[]')).toEqual(['- -32600']);
    expect(await settledOf(`[${call('chain_blockNumber', [])},${call('chain_blockNumber', [])}]`, 1)).toEqual(['- -32013']);
  });

  it('a result with no JSON form is told as the -32603 it is answered with', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const told: (number | null)[] = [];
    await handleRpcBody(call('bad', []), { bad: () => cyclic as JsonValue }, { maxBatch: 1, logError: () => undefined, onSettled: (_m, code) => told.push(code) });
    expect(told).toEqual([-32603]);
  });

  it("times each call of a batch from its own turn, an asynchronous handler's until it settles", async () => {
    const seconds = new Map<string, number>();
    const methods = {
      fast: () => 1,
      slow: () => new Promise<JsonValue>((resolve) => setTimeout(() => resolve(1), 50)),
    };
    await handleRpcBody(`[${call('slow', [])},${call('fast', [])}]`, methods, { maxBatch: 10, onSettled: (m, _c, s) => seconds.set(m ?? '-', s) });
    expect(seconds.get('slow')).toBeGreaterThanOrEqual(0.04);
    expect(seconds.get('fast')).toBeLessThan(0.04);
  });

  it('a failing onSettled hook does not change the answer, and onCall is still told', async () => {
    const { methods } = createTestMethods();
    const lines: string[] = [];
    const onCall: string[] = [];
    const answer = await handleRpcBody(call('chain_blockNumber', []), methods, {
      maxBatch: 1,
      onCall: (m) => onCall.push(m),
      onSettled: () => {
        throw new Error('metrics broken');
      },
      logError: (line) => lines.push(line),
    });
    expect(answer).toBe('{"jsonrpc":"2.0","id":1,"result":42}');
    expect(onCall).toEqual(['chain_blockNumber']);
    expect(lines).toEqual([expect.stringMatching(/^rpc: onSettled hook failed after chain_blockNumber: Error: metrics broken$/)]);
  });
});

describe('handleRpcBody without HTTP', () => {
  it('returns null for a notification and defaults remoteAddress to ""', async () => {
    const { methods, log } = createTestMethods();
    expect(await handleRpcBody('{"jsonrpc":"2.0","method":"test_record","params":[1]}', methods, { maxBatch: 1 })).toBeNull();
    expect(log.contexts[0]).toEqual({ remoteAddress: '', isNotification: true });
  });

  it('a result with no JSON form is a -32603, logged', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const lines: string[] = [];
    const answer = await handleRpcBody(call('bad', []), { bad: () => cyclic as JsonValue }, { maxBatch: 1, logError: (l) => lines.push(l) });
    expect(answer).toMatch(/^\{"jsonrpc":"2.0","id":1,"error":\{"code":-32603,/);
    expect(lines).toHaveLength(1);
  });

  it('answers synchronous handlers without a promise turn; a promise only when a handler returns one', async () => {
    const methods = { now: () => 1, later: () => Promise.resolve(2) };
    expect(handleRpcBody(call('now', []), methods, { maxBatch: 4 })).toBe('{"jsonrpc":"2.0","id":1,"result":1}');
    expect(handleRpcBody('{', methods, { maxBatch: 4 })).toMatch(/"code":-32700/);
    const pending = handleRpcBody(call('later', []), methods, { maxBatch: 4 });
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toBe('{"jsonrpc":"2.0","id":1,"result":2}');
  });

  it('a batch mixing synchronous and asynchronous handlers runs them one at a time, in request order', async () => {
    const events: string[] = [];
    const methods = {
      step: (params: JsonValue[]) => {
        events.push(`start ${JSON.stringify(params[0])}`);
        events.push(`end ${JSON.stringify(params[0])}`);
        return params[0] ?? null;
      },
      slowStep: async (params: JsonValue[]) => {
        events.push(`start ${JSON.stringify(params[0])}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(`end ${JSON.stringify(params[0])}`);
        return params[0] ?? null;
      },
      failLater: async () => {
        await Promise.resolve();
        throw new Error('boom');
      },
    };
    const batch = [call('step', [1], 1), call('slowStep', [2], 2), call('step', [3], 3), call('failLater', [], 4), call('slowStep', [5], 5)];
    const answer = await handleRpcBody(`[${batch.join(',')}]`, methods, { maxBatch: 10, logError: () => undefined });
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3', 'start 5', 'end 5']);
    const answers = JSON.parse(answer ?? 'null') as { id: number; result?: number; error?: { code: number } }[];
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4, 5]);
    expect(answers.map((a) => a.result ?? a.error?.code)).toEqual([1, 2, 3, -32603, 5]);
  });

  it('tells a handler that asks (prepare) of each of its calls in a batch, params as sent, before the first call runs', async () => {
    const events: string[] = [];
    const step = Object.assign(
      (params: JsonValue[]) => {
        events.push(`run ${JSON.stringify(params[0])}`);
        return params[0] ?? null;
      },
      {
        prepare: (params: JsonValue | undefined) => {
          events.push(`prepare ${JSON.stringify(params)}`);
          if (Array.isArray(params) && params[0] === 'boom') throw new Error('a hint that fails');
        },
      },
    );
    const methods = { step, other: () => 'o' };
    const batch = [call('step', [1], 1), call('other', [], 2), '{"jsonrpc":"2.0","method":"step","params":["boom"],"id":3}', '{"jsonrpc":"2.0","method":"step","id":4}', '7', call('step', [5], 5)];
    const answer = await handleRpcBody(`[${batch.join(',')}]`, methods, { maxBatch: 10, logError: () => undefined });
    expect(events).toEqual(['prepare [1]', 'prepare ["boom"]', 'prepare undefined', 'prepare [5]', 'run 1', 'run "boom"', 'run undefined', 'run 5']);
    // A throwing hint changes no answer: every call is answered at its turn.
    const answers = JSON.parse(answer ?? 'null') as { id: number | null; result?: JsonValue }[];
    expect(answers.map((a) => a.result ?? null)).toEqual([1, 'o', 'boom', null, null, 5]);
    // A single call is not a batch: nothing to look ahead of.
    events.length = 0;
    await handleRpcBody(call('step', [9], 9), methods, { maxBatch: 10, logError: () => undefined });
    expect(events).toEqual(['run 9']);
  });
});

describe('a batch whose answer grows past its size', () => {
  it('refuses, without running them, the calls that expect an answer once the answer is past the size; notifications still run', async () => {
    // An outside tester's batches of 1,000 full-block reads (134 MB answers from 84 KB) ran the node out of memory.
    const ran: string[] = [];
    const methods = {
      big: (params: JsonValue[]) => {
        ran.push(`big ${typeof params[0] === 'number' ? params[0] : '?'}`);
        return 'x'.repeat(100_000);
      },
      note: () => {
        ran.push('note');
        return null;
      },
    };
    const body = `[${[1, 2, 3, 4, 5].map((i) => `{"jsonrpc":"2.0","method":"big","params":[${i}],"id":${i}}`).join(',')},{"jsonrpc":"2.0","method":"note","params":[]},{"jsonrpc":"1.0","id":9}]`;
    const text = await handleRpcBody(body, methods, { maxBatch: 10, maxAnswerChars: 250_000 });
    const answers = JSON.parse(text ?? 'null') as { id: number | null; result?: string; error?: { code: number; message: string; data?: { limit?: number } } }[];
    // Three answers pass 250,000 characters: calls 4 and 5 are refused (-32013) and never run; the notification runs.
    expect(ran).toEqual(['big 1', 'big 2', 'big 3', 'note']);
    expect(answers.map((a) => [a.id, a.error?.code ?? 'result'])).toEqual([[1, 'result'], [2, 'result'], [3, 'result'], [4, -32013], [5, -32013], [9, -32600]]);
    expect(answers[3]?.error).toMatchObject({ message: 'Batch too large', data: { limit: 250_000 } });
    expect((text ?? '').length).toBeLessThan(350_000);
  });
});
