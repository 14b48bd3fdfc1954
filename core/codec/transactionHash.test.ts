import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hexToBytes } from './hex.js';
import { keypairFromSeed } from './keys.js';
import { signTransaction } from './signTransaction.js';
import { codeOf } from '../../test/support/codec.js';
import { transactionHash } from './transactionHash.js';

const tx = signTransaction({ chainId: 1n, to: '00'.repeat(32), value: 1n, nonce: 0n, fee: 0n }, keypairFromSeed('alice').privateKey);

describe('transactionHash', () => {
  it('is SHA-256 of the 177 wire bytes, from hex or bytes, in lower case', () => {
    const expected = createHash('sha256').update(Buffer.from(tx.wire, 'hex')).digest('hex');
    expect(transactionHash(tx.wire)).toBe(expected);
    expect(transactionHash(tx.wire.toUpperCase())).toBe(expected);
    expect(transactionHash(hexToBytes(tx.wire))).toBe(expected);
    expect(tx.hash).toBe(expected);
  });

  it('rejects anything that is not a whole transaction', () => {
    expect(codeOf(() => transactionHash(tx.wire.slice(0, 226)))).toBe('WRONG_LENGTH');
    expect(codeOf(() => transactionHash(new Uint8Array(176)))).toBe('WRONG_LENGTH');
    expect(codeOf(() => transactionHash('0x00'))).toBe('HEX_PREFIX');
  });
});
