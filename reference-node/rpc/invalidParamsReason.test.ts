import { describe, expect, it } from 'vitest';
import { validators } from '../../core/schema/validators.js';
import type { JsonValue } from '../../core/json/index.js';
import { invalidParamsReason } from './invalidParamsReason.js';

const reasonFor = (method: string, params: JsonValue[]): string => {
  const v = validators();
  const schema = v.method(method);
  const result = v.params(method, params);
  if (!schema || result.ok) throw new Error('expected a failure');
  return invalidParamsReason(schema, params.length, result.problems);
};

describe('invalidParamsReason', () => {
  it('names the param from x-params, counted from 1, without the echoed value', () => {
    expect(reasonFor('chain_getAccount', [`0x${'a'.repeat(62)}`])).toBe('param 1 (address) must be 64 hexadecimal characters without a 0x prefix');
  });

  it('says how many params the method takes', () => {
    expect(reasonFor('chain_health', ['x'])).toBe('chain_health takes no params; got 1');
    expect(reasonFor('chain_getBlockByHeight', [])).toBe('chain_getBlockByHeight takes 1 param (height); got 0');
  });

  it('lists every problem', () => {
    expect(reasonFor('chain_getAccount', [1, 2])).toBe('chain_getAccount takes 1 param (address); got 2; param 1 (address) must be a string');
  });

  it('an empty problem list still gives a sentence', () => {
    const schema = validators().method('chain_health');
    if (!schema) throw new Error('no schema');
    expect(invalidParamsReason(schema, 0, [])).toBe('the params do not match the method schema');
  });
});
