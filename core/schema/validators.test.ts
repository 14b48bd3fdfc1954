import { describe, expect, it } from 'vitest';
import { parseJson } from '../json/index.js';
import { METHOD_NAMES } from './types.generated.js';
import { formatProblems, validators, validatorsFor } from './validators.js';
import type { Validation } from './validators.js';

const v = validators();
const ADDRESS = '6488585c505befe4e4f4724815d3e6d0f4516e65f4dc171e3df8d69ff77e577e';
const U128_MAX = '340282366920938463463374607431768211455';
const U128_OVER = '340282366920938463463374607431768211456'; // 2^128

const problemsOf = (r: Validation) => (r.ok ? [] : r.problems);

describe('method schemas', () => {
  it('cover exactly the methods the generated types name', () => {
    expect([...v.methods.keys()].sort()).toEqual([...METHOD_NAMES].sort());
    for (const m of ['chain_health', 'chain_blockNumber', 'chain_getBlockByHeight', 'chain_getAccount', 'chain_sendRawTransaction', 'chain_faucetClaim', 'chain_pouLocal', 'chain_pouPeers', 'net_peerCount']) {
      expect(v.methods.has(m), m).toBe(true);
    }
  });

  for (const name of METHOD_NAMES) {
    describe(name, () => {
      const schema = v.method(name);
      it('has a description and at least one example with a result', () => {
        expect(schema?.description.length).toBeGreaterThan(20);
        expect(schema?.['x-examples'].some((e) => e.result !== undefined)).toBe(true);
      });
      for (const ex of schema?.['x-examples'] ?? []) {
        it(`example "${ex.name}" agrees with the schemas`, () => {
          if (ex.error === undefined) {
            expect(problemsOf(v.params(name, ex.params))).toEqual([]);
            expect(problemsOf(v.result(name, ex.result, 'profile'))).toEqual([]);
            expect(problemsOf(v.result(name, ex.result, 'spec'))).toEqual([]);
          } else {
            expect(problemsOf(v.error(name, ex.error))).toEqual([]);
            // An InvalidParams example shows params that really are invalid; any other error
            // example shows well-formed params the node refused for another reason.
            expect(v.params(name, ex.params).ok).toBe(ex.error.code !== -32602);
          }
        });
      }
    });
  }
});

