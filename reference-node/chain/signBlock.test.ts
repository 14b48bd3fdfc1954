import { describe, expect, it } from 'vitest';
import { keypairFromSeed, withSPlusL } from '../../core/codec/index.js';
import { blockHash } from './blockHash.js';
import { createBlockSigner, signBlock, verifyBlockSignature } from './signBlock.js';

const node = keypairFromSeed('sign-block-node');
const header = {
  chainId: 1n,
  height: 1n,
  parentHash: '00'.repeat(32),
  timestamp: 5n,
  proposer: node.address,
  transactions: [],
  stateRoot: '00'.repeat(32),
  pou: {},
};
const hash = blockHash(header);

describe('block signatures', () => {
  it('a block signed by its proposer verifies; both signers agree (ed25519 is deterministic)', () => {
    const signature = signBlock(hash, node.privateKey);
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(Buffer.from(createBlockSigner(node.privateKey)(Buffer.from(hash, 'hex'))).toString('hex')).toBe(signature);
    expect(verifyBlockSignature({ proposer: node.address, hash, signature })).toEqual({ ok: true });
  });

  it('refuses another proposer, another hash, a flipped byte, S + L', () => {
    const signature = signBlock(hash, node.privateKey);
    const other = keypairFromSeed('sign-block-other').address;
    expect(verifyBlockSignature({ proposer: other, hash, signature }).ok).toBe(false);
    expect(verifyBlockSignature({ proposer: node.address, hash: 'ff'.repeat(32), signature }).ok).toBe(false);
    const flipped = (signature[0] === '0' ? '1' : '0') + signature.slice(1);
    expect(verifyBlockSignature({ proposer: node.address, hash, signature: flipped }).ok).toBe(false);
    const malleated = Buffer.from(withSPlusL(new Uint8Array(Buffer.from(signature, 'hex')))).toString('hex');
    const result = verifyBlockSignature({ proposer: node.address, hash, signature: malleated });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/NON_CANONICAL_S/);
    expect(verifyBlockSignature({ proposer: node.address, hash, signature: '00'.repeat(64) }).ok).toBe(false);
    expect(verifyBlockSignature({ proposer: node.address, hash, signature: 'zz' }).ok).toBe(false);
  });
});
