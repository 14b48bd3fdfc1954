import { hexToFixedBytes } from '../core/codec/index.js';
import type { CheckContext } from './CheckContext.js';

export interface Account {
  privateKey: Uint8Array;
  address: string;
}

/** 10^15 base units: the spec's example fee, 0.001 of a token unit. */
export const FEE = 10n ** 15n;

/** Reads an account through the profile's names; fails the check when the answer is not one. */
export async function readAccount(ctx: CheckContext, address: string, node = ctx.node): Promise<{ balance: bigint; nonce: bigint }> {
  const result = await ctx.result('chain_getAccount', [address], node);
  const balance = ctx.field(result, 'balance');
  const nonce = ctx.field(result, 'nonce');
  ctx.expect(typeof balance === 'string' && /^[0-9]+$/.test(balance), 'chain_getAccount: balance is not a decimal string', 'decimal string', balance);
  ctx.expect((typeof nonce === 'number' && Number.isInteger(nonce) && nonce >= 0) || typeof nonce === 'bigint', 'chain_getAccount: nonce is not an unsigned integer', 'unsigned integer', nonce);
  return { balance: BigInt(balance), nonce: BigInt(nonce) };
}

/**
 * Funds fresh keys for the state flows, one per flow so flows never share a nonce: from the faucet
 * (chain_faucetClaim) or, where the network has none, by transfers from the profile's funded key.
 */
export class Wallet {
  private masterNonce: bigint | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly node: string) {}

  /** A fresh key holding at least `min` base units (waits for the funding to be included). */
  async fund(ctx: CheckContext, min = 10n * FEE): Promise<Account> {
    const key = ctx.profile.codec.newKey();
    const account = { privateKey: key.privateKey, address: key.address };
    if (ctx.profile.privateKey !== undefined) {
      await this.fromMaster(ctx, account.address, min);
    } else if (ctx.profile.faucet) {
      const claim = await ctx.call('chain_faucetClaim', [account.address], this.node);
      if (!claim.ok) ctx.fail(`funding a fresh key: chain_faucetClaim answered error ${claim.error.code} (${claim.error.message})`, 'a faucet transfer', JSON.stringify(claim.error.code));
    } else {
      ctx.skip('the network has no faucet and no funded key was given (--private-key)');
    }
    await ctx.waitFor(`funds for ${account.address.slice(0, 12)}…`, async () => {
      const { balance } = await readAccount(ctx, account.address, this.node);
      return balance >= min ? true : undefined;
    });
    return account;
  }

  /** Transfers from the funded key, one at a time so its nonces stay in order. */
  private fromMaster(ctx: CheckContext, to: string, amount: bigint): Promise<void> {
    const run = this.queue.then(async () => {
      const master = hexToFixedBytes(ctx.profile.privateKey ?? '', 32, 'funded private key');
      const from = ctx.profile.codec.addressOf(master);
      if (this.masterNonce === undefined) this.masterNonce = (await readAccount(ctx, from, this.node)).nonce;
      const tx = ctx.profile.codec.sign(master, { chainId: await ctx.chainId(this.node), to, value: amount, nonce: this.masterNonce, fee: FEE });
      const sent = await ctx.call('chain_sendRawTransaction', [tx.wire], this.node);
      if (!sent.ok) {
        this.masterNonce = undefined; // re-read next time
        ctx.fail(`funding from --private-key ${from.slice(0, 12)}…: the node refused the transfer with ${sent.error.code} (${sent.error.message})`);
      }
      this.masterNonce++;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
