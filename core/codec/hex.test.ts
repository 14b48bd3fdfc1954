import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../test/support/codec.js';
import { bytesToHex, hexToBytes, hexToFixedBytes } from './hex.js';

describe('hex policy', () => {
  it('accepts lower and upper case, always writes lower case', () => {
    expect(hexToBytes('00ffAbcD')).toEqual(new Uint8Array([0x00, 0xff, 0xab, 0xcd]));
    expect(bytesToHex(new Uint8Array([0xab, 0xcd]))).toBe('abcd');
  });

  it('rejects a 0x/0X prefix, telling to remove it', () => {
    expect(() => hexToBytes('0xabcd', 'to address')).toThrow(/to address starts with "0x"; remove the prefix/);
    expect(codeOf(() => hexToBytes('0Xabcd'))).toBe('HEX_PREFIX');
  });

  it('rejects empty, odd length, non-hex characters and non-strings with specific codes', () => {
    expect(codeOf(() => hexToBytes(''))).toBe('EMPTY_INPUT');
    expect(() => hexToBytes('abc', 'transaction hex')).toThrow('transaction hex has 3 characters; an odd length cannot be bytes');
    expect(codeOf(() => hexToBytes('abc'))).toBe('HEX_ODD_LENGTH');
    expect(() => hexToBytes('00g0')).toThrow(/non-hex character "g" at index 2/);
    expect(codeOf(() => hexToBytes('0 '))).toBe('HEX_INVALID_CHAR');
    expect(codeOf(() => hexToBytes('é0'))).toBe('HEX_INVALID_CHAR');
    expect(codeOf(() => hexToBytes(12))).toBe('INPUT_TYPE');
    expect(codeOf(() => hexToBytes(null))).toBe('INPUT_TYPE');
  });

  it('checks exact lengths with both counts in the message', () => {
    expect(() => hexToFixedBytes('ab'.repeat(31), 32, 'to')).toThrow('to has 62 hex characters (31 bytes); expected exactly 64 (32 bytes)');
    expect(codeOf(() => hexToFixedBytes('ab'.repeat(33), 32, 'to'))).toBe('WRONG_LENGTH');
  });

  it('round-trips any bytes, in either case', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (bytes) => {
        const hex = bytesToHex(bytes);
        expect(hex).toMatch(/^[0-9a-f]*$/);
        expect(hexToBytes(hex)).toEqual(bytes);
        expect(hexToBytes(hex.toUpperCase())).toEqual(bytes);
      }),
    );
  });

  it('throws nothing but CodecError on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        codeOf(() => hexToBytes(text)); // rethrows anything that is not a CodecError
      }),
    );
  });
});
