import { hexToFixedBytes } from '../core/codec/index.js';
import type { JsonValue } from '../core/json/index.js';
import type { CheckContext } from './CheckContext.js';
import { CheckError } from './checkOutcomes.js';
import { asInteger } from '../profile/readWire.js';

/** How a check that needs funds says it was skipped, for want of any (runner/runHints.ts reads it). */
export const NO_FUNDS = 'the network has no faucet and no funded key was given';

export interface Account {
  privateKey: Uint8Array;
  address: string;
}

/** 10^15 base units: the spec's example fee, 0.001 of a token unit (the reference profile's `fee`). */
export const FEE = 10n ** 15n;

const short = (address: string): string => `${address.slice(0, 12)}…`;

/**
 * Reads an account the check needs to exist (funded, or one that has sent): an error or a value that
 * is not an account fails the check (ctx.result). Its balance and nonce are read in any writing; one that
 * cannot be read at all ends the check in error.
 */
export async function readAccount(ctx: CheckContext, address: string, node = ctx.node): Promise<{ balance: bigint; nonce: bigint }> {
  const result = await ctx.result('chain_getAccount', [address], node);
  const balance = anyInteger(ctx.field(result, 'balance'));
  const nonce = anyInteger(ctx.field(result, 'nonce'));
  // The form of both is chain_getAccount's own checks' to judge (balance-is-u128-string, nonce-is-unsigned-integer):
  // a check that reads an account to judge something else reads them in any writing, and one it cannot read at
  // all leaves it without a verdict (an outside tester's node with a balance as a JSON number had fourteen state
  // checks fail, "bad signature rejected" among them, on a node that refused bad signatures).
  if (balance === undefined || nonce === undefined) {
    const unread = [...(balance === undefined ? ['balance'] : []), ...(nonce === undefined ? ['nonce'] : [])].join(' and ');
    throw new CheckError(`setup: chain_getAccount's ${unread} cannot be read as an integer in any writing (${JSON.stringify(result)?.slice(0, 200) ?? ''}); chain_getAccount's own checks judge its form`);
  }
  return { balance, nonce };
}

/** An unsigned integer in any of the usual writings: a decimal string, a JSON number, a hex quantity. */
function anyInteger(value: JsonValue | undefined): bigint | undefined {
  return typeof value === 'string' && /^[0-9]+$/.test(value) ? BigInt(value) : asInteger(value);
}

/**
 * Reads an account while waiting for it: an address the node has not seen yet may be answered with an
 * error or null (the spec leaves unknown accounts unshown), which is "not yet" (undefined), not a
 * failure. Values are read in any encoding (a balance as a number too): waiting is not judging, and a
 * check that judges an encoding must get to judge it rather than time out in its setup.
 */
export async function pollAccount(ctx: CheckContext, address: string, node = ctx.node): Promise<{ balance: bigint; nonce: bigint | undefined } | undefined> {
  const r = await ctx.call('chain_getAccount', [address], node);
  if (!r.ok || r.result === null) return undefined;
  const balance = anyInteger(ctx.field(r.result, 'balance'));
  return balance === undefined ? undefined : { balance, nonce: anyInteger(ctx.field(r.result, 'nonce')) };
}

/**
 * Funds fresh keys for the state flows, one per flow so flows never share a nonce: from the faucet
 * (chain_faucetClaim) or, where the network has none, by transfers from the profile's funded key. A
 * key that cannot be funded ends the check in error (no verdict), never in failure: the check could
 * not get to the behaviour it judges.
 */
export class Wallet {
  private masterNonce: bigint | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private sampled: Promise<string> | undefined;

  constructor(readonly node: string) {}

  /**
   * The address of an account that exists because the suite funded it, for checks that only read an
   * account (the spec does not show what an unknown one gets): the funded key's own with --private-key,
   * else one faucet-funded key, shared by every such check on this node in a run.
   */
  sample(ctx: CheckContext): Promise<string> {
    if (ctx.profile.privateKey !== undefined) return Promise.resolve(ctx.profile.codec.addressOf(hexToFixedBytes(ctx.profile.privateKey, 32, 'funded private key')));
    if (this.sampled === undefined) {
      const p = this.fund(ctx, 1n).then((a) => a.address);
      this.sampled = p;
      // A funding that went wrong is tried again by the next check that asks.
      p.catch(() => {
        if (this.sampled === p) this.sampled = undefined;
      });
    }
    return this.sampled;
  }

  /** A fresh key holding at least `min` base units (waits for the funding to be included). */
  async fund(ctx: CheckContext, min = 10n * ctx.profile.fee): Promise<Account> {
    const key = ctx.profile.codec.newKey();
    const account = { privateKey: key.privateKey, address: key.address };
    if (ctx.profile.privateKey !== undefined) {
      await this.fromMaster(ctx, account.address, min);
    } else if (ctx.profile.faucet) {
      const claim = await ctx.call('chain_faucetClaim', [account.address], this.node);
      if (!claim.ok) {
        throw new CheckError(
          `setup: funding a fresh key failed: ${ctx.method('chain_faucetClaim')} answered ${claim.error.code} (${claim.error.message})${claim.error.code === -32601 ? '; the node has no faucet under that name (set faucet: false and give --private-key, or name the method in a profile)' : ''}`,
        );
      }
    } else {
      ctx.skip(`${NO_FUNDS} (--private-key)`);
    }
    await ctx.waitFor(`funds for ${short(account.address)}`, async () => {
      const read = await pollAccount(ctx, account.address, this.node);
      return read !== undefined && read.balance >= min ? true : undefined;
    }, ctx.inclusionTimeoutMs(), { setup: true });
    return account;
  }

  /** Transfers from the funded key, one at a time so its nonces stay in order. */
  private fromMaster(ctx: CheckContext, to: string, amount: bigint): Promise<void> {
    const run = this.queue.then(async () => {
      const master = hexToFixedBytes(ctx.profile.privateKey ?? '', 32, 'funded private key');
      const from = ctx.profile.codec.addressOf(master);
      if (this.masterNonce === undefined) {
        const read = await pollAccount(ctx, from, this.node);
        if (read?.nonce === undefined) throw new CheckError(`setup: the funded key's account ${short(from)} (--private-key) is unknown to the node, or has no readable nonce`);
        this.masterNonce = read.nonce;
      }
      const tx = ctx.profile.codec.sign(master, { chainId: await ctx.chainId(this.node), to, value: amount, nonce: this.masterNonce, fee: ctx.profile.fee });
      const sent = await ctx.call('chain_sendRawTransaction', [tx.wire], this.node);
      if (!sent.ok) {
        this.masterNonce = undefined; // re-read next time
        throw new CheckError(`setup: funding from --private-key ${short(from)} failed: the node refused the transfer with ${sent.error.code} (${sent.error.message})`);
      }
      this.masterNonce++;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
