/** The chain_sendRawTransaction examples carry real signed transactions: they must say what the codec says. */
import { describe, expect, it } from 'vitest';
import { CodecError, decodeTransaction, verifyTransaction } from '../../core/codec/index.js';
import { validators } from '../../core/schema/validators.js';

const examples = validators().method('chain_sendRawTransaction')?.['x-examples'] ?? [];
const wireOf = (name: string): string => {
  const ex = examples.find((e) => e.name === name);
  if (!ex || typeof ex.params[0] !== 'string') throw new Error(`no example "${name}"`);
  return ex.params[0];
};

describe('chain_sendRawTransaction examples', () => {
  it('the accepted transaction verifies and its hash is the example result', () => {
    const ex = examples.find((e) => e.result !== undefined);
    const tx = decodeTransaction(wireOf(ex?.name ?? ''));
    expect(verifyTransaction(tx)).toEqual({ ok: true });
    expect(tx.hash).toBe(ex?.result);
  });

  it('"nonce already used" is well signed: only the nonce is wrong', () => {
    expect(verifyTransaction(decodeTransaction(wireOf('nonce already used')))).toEqual({ ok: true });
  });

  it('"signature altered" decodes but fails strict verification', () => {
    expect(verifyTransaction(decodeTransaction(wireOf('signature altered'))).ok).toBe(false);
  });

  it('"wrong byte length" and "odd-length hex" do not decode', () => {
    expect(() => decodeTransaction(wireOf('wrong byte length'))).toThrow(CodecError);
    expect(() => decodeTransaction(wireOf('odd-length hex'))).toThrow(/odd length/);
  });
});
