import { accountEntry, faucetEntry, isEmptyAccount, replaceEntry, stateRootHex } from './stateRoot.js';
import type { Account } from './types.js';

export const EMPTY_ACCOUNT: Account = Object.freeze({ balance: 0n, nonce: 0n });

/** Read access to a state: the confirmed one or a draft on top of it. */
export interface StateReader {
  getAccount(address: string): Account;
  faucetCount(address: string): bigint;
  /** The state root as a number (sum mod 2^256). */
  readonly root: bigint;
}

/** What a block changed: the new value of every touched entry (empty account / zero count = delete). */
export interface StateChanges {
  readonly accounts: ReadonlyMap<string, Account>;
  readonly faucetCounts: ReadonlyMap<string, bigint>;
  readonly root: bigint;
}

/**
 * The confirmed state, all in memory: accounts and faucet claim counts, plus the incrementally
 * maintained state root. Only ever changed by applyChanges, after the store has made them durable.
 */
export class WorldState implements StateReader {
  private readonly accounts = new Map<string, Account>();
  private readonly faucet = new Map<string, bigint>();
  private rootValue = 0n;

  get root(): bigint {
    return this.rootValue;
  }

  get stateRoot(): string {
    return stateRootHex(this.rootValue);
  }

  getAccount(address: string): Account {
    return this.accounts.get(address) ?? EMPTY_ACCOUNT;
  }

  faucetCount(address: string): bigint {
    return this.faucet.get(address) ?? 0n;
  }

  /** A working copy for executing a block; the confirmed state is untouched until applyChanges. */
  draft(): StateDraft {
    return new StateDraft(this);
  }

  /** Load one entry (open time); updates the root. */
  setAccount(address: string, account: Account): void {
    this.rootValue = replaceEntry(this.rootValue, accountEntry(address, this.getAccount(address)), accountEntry(address, account));
    if (isEmptyAccount(account)) this.accounts.delete(address);
    else this.accounts.set(address, account);
  }

  setFaucetCount(address: string, count: bigint): void {
    this.rootValue = replaceEntry(this.rootValue, faucetEntry(address, this.faucetCount(address)), faucetEntry(address, count));
    if (count === 0n) this.faucet.delete(address);
    else this.faucet.set(address, count);
  }

  applyChanges(changes: StateChanges): void {
    for (const [address, account] of changes.accounts) this.setAccount(address, account);
    for (const [address, count] of changes.faucetCounts) this.setFaucetCount(address, count);
    if (this.rootValue !== changes.root) {
      // Cannot happen unless the draft was built on another state: a bug, never a data problem.
      throw new Error(`state root after applying changes is ${stateRootHex(this.rootValue)}, draft said ${stateRootHex(changes.root)}`);
    }
  }

  accountEntries(): IterableIterator<[string, Account]> {
    return this.accounts.entries();
  }

  faucetEntries(): IterableIterator<[string, bigint]> {
    return this.faucet.entries();
  }

  get accountCount(): number {
    return this.accounts.size;
  }

  /** Sum of all balances. Fees go to proposers, so this stays equal to the genesis allocation. */
  totalSupply(): bigint {
    let total = 0n;
    for (const account of this.accounts.values()) total += account.balance;
    return total;
  }
}

/**
 * Copy-on-write overlay over a state; records what changed. Its root is computed when read, from the entries
 * changed since the base (each touched entry hashed twice, whatever the number of times it changed: a block
 * crediting one account a thousand times hashes it twice, not two thousand times), and kept until the next change.
 */
export class StateDraft implements StateReader {
  private readonly accounts = new Map<string, Account>();
  private readonly faucet = new Map<string, bigint>();
  private rootValue: bigint | undefined;

  constructor(private readonly base: StateReader) {
    this.rootValue = base.root;
  }

  get root(): bigint {
    this.rootValue ??= this.computeRoot();
    return this.rootValue;
  }

  getAccount(address: string): Account {
    return this.accounts.get(address) ?? this.base.getAccount(address);
  }

  faucetCount(address: string): bigint {
    return this.faucet.get(address) ?? this.base.faucetCount(address);
  }

  setAccount(address: string, account: Account): void {
    this.accounts.set(address, account);
    this.rootValue = undefined;
  }

  setFaucetCount(address: string, count: bigint): void {
    this.faucet.set(address, count);
    this.rootValue = undefined;
  }

  changes(): StateChanges {
    return { accounts: this.accounts, faucetCounts: this.faucet, root: this.root };
  }

  /** The base's root, each changed entry's base value taken out and its value here put in. */
  private computeRoot(): bigint {
    let root = this.base.root;
    for (const [address, account] of this.accounts) root = replaceEntry(root, accountEntry(address, this.base.getAccount(address)), accountEntry(address, account));
    for (const [address, count] of this.faucet) root = replaceEntry(root, faucetEntry(address, this.base.faucetCount(address)), faucetEntry(address, count));
    return root;
  }
}
