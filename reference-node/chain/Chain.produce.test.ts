import { afterEach, describe, expect, it } from 'vitest';
import { createTransactionSigner, generateKeypair } from '../../core/codec/index.js';
import type { ChainStore } from './ChainStore.js';
import { Chain } from './Chain.js';
import { ChainError } from './ChainError.js';
import { devnetFaucetKeypair } from './genesis.js';
import { alice, bob, errorName, FEE, nodeA, nodeB, closeTestChains, openTestChain, produce, tempDir, testGenesis, TOKEN, transfer } from '../../test/support/chain.js';
import { toRpcBlock } from './toRpcBlock.js';

afterEach(closeTestChains);

describe('producing blocks', () => {
  it('empty blocks link to their parent, heights rise, timestamps never go back', async () => {
    const chain = await openTestChain();
    const genesis = chain.tip();
    const b1 = await chain.produceBlock({ proposer: nodeA.id, sign: nodeA.sign, timestamp: 5_000n, pou: { [nodeA.id]: 3n } });
    const b2 = await chain.produceBlock({ proposer: nodeA.id, sign: nodeA.sign, timestamp: 4_000n, pou: {} });
    expect(b1).toMatchObject({ height: 1n, parentHash: genesis.hash, timestamp: 5_000n, proposer: nodeA.id, transactions: [], pou: { [nodeA.id]: 3n } });
    expect(b2).toMatchObject({ height: 2n, parentHash: b1.hash, timestamp: 5_000n });
    expect(chain.height()).toBe(2n);
    expect(chain.tip()).toBe(b2);
    expect(chain.getBlock(1n)).toEqual(b1);
    expect(chain.getBlock(3n)).toBeUndefined();
    expect(chain.blocksFrom(1n, 10).map((b) => b.height)).toEqual([1n, 2n]);
    expect(chain.stateRoot()).toBe(b2.stateRoot);
  });

  it('a draft (draftBlock) changes nothing until commitDraft; a draft the chain moved past is stale, one it holds already is held', async () => {
    const chain = await openTestChain();
    const other = await openTestChain();
    const tx = transfer(alice, bob.address, 5n * TOKEN, 0n);
    await chain.submit(tx.wire, 'client');
    const draft = await chain.draftBlock({ proposer: nodeA.id, sign: nodeA.sign, timestamp: 5_000n, pou: {} });
    expect(draft.block).toMatchObject({ height: 1n, transactions: [{ hash: tx.hash }] });
    // Nothing visible yet: the tip, the state, the pending transaction.
    expect(chain.height()).toBe(0n);
    expect(chain.getAccount(bob.address).balance).toBe(0n);
    expect(chain.pendingCount()).toBe(1);
    expect(await chain.commitDraft(draft)).toBe('committed');
    expect(chain.tip()).toEqual(draft.block);
    expect(chain.getAccount(bob.address).balance).toBe(5n * TOKEN);
    expect(chain.pendingCount()).toBe(0);
    // Committed once: the same draft again is the chain's own block.
    expect(await chain.commitDraft(draft)).toBe('held');
    // A peer's chain took the draft by import (as a member does when it is proposed to): the proposer's own draft of it is held there.
    expect(await other.importBlock(draft.block)).toBe('imported');
    expect(await other.commitDraft(draft)).toBe('held');
    // A draft whose tip moved on to another block is dropped, its transactions still pending.
    const late = transfer(alice, bob.address, 1n, 1n);
    await other.submit(late.wire, 'client');
    const stale = await other.draftBlock({ proposer: nodeA.id, sign: nodeA.sign, timestamp: 6_000n, pou: {} });
    const winner = await chain.produceBlock({ proposer: nodeB.id, sign: nodeB.sign, timestamp: 6_500n, pou: {} });
    expect(await other.importBlock(winner)).toBe('imported');
    expect(await other.commitDraft(stale)).toBe('stale');
    expect(other.tip().hash).toBe(winner.hash);
    expect(other.pendingCount()).toBe(1);
  });

  it('dropPending empties the mempool and says what it dropped; the senders can send again from the chain nonce', async () => {
    const chain = await openTestChain();
    const first = transfer(alice, bob.address, 1n, 0n);
    const second = transfer(alice, bob.address, 1n, 1n);
    await chain.submit(first.wire, 'client');
    await chain.submit(second.wire, 'client');
    // A relayed transaction ahead of its predecessor is held: dropped too.
    const ahead = transfer(bob, alice.address, 1n, 3n);
    await chain.submit(ahead.wire, 'relay');
    expect(chain.heldCount()).toBe(1);
    expect(await chain.dropPending()).toEqual([first.hash, second.hash, ahead.hash]);
    expect([chain.pendingCount(), chain.heldCount()]).toEqual([0, 0]);
    expect(chain.pendingNonce(alice.address)).toBe(0n);
    expect((await produce(chain)).transactions).toEqual([]);
    await chain.submit(first.wire, 'client');
    expect((await produce(chain)).transactions.map((t) => t.hash)).toEqual([first.hash]);
  });

  it('refuses a sign function that does not sign for the proposer', async () => {
    const chain = await openTestChain();
    await expect(chain.produceBlock({ proposer: nodeA.id, sign: nodeB.sign, timestamp: 1n, pou: {} })).rejects.toThrow(/does not sign for proposer/);
    await expect(chain.produceBlock({ proposer: 'AB', sign: nodeA.sign, timestamp: 1n, pou: {} })).rejects.toThrow(TypeError);
    expect(chain.height()).toBe(0n);
  });

  it('fees go to the proposer; value to the recipient; the supply is conserved', async () => {
    const chain = await openTestChain();
    const supply = chain.totalSupply();
    expect(supply).toBe(chain.genesisSupply);
    await chain.submit(transfer(alice, bob.address, 5n * TOKEN, 0n).wire, 'client');
    await chain.submit(transfer(alice, alice.address, 1n * TOKEN, 1n).wire, 'client'); // to oneself: nets to -fee
    await produce(chain, nodeB);
    expect(chain.getAccount(alice.address)).toEqual({ balance: 1000n * TOKEN - 5n * TOKEN - 2n * FEE, nonce: 2n });
    expect(chain.getAccount(bob.address)).toEqual({ balance: 5n * TOKEN, nonce: 0n });
    expect(chain.getAccount(nodeB.id)).toEqual({ balance: 2n * FEE, nonce: 0n });
    expect(chain.totalSupply()).toBe(supply);
  });

  it('takes at most maxBlockTransactions per block, in arrival order', async () => {
    const chain = await openTestChain({ limits: { maxBlockTransactions: 3 } });
    const txs = Array.from({ length: 7 }, (_, i) => transfer(alice, bob.address, 1n, BigInt(i)));
    for (const tx of txs) await chain.submit(tx.wire, 'client');
    const sizes: number[] = [];
    for (let i = 0; i < 3; i++) sizes.push((await produce(chain)).transactions.length);
    expect(sizes).toEqual([3, 3, 1]);
    expect([1n, 2n, 3n].flatMap((h) => chain.getBlock(h)?.transactions.map((t) => t.hash) ?? [])).toEqual(txs.map((t) => t.hash));
  });

  it('a failed store write changes nothing visible and stops further writes until a restart', async () => {
    const chain = await openTestChain();
    const tx = transfer(alice, bob.address, 1n, 0n);
    await chain.submit(tx.wire, 'client');
    const before = { tip: chain.tip(), root: chain.stateRoot() };
    // Pull the store out from under the chain: the commit's write fails.
    await (chain as unknown as { store: ChainStore }).store.level.close();
    await expect(produce(chain)).rejects.toThrow();
    expect(chain.tip()).toBe(before.tip);
    expect(chain.stateRoot()).toBe(before.root);
    expect(chain.getAccount(alice.address).nonce).toBe(0n);
    expect(chain.pendingCount()).toBe(1);
    await expect(produce(chain)).rejects.toThrow(/restart the node/);
  });

  it('the RPC view is the profile block', async () => {
    const chain = await openTestChain();
    const tx = transfer(alice, bob.address, 1n, 0n);
    await chain.submit(tx.wire, 'client');
    const block = await produce(chain);
    expect(toRpcBlock(block)).toEqual({
      height: 1,
      hash: block.hash,
      parent_hash: chain.getBlock(0n)?.hash,
      timestamp: Number(block.timestamp),
      proposer: nodeA.id,
      transaction_count: 1,
      transactions: [tx.hash],
    });
    expect(toRpcBlock({ ...block, height: 2n ** 60n }).height).toBe(2n ** 60n);
    expect(toRpcBlock(chain.getBlock(0n) ?? block)).toMatchObject({ height: 0, timestamp: 0, proposer: '0'.repeat(64), parent_hash: '0'.repeat(64), transaction_count: 0 });
  });
});

