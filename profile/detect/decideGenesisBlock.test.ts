import { describe, expect, it } from 'vitest';
import { decideGenesisBlock, genesisHashForm, genesisTimeForm } from './decideGenesisBlock.js';

const ZEROS = '0'.repeat(64);

describe('genesisHashForm and genesisTimeForm', () => {
  it('read each form the genesis block can take', () => {
    expect([ZEROS, 'ab'.repeat(32), '', null, undefined, `0x${ZEROS}`].map(genesisHashForm)).toEqual(['zeros', 'any', 'empty', 'null', 'absent', 'any']);
    expect([0, '0x0', '1970-01-01T00:00:00Z', 1_795_262_400_000, '0x1', null, undefined].map(genesisTimeForm)).toEqual(['zero', 'zero', 'zero', 'any', 'any', 'null', 'absent']);
  });
});

describe('decideGenesisBlock', () => {
  it('the reference genesis block: zeros, zeros, zero', () => {
    const f = decideGenesisBlock({ height: 0, parent_hash: ZEROS, proposer: ZEROS, timestamp: 0 }, 'genesis block 0');
    expect([f.value, f.confidence]).toEqual([{ parent_hash: 'zeros', proposer: 'zeros', timestamp: 'zero' }, 'high']);
  });

  it('an empty parent hash, under a key of another spelling, is written as what was seen', () => {
    const f = decideGenesisBlock({ height: 1, parentHash: '', proposer: ZEROS, time: 0 }, 'genesis block 1');
    expect(f.value).toEqual({ parent_hash: 'empty', proposer: 'zeros', timestamp: 'zero' });
    expect(f.evidence).toBe(`genesis block 1: parent_hash "" (empty), proposer "00000000…" (zeros), timestamp 0 (zero)`);
  });

  it('a parent hash of 0x and 64 zeros (hashPrefix 0x) is zeros; a proposer so written is not (identifiers carry no prefix)', () => {
    expect(decideGenesisBlock({ parent_hash: `0x${ZEROS}`, proposer: `0x${ZEROS}`, timestamp: 0 }, 'g').value).toEqual({ parent_hash: 'zeros', proposer: 'any', timestamp: 'zero' });
  });

  it('null, absent and other values', () => {
    expect(decideGenesisBlock({ parent_hash: null, timestamp: 1_795_262_400_000 }, 'g').value).toEqual({ parent_hash: 'null', proposer: 'absent', timestamp: 'any' });
  });

  it('no genesis block read: the reference forms, low', () => {
    const f = decideGenesisBlock(null, 'g');
    expect([f.value, f.basis]).toEqual([{ parent_hash: 'zeros', proposer: 'zeros', timestamp: 'zero' }, 'default']);
  });
});
