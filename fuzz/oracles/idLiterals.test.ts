import { describe, expect, it } from 'vitest';
import { exactKey, idLiterals, numberKey } from './idLiterals.js';

describe('idLiterals', () => {
  it('finds the id literal of a single object and of each batch element, strings and nesting skipped', () => {
    expect(idLiterals('{"result":{"id":1,"x":"\\"id\\":2"},"id" : 9e+22 }').top).toBe('9e+22');
    expect(idLiterals('{"id":"7"}').top).toBeUndefined();
    expect(idLiterals('[{"id":1.50},[{"id":3}],{"jsonrpc":"2.0","i\\u0064":-2E3},5]').elements).toEqual(['1.50', undefined, '-2E3']);
  });

  it('writes a number literal\'s exact value in one form', () => {
    expect(exactKey('9e+22')).toBe(exactKey('90000000000000000000000'));
    expect(exactKey('9.0E22')).toBe(exactKey('900000000000000000000e2'));
    expect(exactKey('1.5')).toBe(exactKey('15e-1'));
    expect(exactKey('0.0e5')).toBe('0');
    expect(exactKey('9007199254740993')).not.toBe(exactKey('9007199254740992'));
    expect(numberKey(9e22, () => '9e+22')).toBe(numberKey(90000000000000000000000n));
    expect(numberKey(9e22, () => '1')).toBeUndefined();
  });
});