describe('deliberately wrong values fail, with the pointer and the rule in plain words', () => {
  it('a balance as a JSON number', () => {
    for (const level of ['profile', 'spec'] as const) {
      const r = v.result('chain_getAccount', { balance: 1000, nonce: 0 }, level);
      expect(r.ok).toBe(false);
      expect(problemsOf(r)[0]).toMatchObject({ pointer: '/balance', rule: 'type', message: 'must be a string; got 1000' });
    }
  });

  it('a 63-character address', () => {
    const r = v.params('chain_getAccount', [ADDRESS.slice(1)]);
    expect(problemsOf(r)).toEqual([
      { pointer: '/0', rule: 'pattern', message: expect.stringContaining('must be 64 hexadecimal characters without a 0x prefix') as string },
    ]);
    expect(formatProblems(problemsOf(r))).toMatch(/^\/0 must be 64 hexadecimal characters/);
  });

  it('a 0x-prefixed address, a missing param, an extra param', () => {
    expect(v.params('chain_getAccount', ['0x' + ADDRESS.slice(2)]).ok).toBe(false);
    expect(problemsOf(v.params('chain_getAccount', []))[0]).toMatchObject({ pointer: '', rule: 'minItems' });
    expect(problemsOf(v.params('chain_getAccount', [ADDRESS, 1]))[0]).toMatchObject({ rule: 'maxItems' });
    expect(problemsOf(v.params('chain_blockNumber', [1]))[0]).toMatchObject({ rule: 'maxItems', message: 'must have at most 0 item(s)' });
  });

  it('2^128 as a balance, while 2^128-1 passes', () => {
    expect(v.result('chain_getAccount', { balance: U128_MAX, nonce: 0 }).ok).toBe(true);
    const over = v.result('chain_getAccount', { balance: U128_OVER, nonce: 0 });
    expect(problemsOf(over)[0]).toMatchObject({ pointer: '/balance', rule: 'format' });
    expect(v.result('chain_getAccount', { balance: U128_OVER, nonce: 0 }, 'spec').ok).toBe(false);
    expect(v.result('chain_getAccount', { balance: '9'.repeat(40), nonce: 0 }, 'spec').ok).toBe(false);
  });

  it('leading zeros: refused by the profile, tolerated at spec level', () => {
    expect(problemsOf(v.result('chain_getAccount', { balance: '007', nonce: 0 }))[0]).toMatchObject({ rule: 'pattern' });
    expect(v.result('chain_getAccount', { balance: '007', nonce: 0 }, 'spec').ok).toBe(true);
    expect(v.result('chain_getAccount', { balance: '0', nonce: 0 }).ok).toBe(true);
    for (const bad of ['', '-1', '+1', ' 1', '1.0', '1e3', '0x10']) {
      expect(v.result('chain_getAccount', { balance: bad, nonce: 0 }).ok, bad).toBe(false);
    }
  });

  it('u64 bounds are exact, also beyond 2^53 (values the lossless parser gives as bigint)', () => {
    expect(v.params('chain_getBlockByHeight', [18446744073709551615n]).ok).toBe(true);
    expect(problemsOf(v.params('chain_getBlockByHeight', [18446744073709551616n]))[0]).toMatchObject({
      pointer: '/0',
      rule: 'maximum',
      message: 'must be at most 18446744073709551615; got 18446744073709551616',
    });
    // 2^64 written as a float literal is still above u64 max, although JSON.parse rounds the bound to it.
    expect(v.params('chain_getBlockByHeight', [18446744073709551616]).ok).toBe(false);
    expect(problemsOf(v.params('chain_getBlockByHeight', [-1]))[0]).toMatchObject({ rule: 'minimum' });
    expect(problemsOf(v.params('chain_getBlockByHeight', [1.5]))[0]).toMatchObject({ rule: 'type', message: 'must be an integer; got 1.5' });
    expect(v.params('chain_getBlockByHeight', ['1']).ok).toBe(false);
    expect(v.params('chain_getBlockByHeight', [parseJson('[9007199254740993]')].flat()).ok).toBe(true);
  });

  it('says the size of a huge integer instead of writing it out (40 digits at most)', () => {
    const message = (value: bigint): string | undefined => problemsOf(v.params('chain_getBlockByHeight', [value]))[0]?.message;
    expect(message(10n ** 40n - 1n)).toBe(`must be at most 18446744073709551615; got ${10n ** 40n - 1n}`);
    expect(message(10n ** 40n)).toBe('must be at most 18446744073709551615; got an integer of about 41 digits');
    expect(message(7n * 10n ** 48_163n)).toBe('must be at most 18446744073709551615; got an integer of about 48,164 digits');
    expect(message(-(10n ** 50n) - 5n)).toBe('must be at least 0; got a negative integer of about 51 digits');
  });

  it('upper-case hex is accepted as input, but profile results are lower case', () => {
    expect(v.params('chain_getAccount', [ADDRESS.toUpperCase()]).ok).toBe(true);
    const block = { height: 1, hash: ADDRESS.toUpperCase(), parent_hash: ADDRESS, timestamp: 1, proposer: ADDRESS, transaction_count: 0, transactions: [] };
    expect(problemsOf(v.result('chain_getBlockByHeight', block))[0]).toMatchObject({ pointer: '/hash', rule: 'pattern' });
    expect(v.result('chain_getBlockByHeight', block, 'spec').ok).toBe(true);
  });

  it('error objects must carry the code the contract names', () => {
    expect(v.error('chain_getAccount', { code: -32602, message: 'Invalid params', data: { reason: 'x', errors: [] } }).ok).toBe(true);
    expect(v.error('chain_getAccount', { code: -32005, message: 'Nonce too low', data: { reason: 'x', expected: 1, actual: 0 } }).ok).toBe(false);
    expect(v.error('chain_sendRawTransaction', { code: -32005, message: 'Nonce too low', data: { reason: 'x', expected: 1, actual: 0 } }).ok).toBe(true);
    expect(v.error('chain_sendRawTransaction', { code: -32005, message: 'Nonce too low' }).ok).toBe(false);
  });

  it('pou peers: identifiers are 64-hex in the profile, any 16+ character string at spec level', () => {
    expect(v.result('chain_pouPeers', { peers: { [ADDRESS]: 3 } }).ok).toBe(true);
    expect(v.result('chain_pouPeers', { peers: { 'node-one-abcdefgh': 3 } }).ok).toBe(false);
    expect(v.result('chain_pouPeers', { peers: { 'node-one-abcdefgh': 3.5 } }, 'spec').ok).toBe(true);
    expect(v.result('chain_pouPeers', { peers: { short: 3 } }, 'spec').ok).toBe(false);
    expect(v.result('chain_pouPeers', { peers: { [ADDRESS]: '3' } }, 'spec').ok).toBe(false);
  });
});

describe('JSON-RPC 2.0 envelope', () => {
  it('accepts every id form JSON-RPC allows and refuses the rest', () => {
    for (const id of [1, 'a', null, 1.5, 18446744073709551617n]) {
      expect(v.request({ jsonrpc: '2.0', method: 'chain_health', params: [], id }).ok, String(id)).toBe(true);
    }
    expect(v.request({ jsonrpc: '2.0', method: 'chain_health' }).ok).toBe(true); // a notification
    expect(v.request({ jsonrpc: '2.0', method: 'chain_health', id: {} }).ok).toBe(false);
    expect(v.request({ jsonrpc: '1.0', method: 'chain_health', id: 1 }).ok).toBe(false);
    expect(v.request({ jsonrpc: '2.0', method: 1, id: 1 }).ok).toBe(false);
    expect(v.request({ jsonrpc: '2.0', method: 'x', params: 'a', id: 1 }).ok).toBe(false);
  });

  it('a response carries exactly one of result and error', () => {
    expect(v.response({ jsonrpc: '2.0', id: 1, result: 5 }).ok).toBe(true);
    expect(v.response({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }).ok).toBe(true);
    expect(v.response({ jsonrpc: '2.0', id: 1, result: 5, error: { code: 1, message: 'x' } }).ok).toBe(false);
    expect(v.response({ jsonrpc: '2.0', id: 1 }).ok).toBe(false);
    expect(v.response({ jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } }).ok).toBe(false);
  });
});

