import { describe, expect, it } from 'vitest';
import { decodeTransaction, verifyTransaction } from '../../core/codec/index.js';
import { METHOD_NAMES, METHOD_PARAM_NAMES } from '../../core/schema/types.generated.js';
import { referenceCodec } from '../../profile/referenceCodec.js';
import type { TxCodec } from '../../profile/TxCodec.js';
import { methodSpecs } from './paramSpecs.js';
import { TxPool } from './transactions.js';

describe('TxPool', () => {
  it('signs real transactions for the chain id, by keys drawn from the seed (the same in a new pool)', () => {
    const a = new TxPool(referenceCodec, 77, 9n, 10n ** 15n);
    const b = new TxPool(referenceCodec, 77, 9n, 10n ** 15n);
    for (let i = 0; i < 6; i++) {
      const tx = a.unfunded(i);
      expect(b.unfunded(i)).toEqual(tx);
      const decoded = decodeTransaction(tx.wire);
      expect(decoded.chainId).toBe(9n);
      expect(verifyTransaction(decoded)).toEqual({ ok: true });
    }
    expect(new TxPool(referenceCodec, 78, 9n, 10n ** 15n).unfunded(0).wire).not.toBe(a.unfunded(0).wire);
  });

  it('signs for other chains, and crafts the codec\'s variants', () => {
    const pool = new TxPool(referenceCodec, 5, 9n, 1n);
    for (let i = 0; i < 6; i++) expect(decodeTransaction(pool.wrongChain(i).wire).chainId).not.toBe(9n);
    const crafted = Array.from({ length: 10 }, (_, i) => pool.crafted(i)?.what);
    expect(new Set(crafted).size).toBe(5);
    const bare: TxCodec = { ...referenceCodec };
    delete bare.crafted;
    expect(new TxPool(bare, 5, 9n, 1n).crafted(0)).toBeUndefined();
  });

  it('falls back to the codec\'s fresh keys when it takes no drawn bytes as a key', () => {
    const picky: TxCodec = {
      ...referenceCodec,
      addressOf: () => {
        throw new Error('not a key of mine');
      },
    };
    const pool = new TxPool(picky, 1, 9n, 1n);
    expect(pool.key(0)).toHaveLength(32);
    expect(decodeTransaction(pool.unfunded(0).wire).chainId).toBe(9n);
  });
});

describe('methodSpecs', () => {
  it('reads every method\'s params from its schema, $refs resolved', () => {
    const specs = methodSpecs();
    for (const m of METHOD_NAMES) expect(specs.get(m)?.params.map((p) => p.name), m).toEqual([...METHOD_PARAM_NAMES[m]]);
    expect(specs.get('chain_getAccount')?.params[0]).toMatchObject({ kind: 'address', type: 'string', hexLength: 64, defs: ['Address', 'Hex64'] });
    expect(specs.get('chain_getBlockByHeight')?.params[0]).toMatchObject({ kind: 'height', type: 'integer', minimum: 0n, maximum: 2n ** 64n - 1n });
    expect(specs.get('chain_sendRawTransaction')?.params[0]).toMatchObject({ kind: 'transaction', minLength: 2 });
    expect(specs.get('chain_health')).toMatchObject({ minItems: 0, maxItems: 0, params: [] });
  });
});
