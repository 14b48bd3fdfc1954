/**
 * State root: a multiset checksum, the sum mod 2^256 of SHA-256(entry) over every state entry.
 * Order-independent and updatable in O(1) per change (subtract the old entry, add the new), so a
 * block costs a few hashes per transaction instead of a tree rebuild. It detects corruption and
 * divergence between honest nodes; it is NOT a cryptographic commitment against an adversary
 * (sums of hashes admit crafted collisions, see Wagner's generalized birthday attack).
 *
 * Entries (empty accounts and zero faucet counts are absent, i.e. contribute nothing):
 *   account:      address 32 || balance u128 || nonce u64                      (56 bytes)
 *   faucet count: "faucet" || 0x00 || address 32 || count u64                  (47 bytes)
 * The lengths differ, so an account entry can never hash like a faucet entry.
 */
import { ascii, concatBytes, hex32, sha256, toHex, u128be, u64be } from './bytes.js';
import type { Account } from './types.js';

const MOD = 1n << 256n;
const FAUCET_TAG = concatBytes([ascii('faucet'), new Uint8Array([0])]);

function digestToBigint(digest: Uint8Array): bigint {
  return BigInt(`0x${toHex(digest)}`);
}

export function isEmptyAccount(account: Account): boolean {
  return account.balance === 0n && account.nonce === 0n;
}

/** The entry's contribution to the root (0 for an empty account). */
export function accountEntry(address: string, account: Account): bigint {
  if (isEmptyAccount(account)) return 0n;
  return digestToBigint(sha256(hex32(address, 'address'), u128be(account.balance, 'balance'), u64be(account.nonce, 'nonce')));
}

/** The entry's contribution to the root (0 for a zero count). */
export function faucetEntry(address: string, count: bigint): bigint {
  if (count === 0n) return 0n;
  return digestToBigint(sha256(FAUCET_TAG, hex32(address, 'address'), u64be(count, 'faucet count')));
}

/** root - old + new, mod 2^256. */
export function replaceEntry(root: bigint, oldEntry: bigint, newEntry: bigint): bigint {
  return (((root - oldEntry + newEntry) % MOD) + MOD) % MOD;
}

export function stateRootHex(root: bigint): string {
  return root.toString(16).padStart(64, '0');
}

/** The root of a whole state, from scratch (open-time integrity check, tests). */
export function computeStateRoot(
  accounts: Iterable<readonly [string, Account]>,
  faucetCounts: Iterable<readonly [string, bigint]>,
): bigint {
  let root = 0n;
  for (const [address, account] of accounts) root = (root + accountEntry(address, account)) % MOD;
  for (const [address, count] of faucetCounts) root = (root + faucetEntry(address, count)) % MOD;
  return root;
}