describe('problems at a value with alternatives (anyOf, oneOf)', () => {
  const problems = (method: string, value: unknown, level: 'spec' | 'profile'): string[] => {
    const r = v.result(method, value, level);
    return r.ok ? [] : r.problems.map((p) => `${p.pointer} ${p.message}`);
  };

  it('names the problem of the alternative the value was meant for, not the others ("must be null")', () => {
    expect(problems('chain_pouLocal', { local_score: 3, leader: 'ABC', local_is_leader: false }, 'profile')).toEqual(['/leader must be 64 lower-case hexadecimal characters; got "ABC"']);
    expect(problems('chain_blockNumber', 'five', 'spec')).toEqual([' must be an unsigned 64-bit integer (a JSON integer, or a hex quantity 0x... of at most 16 significant digits); got "five"']);
    expect(problems('chain_getBlockByHeight', { transaction_count: -1, proposer: 'ab'.repeat(32) }, 'spec')).toEqual(['/transaction_count must be at least 0; got -1']);
  });

  it('says once which types would do when the value has none of them', () => {
    expect(problems('chain_pouLocal', { local_score: 3, leader: 12345, local_is_leader: false }, 'profile')).toEqual(['/leader must be a string or null; got 12345']);
  });

  it('keeps every problem of a value without alternatives', () => {
    expect(problems('chain_getBlockByHeight', { transaction_count: 1.5, proposer: 'x' }, 'spec')).toHaveLength(2);
  });

  describe('an object that fails every alternative: only those of the alternative its keys point to', () => {
    // Alternatives behind $refs and inline, nested, told apart by a const key, by the keys they require.
    const doc = {
      $id: 'https://chainrpc.dev/schemas/test/alternatives.schema.json',
      type: 'object',
      properties: {
        arrivals: {
          oneOf: [
            { type: 'object', additionalProperties: false, required: ['model', 'rate'], properties: { model: { const: 'open' }, rate: { type: 'number', maximum: 100 } } },
            { type: 'object', additionalProperties: false, required: ['model', 'stages'], properties: { model: { const: 'open' }, stages: { type: 'array', items: { $ref: '#/definitions/Stage' } } } },
            { type: 'object', additionalProperties: false, required: ['model', 'connections'], properties: { model: { const: 'closed' }, connections: { type: 'integer' } } },
          ],
        },
        mix: { type: 'array', items: { $ref: '#/definitions/Entry' } },
      },
      definitions: {
        Call: { type: 'object', additionalProperties: false, required: ['method'], properties: { method: { type: 'string' }, weight: { type: 'number' } } },
        Entry: { oneOf: [{ $ref: '#/definitions/Call' }, { type: 'object', additionalProperties: false, required: ['batch'], properties: { weight: { type: 'number' }, batch: { type: 'object' } } }] },
        Stage: { oneOf: [{ type: 'object', additionalProperties: false, required: ['rate'], properties: { rate: { type: 'number' } } }, { type: 'object', additionalProperties: false, required: ['from', 'to'], properties: { from: { type: 'number' }, to: { type: 'number' } } }] },
      },
    };
    const check = (value: unknown): string[] => {
      const r = validatorsFor([doc]).validate(doc.$id, value);
      return r.ok ? [] : r.problems.map((p) => `${p.pointer} ${p.message}`);
    };

    it.each([
      // A misspelt key of a call: not, besides, "/mix/0/batch is missing" from the batch alternative.
      [{ mix: [{ method: 'm', wieght: 2 }] }, ['/mix/0/wieght is not allowed here (unexpected field "wieght")']],
      // A bound broken: not "stages is missing", "connections is missing", "model must be closed".
      [{ arrivals: { model: 'open', rate: 200 } }, ['/arrivals/rate must be at most 100; got 200']],
      // The key that names an alternative ("closed") decides it.
      [{ arrivals: { model: 'closed', rate: 5 } }, ['/arrivals/rate is not allowed here (unexpected field "rate")', '/arrivals/connections is missing (required field "connections")']],
      // A misspelt key is said before the key it was meant to be.
      [{ arrivals: { model: 'open', rat: 5 } }, ['/arrivals/rat is not allowed here (unexpected field "rat")', '/arrivals/rate is missing (required field "rate")']],
      // Nested: the stages alternative, then the stage's own.
      [{ arrivals: { model: 'open', stages: [{ rate: 5, to: 3 }] } }, ['/arrivals/stages/0/to is not allowed here (unexpected field "to")']],
      // Of no alternative's type: one line.
      [{ arrivals: 5 }, ['/arrivals must be an object; got 5']],
    ])('%j', (value, expected) => {
      expect(check(value)).toEqual(expected);
    });
  });
});
