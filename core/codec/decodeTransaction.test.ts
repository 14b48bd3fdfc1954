import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTransaction } from './decodeTransaction.js';
import { bytesToHex, hexToBytes } from './hex.js';
import { keypairFromSeed } from './keys.js';
import { TX_FIELDS, TX_WIRE_LENGTH } from './layout.js';
import { signTransaction } from './signTransaction.js';
import { assertCodecError, codeOf, privateKeyArb, txRequestArb } from '../../test/support/codec.js';
import { U128_MAX } from './u128.js';
import { verifyTransaction } from './verifyTransaction.js';

const alice = keypairFromSeed('alice');
const signed = signTransaction({ chainId: 1n, to: keypairFromSeed('bob').address, value: 10n, nonce: 3n, fee: 2n }, alice.privateKey);

describe('decodeTransaction: bad input, each with its own code', () => {
  const wire = hexToBytes(signed.wire);
  const withByte = (offset: number, value: number): string => {
    const copy = wire.slice();
    copy[offset] = value;
    return bytesToHex(copy);
  };

  it.each([
    ['empty string', '', 'EMPTY_INPUT'],
    ['odd length', signed.wire.slice(1), 'HEX_ODD_LENGTH'],
    ['non-hex character', `${signed.wire.slice(0, 100)}zz${signed.wire.slice(102)}`, 'HEX_INVALID_CHAR'],
    ['0x prefix', `0x${signed.wire}`, 'HEX_PREFIX'],
    ['176 bytes', signed.wire.slice(0, 352), 'WRONG_LENGTH'],
    ['178 bytes', `${signed.wire}00`, 'WRONG_LENGTH'],
    ['version 2', withByte(0, 2), 'UNSUPPORTED_VERSION'],
    ['version 0', withByte(0, 0), 'UNSUPPORTED_VERSION'],
  ])('%s', (_name, hex, code) => {
    expect(codeOf(() => decodeTransaction(hex))).toBe(code);
  });

  it('rejects value + fee > u128 max', () => {
    const copy = wire.slice();
    copy.fill(0xff, TX_FIELDS.value.offset, TX_FIELDS.value.offset + 16); // value = U128_MAX, fee stays 2
    expect(codeOf(() => decodeTransaction(bytesToHex(copy)))).toBe('AMOUNT_OVERFLOW');
  });

  it('rejects non-strings with CodecError', () => {
    expect(codeOf(() => decodeTransaction(42 as unknown as string))).toBe('INPUT_TYPE');
    expect(codeOf(() => decodeTransaction(undefined as unknown as string))).toBe('INPUT_TYPE');
  });

  it('names the actual and expected sizes', () => {
    expect(() => decodeTransaction(signed.wire.slice(0, 352))).toThrow(
      'transaction is 176 bytes (352 hex characters); a version-1 signed transaction is exactly 177 bytes (354 hex characters)',
    );
    expect(() => decodeTransaction(signed.wire.slice(1))).toThrow('transaction hex has 353 characters; an odd length cannot be bytes');
  });
});

describe('decodeTransaction: properties', () => {
  it('accepts upper case and returns lower case', () => {
    expect(decodeTransaction(signed.wire.toUpperCase())).toEqual(signed);
  });

  it('reads value and fee at the u128 limit', () => {
    const max = signTransaction({ chainId: 9n, to: alice.address, value: U128_MAX - 1n, nonce: 0n, fee: 1n }, alice.privateKey);
    expect(decodeTransaction(max.wire)).toMatchObject({ value: U128_MAX - 1n, fee: 1n });
  });

  it('never lets a single changed byte verify', () => {
    fc.assert(
      fc.property(
        privateKeyArb,
        txRequestArb,
        fc.integer({ min: 0, max: TX_WIRE_LENGTH - 1 }),
        fc.integer({ min: 1, max: 255 }),
        (priv, req, offset, delta) => {
          const bytes = hexToBytes(signTransaction(req, priv).wire);
          bytes[offset] = ((bytes[offset] ?? 0) + delta) & 0xff;
          let decoded;
          try {
            decoded = decodeTransaction(bytesToHex(bytes)); // a changed version byte or amount may fail here
          } catch (error) {
            assertCodecError(error);
            return;
          }
          expect(verifyTransaction(decoded).ok).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('throws nothing but CodecError on garbage strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 400 }), fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFx'), maxLength: 400 })), (text) => {
        codeOf(() => decodeTransaction(text));
      }),
      { numRuns: 500 },
    );
  });

  it('decodes or rejects random 177-byte strings, and never verifies them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: TX_WIRE_LENGTH, maxLength: TX_WIRE_LENGTH }), (bytes) => {
        bytes[0] = 1;
        let decoded;
        try {
          decoded = decodeTransaction(bytesToHex(bytes)); // fails only on value + fee overflow
        } catch (error) {
          assertCodecError(error);
          return;
        }
        expect(verifyTransaction(decoded).ok).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
