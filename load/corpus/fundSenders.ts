import { setTimeout as delay } from 'node:timers/promises';
import { JsonRpcError } from '../../core/client/index.js';
import type { RpcClient } from '../../core/client/index.js';
import type { JsonValue } from '../../core/json/index.js';
import type { Profile } from '../../profile/Profile.js';
import { errorCode, wireMethod } from '../../profile/Profile.js';
import { asInteger, readField } from '../../profile/readWire.js';
import { parseAccount } from '../inclusion/parseAccount.js';
import type { AccountState } from '../inclusion/parseAccount.js';
import { FundingError } from './CorpusError.js';
import { forEachLimit } from './forEachLimit.js';

/** How senders get their money: faucet claims, transfers from a funded key, or not at all (already funded). */
export type Funding = { kind: 'faucet' } | { kind: 'key'; privateKey: Uint8Array } | { kind: 'none' };

export interface FundSendersOptions {
  client: RpcClient;
  profile: Profile;
  /** The senders' addresses, in lane order. */
  addresses: readonly string[];
  /** Base units each sender must hold: its lane's value + fee, times the lane's length. */
  need: bigint;
  funding: Funding;
  chainId: bigint;
  /** How long to wait for every balance to show. */
  timeoutMs: number;
  /** Calls at once (faucet claims, account reads). */
  concurrency: number;
  /** Called as balances show: senders funded so far, of all. */
  onProgress?: (funded: number, total: number) => void;
  /** Stops the funding at its next step (a claim, a transfer, a wait): rejects with the signal's reason (an AbortError). */
  signal?: AbortSignal;
}

const short = (address: string): string => `${address.slice(0, 12)}…`;
/** Waits `ms`, or rejects at once with the signal's reason when it is aborted. */
const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> => delay(ms, undefined, signal === undefined ? undefined : { signal });

/** Reads an account; an account the node does not know (profile: unknownAccount "error" or "null") is empty. */
export async function readAccountState(client: RpcClient, profile: Profile, address: string): Promise<AccountState> {
  let result: JsonValue;
  try {
    result = await client.call<JsonValue>(wireMethod(profile, 'chain_getAccount'), [address]);
  } catch (err) {
    if (err instanceof JsonRpcError && profile.unknownAccount === 'error' && err.code === errorCode(profile, 'AccountNotFound')) return { balance: 0n, nonce: 0n };
    // Any other refusal stops the senders' setup: said as such, with the account it was reading (an outside tester
    // saw only "chain_getAccount: JSON-RPC error -32005: injected error").
    if (err instanceof JsonRpcError) {
      throw new FundingError(`reading the account of ${short(address)} to fund the senders, ${wireMethod(profile, 'chain_getAccount')} was refused with ${err.code} (${err.rpcMessage}); an account the node does not know is empty only when the profile says so (unknownAccount, and its AccountNotFound code)`, { cause: err });
    }
    throw err;
  }
  if (result === null && profile.unknownAccount === 'null') return { balance: 0n, nonce: 0n };
  const account = parseAccount(profile, result);
  if (account === undefined) {
    throw new FundingError(`${wireMethod(profile, 'chain_getAccount')} for ${short(address)} answered ${JSON.stringify(result, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}, which has no readable balance and nonce; check the profile's field names`);
  }
  return account;
}

/** The faucet's answer: its amount (base units) when the result names one. */
function claimAmount(profile: Profile, result: JsonValue): bigint | undefined {
  const a = readField(profile, result, 'amount');
  return typeof a === 'string' && /^[0-9]+$/.test(a) ? BigInt(a) : asInteger(a);
}

/**
 * Funds every sender holding less than `need` (faucet claims, or transfers from a funded key, in nonce
 * order), then waits until each balance shows. Returns each sender's account once funded (the nonce its
 * lane starts at). Throws FundingError with what to change when the funding cannot be done.
 */
export async function fundSenders(options: FundSendersOptions): Promise<{ accounts: AccountState[]; funded: number }> {
  const { client, profile, addresses, need, funding } = options;
  options.signal?.throwIfAborted();
  const accounts: AccountState[] = new Array<AccountState>(addresses.length);
  await forEachLimit(addresses, options.concurrency, async (address, i) => {
    accounts[i] = await readAccountState(client, profile, address);
  });
  const underfunded = addresses.flatMap((address, i) => ((accounts[i]?.balance ?? 0n) < need ? [{ address, i, deficit: need - (accounts[i]?.balance ?? 0n) }] : []));
  if (underfunded.length > 0) {
    if (funding.kind === 'none') {
      throw new FundingError(`${underfunded.length} of ${addresses.length} senders hold less than the ${need} base units their lane needs, and no funding was asked for; fund them through the faucet or from a funded key`);
    }
    if (funding.kind === 'faucet') await claimAll(options, underfunded);
    else await transferAll(options, funding.privateKey, underfunded);
  }
  // Wait for every balance to show (funding is a transaction, included in a later block).
  const deadline = Date.now() + options.timeoutMs;
  const pollMs = Math.max(50, Math.floor(profile.blockTimeMs / 4));
  let waiting = addresses.map((_, i) => i).filter((i) => (accounts[i]?.balance ?? 0n) < need);
  options.onProgress?.(addresses.length - waiting.length, addresses.length);
  while (waiting.length > 0) {
    if (Date.now() > deadline) {
      const first = waiting[0] ?? 0;
      throw new FundingError(
        `${waiting.length} of ${addresses.length} senders still hold less than ${need} base units after ${options.timeoutMs} ms (sender ${first}, ${short(addresses[first] ?? '')}, holds ${accounts[first]?.balance ?? 0n}); is the chain producing blocks? Raise the funding timeout on a slow network`,
      );
    }
    await sleep(pollMs, options.signal);
    await forEachLimit(waiting, options.concurrency, async (i) => {
      accounts[i] = await readAccountState(client, profile, addresses[i] ?? '');
    });
    waiting = waiting.filter((i) => (accounts[i]?.balance ?? 0n) < need);
    options.onProgress?.(addresses.length - waiting.length, addresses.length);
  }
  return { accounts, funded: underfunded.length };
}

