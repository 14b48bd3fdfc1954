import { describe, expect, it } from 'vitest';
import { encodeTransactionBody } from './encodeTransactionBody.js';
import { bytesToHex } from './hex.js';
import { TX_BODY_LENGTH, TX_FIELDS } from './layout.js';
import { signingMessage } from './signingMessage.js';
import { codeOf } from '../../test/support/codec.js';
import { U128_MAX, U64_MAX } from './u128.js';
import type { UnsignedTransaction } from './types.js';

const tx: UnsignedTransaction = {
  chainId: 0x0102030405060708n,
  sender: '11'.repeat(32),
  to: '22'.repeat(32),
  value: (0x0aaan << 64n) | 0x0bbbn,
  nonce: 7n,
  fee: 10n ** 15n,
};

describe('encodeTransactionBody', () => {
  it('lays out the fields as documented: big-endian, fixed offsets, 113 bytes', () => {
    const expected =
      '01' + // version
      '0102030405060708' + // chain_id u64
      '11'.repeat(32) + // sender
      '22'.repeat(32) + // to
      '0000000000000aaa' + '0000000000000bbb' + // value u128
      '0000000000000007' + // nonce u64
      '00000000000000000003' + '8d7ea4c68000'; // fee u128 = 10^15
    expect(bytesToHex(encodeTransactionBody(tx))).toBe(expected);
    expect(expected.length / 2).toBe(TX_BODY_LENGTH);
  });

  it('has a field table that tiles the body without gaps', () => {
    let next = 0;
    for (const { offset, size } of Object.values(TX_FIELDS)) {
      expect(offset).toBe(next);
      next = offset + size;
    }
    expect(next).toBe(TX_BODY_LENGTH);
  });

  it('prefixes the signing message with "chainrpc/tx/v1" and 0x00', () => {
    const message = signingMessage(tx);
    expect(Buffer.from(message.subarray(0, 15)).toString('latin1')).toBe('chainrpc/tx/v1\0');
    expect(message.subarray(15)).toEqual(encodeTransactionBody(tx));
    expect(message).toHaveLength(128);
  });

  it('accepts upper-case addresses and encodes them identically', () => {
    expect(encodeTransactionBody({ ...tx, to: 'AB'.repeat(32) })).toEqual(encodeTransactionBody({ ...tx, to: 'ab'.repeat(32) }));
  });

  it('accepts the maxima', () => {
    expect(() => encodeTransactionBody({ ...tx, chainId: U64_MAX, nonce: U64_MAX, value: U128_MAX - 5n, fee: 5n })).not.toThrow();
  });

  it.each([
    ['chainId above u64', { chainId: U64_MAX + 1n }, 'U64_RANGE'],
    ['negative nonce', { nonce: -1n }, 'U64_RANGE'],
    ['nonce above u64', { nonce: U64_MAX + 1n }, 'U64_RANGE'],
    ['value above u128', { value: U128_MAX + 1n, fee: 0n }, 'U128_RANGE'],
    ['negative fee', { fee: -1n }, 'U128_RANGE'],
    ['value + fee above u128', { value: U128_MAX, fee: 1n }, 'AMOUNT_OVERFLOW'],
    ['a number instead of a bigint', { nonce: 1 }, 'INPUT_TYPE'],
    ['a decimal string instead of a bigint', { value: '1' }, 'INPUT_TYPE'],
    ['a 0x-prefixed address', { to: '0x' + '22'.repeat(31) }, 'HEX_PREFIX'],
    ['a short address', { to: '22'.repeat(31) }, 'WRONG_LENGTH'],
    ['a non-hex sender', { sender: 'zz'.repeat(32) }, 'HEX_INVALID_CHAR'],
  ])('rejects %s', (_name, change, code) => {
    // Cast: these cases deliberately break the static types to test the run-time checks.
    const bad = { ...tx, ...change } as unknown as UnsignedTransaction;
    expect(codeOf(() => encodeTransactionBody(bad))).toBe(code);
  });

  it('rejects a non-object with CodecError', () => {
    expect(codeOf(() => encodeTransactionBody(null as unknown as UnsignedTransaction))).toBe('INPUT_TYPE');
  });

  it('says how to fix an overflow', () => {
    expect(() => encodeTransactionBody({ ...tx, value: U128_MAX, fee: 1n })).toThrow(/exceeds the u128 maximum .*; lower the value or the fee/);
  });
});
