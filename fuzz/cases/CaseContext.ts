/**
 * What case generation needs to know, filled by the runner: the node's profile, what the live chain looks like
 * (heights, known addresses, chain id), the `--only` restriction and the node's limits. A case is a pure function
 * of (seed, index, this context): the same three give the same bytes.
 */
import { METHOD_NAMES } from '../../core/schema/types.generated.js';
import type { Profile } from '../../profile/Profile.js';
import { CASE_FAMILIES } from '../model.js';

export interface CaseContext {
  profile: Profile;
  /** The live chain, read by the runner before the run and refreshed now and then. */
  chain: {
    height: bigint;
    genesisHeight: number;
    /** Addresses the chain knows (proposers, funded accounts); may be empty. */
    addresses: string[];
    chainId: bigint;
  };
  /** Spec method names (e.g. 'chain_getAccount') and/or families ('valid', 'invalid-params', 'envelope', 'http') to restrict to; empty: all. */
  only: readonly string[];
  /** Bodies are kept under this many bytes (the profile's maxBodyBytes if known, else 1 MiB). */
  maxBodyBytes: number;
  /** The node's batch limit if known. */
  maxBatch?: number;
}

/** The body cap when the profile states none. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The batch size assumed when the profile states no limit: an over-limit batch then has this many elements plus one. */
export const DEFAULT_MAX_BATCH = 1000;

/** A context from a profile and what the runner read of the chain: limits from the profile, defaults where it names none. */
export function makeCaseContext(profile: Profile, chain: CaseContext['chain'], only: readonly string[] = []): CaseContext {
  return {
    profile,
    chain,
    only,
    maxBodyBytes: profile.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    ...(profile.maxBatch === undefined ? {} : { maxBatch: profile.maxBatch }),
  };
}

/** The names in `only` that are neither a family nor a method (what `--only` should refuse). */
export function unknownOnly(only: readonly string[]): string[] {
  const known = new Set<string>([...CASE_FAMILIES, ...METHOD_NAMES]);
  return only.filter((name) => !known.has(name));
}
