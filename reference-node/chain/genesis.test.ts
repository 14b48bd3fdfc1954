import { describe, expect, it } from 'vitest';
import { keypairFromSeed } from '../../core/codec/index.js';
import { DEVNET_FAUCET_BALANCE, devnetFaucetKeypair, devnetGenesis, genesisBlock, resolveGenesis } from './genesis.js';
import { computeStateRoot, stateRootHex } from './stateRoot.js';

describe('genesis', () => {
  it('the devnet faucet is the seed key "chainrpc-devnet-faucet" holding 10^9 tokens', () => {
    expect(devnetFaucetKeypair().address).toBe(keypairFromSeed('chainrpc-devnet-faucet').address);
    expect(DEVNET_FAUCET_BALANCE).toBe(10n ** 27n);
    expect(devnetGenesis(1n)).toEqual({
      chainId: 1n,
      alloc: [{ address: devnetFaucetKeypair().address, balance: 10n ** 27n }],
      faucetAddress: devnetFaucetKeypair().address,
    });
  });

  it('block 0 is deterministic and has the profile genesis fields', () => {
    const a = genesisBlock(devnetGenesis(1n));
    const b = genesisBlock(devnetGenesis(1n));
    expect(a).toEqual(b);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a).toMatchObject({
      chainId: 1n,
      height: 0n,
      parentHash: '0'.repeat(64),
      timestamp: 0n,
      proposer: '0'.repeat(64),
      transactions: [],
      pou: {},
      signature: '0'.repeat(128),
    });
    const faucet = devnetFaucetKeypair().address;
    expect(a.stateRoot).toBe(stateRootHex(computeStateRoot([[faucet, { balance: 10n ** 27n, nonce: 0n }]], [])));
  });

  it('the devnet genesis of chain 1 is pinned (a change to the hash or state-root encoding shows here)', () => {
    const block = genesisBlock(devnetGenesis(1n));
    expect(devnetFaucetKeypair().address).toBe('85c01c90ed55584aa84c11c3ef129c807802434fc7680c7cdc0e29d35295f79f');
    expect(block.stateRoot).toBe('62cbefa7ed6a445393feca060f1670bb187139f9386e91c7af5d661b8c9c0e63');
    expect(block.hash).toBe('909551dd66520531bd86ec0e18e7de1c701013130029319bd86c9b1d4fac30db');
  });

  it('chain id and allocation change the genesis hash; alloc order does not', () => {
    const base = genesisBlock(devnetGenesis(1n)).hash;
    expect(genesisBlock(devnetGenesis(2n)).hash).not.toBe(base);
    const x = '01'.repeat(32);
    const y = '02'.repeat(32);
    const one = genesisBlock({ chainId: 1n, alloc: [{ address: x, balance: 5n }, { address: y, balance: 6n }] });
    const two = genesisBlock({ chainId: 1n, alloc: [{ address: y, balance: 6n }, { address: x.toUpperCase(), balance: 5n }] });
    expect(one.hash).toBe(two.hash);
    expect(genesisBlock({ chainId: 1n, alloc: [{ address: x, balance: 5n }] }).hash).not.toBe(one.hash);
  });

  it('refuses a bad config', () => {
    expect(() => resolveGenesis({ chainId: -1n, alloc: [] })).toThrow(/chainId/);
    expect(() => resolveGenesis({ chainId: 1n, alloc: [{ address: 'xyz', balance: 1n }] })).toThrow(/alloc\[0\]/);
    expect(() => resolveGenesis({ chainId: 1n, alloc: [{ address: '01'.repeat(32), balance: 2n ** 128n }] })).toThrow(/u128/);
    expect(() => resolveGenesis({ chainId: 1n, alloc: [{ address: '01'.repeat(32), balance: 1n }, { address: '01'.repeat(32), balance: 1n }] })).toThrow(/twice/);
    expect(() =>
      resolveGenesis({ chainId: 1n, alloc: [{ address: '01'.repeat(32), balance: 2n ** 127n }, { address: '02'.repeat(32), balance: 2n ** 127n }] }),
    ).toThrow(/totals/);
    expect(resolveGenesis(devnetGenesis(3n)).totalSupply).toBe(10n ** 27n);
  });
});
