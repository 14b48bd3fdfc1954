import { describe, expect, it } from 'vitest';
import { RpcMethodError } from './RpcMethodError.js';

describe('RpcMethodError', () => {
  it('carries code, message and data; data stays absent when not given', () => {
    const withData = new RpcMethodError(-32001, 'Block not found', { reason: 'r', height: 5 });
    expect([withData.code, withData.message, withData.data]).toEqual([-32001, 'Block not found', { reason: 'r', height: 5 }]);
    expect(withData).toBeInstanceOf(Error);
    expect('data' in new RpcMethodError(-32099, 'x')).toBe(false);
  });

  it.each([1.5, Number.NaN, Infinity])('refuses a non-integer code (%s): §5.1 says it MUST be an integer', (code) => {
    expect(() => new RpcMethodError(code, 'x')).toThrow(TypeError);
  });
});
