import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { blockHash, encodeBlockHeader, pouRoot, txRoot } from './blockHash.js';
import type { HashedHeader } from './blockHash.js';

// A header whose encoding was written out by hand from the layout table in docs/chain.md (and
// hashed with an independent implementation), so a change to the layout fails here.
const header: HashedHeader = {
  chainId: 1n,
  height: 7n,
  parentHash: 'aa'.repeat(32),
  timestamp: 1_700_000_000_000n,
  proposer: '11'.repeat(32),
  transactions: [{ hash: 'bb'.repeat(32) }, { hash: 'cc'.repeat(32) }],
  stateRoot: 'dd'.repeat(32),
  pou: { ['22'.repeat(32)]: 5n, ['11'.repeat(32)]: 300n }, // deliberately not in id order
};

const TX_ROOT = '2f38487c3a96e7dacfa7044f64eee8c9cb84edcf97ba862e4d629c4494ffa9bf';
const POU_ROOT = '07dc129699aa200380a5c1dfe53b862150417918573a957389c56c7db49033ee';
const ENCODING = [
  '636861696e7270632f626c6f636b2f7631', // "chainrpc/block/v1"
  '00',
  '0000000000000001', // chain_id
  '0000000000000007', // height
  'aa'.repeat(32), // parent_hash
  '0000018bcfe56800', // timestamp 1700000000000
  '11'.repeat(32), // proposer
  '00000002', // tx_count
  TX_ROOT,
  'dd'.repeat(32), // state_root
  POU_ROOT,
].join('');
const HASH = '9d7589aa2219ae879d142bf77246d37d87595aabbf28cb70d0487b6e2869617a';

const sha256 = (hex: string): string => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');

describe('block hash', () => {
  it('matches the hand-computed vector byte for byte', () => {
    expect(Buffer.from(txRoot(['bb'.repeat(32), 'cc'.repeat(32)])).toString('hex')).toBe(TX_ROOT);
    expect(sha256('bb'.repeat(32) + 'cc'.repeat(32))).toBe(TX_ROOT);
    // pou: count u32, then sorted by id: id || score u64.
    expect(sha256('00000002' + '11'.repeat(32) + '000000000000012c' + '22'.repeat(32) + '0000000000000005')).toBe(POU_ROOT);
    expect(Buffer.from(pouRoot(header.pou)).toString('hex')).toBe(POU_ROOT);
    expect(Buffer.from(encodeBlockHeader(header)).toString('hex')).toBe(ENCODING);
    expect(ENCODING.length / 2).toBe(206);
    expect(sha256(ENCODING)).toBe(HASH);
    expect(blockHash(header)).toBe(HASH);
  });

  it('empty transaction list and empty pou hash the empty input and a zero count', () => {
    expect(Buffer.from(txRoot([])).toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(Buffer.from(pouRoot({})).toString('hex')).toBe(sha256('00000000'));
  });

  it('every field changes the hash', () => {
    const variants: HashedHeader[] = [
      { ...header, chainId: 2n },
      { ...header, height: 8n },
      { ...header, parentHash: 'ab'.repeat(32) },
      { ...header, timestamp: header.timestamp + 1n },
      { ...header, proposer: '12'.repeat(32) },
      { ...header, transactions: [{ hash: 'cc'.repeat(32) }, { hash: 'bb'.repeat(32) }] },
      { ...header, transactions: [{ hash: 'bb'.repeat(32) }] },
      { ...header, stateRoot: 'de'.repeat(32) },
      { ...header, pou: { ...header.pou, ['22'.repeat(32)]: 6n } },
      { ...header, pou: {} },
    ];
    const hashes = new Set(variants.map(blockHash));
    expect(hashes.size).toBe(variants.length);
    expect(hashes.has(HASH)).toBe(false);
  });

  it('refuses out-of-range fields instead of truncating them', () => {
    expect(() => blockHash({ ...header, height: 2n ** 64n })).toThrow(RangeError);
    expect(() => blockHash({ ...header, parentHash: 'AA'.repeat(32) })).toThrow(TypeError);
    expect(() => blockHash({ ...header, pou: { short: 1n } })).toThrow(TypeError);
  });
});
