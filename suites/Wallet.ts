import { hexToFixedBytes } from '../core/codec/index.js';
import type { CheckContext } from './CheckContext.js';
import { CheckError } from './checkOutcomes.js';
import { anyInteger } from '../profile/readWire.js';
import type { JsonValue } from '../core/json/index.js';

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
 * An account answered with a balance no writing of an integer reads ("-5", "5.0"): no verdict for a check that
 * needs its funds, but what chain_getAccount's own checks judge (they catch it, and judge `result`).
 */
export class UnreadableAccount extends CheckError {
  constructor(
    message: string,
    readonly address: string,
    readonly result: JsonValue,
  ) {
    super(message);
  }
}

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


/**
 * Reads an account while waiting for it: an address the node has not seen yet may be answered with an
 * error or null, or without a balance (the spec leaves unknown accounts unshown), which is "not yet"
 * (undefined), not a failure. Values are read in any encoding (a balance as a number too): waiting is not
 * judging. A balance that is there but is no integer in any writing ("-5", "5.0") ends the check in error at
 * once: waiting would only time out, and say the funds never came when they did (an outside tester's node).
 */
export async function pollAccount(ctx: CheckContext, address: string, node = ctx.node): Promise<{ balance: bigint; nonce: bigint | undefined } | undefined> {
  const r = await ctx.call('chain_getAccount', [address], node);
  if (!r.ok || r.result === null) return undefined;
  const written = ctx.field(r.result, 'balance');
  if (written === undefined || written === null) return undefined;
  const balance = anyInteger(written);
  if (balance === undefined) throw new UnreadableAccount(`setup: chain_getAccount's balance cannot be read as an integer in any writing (${JSON.stringify(r.result)?.slice(0, 200) ?? ''}); chain_getAccount's own checks judge its form`, address, r.result);
  return { balance, nonce: anyInteger(ctx.field(r.result, 'nonce')) };
}

/**
 * Funds fresh keys for the state flows, one per flow so flows never share a nonce: from the faucet
 * (chain_faucetClaim) or, where the network has none, by transfers from the profile's funded key. A
 * key that cannot be funded ends the check in error (no verdict), never in failure: the check could
 * not get to the behaviour it judges.
 */
/**
 * The funded key's transfers of a run, shared by every node's wallet: one key has one nonce sequence on one
 * network, so its transfers go one at a time, all through one node (the run's first), in nonce order. Each node
 * then waits for the funds to reach it. (A wallet per node with its own nonce sent nonce 0 again on every other
 * node of an outside tester's network: NonceTooLow, and every state check there in error.)
 */
export class Funder {
  masterNonce: bigint | undefined;
  queue: Promise<unknown> = Promise.resolve();

  constructor(readonly node: string) {}
}

export class Wallet {
  private sampled: Promise<string> | undefined;

  /**
   * `funder`: the run's funded-key transfers (one per run); `faucets`: the run's nodes in order, whose faucets a
   * node without one of its own may use (a network whose faucet is on one node only).
   */
  constructor(
    readonly node: string,
    private readonly funder: Funder = new Funder(node),
    private readonly faucets: readonly string[] = [node],
  ) {}

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
      await this.claim(ctx, account.address);
    } else {
      ctx.skip(`${NO_FUNDS} (--private-key)`);
    }
    let balance: bigint | undefined;
    try {
      await ctx.waitFor(`funds for ${short(account.address)}`, async () => {
        const read = await pollAccount(ctx, account.address, this.node);
        balance = read?.balance;
        return read !== undefined && read.balance >= min ? true : undefined;
      }, ctx.inclusionTimeoutMs(), { setup: true });
    } catch (error) {
      // Credited, but less than the checks need (a faucet's amount is its own: the spec does not show claim rules): said
      // as such, not as funds that never came (an outside tester's faucet paying 0.005 token).
      if (error instanceof CheckError && ctx.profile.privateKey === undefined && balance !== undefined && balance > 0n && balance < min) {
        throw new CheckError(`setup: the faucet credited ${short(account.address)} with ${balance} base units, fewer than the ${min} the checks need (ten transfers at the profile's fee of ${ctx.profile.fee}); give --private-key <a funded key> (or a profile whose fee fits the faucet)`);
      }
      throw error;
    }
    return account;
  }

  /**
   * A faucet claim on this node; where this node's faucet does not take it (no faucet, -32601; or a refusal in a code
   * of the node's own, "faucet unavailable") and the run has other nodes, on the first of them whose faucet takes it:
   * the funds then reach this node as the chain does. (An outside tester's network had its faucet on one node and
   * answered -32062 elsewhere: 49 checks lost their verdict when only -32601 sent the claim on.)
   */
  private async claim(ctx: CheckContext, address: string): Promise<void> {
    const refusals: string[] = [];
    for (const node of [this.node, ...this.faucets.filter((n) => n !== this.node)]) {
      const claim = await ctx.call('chain_faucetClaim', [address], node);
      if (claim.ok) return;
      refusals.push(`${node === this.node ? '' : `${node}: `}${ctx.method('chain_faucetClaim')} answered ${claim.error.code} (${claim.error.message})`);
    }
    const none = refusals.length > 0 && refusals.every((r) => r.includes('answered -32601'));
    throw new CheckError(`setup: funding a fresh key failed: ${refusals.join('; ')}${none ? '; no node given has a faucet under that name (set faucet: false and give --private-key, or name the method in a profile)' : ''}`);
  }

  /** Transfers from the funded key: the run's one sequence (Funder), through its node, one at a time so its nonces stay in order. */
  private fromMaster(ctx: CheckContext, to: string, amount: bigint): Promise<void> {
    const funder = this.funder;
    const run = funder.queue.then(async () => {
      const master = hexToFixedBytes(ctx.profile.privateKey ?? '', 32, 'funded private key');
      const from = ctx.profile.codec.addressOf(master);
      if (funder.masterNonce === undefined) {
        const read = await pollAccount(ctx, from, funder.node);
        if (read?.nonce === undefined) throw new CheckError(`setup: the funded key's account ${short(from)} (--private-key) is unknown to ${funder.node}, or has no readable nonce`);
        funder.masterNonce = read.nonce;
      }
      const tx = ctx.profile.codec.sign(master, { chainId: await ctx.chainId(funder.node), to, value: amount, nonce: funder.masterNonce, fee: ctx.profile.fee });
      const sent = await ctx.call('chain_sendRawTransaction', [tx.wire], funder.node);
      if (!sent.ok) {
        funder.masterNonce = undefined; // re-read next time
        throw new CheckError(`setup: funding from --private-key ${short(from)} failed: ${funder.node} refused the transfer with ${sent.error.code} (${sent.error.message})`);
      }
      funder.masterNonce++;
    });
    funder.queue = run.catch(() => undefined);
    return run;
  }
}
