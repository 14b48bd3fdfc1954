import { referenceProfile } from '../referenceProfile.js';
import type { HashPrefix } from '../Profile.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';

/** A hash as a node may write it: 64 hex characters, with or without a 0x. */
const HASH = /^(0x)?[0-9a-fA-F]{64}$/;

/**
 * hashPrefix: how the hashes in results are written (a block's hash, parent_hash and transactions, the
 * transaction hash chain_sendRawTransaction and chain_faucetClaim answer): all with a 0x, all without, or
 * either. Identifiers and addresses are not hashes (the spec makes them 64 hex) and are not given here.
 */
export function decideHashPrefix(values: readonly unknown[]): Finding {
  const hashes = values.filter((v): v is string => typeof v === 'string' && HASH.test(v));
  const prefixed = hashes.filter((h) => h.startsWith('0x')).length;
  const bare = hashes.length - prefixed;
  const counts = `${hashes.length} hash(es) in results: ${prefixed} with 0x, ${bare} without${prefixed > 0 ? ` (e.g. "${hashes.find((h) => h.startsWith('0x'))?.slice(0, 10)}…")` : ''}`;
  if (hashes.length === 0) return fallback('hashPrefix', referenceProfile().hashPrefix, 'no hash was seen in a result');
  const prefix: HashPrefix = prefixed === 0 ? 'none' : bare === 0 ? '0x' : 'any';
  return probed('hashPrefix', prefix, hashes.length >= 3 || prefix === 'any' ? 'high' : 'medium', counts);
}