type Deficit = { address: string; i: number; deficit: bigint };

/** Faucet claims: one first (its answer names the amount), then as many per sender as its deficit needs. */
async function claimAll(options: FundSendersOptions, senders: Deficit[]): Promise<void> {
  const { client, profile } = options;
  if (!profile.faucet) throw new FundingError(`the profile "${profile.name}" says the network has no faucet; fund the senders from a funded key instead`);
  const method = wireMethod(profile, 'chain_faucetClaim');
  const claim = async (address: string): Promise<bigint | undefined> => {
    options.signal?.throwIfAborted();
    try {
      return claimAmount(profile, await client.call<JsonValue>(method, [address]));
    } catch (err) {
      if (!(err instanceof JsonRpcError)) throw err;
      const limit = err.code === errorCode(profile, 'FaucetLimit');
      throw new FundingError(
        `the faucet (${method}) refused ${short(address)} with ${err.code} (${err.rpcMessage})${
          limit ? `: this sender has used its claims (a sender made from the same seed was funded before); use another seed, fewer transactions per sender, or fund from a funded key` : ''
        }${err.code === -32601 ? `; the node has no method ${method} (fund from a funded key)` : ''}`,
      );
    }
  };
  const [first, ...rest] = senders;
  if (first === undefined) return;
  const amount = await claim(first.address);
  if (amount === undefined || amount === 0n) {
    // The amount is unknown: one claim each, and the wait that follows says if it was not enough.
    await forEachLimit(rest, options.concurrency, async (s) => void (await claim(s.address)));
    return;
  }
  const claimsFor = (deficit: bigint): number => Number((deficit + amount - 1n) / amount);
  const most = Math.max(...senders.map((s) => claimsFor(s.deficit)));
  if (profile.faucetLimit !== undefined && most > profile.faucetLimit) {
    throw new FundingError(
      `a sender needs ${options.need} base units (its transactions' value + fee); the faucet gives ${amount} a claim and ${profile.faucetLimit} claim(s) an address, at most ${amount * BigInt(profile.faucetLimit)}; use fewer transactions per sender, a smaller fee or value, or fund from a funded key`,
    );
  }
  const claims = senders.flatMap((s) => Array.from({ length: claimsFor(s.deficit) - (s === first ? 1 : 0) }, () => s.address));
  await forEachLimit(claims, options.concurrency, async (address) => void (await claim(address)));
}

/** Transfers from the funded key: one per sender, nonces in order, sent one after another. */
async function transferAll(options: FundSendersOptions, privateKey: Uint8Array, senders: Deficit[]): Promise<void> {
  const { client, profile } = options;
  const from = profile.codec.addressOf(privateKey).toLowerCase();
  const master = await readAccountState(client, profile, from);
  const total = senders.reduce((sum, s) => sum + s.deficit + profile.fee, 0n);
  if (master.balance < total) {
    throw new FundingError(`the funded key's account ${short(from)} holds ${master.balance} base units; funding ${senders.length} senders takes ${total} (their deficits and a fee each); top it up or make a smaller corpus`);
  }
  const method = wireMethod(profile, 'chain_sendRawTransaction');
  let nonce = master.nonce;
  for (const s of senders) {
    options.signal?.throwIfAborted();
    const { wire } = profile.codec.sign(privateKey, { chainId: options.chainId, to: s.address, value: s.deficit, nonce, fee: profile.fee });
    try {
      await client.call(method, [wire]);
    } catch (err) {
      if (!(err instanceof JsonRpcError)) throw err;
      throw new FundingError(`funding ${short(s.address)} from ${short(from)} (nonce ${nonce}): the node refused the transfer with ${err.code} (${err.rpcMessage}); is another client using that key at the same time?`);
    }
    nonce++;
    if (profile.sequentialNonces === 'refused') await waitForNonce(options, from, nonce);
  }
}

/** For networks that take one transaction per sender per block: wait until the key's nonce has moved on. */
async function waitForNonce(options: FundSendersOptions, address: string, nonce: bigint): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while ((await readAccountState(options.client, options.profile, address)).nonce < nonce) {
    if (Date.now() > deadline) throw new FundingError(`the funded key's transfer with nonce ${nonce - 1n} was not included within ${options.timeoutMs} ms`);
    await sleep(Math.max(50, Math.floor(options.profile.blockTimeMs / 4)), options.signal);
  }
}
