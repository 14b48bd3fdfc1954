import { describe, expect, it } from 'vitest';
import { baseUrlOf, isUnreachable, saysUnreachable, unreachableMessage } from './baseUrl.js';
import { TransportError } from './TransportError.js';

describe('baseUrlOf: one rule for a base URL', () => {
  it.each([
    // [given, rpcPath, base, cut]
    ['http://h:8545', '/rpc', 'http://h:8545', false],
    ['http://h:8545/', '/rpc', 'http://h:8545', false],
    ['http://h:8545/rpc', '/rpc', 'http://h:8545', true],
    ['http://h:8545/rpc/', '/rpc', 'http://h:8545', true],
    ['http://h:8545/api/rpc', '/rpc', 'http://h:8545/api', true],
    // An endpoint at …/rpc/rpc is given whole: one /rpc is cut, the endpoint is the URL as given.
    ['http://h:8545/rpc/rpc', '/rpc', 'http://h:8545/rpc', true],
    ['http://h:8545/myrpc', '/rpc', 'http://h:8545/myrpc', false],
    // A host that ends alike is not a path.
    ['http://rpc', '/rpc', 'http://rpc', false],
    ['http://h:8545/v1/jsonrpc', '/v1/jsonrpc', 'http://h:8545', true],
    ['http://h:8545/v1/jsonrpc', '/rpc', 'http://h:8545/v1/jsonrpc', false],
    ['http://h:8545/rpc', '/rpc/', 'http://h:8545', true],
    // rpcPath / is the base URL itself: nothing is cut, the URL as given is the endpoint.
    ['http://h:8545/rpc', '/', 'http://h:8545/rpc', false],
    ['http://h:8545/rpc/', '/', 'http://h:8545/rpc', false],
  ])('%s under %s is %s', (given, rpcPath, base, cut) => {
    const r = baseUrlOf(given, rpcPath);
    expect(r.base).toBe(base);
    expect(r.note === undefined).toBe(!cut);
  });

  it('says what it did in one line, naming the option', () => {
    expect(baseUrlOf('http://127.0.0.1:18545/rpc').note).toBe('--url http://127.0.0.1:18545/rpc ends in the endpoint path /rpc: using base URL http://127.0.0.1:18545');
    expect(baseUrlOf('http://127.0.0.1:18545/rpc', '/rpc', '--node').note).toBe('--node http://127.0.0.1:18545/rpc ends in the endpoint path /rpc: using base URL http://127.0.0.1:18545');
  });
});

describe('a node that answered nothing', () => {
  const failure = (code: 'REFUSED' | 'TIMEOUT' | 'HTTP_STATUS', answered: boolean): TransportError =>
    new TransportError({
      code,
      message: 'x',
      details: '',
      request: { httpMethod: 'POST', url: 'http://h/rpc', headers: {}, body: '' },
      response: answered ? ({ status: 502, headers: {}, contentType: undefined, excerpt: '', bodyBytes: 0, truncated: false } as const) : undefined,
    });

  it('is refused, or timed out before any answer; an HTTP answer of any kind is an answer', () => {
    expect(isUnreachable(failure('REFUSED', false))).toBe(true);
    expect(isUnreachable(failure('TIMEOUT', false))).toBe(true);
    expect(isUnreachable(failure('TIMEOUT', true))).toBe(false);
    expect(isUnreachable(failure('HTTP_STATUS', true))).toBe(false);
    expect(isUnreachable(new Error('ECONNREFUSED'))).toBe(false);
  });

  it('is asked about in the same words by every command, and those words are recognised', () => {
    const message = unreachableMessage('http://127.0.0.1:9', 'Could not reach http://127.0.0.1:9/rpc (ECONNREFUSED)');
    expect(message).toBe('nothing answered at http://127.0.0.1:9 (Could not reach http://127.0.0.1:9/rpc (ECONNREFUSED)): is the node running at http://127.0.0.1:9?');
    expect(saysUnreachable(message, 'http://127.0.0.1:9')).toBe(true);
    expect(saysUnreachable(message, 'http://127.0.0.1:10')).toBe(false);
  });
});