describe('faucet', () => {
  it('a claim is a fee-0 transfer from the faucet, included in a block; then FaucetLimit', async () => {
    const chain = await openTestChain();
    const to = generateKeypair().address;
    const claim = await chain.claimFaucet(to.toUpperCase());
    expect(claim).toMatchObject({ transaction_hash: claim.tx.hash, amount: (10n * TOKEN).toString(), wire: claim.tx.wire });
    expect(claim.tx).toMatchObject({ sender: devnetFaucetKeypair().address, to, value: 10n * TOKEN, fee: 0n, nonce: 0n });
    // Pending claims count against the limit.
    const pending = await chain.claimFaucet(to).catch((e: unknown) => e);
    expect(pending).toBeInstanceOf(ChainError);
    expect((pending as ChainError).name).toBe('FaucetLimit');
    expect((pending as ChainError).data).toMatchObject({ address: to, limit: 1 });
    const block = await produce(chain);
    expect(block.transactions.map((t) => t.hash)).toEqual([claim.transaction_hash]);
    expect(chain.getAccount(to)).toEqual({ balance: 10n * TOKEN, nonce: 0n });
    expect(chain.faucetClaims(to)).toBe(1n);
    expect(await errorName(chain.claimFaucet(to))).toBe('FaucetLimit');
    // Another address, and one with a higher limit, can claim; the faucet's nonce advances.
    const other = await chain.claimFaucet(generateKeypair().address);
    expect(other.tx.nonce).toBe(1n);
    const again = await chain.claimFaucet(to, { limit: 2 });
    expect(again.tx.nonce).toBe(2n);
    await produce(chain);
    expect(chain.faucetClaims(to)).toBe(2n);
    expect(chain.totalSupply()).toBe(chain.genesisSupply);
  });

  it('a transfer from the faucet made elsewhere counts as a claim too (consensus rule, not node setting)', async () => {
    const chain = await openTestChain();
    const to = generateKeypair().address;
    const faucet = createTransactionSigner(devnetFaucetKeypair().privateKey);
    await chain.submit(faucet.sign({ chainId: 7n, to, value: 1n, nonce: 0n, fee: 0n }).wire, 'relay');
    expect(await errorName(chain.claimFaucet(to))).toBe('FaucetLimit');
  });

  it('FaucetUnavailable without a key, or when the faucet cannot pay', async () => {
    const noKey = await Chain.open({ dataDir: tempDir(), genesis: testGenesis() });
    const error = await noKey.claimFaucet(bob.address).catch((e: unknown) => e);
    await noKey.close();
    expect(error).toBeInstanceOf(ChainError);
    expect((error as ChainError).name).toBe('FaucetUnavailable');
    expect((error as ChainError).data.reason).toMatch(/no faucet/);
    const poor = await openTestChain({ faucet: { keypair: devnetFaucetKeypair(), amount: 2_000_000n * TOKEN } });
    const broke = await poor.claimFaucet(bob.address).catch((e: unknown) => e);
    expect((broke as ChainError).name).toBe('FaucetUnavailable');
    expect((broke as ChainError).data.reason).toMatch(/left/);
  });

  it('a faucet key that is not the genesis faucet is a configuration error', async () => {
    await expect(Chain.open({ dataDir: tempDir(), genesis: testGenesis(), faucet: { keypair: generateKeypair() } })).rejects.toThrow(/genesis faucet/);
  });
});
